import type { Reason } from './reasons';
import type { Unreadable } from './unreadable';
import type { Redirect as RedirectNode, Script } from './syntax/ast';
import { MAX_DEPTH, ParseError, parseScript } from './syntax/parser';
import { walkScript, type FoundCommand } from './syntax/walk';
import { bashOnly } from './syntax/posix';
import type { Word } from './syntax/word';
import { previewLine, previews } from './registry/readers/fzf';
import { AWKS, awkCommandLines } from './registry/readers/awk-program';
import { SEDS, sedCommandLines } from './registry/readers/sed-script';
import { getopt, type Parsed } from './getopt';
import { getoptSpec, namedPrograms } from './read/classify';
import {
  inSystemDirectory,
  READING_OPTION_CLUSTER,
  RUNNER_SUBCOMMANDS,
  SYNCING_RUNNERS,
  SHELL_VALUE_OPTIONS,
  SHELLS,
  SHOPT_KEEPS_READING,
  SOURCES,
} from './programs';
import { peelWrapper, type Peeled } from './read/wrapper';
import { programSpec } from './registry';

/**
 * From parsed simple commands to what actually runs: leading assignments and wrappers (`sudo`,
 * `env`, `timeout`, `xargs`, `find -exec`, …) are peeled off; `bash -c` strings, `eval`, alias and
 * trap bodies and the commands of `watch`, `su -c`, `script -c` are read again as shell code, to a
 * depth bound. What runs code the reader cannot see — a shell reading stdin or a file, `source` —
 * is marked opaque.
 */

export interface Redirect {
  op: string;
  target: Word;
  /** The descriptor written before the operator (`2` in `2<x`), when the line gives one; a here-document's operator and body. */
  node?: { fd: string } & Partial<Pick<RedirectNode, 'op' | 'heredoc'>>;
}

interface ShellParse {
  commands: FoundCommand[];
  functions: string[];
  script?: Script;
  unparsable?: Unreadable;
}

/**
 * Every simple command in `src`, substitutions included, read from its syntax tree. `posix`: the
 * line is run by POSIX sh (`sh -c`, dash, awk's `system()`), so one with a construct only bash has
 * is not read as bash would read it (syntax/posix.ts), naming the program that runs it.
 */
function parseShell(src: string, depth: number, powershell: boolean, posix?: string): ShellParse {
  if (depth > MAX_DEPTH) return { commands: [], functions: [], unparsable: { id: 'nested_deeper_than', subject: String(MAX_DEPTH) } };
  try {
    const script = parseScript(src, depth, { powershell });
    const bashism = posix !== undefined ? bashOnly(script) : null;
    if (bashism !== null) return { commands: [], functions: [], unparsable: { id: 'bash_only_in_sh', subject: bashism, detail: posix } };
    return { ...walkScript(script, depth), script };
  } catch (err) {
    if (err instanceof ParseError) return { commands: [], functions: [], unparsable: err.problem };
    if (err instanceof RangeError) return { commands: [], functions: [], unparsable: { id: 'too_deeply_nested' } };
    throw err;
  }
}

export interface Invocation {
  /** The program (base name of the word as written), '' for a command made only of redirections. */
  name: string;
  /** The program word as written. */
  program: Word | null;
  args: Word[];
  redirects: Redirect[];
  /** Runs only conditionally (after `&&`/`||`, in a condition, loop, case or function body). */
  conditional: boolean;
  /** Arguments are appended at run time (`xargs`, `find -exec … +`). */
  completed: boolean;
  /** Why this invocation runs code the reader cannot see, when it does. */
  opaque?: Reason;
  /** The text its words' spans are offsets in: the line, or the string read again (`bash -c`). */
  source: string;
  /** Assignments that precede it (`FOO=1 cmd`), as written. */
  assignments: string[];
  /** The wrappers it was found inside (`sudo`, `xargs`, …). */
  via: string[];
  /** Found in code read again (`bash -c`, `eval`, an alias or trap body): 0 at the top level. */
  depth: number;
  /** Directories its wrappers run it in (`env -C DIR`, `sudo -D DIR`, `chroot DIR`); null when known only at run time. */
  chdir: (string | null)[];
  /** It calls a function the line defined for sure before it in this shell, with no wrapper (syntax/walk.ts). */
  callsFunction?: boolean;
  /** Part of the command ssh runs on another host: its paths and redirections are that host's. */
  remote?: boolean;
  /** Redirections `exec` makes for the shell itself (`exec < x`): they hold for the rest of it. */
  shellWide?: boolean;
}

export interface ShellReadingRaw {
  invocations: Invocation[];
  /** The trees of the line and of every string read again as shell code. */
  scripts: Script[];
  /** Every string read again as shell code (`bash -c`, `eval`, alias and trap bodies, ssh commands), as it was read. */
  sources: string[];
  functions: string[];
  unparsable?: Unreadable;
}

const isNameStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isNameChar = (c: number) => isNameStart(c) || (c >= 0x30 && c <= 0x39);

/**
 * `/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/`: how long the `NAME=`, `NAME+=` or `NAME[i]=` that
 * starts the text is, with its `=`; -1 when the text does not start with one.
 */
export function assignmentLength(text: string): number {
  if (!isNameStart(text.charCodeAt(0))) return -1;
  let i = 1;
  while (isNameChar(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) === 0x5b) {
    const close = text.indexOf(']', i + 1);
    if (close === -1) return -1;
    i = close + 1;
  }
  if (text.charCodeAt(i) === 0x2b) i++;
  return text.charCodeAt(i) === 0x3d ? i + 1 : -1;
}

/** `NAME=value` with the name and `=` unquoted (the value may be quoted: `A="x y"`). */
function isAssignment(w: Word): boolean {
  const length = assignmentLength(w.text);
  return length !== -1 && (w.quotedAt === undefined || w.quotedAt < 0 || w.quotedAt >= length);
}
/** More simple commands than this in one line (after re-reading nested code): unreadable. */
export const MAX_INVOCATIONS = 4096;

export function baseName(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash === -1 ? program : program.slice(slash + 1);
}

const SSH_VALUE_OPTIONS = new Set([
  '-p',
  '-i',
  '-l',
  '-o',
  '-F',
  '-J',
  '-L',
  '-R',
  '-D',
  '-b',
  '-c',
  '-E',
  '-e',
  '-m',
  '-O',
  '-Q',
  '-S',
  '-w',
  '-W',
  '-B',
  '-I',
]);

/** The command words ssh runs on the remote host, after its options and the host; null when it runs none. */
function sshCommand(args: Word[]): Word[] | null {
  let k = 0;
  while (k < args.length) {
    const t = args[k]!.text;
    if (t === '--') {
      k++;
      break;
    }
    if (!t.startsWith('-')) break;
    k += SSH_VALUE_OPTIONS.has(t) ? 2 : 1;
  }
  const rest = args.slice(k + 1);
  return rest.length > 0 ? rest : null;
}

/** `find … -exec CMD {} \;` and friends: each command it runs, as words. */
function findCommands(args: Word[]): { words: Word[]; completed: boolean }[] {
  const out: { words: Word[]; completed: boolean }[] = [];
  for (let k = 0; k < args.length; k++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[k]!.text)) continue;
    const words: Word[] = [];
    let completed = true;
    for (k++; k < args.length; k++) {
      const t = args[k]!.text;
      if (t === ';' || t === '\\;') {
        completed = false;
        break;
      }
      if (t === '+' && words.length > 0 && words[words.length - 1]!.text === '{}') break;
      words.push(t.includes('{}') ? { ...args[k]!, dynamic: true } : args[k]!);
    }
    out.push({ words, completed });
  }
  return out;
}

/**
 * Programs whose command string POSIX sh runs, read with the bashisms it reads otherwise refused:
 * the POSIX shells themselves, and a wrapper's `-c` (`flock -c`, `su -c`, `watch`) that hands its
 * string to `sh -c` or to a login shell that may be one. bash, zsh and ksh read bash's
 * constructs as bash does; `eval`, alias and trap bodies run in the line's own bash.
 */
const RUNS_IN_SH: ReadonlySet<string> = new Set([
  'sh',
  'dash',
  'ash',
  'posh',
  'busybox',
  'flock',
  'su',
  'runuser',
  'sg',
  'script',
  'watch',
  'setsid',
  'sudo',
  'doas',
  'chroot',
  'nohup',
  'timeout',
  'xargs',
]);

/** Programs whose own script holds command lines they run with `sh -c`, and the reader of those lines. */
const SH_LINES: readonly { names: ReadonlySet<string>; lines: (parsed: Parsed<unknown>) => string[] }[] = [
  { names: AWKS, lines: awkCommandLines },
  { names: SEDS, lines: sedCommandLines },
];

/** Shells measured to exit at once when `-c` has no string: nothing read, no start-up file run (`bash -lc`, `sh -ic`). */
const FAIL_WITHOUT_STRING = new Set(['bash', 'sh', 'dash', 'rbash']);

/** Shells whose commands from stdin are read as `bash -c` reads its string. */
const STDIN_SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'rbash']);

/** Options of a shell that reads a here-document and runs it as `bash -c` runs its string: -e, -u, -x, -v, -n. */
const STDIN_KEEPS_READING = /^-[euxvn]+$|^--(norc|noprofile)$/;

/** Whether a redirection opens descriptor 0 (`< x`, `0<&3`, `<> x`, a here-document). */
function redirectsInput(r: Redirect): boolean {
  const fd = r.node?.fd ?? '';
  return fd === '0' || (fd === '' && r.op.startsWith('<'));
}

/**
 * The text a command's stdin gets when the line writes it out whole: the last redirection of
 * descriptor 0 is a here-document whose delimiter is quoted, or whose body has nothing to expand
 * (no `$`, backquote or backslash, not even one that joins lines). `<<-` removes the body's
 * leading tabs. Null otherwise. (A body that moves the shell's stdin is found once it is read:
 * `movesShellInput`.)
 */
function literalHeredocInput(redirects: Redirect[]): string | null {
  const last = redirects.filter(redirectsInput).at(-1);
  const doc = last?.node?.heredoc;
  if (!doc || (doc.expand && (doc.joined === true || /[$`\\]/.test(doc.body)))) return null;
  return last!.node!.op === '<<-' ? doc.body.replace(/^\t+/gm, '') : doc.body;
}

/** `exec < x` (also through eval, `command`, a function): the shell goes on reading its commands from x. */
const movesShellInput = (inv: Invocation) => inv.shellWide === true && inv.redirects.some(redirectsInput);

/**
 * Removes one layer: assignments, a wrapper and its options, a shell's `-c`, `eval`, or a runner.
 * `stdin` is the literal here-document the command reads, when it is the line's own command.
 */
function peel(words: Word[], assignments: string[], stdin: string | null = null): Peeled {
  let k = 0;
  while (k < words.length && isAssignment(words[k]!)) assignments.push(words[k++]!.text);
  const rest = words.slice(k);
  if (rest.length === 0) return { kind: 'run', words: rest };
  const first = rest[0]!;
  if (first.dynamic || first.pattern || first.ansi) return { kind: 'run', words: rest };
  // `./env ls` runs whatever ./env is, not env
  if (!inSystemDirectory(first.text)) return { kind: 'run', words: rest };
  const name = baseName(first.text);
  const lower = name.toLowerCase();
  // a program that runs another command: read through its registry spec
  const spec = programSpec(name);
  if (spec?.wrapper) return peelWrapper(spec, rest);
  const runnerSubs = RUNNER_SUBCOMMANDS[name];
  if (runnerSubs && rest[1] !== undefined && runnerSubs.includes(rest[1].text)) {
    const inner = rest.slice(2);
    let j = 0;
    while (j < inner.length && inner[j]!.text.startsWith('-')) j += inner[j]!.text === '--' ? 1 : 1;
    // the name is looked up in the project's own programs first (node_modules/.bin, a virtualenv,
    // binstubs, an .envrc's PATH): what runs may not be the program of that name on PATH
    if (j < inner.length)
      return {
        kind: 'run',
        words: rest,
        opaque: {
          id: SYNCING_RUNNERS.has(`${name} ${rest[1].text}`) ? 'syncs_and_runs_project_program' : 'runs_project_program',
          subject: `${name} ${rest[1].text}`,
          detail: inner[j]!.text,
        },
        via: `${name} ${rest[1].text}`,
      };
  }
  if (name === 'ip' && rest[1]?.text === 'netns' && rest[2]?.text === 'exec' && rest.length > 4)
    return { kind: 'run', words: rest.slice(4), via: 'ip netns exec' };
  if (name === 'find') {
    const commands = findCommands(rest.slice(1));
    if (commands.length > 0) return { kind: 'run', words: rest, via: 'find' };
  }
  if (name === 'fzf' && previews(rest.slice(1)).length > 0) return { kind: 'run', words: rest, via: 'fzf' };
  if (SHELLS.has(lower) || (name === 'busybox' && rest[1] !== undefined && SHELLS.has(rest[1].text))) {
    const from = name === 'busybox' ? 2 : 1;
    // read from a here-document: only with options that read it as `-c` reads its string, and no operand
    let readsStdin = stdin !== null && STDIN_SHELLS.has(name === 'busybox' ? rest[1]!.text : name);
    let j = from;
    for (; j < rest.length; j++) {
      const w = rest[j]!.text;
      const powershell = lower.startsWith('pwsh') || lower.startsWith('powershell');
      // -k, -H, -O nullglob, -o keyword …: the script's words are not read as the reader reads them
      if (
        !powershell &&
        (READING_OPTION_CLUSTER.test(w) ||
          ((w === '-O' || w === '-o') &&
            !SHOPT_KEEPS_READING.has(rest[j + 1]?.text ?? '') &&
            !/^(errexit|nounset|pipefail|xtrace|noglob|posix|errtrace|functrace|noclobber|verbose)$/.test(rest[j + 1]?.text ?? '')))
      ) {
        return { kind: 'run', words: rest, opaque: { id: 'shell_changes_reading', subject: name, detail: w } };
      }
      if ((!powershell && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w)) || /^-(command|c)$/i.test(w) || w === '--command') {
        const script = rest[j + 1];
        // no string: bash and dash fail before they read anything, rc files included; what xargs appends is the string
        if (!script && FAIL_WITHOUT_STRING.has(lower)) return { kind: 'run', words: [] };
        if (!script) return { kind: 'run', words: rest, opaque: { id: 'shell_reads_stdin', subject: name } };
        return { kind: 'reparse', source: script.text, dynamic: script.dynamic, via: `${name} -c`, positional: !powershell };
      }
      if (/^-(encodedcommand|e|ec|enc)$/i.test(w) && powershell) {
        return { kind: 'run', words: rest, opaque: { id: 'shell_encoded_command', subject: name } };
      }
      // a start-up file an interactive bash runs before its -c string (`bash --rcfile x -i -c true`), a PowerShell script
      if (/^(--rcfile|--init-file|-file)$/i.test(w))
        return { kind: 'run', words: rest, opaque: { id: 'shell_runs_script', subject: name, detail: rest[j + 1]?.text ?? w } };
      if (SHELL_VALUE_OPTIONS.has(w)) {
        if (w !== '-o' && w !== '+o' && w !== '-O') readsStdin = false;
        j++;
        continue;
      }
      if (w === '-' || w === '--') break;
      if (!w.startsWith('-') && !w.startsWith('+'))
        return { kind: 'run', words: rest, opaque: { id: 'shell_runs_script', subject: name, detail: w } };
      if (!STDIN_KEEPS_READING.test(w) && !(w === '-s' && j === rest.length - 1)) readsStdin = false;
    }
    // after `-` or `--`, a word is the script to run
    if (readsStdin && j >= rest.length - 1) return { kind: 'reparse', source: stdin!, dynamic: false, via: `${name} <<`, stdinOf: rest };
    return { kind: 'run', words: rest, opaque: { id: 'shell_reads_stdin', subject: name } };
  }
  if (name === 'eval' || lower === 'invoke-expression' || lower === 'iex') {
    const args = rest.slice(1);
    return { kind: 'reparse', source: args.map((w) => w.text).join(' '), dynamic: args.some((w) => w.dynamic), via: name };
  }
  if (name === 'alias') {
    const bodies = rest
      .slice(1)
      .filter((w) => w.text.includes('='))
      .map((w) => ({ source: w.text.slice(w.text.indexOf('=') + 1), dynamic: w.dynamic }));
    return { kind: 'reparse-many', sources: bodies, via: 'alias' };
  }
  if (name === 'trap') {
    const args = rest.slice(1).filter((w) => w.text !== '--');
    if (args.length >= 2 && !args[0]!.text.startsWith('-'))
      return { kind: 'reparse', source: args[0]!.text, dynamic: args[0]!.dynamic, via: 'trap' };
    return { kind: 'run', words: rest };
  }
  if (SOURCES.has(name)) return { kind: 'run', words: rest, opaque: { id: 'runs_file_in_shell', subject: name } };
  if (name === 'enable' && rest.some((w) => w.text.startsWith('-f')))
    return { kind: 'run', words: rest, opaque: { id: 'enable_loads_code', subject: 'enable' } };
  return { kind: 'run', words: rest };
}

interface Walk {
  out: Invocation[];
  /** The text being read: the line, or a string read again. */
  source: string;
  scripts: Script[];
  sources: string[];
  functions: string[];
  powershell: boolean;
  /** Reading the command ssh runs on another host. */
  remote?: boolean;
}

/** Reads `line`, a string a command of this line runs as shell code, one level deeper (`posix`: POSIX sh runs it, named so). */
function readAgain(line: string, depth: number, cond: boolean, walk: Walk, powershell = false, posix?: string): Unreadable | undefined {
  walk.sources.push(line);
  return invocationsOf(parseShell(line, depth + 1, powershell, posix), line, depth + 1, cond, walk);
}

function invocationsOf(parse: ShellParse, source: string, depth: number, conditional: boolean, walk: Walk): Unreadable | undefined {
  if (parse.unparsable) return parse.unparsable;
  const outer = walk.source;
  walk.source = source;
  try {
    return commandsOf(parse, depth, conditional, walk);
  } finally {
    walk.source = outer;
  }
}

function commandsOf(parse: ShellParse, depth: number, conditional: boolean, walk: Walk): Unreadable | undefined {
  if (parse.script) walk.scripts.push(parse.script);
  walk.functions.push(...parse.functions);
  for (const command of parse.commands) {
    const problem = runWords(
      command.words,
      command.redirects,
      conditional || command.conditional,
      false,
      [],
      depth,
      walk,
      command.callsFunction === true,
    );
    if (problem) return problem;
    if (walk.out.length > MAX_INVOCATIONS) return { id: 'more_than', subject: String(MAX_INVOCATIONS), detail: 'commands' };
  }
  return undefined;
}

/** Peels one command's wrappers layer by layer and records what finally runs. */
function runWords(
  start: Word[],
  redirects: Redirect[],
  cond: boolean,
  completedAtStart: boolean,
  viaAtStart: string[],
  depth: number,
  walk: Walk,
  callsFunction = false,
): Unreadable | undefined {
  let words = start;
  const callee = callsFunction ? start.find((w) => !isAssignment(w)) : undefined;
  const assignments: string[] = [];
  const via = [...viaAtStart];
  const chdir: (string | null)[] = [];
  let completed = completedAtStart;
  let recorded = false;
  for (let layer = 0; ; layer++) {
    if (layer > 16) return { id: 'too_many_wrappers' };
    // a shell the line starts itself, not through a wrapper (which may read stdin first: `sudo -S`)
    const own = layer === 0 && viaAtStart.length === 0 && !completed && !walk.powershell;
    const peeled = peel(words, assignments, own ? literalHeredocInput(redirects) : null);
    if (peeled.kind === 'lookup') break;
    /** Records what finally runs: its program word, its arguments, and why it is opaque, if it is. */
    const record = (program: Word, args: Word[], opaque: Reason | undefined) => {
      walk.out.push({
        name: baseName(program.text),
        program,
        args,
        redirects,
        conditional: cond,
        completed,
        ...(opaque !== undefined ? { opaque } : {}),
        assignments: [...assignments],
        via: [...via],
        chdir: [...chdir],
        depth,
        source: walk.source,
        // the name the walk found defined as a function, run as it is, through no wrapper
        ...(program === callee && via.length === 0 && opaque === undefined ? { callsFunction: true } : {}),
        ...(walk.remote ? { remote: true } : {}),
      });
      recorded = true;
    };
    if (peeled.writes && peeled.writes.length > 0) {
      walk.out.push({
        name: '',
        program: null,
        args: [],
        redirects: peeled.writes.map((target) => ({ op: '>', target })),
        conditional: cond,
        completed: false,
        assignments: [],
        via: [...via],
        chdir: [...chdir],
        depth,
        source: walk.source,
      });
    }
    if (peeled.kind === 'reparse' || peeled.kind === 'reparse-many') {
      // what xargs appends to `sh -c CODE` becomes $0, $1 …, which CODE's own reading treats as unknown
      if (completed && !(peeled.kind === 'reparse' && peeled.positional)) return { id: 'xargs_into_line_read_again', subject: peeled.via };
      const sources = peeled.kind === 'reparse' ? [{ source: peeled.source, dynamic: peeled.dynamic }] : peeled.sources;
      const shell = peeled.via.split(' ')[0]!;
      const posix = walk.powershell || !RUNS_IN_SH.has(shell) ? undefined : peeled.via;
      const before = walk.out.length;
      for (const s of sources) {
        if (s.dynamic) return { id: 'command_string_at_run_time', subject: peeled.via };
        const problem = readAgain(s.source, depth, cond, walk, walk.powershell, posix);
        if (problem) return problem;
      }
      // what runs after `exec < x` is read from x
      if (peeled.kind === 'reparse' && peeled.stdinOf && walk.out.slice(before).some(movesShellInput)) {
        const [program, ...args] = peeled.stdinOf;
        record(program!, args, { id: 'shell_reads_stdin', subject: shell });
      }
      break;
    }
    // each job of GNU parallel is a command of its own
    if (peeled.kind === 'run-many') {
      for (const run of peeled.runs) {
        const problem = runWords(run, [], cond, completed, [...via, peeled.via], depth, walk);
        if (problem) return problem;
      }
      break;
    }
    if (peeled.via) via.push(peeled.via);
    if (peeled.chdir) chdir.push(...peeled.chdir);
    completed ||= peeled.completed === true;
    if (peeled.via === 'find') {
      for (const run of findCommands(peeled.words.slice(1))) {
        if (run.words.length === 0) continue;
        const problem = runWords(run.words, [], cond, run.completed, [...via], depth, walk);
        if (problem) return problem;
      }
    }
    // A wrapper given no command of its own runs what the arguments appended at run time name (`xargs sudo`).
    if (peeled.kind === 'run' && peeled.words.length === 0 && completed && peeled.opaque === undefined && words.length > 0) {
      const [program, ...args] = words;
      record(program!, args, { id: 'xargs_runs_with_read_arguments', subject: baseName(program!.text) });
      break;
    }
    // fzf's preview command is a shell line its placeholders complete at run time
    if (peeled.via === 'fzf') {
      for (const preview of previews(peeled.words.slice(1))) {
        if (preview.dynamic) return { id: 'preview_at_run_time' };
        const read = previewLine(preview.text);
        if ('problem' in read) return read.problem;
        const problem = readAgain(read.line, depth, cond, walk);
        if (problem) return problem;
      }
    }
    const changed = peeled.words.length !== words.length || (peeled.via !== undefined && peeled.via !== 'find' && peeled.via !== 'fzf');
    if (!changed || peeled.words.length === 0 || peeled.opaque !== undefined) {
      if (peeled.words.length > 0) {
        const [program, ...args] = peeled.words;
        record(program!, args, peeled.opaque);
        const name = baseName(program!.text);
        const spec = walk.powershell ? null : programSpec(name);
        // a program an option names to run (`rg --pre=cat`), with arguments known only at run time
        for (const start of spec ? namedPrograms(spec, args) : []) {
          const problem = runWords(start, [], cond, false, [...via, name], depth, walk);
          if (problem) return problem;
        }
        // the command lines awk's program or GNU sed's `e COMMAND` runs with `sh -c`
        const lines = spec && peeled.opaque === undefined ? SH_LINES.find((l) => l.names.has(name))?.lines : undefined;
        for (const line of lines ? lines(getopt(args, getoptSpec(spec!, []))) : []) {
          const problem = readAgain(line, depth, cond, walk, false, name);
          if (problem) return problem;
        }
        // what ssh runs on the other host is a shell line too: read it like `bash -c`
        if (name === 'ssh') {
          if (completed) return { id: 'xargs_into_ssh' };
          const remote = sshCommand(args);
          if (remote && remote.some((w) => w.dynamic)) return { id: 'remote_command_at_run_time' };
          if (remote) {
            const line = remote.map((w) => w.text).join(' ');
            const local = walk.remote;
            walk.remote = true;
            const problem = readAgain(line, depth, cond, walk);
            walk.remote = local;
            if (problem) return problem;
          }
        }
      }
      break;
    }
    words = peeled.words;
  }
  if (!recorded && (redirects.length > 0 || assignments.length > 0)) {
    walk.out.push({
      name: '',
      program: null,
      args: [],
      redirects,
      conditional: cond,
      completed: false,
      assignments: [...assignments],
      via: [],
      chdir: [...chdir],
      depth,
      source: walk.source,
      ...(via.includes('exec') ? { shellWide: true } : {}),
    });
  }
  return undefined;
}

/** Every program a command line may run, with its words, or why the line cannot be read with confidence. */
export function readCommandLine(src: string, powershell = false): ShellReadingRaw {
  const walk: Walk = { out: [], source: src, scripts: [], sources: [], functions: [], powershell };
  const unparsable = invocationsOf(parseShell(src, 0, powershell), src, 0, false, walk);
  return unparsable
    ? { invocations: [], scripts: [], sources: [], functions: [], unparsable }
    : { invocations: walk.out, scripts: walk.scripts, sources: walk.sources, functions: walk.functions };
}
