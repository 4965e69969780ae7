import type { Reason } from './reasons';
import type { Script } from './syntax/ast';
import { MAX_DEPTH, ParseError, parseScript } from './syntax/parser';
import { walkScript, type FoundCommand } from './syntax/walk';
import { literalWord, type Word } from './syntax/word';
import { previewLine, previews } from './registry/readers/fzf';
import {
  inSystemDirectory,
  PROJECT_RUNNERS,
  READING_OPTION_CLUSTER,
  RUNNER_SUBCOMMANDS,
  SHELL_VALUE_OPTIONS,
  SHELLS,
  SHOPT_KEEPS_READING,
  SOURCES,
  WRAPPERS,
  type WrapperSpec,
} from './programs';

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
  /** The descriptor written before the operator (`2` in `2<x`), when the line gives one. */
  node?: { fd: string };
}

interface ShellParse {
  commands: FoundCommand[];
  functions: string[];
  script?: Script;
  unparsable?: string;
}

/** Every simple command in `src`, substitutions included, read from its syntax tree. */
function parseShell(src: string, depth: number, powershell: boolean): ShellParse {
  if (depth > MAX_DEPTH) return { commands: [], functions: [], unparsable: `commands nested more than ${MAX_DEPTH} deep` };
  try {
    const script = parseScript(src, depth, { powershell });
    return { ...walkScript(script, depth), script };
  } catch (err) {
    if (err instanceof ParseError) return { commands: [], functions: [], unparsable: err.message };
    if (err instanceof RangeError) return { commands: [], functions: [], unparsable: 'the command line is too deeply nested' };
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
}

export interface ShellReadingRaw {
  invocations: Invocation[];
  /** The trees of the line and of every string read again as shell code. */
  scripts: Script[];
  /** Every string read again as shell code (`bash -c`, `eval`, alias and trap bodies, ssh commands), as it was read. */
  sources: string[];
  functions: string[];
  unparsable?: string;
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

type Peeled =
  | { kind: 'run'; words: Word[]; completed?: boolean; opaque?: Reason; via?: string; chdir?: (string | null)[]; writes?: Word[] }
  | { kind: 'reparse'; source: string; dynamic: boolean; via: string; writes?: Word[] }
  | { kind: 'reparse-many'; sources: { source: string; dynamic: boolean }[]; via: string }
  | { kind: 'lookup' };

/** The words after a wrapper's options and leading operands. */
function afterOptions(
  rest: Word[],
  valueOptions: readonly string[],
  positional: number,
  commandOption?: readonly string[],
): { at: number; command?: Word } {
  let j = 1;
  let leading = positional;
  while (j < rest.length) {
    const w = rest[j]!.text;
    if (commandOption?.includes(w) || (commandOption?.includes('-c') && /^-[a-zA-Z]+c$/.test(w)))
      return { at: j + 2, command: rest[j + 1] ?? literalWord('') };
    const eq = w.indexOf('=');
    if (eq > 0 && commandOption?.includes(w.slice(0, eq))) return { at: j + 1, command: { ...rest[j]!, text: w.slice(eq + 1) } };
    if (w === '--') return { at: j + 1 };
    if (w.startsWith('-') && w.length > 1) {
      j += valueOptions.includes(w) ? 2 : 1;
    } else if (leading > 0) {
      leading--;
      j++;
    } else break;
  }
  return { at: j };
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
 * The files a wrapper writes itself (`time -o FILE`, `strace -o FILE`, `script FILE`): the values
 * of its write options, the next word, joined (`--output=F`) or attached (`-oF`), and for a wrapper
 * that writes its operands, the words among its options that are neither an option, a value nor
 * the command. Only for options unknownOption reads: any other spelling (a cluster, an
 * abbreviation) makes the call opaque before these are used.
 */
function wrapperWrites(rest: Word[], wrapper: WrapperSpec, at: number, command: Word | undefined): Word[] {
  const options = wrapper.writeOptions ?? [];
  if (options.length === 0 && !wrapper.writesOperands) return [];
  const end = command ? rest.length : at;
  const out: Word[] = [];
  for (let k = 1; k < end; k++) {
    const w = rest[k]!;
    if (w === command) continue;
    const t = w.text;
    if (t === '--') break;
    if (options.includes(t)) {
      if (rest[k + 1]) out.push(rest[k++ + 1]!);
      continue;
    }
    const eq = t.indexOf('=');
    if (t.startsWith('--') && eq > 0 && options.includes(t.slice(0, eq))) {
      out.push({ ...w, text: t.slice(eq + 1) });
      continue;
    }
    if (!t.startsWith('--') && t.length > 2 && options.includes(t.slice(0, 2))) {
      out.push({ ...w, text: t.slice(2) });
      continue;
    }
    if (t.startsWith('-')) {
      if (wrapper.valueOptions.includes(t) || wrapper.commandOption?.includes(t)) k++;
      continue;
    }
    if (wrapper.writesOperands) out.push(w);
  }
  // valgrind's `--log-file=out.%p` names a file per process: any text may stand where a % is
  return wrapper.writeNamesExpand
    ? out.map((w) => (w.text.includes('%') ? { ...w, text: w.text.replace(/%(q\{[^}]*\}|.)?/g, '*'), pattern: true } : w))
    : out;
}

const PROJECT_RUNNER_SET: ReadonlySet<string> = new Set(PROJECT_RUNNERS);

/**
 * The first of a wrapper's options its table does not know (see WrapperSpec.flags), or null: a
 * value option written out (`-u X`, `-uX`, `--user=X`), a write option with its value, a flag it
 * lists, a cluster of listed flags ending in the command option (`-qc CMD`), or nice's `-N`.
 */
function unknownOption(rest: Word[], wrapper: WrapperSpec, name: string, end: number, command: Word | undefined): string | null {
  const flags = wrapper.flags ?? [];
  const values = wrapper.valueOptions;
  const writes = wrapper.writeOptions ?? [];
  const commandOptions = wrapper.commandOption ?? [];
  for (let k = 1; k < end; k++) {
    const w = rest[k]!;
    if (w === command) continue;
    const t = w.text;
    if (t === '--') break;
    if (!t.startsWith('-') || (t === '-' && flags.includes('-'))) continue;
    if (commandOptions.includes(t) || values.includes(t)) {
      k++;
      continue;
    }
    const eq = t.indexOf('=');
    if (t.startsWith('--') && eq > 0 && [...values, ...writes, ...commandOptions].includes(t.slice(0, eq))) continue;
    if (!t.startsWith('--') && t.length > 2 && [...values, ...writes].includes(t.slice(0, 2))) continue;
    if (flags.includes(t)) continue;
    if (commandOptions.includes('-c') && /^-[a-zA-Z]+c$/.test(t) && [...t.slice(1, -1)].every((c) => flags.includes(`-${c}`))) {
      k++;
      continue;
    }
    if (name === 'nice' && /^-\d+$/.test(t)) continue;
    return t;
  }
  return null;
}

/** Removes one layer: assignments, a wrapper and its options, a shell's `-c`, `eval`, or a runner. */
/** env's options that take a value, as the next word or joined (`-u X`, `-uX`, `--unset=X`). */
const ENV_VALUE_LETTERS = 'uCa';
const ENV_VALUE_LONG = ['--unset', '--chdir', '--argv0'];
const ENV_FLAG_LONG = ['--ignore-environment', '--null', '--debug'];

/**
 * The words `env -S` splits and runs (`-S STRING`, `-vSSTRING`, `--split-string=STRING`), or null
 * when its options hold none. A value option's value is never read as an option (`-C -Sdir` changes
 * to `-Sdir`, `-uSX` unsets `SX`); an option it does not know ends the search, and the call is then
 * opaque (unknownOption).
 */
function envSplitString(rest: readonly Word[]): Word[] | null {
  for (let j = 1; j < rest.length; j++) {
    const w = rest[j]!.text;
    if (w === '--' || w === '-') return null;
    if (w.startsWith('--')) {
      if (w === '--split-string') return rest.slice(j + 1);
      if (w.startsWith('--split-string=')) return [{ ...rest[j]!, text: w.slice('--split-string='.length) }, ...rest.slice(j + 1)];
      if (ENV_VALUE_LONG.includes(w)) j++;
      else if (!ENV_FLAG_LONG.includes(w) && !ENV_VALUE_LONG.some((o) => w.startsWith(`${o}=`))) return null;
      continue;
    }
    if (w.startsWith('-')) {
      for (let c = 1; c < w.length; c++) {
        const letter = w[c]!;
        if (letter === 'S') {
          const joined = w.slice(c + 1);
          return joined !== '' ? [{ ...rest[j]!, text: joined }, ...rest.slice(j + 1)] : rest.slice(j + 1);
        }
        if (ENV_VALUE_LETTERS.includes(letter)) {
          if (c === w.length - 1) j++;
          break;
        }
        if (letter !== 'i' && letter !== '0' && letter !== 'v') return null;
      }
      continue;
    }
    if (assignmentLength(w) === -1) return null;
  }
  return null;
}

function peel(words: Word[], assignments: string[]): Peeled {
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
  const wrapper = WRAPPERS[name];
  if (wrapper && PROJECT_RUNNER_SET.has(name) && rest.length > 1) {
    return { kind: 'run', words: rest, opaque: { id: 'runs_project_bin', subject: name }, via: name };
  }
  if (wrapper) {
    if (name === 'command') {
      // `command -v NAME` only looks a name up; options come before the command, so stop at the first operand
      for (const w of rest.slice(1)) {
        if (!w.text.startsWith('-') || w.text === '--') break;
        if (/^-[pvV]*[vV][pvV]*$/.test(w.text)) return { kind: 'lookup' };
      }
    }
    if (name === 'env') {
      const parts = envSplitString(rest);
      if (parts !== null) {
        const source = parts.map((x) => x.text).join(' ');
        // env -S decodes escapes of its own (`\_` is a space) and runs in the -C directory: not read as shell code
        if (source.includes('\\') || rest.some((w) => /^-[a-zA-Z0-9]*C|^--c/.test(w.text)))
          return { kind: 'run', words: rest, opaque: { id: 'env_split_escapes', subject: 'env -S' } };
        return { kind: 'reparse', source, dynamic: parts.some((x) => x.dynamic), via: 'env -S' };
      }
    }
    let found: { at: number; command?: Word } = afterOptions(rest, wrapper.valueOptions, wrapper.positional ?? 0, wrapper.commandOption);
    if (!found.command && wrapper.commandOption) {
      const k = rest.findIndex(
        (w, idx) =>
          idx > 0 &&
          (wrapper.commandOption!.some((o) => w.text === o || w.text.startsWith(`${o}=`)) ||
            (wrapper.commandOption!.includes('-c') && /^-[a-zA-Z]+c$/.test(w.text))),
      );
      if (k !== -1) {
        const w = rest[k]!;
        found = {
          at: rest.length,
          command:
            w.text.startsWith('--') && w.text.includes('=')
              ? { ...w, text: w.text.slice(w.text.indexOf('=') + 1) }
              : (rest[k + 1] ?? literalWord('')),
        };
      }
    }
    const { at, command } = found;
    const writes = wrapperWrites(rest, wrapper, at, command);
    const unknown = name === 'xargs' ? null : unknownOption(rest, wrapper, name, command ? rest.length : at, command);
    if (unknown !== null) return { kind: 'run', words: rest, opaque: { id: 'wrapper_option_unknown', subject: name, detail: unknown } };
    // strace -o '|cmd' / '!cmd' pipes its output into a command
    if (writes.some((w) => w.text.startsWith('|') || w.text.startsWith('!')))
      return { kind: 'run', words: rest, opaque: { id: 'wrapper_writes_into_command', subject: name } };
    if (wrapper.opaque)
      return { kind: 'run', words: rest, opaque: { id: 'wrapper_opaque', subject: name, detail: wrapper.opaque }, writes };
    const runs = (wrapper.runsOptions ?? []).find((o) =>
      rest.slice(1, command ? rest.length : at).some((w) => w.text === o || w.text.startsWith(`${o}=`)),
    );
    if (runs) return { kind: 'run', words: rest, opaque: { id: 'wrapper_runs_program', subject: name, detail: runs }, writes };
    if (name === 'xargs') {
      // clusters that end in an option taking a value (`-0I {}`, `-rn 1`) are not read
      for (const w of rest.slice(1, at)) {
        if (/^-[^-]/.test(w.text) && !/^-[0rtpxo]+$/.test(w.text) && !/^-[IinlLsdEeaP]/.test(w.text))
          return { kind: 'run', words: rest, opaque: { id: 'xargs_cluster', subject: w.text } };
      }
    }
    let j = at;
    if (name === 'env') {
      while (j < rest.length && isAssignment(rest[j]!)) assignments.push(rest[j++]!.text);
    }
    if (command) {
      const extra = wrapper.joinsIntoShell ? rest.slice(at) : [];
      const parts = [command, ...extra];
      return {
        kind: 'reparse',
        source: parts.map((x) => x.text).join(' '),
        dynamic: parts.some((x) => x.dynamic),
        via: `${name} -c`,
        writes,
      };
    }
    const inner = rest.slice(j);
    const chdir: (string | null)[] = [];
    for (let k = 1; k < at && k < rest.length; k++) {
      const w = rest[k]!;
      for (const o of wrapper.chdirOptions ?? []) {
        if (w.text === o) chdir.push(rest[k + 1] && !rest[k + 1]!.dynamic ? rest[k + 1]!.text : null);
        else if (w.text.startsWith(`${o}=`)) chdir.push(w.dynamic ? null : w.text.slice(o.length + 1));
        else if (o.length === 2 && w.text.startsWith(o) && !w.text.startsWith('--')) chdir.push(w.dynamic ? null : w.text.slice(2));
      }
    }
    if (name === 'chroot' && rest[at - 1]) chdir.push(rest[at - 1]!.dynamic ? null : rest[at - 1]!.text);
    // pkexec runs the command in the target user's home directory unless told to stay
    if (name === 'pkexec' && !rest.slice(1, at).some((w) => w.text === '--keep-cwd')) chdir.push(null);
    if (inner.length === 0) {
      if (wrapper.shellWithoutCommand && j > 1 && rest.slice(1, j).some((w) => /^-[a-zA-Z]*[si]$|^--shell$|^--login$/.test(w.text))) {
        return { kind: 'run', words: rest, opaque: { id: 'starts_shell', subject: name } };
      }
      if (name === 'su' || name === 'runuser' || name === 'script') {
        return { kind: 'run', words: rest, opaque: { id: 'starts_shell', subject: name } };
      }
      return { kind: 'run', words: name === 'xargs' ? [literalWord('echo')] : [], completed: name === 'xargs', via: name };
    }
    if (name === 'su' || name === 'runuser') return { kind: 'run', words: rest, opaque: { id: 'starts_shell_other_user', subject: name } };
    const viaShell = (wrapper.shellOptions ?? []).find((o) => rest.slice(1, at).some((w) => w.text === o));
    if (viaShell) return { kind: 'run', words: rest, opaque: { id: 'wrapper_shell', subject: name, detail: viaShell }, writes };
    if (wrapper.joinsIntoShell && !rest.slice(1, at).some((w) => w.text === '-x' || w.text === '--exec')) {
      return { kind: 'reparse', source: inner.map((x) => x.text).join(' '), dynamic: inner.some((x) => x.dynamic), via: name, writes };
    }
    if (name === 'xargs') {
      const replace = rest
        .slice(1, at)
        .findIndex((w) => /^-[Ii]/.test(w.text) || w.text === '--replace' || w.text.startsWith('--replace='));
      if (replace !== -1) {
        const option = rest[1 + replace]!.text;
        // -I takes the next word; -i and --replace take theirs only attached, `{}` without one
        const token =
          option === '-I'
            ? (rest[2 + replace]?.text ?? '{}')
            : option.startsWith('--replace=')
              ? option.slice(10)
              : option.length > 2 && !option.startsWith('--')
                ? option.slice(2)
                : '{}';
        return {
          kind: 'run',
          words: inner.map((w) => (token !== '' && w.text.includes(token) ? { ...w, dynamic: true } : w)),
          completed: false,
          via: name,
        };
      }
    }
    return { kind: 'run', words: inner, completed: wrapper.completes === true, via: name, chdir, writes };
  }
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
        opaque: { id: 'runs_project_program', subject: `${name} ${rest[1].text}`, detail: inner[j]!.text },
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
    for (let j = from; j < rest.length; j++) {
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
        if (!script) return { kind: 'run', words: rest, opaque: { id: 'shell_reads_stdin', subject: name } };
        return { kind: 'reparse', source: script.text, dynamic: script.dynamic, via: `${name} -c` };
      }
      if (/^-(encodedcommand|e|ec|enc)$/i.test(w) && powershell) {
        return { kind: 'run', words: rest, opaque: { id: 'shell_encoded_command', subject: name } };
      }
      if (SHELL_VALUE_OPTIONS.has(w)) {
        j++;
        continue;
      }
      if (w === '-' || w === '--') break;
      if (!w.startsWith('-') && !w.startsWith('+'))
        return { kind: 'run', words: rest, opaque: { id: 'shell_runs_script', subject: name, detail: w } };
    }
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
}

function invocationsOf(parse: ShellParse, source: string, depth: number, conditional: boolean, walk: Walk): string | undefined {
  if (parse.unparsable) return parse.unparsable;
  const outer = walk.source;
  walk.source = source;
  try {
    return commandsOf(parse, depth, conditional, walk);
  } finally {
    walk.source = outer;
  }
}

function commandsOf(parse: ShellParse, depth: number, conditional: boolean, walk: Walk): string | undefined {
  if (parse.script) walk.scripts.push(parse.script);
  walk.functions.push(...parse.functions);
  for (const command of parse.commands) {
    const problem = runWords(command.words, command.redirects, conditional || command.conditional, false, [], depth, walk);
    if (problem) return problem;
    if (walk.out.length > MAX_INVOCATIONS) return `more than ${MAX_INVOCATIONS} commands`;
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
): string | undefined {
  let words = start;
  const assignments: string[] = [];
  const via = [...viaAtStart];
  const chdir: (string | null)[] = [];
  let completed = completedAtStart;
  let recorded = false;
  for (let layer = 0; ; layer++) {
    if (layer > 16) return 'too many wrappers';
    const peeled = peel(words, assignments);
    if (peeled.kind === 'lookup') break;
    if ((peeled.kind === 'run' || peeled.kind === 'reparse') && peeled.writes && peeled.writes.length > 0) {
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
      if (completed) return `arguments xargs reads at run time, handed to a command line read again (${peeled.via})`;
      const sources = peeled.kind === 'reparse' ? [{ source: peeled.source, dynamic: peeled.dynamic }] : peeled.sources;
      for (const s of sources) {
        if (s.dynamic) return `a command string built at run time (${peeled.via} with an expansion)`;
        walk.sources.push(s.source);
        const problem = invocationsOf(parseShell(s.source, depth + 1, walk.powershell), s.source, depth + 1, cond, walk);
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
    // fzf's preview command is a shell line its placeholders complete at run time
    if (peeled.via === 'fzf') {
      for (const preview of previews(peeled.words.slice(1))) {
        if (preview.dynamic) return 'a preview command built at run time (fzf --preview with an expansion)';
        const read = previewLine(preview.text);
        if ('problem' in read) return read.problem;
        walk.sources.push(read.line);
        const problem = invocationsOf(parseShell(read.line, depth + 1, false), read.line, depth + 1, cond, walk);
        if (problem) return problem;
      }
    }
    const changed = peeled.words.length !== words.length || (peeled.via !== undefined && peeled.via !== 'find' && peeled.via !== 'fzf');
    if (!changed || peeled.words.length === 0 || peeled.opaque !== undefined) {
      if (peeled.words.length > 0) {
        const [program, ...args] = peeled.words;
        walk.out.push({
          name: baseName(program!.text),
          program: program!,
          args,
          redirects,
          conditional: cond,
          completed,
          ...(peeled.opaque !== undefined ? { opaque: peeled.opaque } : {}),
          assignments: [...assignments],
          via: [...via],
          chdir: [...chdir],
          depth,
          source: walk.source,
        });
        recorded = true;
        // what ssh runs on the other host is a shell line too: read it like `bash -c`
        if (baseName(program!.text) === 'ssh') {
          if (completed) return 'arguments xargs reads at run time, handed to a command ssh runs on another host';
          const remote = sshCommand(args);
          if (remote && remote.some((w) => w.dynamic)) return 'a remote command built at run time (ssh with an expansion)';
          if (remote) {
            const line = remote.map((w) => w.text).join(' ');
            walk.sources.push(line);
            const problem = invocationsOf(parseShell(line, depth + 1, false), line, depth + 1, cond, walk);
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
