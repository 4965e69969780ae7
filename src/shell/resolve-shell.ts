import type { ShellReading } from '../core/decide';
import type { ToolEvent } from '../core/event';
import type { PolicyIndex } from '../core/policy-index';
import { subjectForCommand, type Subject } from '../core/resolve';
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

/** SPEC §3 step 3 for Bash and PowerShell: what the command line runs, writes, and asks of persona-gate. */
export function readShellCall(index: PolicyIndex, event: ToolEvent): ShellReading | null {
  if (event.tool_name !== 'Bash' && event.tool_name !== 'PowerShell') return null;
  const command = event.tool_input.command;
  if (typeof command !== 'string') return { matched: [], writes: [], gateCommands: [], unparsable: 'the command is missing or not a string' };
  const raw = readCommandLine(event.tool_name === 'PowerShell' ? powershellAsPosix(command) : command);
  if (raw.unparsable) return { matched: [], writes: [], gateCommands: [], unparsable: raw.unparsable };
  const matched: Subject[] = [];
  const writes: string[] = [];
  const gateCommands: string[] = [];
  for (const inv of raw.invocations) {
    for (const target of writeTargets(inv)) {
      if (target.dynamic) return { matched: [], writes: [], gateCommands: [], unparsable: `a write target computed at run time (${target.text})` };
      writes.push(target.text);
    }
    const gate = gateSubcommand(inv);
    if (gate && isStateChangingGateCall(gate.args)) {
      gateCommands.push(`persona-gate's own state (persona-gate ${gate.args.map((w) => w.text).join(' ')})`.replace(/ \)$/, ')'));
    }
    if (inv.name === '') continue;
    const match = matchPrefix(index, inv);
    if (match === null) continue;
    if ('dynamic' in match) return { matched: [], writes: [], gateCommands: [], unparsable: `an argument computed at run time (${match.dynamic})` };
    const subject = subjectForCommand(index, match.key, 'shell');
    if (subject && !matched.some((s) => s.key === subject.key)) matched.push(subject);
  }
  return { matched, writes, gateCommands };
}
