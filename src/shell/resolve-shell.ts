import type { ShellReading } from '../core/decide';
import type { ToolEvent } from '../core/event';
import type { PolicyIndex } from '../core/policy-index';
import { subjectForCommand, type Subject } from '../core/resolve';
import { isAbsoluteOrHome } from '../core/types';
import { baseName, readCommandLine, type Invocation } from './commands';
import type { Word } from './lex';

/** Redirections that write to their target. */
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/** Programs that write, move or delete the files they are given, and which arguments those are. */
const WRITERS: Record<string, 'all' | 'last' | 'afterFirst' | 'sedInPlace' | 'dd'> = {
  tee: 'all',
  rm: 'all',
  rmdir: 'all',
  unlink: 'all',
  shred: 'all',
  touch: 'all',
  truncate: 'all',
  mkdir: 'all',
  mv: 'all',
  cp: 'last',
  ln: 'last',
  install: 'last',
  rsync: 'last',
  chmod: 'afterFirst',
  chown: 'afterFirst',
  chgrp: 'afterFirst',
  sed: 'sedInPlace',
  perl: 'sedInPlace',
  dd: 'dd',
  'set-content': 'all',
  'add-content': 'all',
  'out-file': 'all',
  'remove-item': 'all',
  'move-item': 'all',
  'copy-item': 'last',
  'new-item': 'all',
  'rename-item': 'all',
  'clear-content': 'all',
  ri: 'all',
  del: 'all',
  sc: 'all',
  ac: 'all',
};

/**
 * Programs that only read the files named on their command line. Any other program that is not a
 * known writer (above) and is handed a protected path — an interpreter's code string, a tool with
 * an output option, `git checkout -- FILE` — is taken to possibly write it.
 */
const READERS = new Set([
  'cat', 'less', 'more', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ls', 'stat', 'file', 'wc',
  'diff', 'cmp', 'jq', 'test', '[', 'echo', 'printf', 'readlink', 'realpath', 'basename', 'dirname',
  'sha256sum', 'sha1sum', 'md5sum', 'cksum', 'od', 'xxd', 'hexdump', 'strings', 'nl', 'cut', 'tr', 'column',
  'bat', 'cd', 'pushd', 'popd', 'which', 'type',
  'get-content', 'gc', 'select-string', 'test-path', 'get-item', 'get-childitem', 'gci', 'dir', 'resolve-path',
]);
const GIT_READ_SUBCOMMANDS = new Set(['diff', 'log', 'show', 'status', 'blame', 'ls-files', 'grep']);
/** Where a path can end inside a word: quotes, brackets and the punctuation of code around it. */
const PATH_DELIMITERS = /[\s'"`(),;=<>|&{}[\]]+/;
/** More paths than this handed to programs in one command line are not checked one by one: unreadable. */
const MAX_MENTIONED_PATHS = 64;

/** Path-like pieces of the words handed to a program that may write them; empty for readers and known writers. */
function mentionedPaths(inv: Invocation): string[] {
  const name = inv.name.toLowerCase();
  // Known writers' targets are found exactly, except sed's and perl's: their scripts can write too.
  if (name === '' || READERS.has(name) || (name in WRITERS && WRITERS[name] !== 'sedInPlace')) return [];
  if (name === 'git' && GIT_READ_SUBCOMMANDS.has(nonOptions(inv.args)[0]?.text ?? '')) return [];
  const paths: string[] = [];
  for (const word of inv.args) {
    for (const piece of word.text.replace(/\$\{?HOME\}?(?=\/|$)/g, '~').split(PATH_DELIMITERS)) {
      if (/[/~]/.test(piece) || /\.json$/i.test(piece)) paths.push(piece);
    }
  }
  return paths;
}

/** Programs that change the directory the rest of the command line runs in. */
const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'chdir', 'set-location', 'sl', 'push-location']);
/** Options that make a program work in another directory (`git -C`, `make -C`, `env --chdir`, `tar --directory`). */
const DIRECTORY_OPTION = /^(-C|--chdir|--directory|--cwd)(=|$)/;
/** Working directories tracked through one command line, beyond the starting one. */
const MAX_DIRECTORIES = 16;

/**
 * The directories, besides the event's cwd, that relative paths in this command line may be
 * relative to: every `cd`/`pushd` target, chained (`cd a && cd b` adds a, b and a/b), and every
 * `-C DIR`-style option. Order and subshell scope are ignored: more directories, never fewer.
 * Null when a directory is only known at run time (`cd "$X"`, `cd -`).
 */
function workingDirectories(invocations: readonly Invocation[]): string[] | null {
  const dirs: string[] = [];
  const add = (target: string) => {
    const joined = isAbsoluteOrHome(target) ? [target] : [target, ...dirs.map((d) => `${d}/${target}`)];
    for (const dir of joined) if (!dirs.includes(dir) && dirs.length < MAX_DIRECTORIES) dirs.push(dir);
  };
  for (const inv of invocations) {
    const name = inv.name.toLowerCase();
    if (DIRECTORY_CHANGERS.has(name)) {
      const target = nonOptions(inv.args)[0];
      if (target === undefined) add('~');
      else if (target.dynamic || target.text === '-') return null;
      else add(target.text);
    }
    inv.args.forEach((word, k) => {
      const m = DIRECTORY_OPTION.exec(word.text);
      if (!m) return;
      const value = m[2] === '=' ? { text: word.text.slice(m[0].length), dynamic: word.dynamic } : inv.args[k + 1];
      if (value && !value.dynamic) add(value.text);
    });
  }
  return dirs;
}

/** persona-gate subcommands that change nothing. */
const READ_ONLY_SUBCOMMANDS: Record<string, string[] | true> = {
  explain: true,
  list: true,
  validate: true,
  schema: true,
  log: true,
  doctor: true,
  session: ['show'],
  config: ['get', 'list'],
  help: true,
  '--help': true,
  '-h': true,
  '--version': true,
  '-V': true,
};

const GATE_PROGRAM = /^persona-gate(@[^/]*)?$|^persona-gate(\.c?js)?$/;
const RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
const RUNNER_SUBCOMMANDS: Record<string, string[]> = { npm: ['exec', 'x'], pnpm: ['dlx', 'exec'], yarn: ['dlx', 'exec'], bun: ['x'] };

function nonOptions(args: Word[]): Word[] {
  return args.filter((w) => !w.text.startsWith('-') || w.text === '-');
}

function writeTargets(inv: Invocation): Word[] {
  const targets: Word[] = inv.redirects.filter((r) => WRITE_REDIRECTS.has(r.op)).map((r) => r.target);
  const how = WRITERS[inv.name.toLowerCase()];
  const operands = nonOptions(inv.args);
  switch (how) {
    case 'all':
      targets.push(...operands);
      break;
    case 'last':
      if (operands.length > 0) targets.push(operands[operands.length - 1]!);
      break;
    case 'afterFirst':
      targets.push(...operands.slice(1));
      break;
    case 'sedInPlace':
      if (inv.args.some((w) => /^-[a-zA-Z]*i/.test(w.text) || w.text.startsWith('--in-place'))) {
        const hasScriptOption = inv.args.some((w) => w.text === '-e' || w.text === '-f' || w.text === '--expression');
        targets.push(...(hasScriptOption ? operands : operands.slice(1)));
      }
      break;
    case 'dd':
      for (const w of inv.args) if (w.text.startsWith('of=')) targets.push({ text: w.text.slice(3), dynamic: w.dynamic });
      break;
    default:
      break;
  }
  return targets;
}

/** The persona-gate subcommand an invocation runs, if it runs persona-gate at all. */
function gateSubcommand(inv: Invocation): { args: Word[] } | null {
  const name = inv.name;
  if (GATE_PROGRAM.test(name)) return { args: inv.args };
  if (name === 'node' || name === 'nodejs' || name === 'bun' || name === 'tsx') {
    // With code on the command line, node runs that code, not a persona-gate script.
    if (inv.args.some((w) => /^(-e|-p|--eval|--print)(=|$)/.test(w.text))) return null;
    const script = inv.args.findIndex((w) => !w.text.startsWith('-'));
    if (script !== -1 && /persona-gate/i.test(inv.args[script]!.text)) return { args: inv.args.slice(script + 1) };
  }
  const runnerArgs = RUNNERS.has(name) ? inv.args : RUNNER_SUBCOMMANDS[name]?.includes(inv.args[0]?.text ?? '') ? inv.args.slice(1) : name === 'yarn' ? inv.args : null;
  if (runnerArgs) {
    const at = runnerArgs.findIndex((w) => GATE_PROGRAM.test(baseName(w.text)));
    if (at !== -1) return { args: runnerArgs.slice(at + 1).filter((w) => w.text !== '--') };
  }
  return null;
}

function isStateChangingGateCall(args: Word[]): boolean {
  const words = args.filter((w) => !w.text.startsWith('--') || ['--help', '--version'].includes(w.text)).map((w) => w.text);
  const sub = words[0];
  if (sub === undefined) return false;
  const rule = READ_ONLY_SUBCOMMANDS[sub];
  if (rule === true) return false;
  if (Array.isArray(rule)) return !rule.includes(words[1] ?? '');
  return true;
}

/**
 * The catalogued command an invocation is, by its `bash` prefixes (longest first). A prefix whose
 * words are all literal matches; one that could match only through a word computed at run time
 * makes the call unreadable.
 */
function matchPrefix(index: PolicyIndex, inv: Invocation): { key: string } | { dynamic: string } | null {
  const words: Word[] = [{ text: inv.name, dynamic: false }, ...inv.args];
  for (const prefix of index.bashPrefixes()) {
    if (prefix.words.length > words.length) continue;
    let ok = true;
    for (let k = 0; k < prefix.words.length; k++) {
      const expected = k === 0 ? baseName(prefix.words[0]!) : prefix.words[k]!;
      const word = words[k]!;
      if (word.dynamic) return { dynamic: `${words.slice(0, k + 1).map((w) => w.text).join(' ')} could be ${prefix.words.join(' ')}` };
      if (word.text !== expected) {
        ok = false;
        break;
      }
    }
    if (ok) return { key: prefix.key };
  }
  return null;
}

/**
 * PowerShell's simple forms, rewritten for the bash reader: block comments dropped, backslashes
 * (path separators there) made slashes, the backtick escape made a backslash escape and a
 * backtick at the end of a line a continuation. `;`, `|`, quotes, `$(…)`, `&` and `#` read alike.
 */
export function powershellAsPosix(command: string): string {
  return command
    .replace(/<#[\s\S]*?#>/g, ' ')
    .replace(/\\/g, '/')
    .replace(/`\r?\n/g, '')
    .replace(/`([\s\S])/g, (_, c: string) => `\\${c}`);
}

const unreadable = (detail: string): ShellReading => ({ matched: [], writes: [], mentions: [], directories: [], gateCommands: [], unparsable: detail });

/** SPEC §3 step 3 for Bash and PowerShell: what the command line runs, writes, and asks of persona-gate. */
export function readShellCall(index: PolicyIndex, event: ToolEvent): ShellReading | null {
  if (event.tool_name !== 'Bash' && event.tool_name !== 'PowerShell') return null;
  const command = event.tool_input.command;
  if (typeof command !== 'string') return unreadable('the command is missing or not a string');
  const raw = readCommandLine(event.tool_name === 'PowerShell' ? powershellAsPosix(command) : command);
  if (raw.unparsable) return unreadable(raw.unparsable);
  const directories = workingDirectories(raw.invocations);
  const matched: Subject[] = [];
  const writes: string[] = [];
  const mentions: ShellReading['mentions'] = [];
  const gateCommands: string[] = [];
  for (const inv of raw.invocations) {
    for (const target of writeTargets(inv)) {
      if (target.dynamic) return unreadable(`a write target computed at run time (${target.text})`);
      writes.push(target.text);
    }
    const gate = gateSubcommand(inv);
    if (gate && isStateChangingGateCall(gate.args)) {
      gateCommands.push(`persona-gate's own state (persona-gate ${gate.args.map((w) => w.text).join(' ')})`.replace(/ \)$/, ')'));
    }
    if (!gate) for (const path of mentionedPaths(inv)) mentions.push({ path, program: inv.name });
    if (mentions.length > MAX_MENTIONED_PATHS) return unreadable(`more than ${MAX_MENTIONED_PATHS} paths handed to programs`);
    if (inv.name === '') continue;
    const match = matchPrefix(index, inv);
    if (match === null) continue;
    if ('dynamic' in match) return unreadable(`an argument computed at run time (${match.dynamic})`);
    const subject = subjectForCommand(index, match.key, 'shell');
    if (subject && !matched.some((s) => s.key === subject.key)) matched.push(subject);
  }
  if (directories === null && [...writes, ...mentions.map((m) => m.path)].some((path) => !isAbsoluteOrHome(path))) {
    return unreadable('a relative path used after a change to a directory known only at run time');
  }
  return { matched, writes, mentions, directories: directories ?? [], gateCommands };
}
