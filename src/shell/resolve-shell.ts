import type { ShellPart, ShellReading, ShellInvocationSummary } from '../core/decide';
import type { ToolEvent } from '../core/event';
import { exceeds, higherLevel, type Level } from '../core/levels';
import { bashPrograms, type PolicyIndex } from '../core/policy-index';
import { subjectForCommand, type Subject } from '../core/resolve';
import { isAbsoluteOrHome, type PathEffect } from '../core/types';
import { assignmentLength, baseName, readCommandLine, type Invocation } from './commands';
import { getopt } from './getopt';
import { treeFacts, type TreeFacts } from './syntax/facts';
import { appendedReach, classifyWith, mayBecomeOption, onlyReadsWhatItIsHanded, subcommandPath } from './read/classify';
import { isClosed, programFor } from './registry/policy-programs';
import { parentOf } from './registry/readers';
import { printsNumber } from './read/prints-number';
import { labelText, partText, quoteWords, reasonText, type Reason } from './reasons';
import { unreadableText, type Unreadable } from './unreadable';
import type { Locale } from '../core/messages';
import { decodeAnsiC } from './syntax/parser';
import { partsText, viewOf, type Word } from './syntax/word';

/** The excluded launcher's plan of a line and its answer (src/exec), shipped in this bundle beside the reader whose parser it uses. */
export { launchPlan } from '../exec/plan';
export { settleStart } from '../exec/settle';
import { collapseDots, RUNS_COMMANDS_DIRS, runsCommandsLater } from '../core/runs-later';
import {
  inSystemDirectory,
  READING_OPTION_CLUSTER,
  READS_WHATEVER_ARGUMENTS,
  REMOVES_WHATEVER_ARGUMENTS,
  RUNTIME_VARIABLES,
  TAKES_COMMANDS,
  SHOPT_KEEPS_READING,
  SOURCES,
} from './programs';

/**
 * SPEC §3 step 3 and §9 items 1–5 for Bash and PowerShell: every program a command line may run,
 * classified (catalogued command, builtin, reader, writer, network program, or opaque
 * `process_exec`), what it does to paths (for gate 0), and what it asks of persona-gate itself.
 */

const COMPLETED_READERS = new Set(READS_WHATEVER_ARGUMENTS);
const COMPLETED_REMOVERS = new Set(REMOVES_WHATEVER_ARGUMENTS);

/** Redirections that write to their target. */
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
/** Redirection targets that are not files of the workspace. */
const NOT_A_FILE = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+|zero)$/;
/** Builtins that set the variables their operands name. */
const NAMING_SETTERS = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'read', 'mapfile', 'readarray', 'getopts', 'unset']);
/** The options of those builtins that take a value which is not a variable's name. */
const SETTER_VALUE_OPTIONS: Readonly<Record<string, string>> = {
  __proto__: null as never,
  read: 'dinNptu',
  mapfile: 'dnOsuc',
  readarray: 'dnOsuc',
};
/** The builtins that declare variables: `-n` makes a nameref, `-i` an integer. */
const DECLARERS = ['declare', 'typeset', 'local'];
/** `set -o` options that change how later words are read. */
const READING_SET_OPTIONS = /^(keyword|history|histexpand)$/;

/**
 * Why the line's words are not what the reader reads, or null: `set -k` (assignments anywhere
 * leave argv), `set -H` (history expansion), shopt options that change globbing, directories or
 * aliases (`nocaseglob`, `nullglob`, `cdable_vars`, `expand_aliases` …), a nameref (every later
 * assignment may set another variable), a variable named at run time (`declare ${x}ME=…`).
 */
function shellOptionsChangingReading(invocations: readonly Invocation[]): Unreadable | null {
  for (const inv of invocations) {
    const args = inv.args;
    if (inv.name === 'set') {
      for (let k = 0; k < args.length; k++) {
        const t = args[k]!.text;
        if (args[k]!.dynamic) return { id: 'set_option_at_run_time' };
        if (READING_OPTION_CLUSTER.test(t)) return { id: 'set_changes_reading', subject: t };
        if (t === '-o' && READING_SET_OPTIONS.test(args[k + 1]?.text ?? ''))
          return { id: 'set_o_changes_reading', subject: args[k + 1]!.text };
      }
    }
    if (inv.name === 'shopt' && !args.some((w) => w.text === '-u')) {
      const setOptions = args.some((w) => /^-[a-z]*o/.test(w.text));
      for (const w of args) {
        if (w.dynamic || w.pattern) return { id: 'shopt_option_at_run_time' };
        if (w.text.startsWith('-')) continue;
        // nullglob drops a pattern that matches nothing: harmless in a line with no pattern
        if (
          w.text === 'nullglob' &&
          !setOptions &&
          !invocations.some((i) => i.args.some((a) => a.pattern) || i.redirects.some((r) => r.target.pattern))
        )
          continue;
        if (setOptions ? READING_SET_OPTIONS.test(w.text) : !SHOPT_KEEPS_READING.has(w.text))
          return { id: 'shopt_changes_reading', subject: w.text };
      }
    }
    if ((inv.name === 'mapfile' || inv.name === 'readarray') && args.some((w) => /^-[a-zA-Z]*C/.test(w.text)))
      return { id: 'callback', subject: inv.name };
    // `O=-vPATH; printf "$O" /tmp; ls`: a format known only at run time may be -v, setting a variable the rest of the line reads
    if (inv.name === 'printf' && args[0] !== undefined && mayBecomeOption(args[0]) && invocations.length > 1)
      return { id: 'setter_option_at_run_time', subject: inv.name, detail: args[0].text };
    if (NAMING_SETTERS.has(inv.name) || (inv.name === 'printf' && args.some((w) => /^-[a-zA-Z]*v/.test(w.text)))) {
      const values = SETTER_VALUE_OPTIONS[inv.name] ?? '';
      let operand = 0;
      for (let k = 0; k < args.length; k++) {
        const w = args[k]!;
        if (w.dynamic && w.text.startsWith('-')) return { id: 'setter_option_at_run_time', subject: inv.name, detail: w.text };
        if (/^-[a-zA-Z]*n/.test(w.text) && DECLARERS.includes(inv.name)) return { id: 'nameref', subject: inv.name, detail: w.text };
        if (w.text.startsWith('-') && w.text.length > 1) {
          // an option that takes a value: the rest of the word, or the next word, is not a name (`read -rp PROMPT`)
          for (let c = 1; c < w.text.length; c++) {
            if (!values.includes(w.text[c]!)) continue;
            if (c === w.text.length - 1) k++;
            break;
          }
          continue;
        }
        const index = operand++;
        if (inv.name === 'printf' && !/^-[a-zA-Z]*v$/.test(args[k - 1]?.text ?? '')) continue;
        if (inv.name === 'getopts' && index !== 1) continue;
        const name = w.text.split(/[=[]/)[0]!.replace(/\+$/, '');
        if (!/^[A-Za-z_]\w*$/.test(name)) return { id: 'sets_variable_named_at_run_time', subject: inv.name, detail: w.text };
      }
    }
  }
  return null;
}

/**
 * The texts bash evaluates as arithmetic: what the tree says (`$((…))`, `((…))`, `$[…]`, the
 * numeric tests of `[[ … ]]` and `-v`, `${s:OFFSET}`, subscripts, `${!name}`), `let` arguments,
 * subscripts of assignments handed to builtins (`declare a[$(x)]=1`), and every assignment in a
 * line that declares an integer (`declare -i`).
 */
function arithmeticTexts(facts: TreeFacts, invocations: readonly Invocation[]): string[] {
  const out = facts.arithmetic.filter((t) => t !== '@' && t !== '*');
  for (const inv of invocations) {
    if (inv.name === 'let') out.push(...inv.args.map((w) => w.text));
    for (const w of inv.args) {
      const length = assignmentLength(w.text);
      const open = w.text.indexOf('[');
      if (length !== -1 && open !== -1 && open < length) out.push(w.text.slice(open + 1, w.text.lastIndexOf(']', length)));
    }
  }
  if (invocations.some((inv) => DECLARERS.includes(inv.name) && inv.args.some((w) => /^[-+][a-zA-Z]*i/.test(w.text)))) {
    for (const inv of invocations)
      out.push(
        ...inv.assignments.map((a) => a.slice(a.indexOf('=') + 1)),
        ...inv.args.filter((w) => w.text.includes('=')).map((w) => w.text.slice(w.text.indexOf('=') + 1)),
      );
  }
  return out;
}

/**
 * A text with each command substitution whose output is only numbers (read/prints-number.ts)
 * put as a number: what bash evaluates of it as arithmetic can run nothing. A program the line
 * defines a function of is not that program.
 */
function numbersFor(facts: TreeFacts, functions: ReadonlySet<string>): (text: string) => string {
  const numeric = new Set<string>();
  for (const o of facts.outputs)
    if (
      o.words.every((w) => !viewOf(w).dynamic && !viewOf(w).pattern) &&
      !functions.has(viewOf(o.words[0]!).text) &&
      printsNumber(o.words.map((w) => viewOf(w).text))
    )
      numeric.add(`$(${o.source})`);
  // each is looked for in every text: past a few, none is read as a number (the reader stays linear)
  if (numeric.size === 0 || numeric.size > MAX_NUMERIC_OUTPUTS) return (text) => text;
  return (text) => [...numeric].reduce((t, n) => (t.includes(n) ? t.split(n).join('0') : t), text);
}

/** More different commands printing numbers in one line than this: none of them is read as a number. */
const MAX_NUMERIC_OUTPUTS = 16;

/** Variables the line gives a value known only at run time: read, loops over expansions or files, a command's output, an expansion. */
function runtimeNames(facts: TreeFacts, invocations: readonly Invocation[], numbers: (text: string) => string): Set<string> {
  const names = new Set<string>();
  for (const loop of facts.loops) if (loop.runtime) names.add(loop.name);
  for (const inv of invocations) {
    for (const a of inv.assignments) {
      // `start=$(date +%s)`: a number
      const value = numbers(a.slice(a.indexOf('=') + 1).replace(/^"(.*)"$/s, '$1')).replace(/\$\(\([^]*?\)\)/g, '');
      if (value.includes('$') || value.includes('`') || value.startsWith('(')) names.add(a.split(/[=+[]/)[0]!);
    }
    if (RUNTIME_VALUE_SETTERS.has(inv.name) || inv.name === 'printf')
      for (const w of inv.args) if (/^[A-Za-z_]\w*$/.test(w.text)) names.add(w.text);
    if (DECLARERS.includes(inv.name) || inv.name === 'export' || inv.name === 'readonly')
      for (const w of inv.args) if (w.text.includes('=') && (w.dynamic || w.text.includes('$'))) names.add(w.text.split(/[=+[]/)[0]!);
  }
  return names;
}

/**
 * The variables a line sets: its assignments (before a command, or handed to `env`), the operands
 * of the builtins that set or unset the variables they name (`read HOME`, `export HOME=x`,
 * `printf -v HOME`, `unset HOME`), and those set without an assignment word.
 */
function variablesSet(invocations: readonly Invocation[], withoutAssignment: readonly string[]): Set<string> {
  const set = new Set(withoutAssignment);
  const nameOf = (text: string) => text.split(/[=[]/)[0]!.replace(/\+$/, '');
  for (const inv of invocations) {
    for (const a of inv.assignments) set.add(nameOf(a));
    if (NAMING_SETTERS.has(inv.name) || inv.name === 'printf')
      for (const w of inv.args) if (!w.text.startsWith('-')) set.add(nameOf(w.text));
  }
  return set;
}

/** Builtins that set a variable to a value known only at run time. */
const RUNTIME_VALUE_SETTERS = new Set(['read', 'mapfile', 'readarray', 'getopts']);
/** `$HOME/…` or `${HOME}/…` with no other expansion. */
const HOME_PATH = /^\$(HOME|\{HOME\})(\/[^$`\\]*)?$/;
/** More guarded-path checks than this in one command line: unreadable. */
const MAX_EFFECTS = 512;
const tooManyPaths: Unreadable = { id: 'more_than', subject: String(MAX_EFFECTS), detail: 'paths' };
/** A longer path cannot name a file (PATH_MAX): unreadable. */
const MAX_PATH_LENGTH = 4096;
/** At most this many readings of one invocation, one for each combination of the values its words are known to take. */
const MAX_KNOWN_COMBINATIONS = 16;

/**
 * An invocation read once for each value the line gives its words (`for d in /tmp/a /tmp/b; do rm
 * -r "$d"; done` is `rm -r /tmp/a` and `rm -r /tmp/b`): every combination of the values of its
 * arguments and redirection targets, more than ever run together, never fewer. As it is when no
 * word has such values or the combinations pass MAX_KNOWN_COMBINATIONS.
 */
function withKnownValues(inv: Invocation): Invocation[] {
  const known = (w: Word) => w.dynamic && w.values !== undefined;
  let combinations = 1;
  for (const w of [...inv.args, ...inv.redirects.map((r) => r.target)]) if (known(w)) combinations *= w.values!.length;
  if (combinations === 1 && !inv.args.some(known) && !inv.redirects.some((r) => known(r.target))) return [inv];
  if (combinations > MAX_KNOWN_COMBINATIONS) return [inv];
  let out: Invocation[] = [{ ...inv, args: [], redirects: [] }];
  const each = (w: Word): Word[] =>
    known(w) ? w.values!.map((text) => ({ ...w, text, dynamic: false, pattern: false, startsPlain: true, values: undefined })) : [w];
  for (const w of inv.args) out = out.flatMap((o) => each(w).map((v) => ({ ...o, args: [...o.args, v] })));
  for (const r of inv.redirects)
    out = out.flatMap((o) => each(r.target).map((target) => ({ ...o, redirects: [...o.redirects, { ...r, target }] })));
  return out;
}
/** More alternatives than this from one brace expansion: unreadable. */
const MAX_BRACE_ALTERNATIVES = 64;
/** Where a path can end inside code: quotes, brackets and the punctuation around it. */
const HOST_DIRS = /(^|\/)\.(claude|codex|gemini|qwen|factory|copilot)(\/|$)/i;

interface Classified {
  level: Level;
  kind: ShellInvocationSummary['kind'];
  opaque?: Reason;
  /** Why it has its level, when nothing made it opaque. */
  reason?: Reason;
  /** The subcommands read (`remote add`). */
  path?: string[];
  effects: { path: Word; effect: PathEffect }[];
  /** What xargs appends to it is read too (its spec's readsWhatItIsHanded). */
  readsWhatItIsHanded?: true;
  /** The level what xargs appends may reach, when it would be a subcommand (`xargs git`). */
  appendedReach?: Level;
}

/** The text of an invocation's words as the line spells them: its span in the text it was read from, else its words joined. */
export function invocationWords(inv: Invocation): string {
  const words = inv.program ? [inv.program, ...inv.args] : inv.args;
  let start = Infinity;
  let end = -1;
  for (const w of words) {
    if (!w.node) return words.map((x) => x.text).join(' ');
    if (w.node.start < start) start = w.node.start;
    if (w.node.end > end) end = w.node.end;
  }
  return end > start && end <= inv.source.length ? inv.source.slice(start, end) : words.map((x) => x.text).join(' ');
}

const word = (text: string, like?: Word): Word => ({
  text,
  dynamic: like?.dynamic ?? false,
  pattern: like?.pattern ?? false,
  quoted: like?.quoted ?? false,
  ansi: false,
});

/** An ANSI-C quoted string, `$'…'` (linear: no nested repetition). */
const ANSI_C_QUOTE = /\$'[^'\\]*(?:\\[\s\S][^'\\]*)*'/g;

/**
 * How code a shell will read again may spell a name: as written, and after each of three rounds of
 * what that shell does first — line continuations joined, ANSI-C quotes (`$'\x61'`) decoded, one
 * level of backslash escapes and the quotes taken out — and, before each round, as a program that
 * decodes C escapes would write it. Each round is linear.
 */
function spellings(text: string): string {
  const out = [text];
  let current = text;
  for (let round = 0; round < 3; round++) {
    // a program that decodes C escapes in its data writes the text so, each round (printf '\taeat')
    out.push(...cEscapeSpellings(current.replace(/\\\n/g, '')));
    current = current
      .replace(/\\\n/g, '')
      .replace(ANSI_C_QUOTE, (whole: string) => {
        try {
          return decodeAnsiC(whole, 2).text;
        } catch {
          return whole;
        }
      })
      .replace(/\\([\s\S])/g, '$1')
      .replace(/['"]/g, '');
    out.push(current);
  }
  return out.join('\n');
}

/** A C escape as printf, `echo -e` and `$'…'` decode it anywhere in a text (`\n`, `\t`, `\x61`, `\0141`, `\cA`). */
const C_ESCAPE = /\\(?:0[0-7]{1,3}|[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|c[\s\S]|[abeEfnrtv])/g;

/**
 * The text as a program that decodes C escapes in its data would write it (printf's format,
 * `echo -e`, `$'…'`): each escape decoded both as `$'…'` reads it and as printf reads `\0NNN`, and
 * each replaced by a space, so that a name right after `\n` or `\t` starts a word.
 */
function cEscapeSpellings(text: string): string[] {
  if (!text.includes('\\')) return [];
  const decode = (printf: boolean) =>
    text.replace(C_ESCAPE, (e) => {
      const body = printf && /^\\0[0-7]/.test(e) ? `\\${e.slice(2)}` : e;
      try {
        return decodeAnsiC(`${body}'`, 0).text;
      } catch {
        return ' ';
      }
    });
  return [text.replace(C_ESCAPE, ' '), decode(false), decode(true)];
}

/** Variables whose value programs run or load (`GIT_SEQUENCE_EDITOR`, `SUDO_ASKPASS`, `*_COMMAND`). */
const COMMAND_VARIABLE =
  /(EDITOR|PAGER|COMMAND|CMD|SHELL|PROGRAM|ASKPASS|HOOK|HOOKS|EXEC|PRELOAD|OPT|OPTS|OPTIONS|DEFAULTS|SUFFIX|RC|ENV|PROFILE|PATH)$|^(GIT_|LD_|DYLD_|BASH_|ZSTD_|XDG_|PS[0-4]$|PROMPT_|PARALLEL(_|$)|(GZIP|BZIP2?|HOME|TAPE|VERSION_CONTROL)$)/;

/** Variables whose value is a command line a program runs with `sh -c`: pagers and editors. */
const COMMAND_LINE_VARIABLES: ReadonlySet<string> = new Set([
  'PAGER',
  'GIT_PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'BAT_PAGER',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
]);

/**
 * `GIT_PAGER=cat`, `GIT_EDITOR=true`: a pager or an editor set to one program that only reads what
 * it is handed (none of which takes commands at a terminal; SPEC §9.5: ordinary work is not refused).
 */
function plainCommandVariable(assignment: string): boolean {
  const eq = assignment.indexOf('=');
  if (eq === -1 || !COMMAND_LINE_VARIABLES.has(assignment.slice(0, eq))) return false;
  const value = assignment.slice(eq + 1);
  return onlyReadsWhatItIsHanded(value);
}

/**
 * Builtins that IFS, assigned before them, only tells how to split what they read: `IFS= read -r
 * line`, `IFS=, read -ra cols`. They are not special, so the assignment ends with them (in bash,
 * bash --posix and dash alike), and a shell started later takes no IFS from its environment.
 */
const SPLITTING_BUILTINS = new Set(['read', 'mapfile', 'readarray']);

/** Whether an assignment before `inv` is IFS for one of those builtins, named plainly (so the builtin is what runs). */
function onlyForThisBuiltin(variable: string, inv: Invocation): boolean {
  const program = inv.program;
  return (
    variable === 'IFS' &&
    SPLITTING_BUILTINS.has(inv.name) &&
    program !== null &&
    !program.dynamic &&
    !program.pattern &&
    program.text === inv.name
  );
}

/** Builtins that set variables by name (`printf -v PS4`, `read PATH`, `export BASH_ENV`). */
const VARIABLE_SETTERS = new Set([
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'printf',
  'read',
  'mapfile',
  'readarray',
  'getopts',
  'let',
  'set-variable',
  'new-variable',
  'sv',
]);

/** SPEC §9.1: a simple command's level, what it runs that cannot be read, and what it does to paths, read through the program registry. */
function classify(inv: Invocation, powershell: boolean, index: PolicyIndex): Classified {
  const name = powershell ? inv.name.toLowerCase() : inv.name;
  const args = inv.args;
  if (inv.opaque !== undefined)
    return inv.opaque.id === 'syncs_and_runs_project_program'
      ? { level: 'network', kind: 'network', opaque: inv.opaque, effects: [] }
      : { level: 'process_exec', kind: 'exec', opaque: inv.opaque, effects: [] };
  if (name === '') return { level: 'none', kind: 'builtin', effects: [] };
  // a function of the program's name does not change its reading: it may be defined after the call,
  // in a subshell, or never.
  // A program named by a path is the known program only in the system's own directories (`./cat` may be anything)
  const program = inv.program?.text ?? '';
  if (!inSystemDirectory(program)) {
    return { level: 'process_exec', kind: 'exec', opaque: { id: 'program_by_path', subject: program }, effects: [] };
  }
  if (VARIABLE_SETTERS.has(name)) {
    const changes = args.find((w) => {
      const variable = w.text.split(/[=[]/)[0]!.replace(/\+$/, '');
      if (!w.dynamic && !w.pattern && plainCommandVariable(w.text)) return false;
      return RUNTIME_VARIABLES.has(variable) || (/^[A-Za-z_]\w*$/.test(variable) && COMMAND_VARIABLE.test(variable));
    });
    if (changes)
      return {
        level: 'process_exec',
        kind: 'exec',
        opaque: { id: 'sets_runtime_variable', subject: `${name} ${changes.text.split(/[=[]/)[0]}` },
        effects: [],
      };
  }
  if (name === 'hash' && args.some((w) => w.text !== '--' && /^-[a-zA-Z]*p/.test(w.text)))
    return { level: 'process_exec', kind: 'exec', opaque: { id: 'hash_path', subject: 'hash -p' }, effects: [] };
  const spec = programFor(index, name, powershell);
  if (!spec) {
    // `--help` and `--version` of any program only print, and the short ones of the programs that take them so
    const alone = args.length === 1 ? args[0]!.text : '';
    if ((alone === '--help' || alone === '--version' || shortHelp(name).includes(alone)) && !args[0]!.dynamic && !program.includes('/'))
      return { level: 'read_only', kind: 'reader', reason: { id: 'help', subject: inv.name }, effects: [] };
    return { level: 'process_exec', kind: 'exec', opaque: { id: 'unknown_program', subject: inv.name }, effects: [] };
  }
  const read = classifyWith(spec, args);
  const appended = inv.completed ? appendedReach(spec, args) : null;
  // the arguments xargs or find append are files: a filter handed none of its own reads those
  const c = inv.completed && spec.stdinAlone === true && read.level === 'none' ? { ...read, level: 'read_only' as const } : read;
  return {
    level: c.level,
    kind: c.kind,
    ...(c.opaque ? { opaque: c.opaque } : c.reason ? { reason: c.reason } : {}),
    path: c.path,
    effects: c.effects,
    ...(c.readsWhatItIsHanded ? { readsWhatItIsHanded: true as const } : {}),
    ...(appended !== null ? { appendedReach: appended } : {}),
  };
}

/**
 * The short options that print help or the version and exit, before any code or startup file is
 * read, of programs the registry does not know: `node -v`, `python3 -V`, `perl -v`, `rustc -V`.
 */
function shortHelp(name: string): readonly string[] {
  if (name === 'node' || name === 'nodejs') return ['-v', '-h'];
  if (name === 'perl') return ['-v', '-h'];
  if (name === 'rustc') return ['-V', '-h'];
  if (/^python(\d+(\.\d+)*)?$/.test(name)) return ['-V', '-h'];
  return [];
}

/** Interpreters with a read-eval-print loop: started without code, they run what arrives on stdin. */
const REPL_NAMES: ReadonlySet<string> = new Set([
  'node',
  'nodejs',
  'ruby',
  'irb',
  'pry',
  'perl',
  'php',
  'lua',
  'luajit',
  'deno',
  'bun',
  'tclsh',
  'wish',
  'julia',
  'ghci',
  'jshell',
  'R',
]);
/** `/^(python[\d.]*|pypy[\d.]*|node|nodejs|ruby|…|R)$/`: python and pypy with any version after them. */
export function isRepl(base: string): boolean {
  if (REPL_NAMES.has(base)) return true;
  const stem = base.startsWith('python') ? 6 : base.startsWith('pypy') ? 4 : -1;
  if (stem === -1) return false;
  for (let i = stem; i < base.length; i++) {
    const c = base.charCodeAt(i);
    if (c !== 0x2e && (c < 0x30 || c > 0x39)) return false;
  }
  return true;
}
/** Their options that take the code (or a module) to run, so that stdin is not read as code. */
const CODE_OPTIONS = /^(-[a-zA-Z]*[cemp]|--eval|--print|--command|-r|--require)$/;
/** Paths that are a program's stdin. */
const STDIN_PATH = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0|\/dev\/tty)$/;

/**
 * Whether a program takes code or commands from its stdin: a shell with neither `-c` nor a script,
 * an interpreter with neither code nor a script (or told `-`, `-i`, `repl`), `source /dev/stdin`, an
 * awk or sed program that runs commands, a program with commands of its own at a terminal. On a
 * host that lets a running command be given input later without a hook event (Codex's
 * write_stdin), what it then runs is never seen. Returns why, or null.
 */
function readsCodeFromStdin(inv: Invocation, opaque: Reason | undefined): Reason | null {
  if (opaque?.id === 'starts_shell' || opaque?.id === 'shell_reads_stdin') return opaque;
  const base = inv.name.slice(inv.name.lastIndexOf('/') + 1);
  const args = inv.args.map((w) => w.text);
  if ((base === 'source' || base === '.') && (args.length === 0 || STDIN_PATH.test(args[0]!)))
    return { id: 'source_reads_stdin', subject: base };
  if (TAKES_COMMANDS.has(base)) return { id: 'takes_commands_at_terminal', subject: base };
  // `script FILE` starts a shell (FILE is where it records), read here as a wrapper around FILE.
  const wrapper = inv.via.find((v) => TAKES_COMMANDS.has(v));
  if (wrapper !== undefined) return { id: 'takes_commands_at_terminal', subject: wrapper };
  // awk's and sed's readers say when a program runs commands its input may give it (awk-program.ts, sed-script.ts)
  if (opaque?.id === 'runs_commands_from_input' || opaque?.id === 'awk_program_unread' || opaque?.id === 'sed_runs_commands_from_input')
    return opaque;
  if (!isRepl(base)) return null;
  if (args.some((a) => a === '-' || a === '-i' || a === '--interactive' || a === 'repl'))
    return opaque ?? { id: 'reads_code_from_stdin', subject: base };
  for (const a of args) {
    if (CODE_OPTIONS.test(a) || !a.startsWith('-')) return null;
  }
  return opaque ?? { id: 'reads_code_from_stdin', subject: base };
}

const unreadableIn = (locale: Locale, problem: Unreadable): ShellReading => ({
  matched: [],
  level: 'process_exec',
  invocations: [],
  unlisted: [],
  opaque: [],
  decided: [],
  opaqueNames: [],
  stdinCode: [],
  effects: [],
  directories: [],
  gateCommands: [],
  mayRearm: false,
  confirmsIdentity: false,
  unparsable: unreadableText(problem, locale),
});

/** cd's options (`cd -P dir`). */
const CD_OPTIONS = { options: ['-L', '-P', '-e', '-@'].map((n) => ({ names: [n] })) };

/** Programs that change the directory the rest of the command line runs in. */
const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'chdir', 'set-location', 'sl', 'push-location']);
/** Options that make a program work in another directory (`git -C`, `make -C`, `env --chdir`, `tar --directory`). */
const DIRECTORY_OPTIONS = ['-C', '--chdir', '--directory', '--cwd'];
/**
 * `/^(-C|--chdir|--directory|--cwd)(=|$)/`: where the option's value starts in the word (after `=`),
 * 0 when it is the next word, -1 when the word is none of these options.
 */
export function directoryOptionValue(word: string): number {
  for (const option of DIRECTORY_OPTIONS) {
    if (word === option) return 0;
    if (word.length > option.length && word.charCodeAt(option.length) === 0x3d && word.startsWith(option)) return option.length + 1;
  }
  return -1;
}
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
  // DIRSTACK[1]=DIR sends the next popd anywhere; with `shopt -s cdable_vars`, `cd x` goes where $x says
  const words = invocations.flatMap((inv) => [...inv.assignments, ...inv.args.map((w) => w.text)]);
  if (words.some((w) => w.includes('DIRSTACK'))) return null;
  const cdableVars =
    words.includes('cdable_vars') ||
    invocations.some((inv) => (inv.name === 'shopt' || inv.name === 'set') && inv.args.some((w) => w.dynamic));
  for (const inv of invocations) {
    const name = inv.name.toLowerCase();
    if (DIRECTORY_CHANGERS.has(name) && cdableVars) return null;
    if (DIRECTORY_CHANGERS.has(name)) {
      const target = getopt(inv.args, CD_OPTIONS).operands[0];
      if (target === undefined) add('~');
      else if (target.dynamic || target.pattern || target.text === '-' || /^~[^/]/.test(target.text)) return null;
      else add(target.text);
    }
    for (const dir of inv.chdir) {
      if (dir === null || /^~[^/]/.test(dir)) return null;
      add(dir);
    }
    for (const [k, w] of inv.args.entries()) {
      const at = directoryOptionValue(w.text);
      if (at === -1) continue;
      const value = at > 0 ? { text: w.text.slice(at), dynamic: w.dynamic } : inv.args[k + 1];
      if (value && !value.dynamic) add(value.text);
    }
  }
  return dirs;
}

/** persona-gate subcommands that change nothing. */
const READ_ONLY_SUBCOMMANDS: Record<string, string[] | true> = {
  __proto__: null as never,
  explain: true,
  list: true,
  validate: true,
  schema: true,
  log: true,
  doctor: true,
  status: true,
  test: true,
  replay: true,
  session: ['show'],
  config: ['get', 'list'],
  help: true,
  '--help': true,
  '-h': true,
  '--version': true,
  '-V': true,
};

/** `/^persona-gate(@[^/]*)?$|^persona-gate(\.c?js)?$/`: the program's name, a version pinned to it, its script. */
export function isGateProgram(name: string): boolean {
  if (!name.startsWith('persona-gate')) return false;
  const rest = name.slice('persona-gate'.length);
  return rest === '' || rest === '.js' || rest === '.cjs' || (rest.charCodeAt(0) === 0x40 && !rest.includes('/'));
}

/** The persona-gate subcommand an invocation runs, if it runs persona-gate at all. */
function gateSubcommand(inv: Invocation): { args: Word[] } | null {
  const name = inv.name;
  if (isGateProgram(name)) return { args: inv.args };
  if (name === 'node' || name === 'nodejs' || name === 'bun' || name === 'tsx') {
    if (inv.args.some((w) => /^(-e|-p|--eval|--print|-r|--require|--import|--loader)(=|$)/.test(w.text))) return null;
    const script = inv.args.findIndex((w) => !w.text.startsWith('-'));
    if (script !== -1 && isGateProgram(baseName(inv.args[script]!.text))) return { args: inv.args.slice(script + 1) };
  }
  return null;
}

function isStateChangingGateCall(args: Word[], completed: boolean): boolean {
  if (completed || args.some((w) => w.dynamic || w.pattern)) return true;
  const words = args.filter((w) => !w.text.startsWith('--') || ['--help', '--version'].includes(w.text)).map((w) => w.text);
  const sub = words[0];
  if (sub === undefined) return false;
  const rule = READ_ONLY_SUBCOMMANDS[sub];
  if (rule === true) return false;
  if (Array.isArray(rule)) return !rule.includes(words[1] ?? '');
  return true;
}

/**
 * The registry's reading of an invocation that only prints its help or version, with nothing
 * added at run time; else null. Help is always asked for by an option, a word that starts with a
 * dash: an invocation without one is not read here.
 */
function helpReading(index: PolicyIndex, inv: Invocation, powershell: boolean): Classified | null {
  if (inv.completed || !inv.args.some((w) => w.text.startsWith('-'))) return null;
  if (isClosed(index, inv.name) || programFor(index, inv.name, powershell) === null) return null;
  const c = classify(inv, powershell, index);
  return c.reason?.id === 'help' && c.opaque === undefined && !exceeds(c.level, 'read_only') ? c : null;
}

/** An invocation judged under its own name and words, at a level found without the registry's reading. */
function entryOf(
  inv: Invocation,
  level: ShellInvocationSummary['level'],
  kind: ShellInvocationSummary['kind'],
  reason: Reason,
): ShellInvocationSummary {
  return { program: inv.name, args: inv.args.map((w) => w.text), words: invocationWords(inv), path: [], level, kind, reason };
}

/**
 * `--help` alone after a proper prefix of a closed program's catalogued commands (`aeat --help`,
 * `aeat modelo --help`): the help of that group. Never after a whole command, which a program that
 * ignored the option would run (`aeat modelo export --help` stays the export).
 */
function closedGroupHelp(index: PolicyIndex, inv: Invocation): boolean {
  const words = inv.args;
  if (inv.completed || words.length === 0 || words.some((w) => w.dynamic || w.pattern)) return false;
  if (words.at(-1)!.text !== '--help') return false;
  const group = words.slice(0, -1).map((w) => w.text);
  return index
    .bashPrefixes()
    .some((p) => baseName(p.words[0]!) === inv.name && p.words.length - 1 > group.length && group.every((w, k) => p.words[k + 1] === w));
}

/**
 * The catalogued command an invocation is, by its `bash` prefixes (longest first). A prefix is
 * matched against the invocation's subcommands once the program's options before them are set
 * aside (`npm --registry R publish` is `npm publish`), then its other words in order; a program
 * the registry and the policy do not know is matched word by word. A prefix that could match only
 * through a word computed at run time, or behind an option persona-gate does not know, makes the
 * call unreadable.
 */
function matchPrefix(index: PolicyIndex, inv: Invocation, powershell: boolean): { key: string } | { dynamic: Unreadable } | null {
  const spec = programFor(index, inv.name, powershell);
  const read = spec ? subcommandPath(spec, inv.args) : null;
  const tail: Word[] = read ? [...read.path.map((text) => word(text)), ...read.rest] : inv.args;
  let couldBe: string | null = null;
  for (const prefix of index.bashPrefixes()) {
    if (baseName(prefix.words[0]!) !== inv.name) continue;
    if (prefix.words.length - 1 > tail.length) {
      if (read?.uncertain && prefix.words.slice(1).every((w) => inv.args.some((a) => a.text === w))) couldBe ??= prefix.words.join(' ');
      continue;
    }
    let ok = true;
    for (let k = 1; k < prefix.words.length; k++) {
      const expected = prefix.words[k]!;
      const w = tail[k - 1]!;
      if (w.dynamic || w.pattern)
        return {
          dynamic: {
            id: 'could_be_catalogued',
            subject: [inv.program!.text, ...tail.slice(0, k).map((x) => x.text)].join(' '),
            detail: prefix.words.join(' '),
          },
        };
      if (w.text !== expected) {
        ok = false;
        break;
      }
    }
    // a command that takes no operands, given some (`aeat whoami modelo export`, or words xargs adds), is not that command
    if (
      ok &&
      read?.leaf?.operands === 'none' &&
      prefix.words.length - 1 === read.path.length &&
      (read.parses.at(-1)!.operands.length > 0 || inv.completed)
    )
      ok = false;
    if (ok) return { key: prefix.key };
    if (read?.uncertain && prefix.words.slice(1).every((w) => inv.args.some((a) => a.text === w))) couldBe ??= prefix.words.join(' ');
  }
  // a closed program refuses what matches none of its commands anyway, with the commands it may run
  if (couldBe !== null && !isClosed(index, inv.name))
    return {
      dynamic: { id: 'could_be_behind_option', subject: [inv.program!.text, ...inv.args.map((w) => w.text)].join(' '), detail: couldBe },
    };
  return null;
}

/** Expands `{a,b}` and `{1..3}` (bounded); other words come back as they are. */
export function expandBraces(text: string): string[] | null {
  const open = text.indexOf('{');
  if (open === -1) return [text];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let k = open; k < text.length; k++) {
    const c = text[k];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        close = k;
        break;
      }
    } else if (c === ',' && depth === 1) commas.push(k);
  }
  if (close === -1) return [text];
  const head = text.slice(0, open);
  const tail = text.slice(close + 1);
  const body = text.slice(open + 1, close);
  let alternatives: string[];
  const range = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(\.\.-?\d+)?$/.exec(body);
  if (commas.length > 0) {
    alternatives = [];
    let from = open + 1;
    for (const c of [...commas, close]) {
      alternatives.push(text.slice(from, c));
      from = c + 1;
    }
  } else if (range) {
    const a = range[1]!;
    const b = range[2]!;
    const numeric = /\d/.test(a) && /\d/.test(b);
    const from = numeric ? Number(a) : a.charCodeAt(0);
    const to = numeric ? Number(b) : b.charCodeAt(0);
    if (Math.abs(to - from) > MAX_BRACE_ALTERNATIVES) return null;
    alternatives = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? 1 : -1)
      alternatives.push(numeric ? String(n) : String.fromCharCode(n));
  } else {
    const rest = expandBraces(tail);
    return rest === null ? null : rest.map((r) => `${head}{${body}}${r}`);
  }
  const out: string[] = [];
  for (const alternative of alternatives) {
    const expanded = expandBraces(`${head}${alternative}${tail}`);
    if (expanded === null) return null;
    out.push(...expanded);
    if (out.length > MAX_BRACE_ALTERNATIVES) return null;
  }
  return out;
}

const PIECE_DELIMITERS = new Set([' ', '\t', '\n', '\r', "'", '"', '`', '(', ')', ',', ';', '=', '<', '>', '|', '&', '{', '}', '[', ']']);
const PATH_MARK = /[/~]|\.json|\.toml|\.claude|\.codex|\.gemini|\.qwen|\.factory|\.copilot/gi;
/** More distinct path-like pieces than this in code the gate cannot read: unreadable. */
const MAX_PIECES = 256;

/** Path-like pieces of a text, in one pass: what code the gate cannot read could open. Null past the limit. */
function pathPieces(text: string): string[] | null {
  const pieces = new Set<string>();
  const seen = new Set<string>();
  let lastEnd = -1;
  PATH_MARK.lastIndex = 0;
  for (let m = PATH_MARK.exec(text); m !== null; m = PATH_MARK.exec(text)) {
    if (m.index < lastEnd) continue;
    let start = m.index;
    while (start > 0 && !PIECE_DELIMITERS.has(text[start - 1]!)) start--;
    let end = m.index;
    while (end < text.length && !PIECE_DELIMITERS.has(text[end]!)) end++;
    lastEnd = end;
    PATH_MARK.lastIndex = end;
    if (end - start > MAX_PATH_LENGTH) continue;
    const raw = text.slice(start, end);
    if (seen.has(raw)) continue;
    seen.add(raw);
    if (seen.size > MAX_PIECES * 4) return null;
    // `printf 'x\n.claude/settings.json\n'`: an escape a program decodes ends a path as well
    const parts = raw.includes('\\') ? [raw, ...raw.split(/\\[a-zA-Z0-9]?/), ...raw.split(/\\./)] : [raw];
    // `'x:.claude/settings.json'.split(':')`: a path glued to other text by `:`, `=` or `,`
    if (/[:=,]/.test(raw)) parts.push(...raw.split(/[:=,]/));
    for (const part of parts) {
      const piece = part.replace(/^\$\{?HOME\}?(?=\/|$)/, '~');
      if (piece.includes('/') || piece.startsWith('~') || /\.(json|toml)$/i.test(piece) || HOST_DIRS.test(piece)) pieces.add(piece);
    }
    if (pieces.size > MAX_PIECES) return null;
  }
  return [...pieces];
}

/**
 * Whether writing `path` (a pattern when `pattern`) may write one of RUNS_COMMANDS_LATER. A segment
 * that starts with `*` or `?` matches a dot name only with `dotglob` (`dotglob`: the line names it).
 */
function configThatRunsCommands(path: string, pattern: boolean, dotglob: boolean): boolean {
  const text = collapseDots(path);
  if (runsCommandsLater(text)) return true;
  if (!pattern) return false;
  return text.split('/').some((segment) => {
    if (RUNS_COMMANDS_DIRS.includes(segment.toLowerCase()) || /[@!+*?]\(/.test(segment)) return true;
    if (!/[*?[]/.test(segment) || (!dotglob && /^[*?]/.test(segment))) return false;
    return RUNS_COMMANDS_DIRS.some((name) => globMatcher(segment).test(name));
  });
}

/** A glob word as a regular expression over one path segment. */
function globMatcher(glob: string): RegExp {
  let re = '';
  for (const c of glob) re += c === '*' ? '.*' : c === '?' ? '.' : c === '[' || c === ']' ? c : escapeRegExp(c);
  try {
    return new RegExp(`^${re}$`, 'i');
  } catch {
    return /^/;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * PowerShell's simple forms, rewritten for the bash reader in one pass: block comments dropped,
 * here-strings made single-quoted strings, backslashes (path separators there) made slashes, the
 * backtick escape made a backslash escape and a backtick at the end of a line a continuation, and
 * the call operator `&` made a word. `;`, `|`, quotes, `$(…)` and `#` read alike.
 */
/** More backtick escapes than this in one PowerShell line: unreadable. */
export const MAX_POWERSHELL_ESCAPES = 10_000;

export function powershellAsPosix(command: string): string | null {
  let escapes = 0;
  for (let at = command.indexOf('`'); at !== -1; at = command.indexOf('`', at + 1)) if (++escapes > MAX_POWERSHELL_ESCAPES) return null;
  const parts: string[] = [];
  let statementStart = true;
  const n = command.length;
  let k = 0;
  const take = (text: string) => {
    parts.push(text);
  };
  while (k < n) {
    const c = command[k]!;
    if (c === '<' && command[k + 1] === '#') {
      const end = command.indexOf('#>', k + 2);
      take(' ');
      k = end === -1 ? n : end + 2;
    } else if (
      c === '@' &&
      (command[k + 1] === "'" || command[k + 1] === '"') &&
      (command[k + 2] === '\n' || (command[k + 2] === '\r' && command[k + 3] === '\n'))
    ) {
      const quote = command[k + 1]!;
      const bodyStart = command.indexOf('\n', k) + 1;
      const endMark = command.indexOf(`\n${quote}@`, bodyStart - 1);
      const body = endMark === -1 ? command.slice(bodyStart) : command.slice(bodyStart, endMark);
      take(`'${body.replace(/'/g, "'\\''")}'`);
      k = endMark === -1 ? n : endMark + 3;
      statementStart = false;
    } else if (c === '\\') {
      take('/');
      k++;
      statementStart = false;
    } else if (c === '`') {
      const next = command[k + 1];
      if (next === '\n') k += 2;
      else if (next === '\r' && command[k + 2] === '\n') k += 3;
      else if (next === undefined) k++;
      else {
        take(`\\${next}`);
        k += 2;
        statementStart = false;
      }
    } else if (c === '&' && command[k + 1] !== '&' && statementStart) {
      take('__pscall__ ');
      k++;
      statementStart = false;
    } else {
      // copy a run of ordinary characters at once
      let j = k;
      while (j < n && !'<@\\`&'.includes(command[j]!)) {
        const d = command[j]!;
        if (d === '\n' || d === ';' || d === '|' || d === '{' || d === '(') statementStart = true;
        else if (d !== ' ' && d !== '\t' && d !== '\r') statementStart = false;
        j++;
      }
      if (j === k) {
        take(c);
        statementStart = false;
        j = k + 1;
      } else take(command.slice(k, j));
      k = j;
    }
  }
  return parts.join('');
}

/** A PowerShell statement that starts with a value (`$x = …`, `$files.Count`, `[IO.File]::…`, `(…)`) rather than a command. */
function powershellExpression(inv: Invocation): Invocation | 'expression' | null {
  const first = inv.program;
  if (!first) return null;
  const t = first.text;
  if (!(first.dynamic || /^[$[@(0-9'"]/.test(t) || first.quoted)) return null;
  const eq = inv.args[0];
  if (
    /^\$[A-Za-z_][\w:.]*$/.test(t) &&
    eq &&
    /^[-+*/%]?=$/.test(eq.text) &&
    inv.args[1] &&
    !inv.args[1].dynamic &&
    !/^[$[@(0-9'"-]/.test(inv.args[1].text) &&
    !inv.args[1].quoted
  ) {
    const [program, ...args] = inv.args.slice(1);
    return { ...inv, name: baseName(program!.text), program: program!, args };
  }
  return 'expression';
}

/** SPEC §3 step 3 and §9 for Bash and PowerShell: what the command line runs, writes, and asks of persona-gate. */
export function readShellCall(
  index: PolicyIndex,
  event: ToolEvent,
  opts: { sandboxed?: () => boolean; locale?: Locale } = {},
): ShellReading | null {
  if (event.tool_name !== 'Bash' && event.tool_name !== 'PowerShell') return null;
  const unreadable = (problem: Unreadable) => unreadableIn(opts.locale ?? 'en', problem);
  const command = event.tool_input.command;
  if (typeof command !== 'string') return unreadable({ id: 'command_not_a_string' });
  const powershell = event.tool_name === 'PowerShell';
  const source = powershell ? powershellAsPosix(command) : command;
  if (source === null) return unreadable({ id: 'more_than', subject: String(MAX_POWERSHELL_ESCAPES), detail: 'backtick_escapes' });
  const raw = readCommandLine(source, powershell);
  if (raw.unparsable) return unreadable(raw.unparsable);
  const functions = new Set(raw.functions);
  // a function the line calls after defining it runs its body, read where it is defined, unless
  // something may remove it first: `unset` (of a variable too: without -f it removes the function
  // of that name when no variable has it), or a file sourced into the shell
  const functionsStay = !powershell && !raw.invocations.some((inv) => inv.name === 'unset' || SOURCES.has(inv.name));
  const changesReading = shellOptionsChangingReading(raw.invocations);
  if (changesReading !== null) return unreadable(changesReading);

  const catalogued = bashPrograms(index);
  const identity = index.settings.identity;
  const switchPrograms = bashPrograms(index, identity?.switches ?? []);

  const matched: Subject[] = [];
  const invocations: ShellInvocationSummary[] = [];
  const unlisted: string[] = [];
  const locale = opts.locale ?? 'en';
  /** Why parts of the line run code the gate cannot read, as reasons: said in the locale at the end. */
  const opaque: Reason[] = [];
  /** Each part of the line that set a level, with that level: those at the line's level decided it. */
  const parts: ShellPart[] = [];
  /** What takes code from its stdin (SPEC §9.5), as reasons: said in the locale at the end. */
  const stdinCode: Reason[] = [];
  const effects: ShellReading['effects'] = [];
  const gateCommands: string[] = [];
  let level: Level = 'none';
  /** The first program that runs code the gate cannot read: what a guarded path in the line is handed to. */
  let opaqueProgram: string | undefined;
  /** The programs that own an identity switch and may switch the profile here without a catalogued switch. */
  const rearmBy = new Set<string>();
  let everyInvocationReads = true;
  let unconditionalRead = false;
  let conditionalRead = false;
  const raise = (to: Level) => {
    if (exceeds(to, level)) level = to;
  };
  const part = (to: Level, words: string, reason: Reason | undefined, invocation?: number) => {
    raise(to);
    if (reason !== undefined) parts.push({ words, level: to, reason, ...(invocation !== undefined ? { invocation } : {}) });
  };
  /** The files the line's redirections open for reading. */
  const readRedirects: Word[] = [];
  const facts = treeFacts(raw.scripts);
  const arithmetic = arithmeticTexts(facts, raw.invocations);
  // variables set without an assignment word: `${NAME:=…}`, `for NAME in`, `select NAME in`, arithmetic (`((PATH=1))`)
  const setInArithmetic = arithmetic.flatMap((t) =>
    [...t.matchAll(/(?<!\w)([A-Za-z_]\w*)\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)/g)].map((m) => m[1]!),
  );
  const setWithoutAssignment = [...facts.defaulted, ...facts.loops.map((l) => l.name), ...setInArithmetic];
  const set = variablesSet(raw.invocations, setWithoutAssignment);
  // `$HOME/…` is the home (`~/…`) when nothing in the line sets HOME (`HOME=x`, `read HOME`, `for HOME in`)
  const homeKnown = () => !set.has('HOME');
  const addEffect = (given: Word, effect: PathEffect, program: string): Unreadable | null => {
    const path =
      given.dynamic && HOME_PATH.test(given.text) && homeKnown()
        ? word(given.text.replace(/^\$\{?HOME\}?/, '~'), { ...given, dynamic: false })
        : given;
    if (NOT_A_FILE.test(path.text)) return null;
    if (path.text.startsWith('~') && effect !== 'mention' && !homeKnown()) return { id: 'home_after_change', subject: path.text };
    if (path.text.length > MAX_PATH_LENGTH) return { id: 'path_too_long', subject: String(MAX_PATH_LENGTH) };
    if (path.dynamic) {
      // Under the OS sandbox a computed write target runs: the kernel refuses it if it is guarded.
      // Handed to code the gate cannot read, it is still a name the gate cannot see.
      if (effect !== 'mention' && opts.sandboxed?.() === true) return null;
      return { id: 'path_at_run_time', subject: path.text, detail: program };
    }
    const expanded = path.pattern ? expandBraces(path.text) : [path.text];
    if (expanded === null) return { id: 'brace_too_large', subject: String(MAX_BRACE_ALTERNATIVES) };
    for (const text of expanded) effects.push({ path: text, effect, pattern: path.pattern && /[*?[]|[@!+]\(/.test(text), program });
    return effects.length > MAX_EFFECTS ? tooManyPaths : null;
  };

  for (let inv of raw.invocations.flatMap(withKnownValues)) {
    if (powershell) {
      const expression = powershellExpression(inv);
      if (expression === 'expression') {
        const words = [inv.program!, ...inv.args].map((w) => w.text).join(' ');
        const runs = /::|\.invoke\(|\[scriptblock\]|\.(start|run)\(/i.test(words);
        const call: Reason = { id: 'dotnet_call', subject: words.slice(0, 60) };
        invocations.push({
          program: '',
          args: [words],
          words,
          path: [],
          level: runs ? 'process_exec' : 'none',
          kind: runs ? 'exec' : 'builtin',
          ...(runs ? { opaque: call } : {}),
        });
        if (runs) {
          opaque.push(call);
          part('process_exec', words, call, invocations.length - 1);
          everyInvocationReads = false;
        }
        const pieces = pathPieces(words);
        if (pieces === null) return unreadable({ id: 'more_than', subject: String(MAX_PIECES), detail: 'expression_paths' });
        for (const piece of pieces)
          if (addEffect(word(piece), 'mention', labelText('powershell_expression', locale))) return unreadable(tooManyPaths);
        continue;
      }
      if (expression) inv = expression;
      if (inv.name === '__pscall__') {
        const [program, ...args] = inv.args;
        if (!program) continue;
        if (program.dynamic || program.pattern) return unreadable({ id: 'name_at_run_time', subject: program.text });
        inv = { ...inv, name: baseName(program.text), program, args };
      }
    }
    for (const assignment of inv.assignments) {
      const variable = assignment.slice(0, assignment.indexOf('=')).replace(/[+[].*$/, '');
      if (onlyForThisBuiltin(variable, inv)) continue;
      if ((RUNTIME_VARIABLES.has(variable) || COMMAND_VARIABLE.test(variable)) && !plainCommandVariable(assignment)) {
        const why: Reason = { id: 'sets_runtime_variable', subject: `${variable}=…` };
        opaque.push(why);
        part('process_exec', assignment, why);
        everyInvocationReads = false;
      }
    }
    // what ssh runs on another host opens, writes and removes that host's files, not these
    for (const r of inv.remote ? [] : inv.redirects) {
      if (r.op === '<') {
        readRedirects.push(r.target);
        // a file opened for reading is a read, whatever the command does with it (`cat < f`)
        if (!NOT_A_FILE.test(r.target.text)) part('read_only', `< ${r.target.text}`, { id: 'reads', subject: `< ${r.target.text}` });
      }
      // standard output or error opened on a file (`1<f`) is written through /dev/stdout, /dev/stderr
      const reopened = r.op === '<' && (r.node?.fd === '1' || r.node?.fd === '2');
      if (!WRITE_REDIRECTS.has(r.op) && !reopened) continue;
      if (r.op === '>&' && /^(\d+|-)$/.test(r.target.text)) continue;
      if (NOT_A_FILE.test(r.target.text)) continue;
      const problem = addEffect(r.target, 'write', inv.name);
      if (problem)
        return unreadable(problem.id === 'path_at_run_time' ? { id: 'write_target_at_run_time', subject: r.target.text } : problem);
      const redirect = `${r.op} ${r.target.text}`;
      part('workspace_write', redirect, { id: 'redirect_writes', subject: redirect });
      everyInvocationReads = false;
    }
    if (inv.program === null) continue;
    if ((inv.program.dynamic || inv.program.pattern || inv.program.ansi) && !(powershell && inv.program.dynamic)) {
      return unreadable({ id: 'name_not_plain', subject: inv.program.text });
    }

    const gate = gateSubcommand(inv);
    if (gate) {
      if (isStateChangingGateCall(gate.args, inv.completed)) {
        gateCommands.push(labelText('gate_state', locale, ['persona-gate', ...gate.args.map((w) => w.text)].join(' ')));
      }
      invocations.push({
        program: 'persona-gate',
        args: gate.args.map((w) => w.text),
        words: invocationWords(inv),
        path: [],
        level: 'read_only',
        kind: 'gate',
        reason: { id: 'reads', subject: 'persona-gate' },
      });
      part('read_only', invocationWords(inv), { id: 'reads', subject: 'persona-gate' }, invocations.length - 1);
      continue;
    }

    // `git push --help` prints help: the registry's reading, not the catalogued command (a closed program has no other)
    const help = catalogued.has(inv.name) ? helpReading(index, inv, powershell) : null;
    if (catalogued.has(inv.name) && help === null) {
      const match = matchPrefix(index, inv, powershell);
      if (match && 'dynamic' in match) return unreadable(match.dynamic);
      if (match) {
        const subject = subjectForCommand(index, match.key, 'shell');
        if (subject) {
          if (!matched.some((s) => s.key === subject.key)) matched.push(subject);
          invocations.push({
            ...entryOf(inv, subject.level ?? 'process_exec', 'catalogued', { id: 'catalogued', subject: subject.key }),
            key: subject.key,
          });
          if (identity?.reads.includes(subject.key)) {
            // it surely runs only as a plain command of the line itself: no condition, wrapper, redirection, function of that name or code read again
            const plain =
              !inv.conditional &&
              inv.via.length === 0 &&
              inv.redirects.length === 0 &&
              inv.depth === 0 &&
              !functions.has(inv.name) &&
              inv.assignments.length === 0;
            if (plain) unconditionalRead = true;
            else conditionalRead = true;
          } else if (subject.level === null || exceeds(subject.level, 'read_only')) everyInvocationReads = false;
          for (const r of inv.redirects) if (WRITE_REDIRECTS.has(r.op)) everyInvocationReads = false;
          continue;
        }
      }
    }
    // `aeat --help`, `aeat modelo --help`: the help of a group of a closed program's commands (SPEC §9.5)
    if (isClosed(index, inv.name) && closedGroupHelp(index, inv)) {
      const reason = { id: 'help', subject: inv.name } as const;
      invocations.push(entryOf(inv, 'read_only', 'reader', reason));
      part('read_only', invocationWords(inv), reason, invocations.length - 1);
      continue;
    }
    // a program the policy declares closed: what matches none of its commands is refused (SPEC §9.5)
    if (isClosed(index, inv.name)) {
      const words = [inv.program.text, ...inv.args.map((w) => w.text)].join(' ');
      unlisted.push(inv.completed ? `${words} … (arguments added at run time)` : words);
      invocations.push(entryOf(inv, 'process_exec', 'unlisted', { id: 'unlisted', subject: inv.name }));
      if (switchPrograms.has(inv.name)) rearmBy.add(inv.name);
      everyInvocationReads = false;
      continue;
    }

    // a call of a function the line defined for sure before it runs that function's body, which is
    // read where it is defined: not a program of its own, unless it has the name of one the registry
    // or the policy knows (that reading stands, the stricter of the two)
    const callsFunction =
      inv.callsFunction === true &&
      functionsStay &&
      help === null &&
      !catalogued.has(inv.name) &&
      programFor(index, inv.name, false) === null;
    let classified: Classified = callsFunction
      ? { level: 'none', kind: 'builtin', reason: { id: 'function_call', subject: inv.name }, effects: [] }
      : (help ?? classify(inv, powershell, index));
    // a program that owns an identity switch may switch the profile by another of its commands, unless it only reads
    if (switchPrograms.has(inv.name) && (classified.opaque !== undefined || exceeds(classified.level, 'read_only'))) rearmBy.add(inv.name);
    // `${x@P}` expands a prompt string, command substitutions included: what it runs cannot be read
    if ([inv.program, ...inv.args].some((w) => w?.dynamic && /@P\}/.test(w.text)) && classified.opaque === undefined) {
      classified = { ...classified, level: 'process_exec', kind: 'exec', opaque: { id: 'prompt_expansion', subject: inv.name } };
    }
    if (powershell && inv.args.some((w) => w.text === '{' || w.text.startsWith('{')) && classified.opaque === undefined) {
      classified = { ...classified, level: 'process_exec', kind: 'exec', opaque: { id: 'script_block', subject: inv.name } };
    }
    // `… | xargs rm`: what the program is handed at run time is not in the line
    if (inv.completed && classified.opaque === undefined && COMPLETED_REMOVERS.has(inv.name) && opts.sandboxed?.() === true) {
      // It removes what it is handed and nothing else, so under the OS sandbox (which refuses a guarded
      // target) it is a remover whose targets are known only at run time; elsewhere it stays opaque.
      const handed = { ...word('(the arguments xargs reads)'), dynamic: true };
      classified = { ...classified, effects: [...classified.effects, { path: handed, effect: 'destroy' }] };
    } else if (
      inv.completed &&
      classified.opaque === undefined &&
      !COMPLETED_READERS.has(inv.name) &&
      classified.readsWhatItIsHanded !== true
    ) {
      // as high as the program can reach: `xargs aws s3 rm` changes a remote system, `xargs git` may be a push
      const level = higherLevel(higherLevel(classified.level, 'process_exec'), classified.appendedReach ?? 'none');
      classified = {
        ...classified,
        level,
        kind: level === 'network' ? 'network' : 'exec',
        opaque: { id: 'xargs_runs_with_read_arguments', subject: inv.name },
      };
    }
    const words = invocationWords(inv);
    const why = classified.opaque ?? classified.reason;
    invocations.push({
      program: inv.name,
      args: inv.args.map((w) => w.text),
      words,
      path: classified.path ?? [],
      level: classified.level,
      kind: classified.kind,
      ...(classified.opaque ? { opaque: classified.opaque } : {}),
      ...(why ? { reason: why } : {}),
    });
    part(classified.level, words, why, invocations.length - 1);
    // next to an identity read, only readers: a builtin (`exit`, `set -n`, `trap`) may keep the read from running
    if (classified.kind !== 'reader' || classified.opaque || classified.effects.length > 0) everyInvocationReads = false;
    if (classified.opaque) {
      opaque.push(classified.opaque);
      opaqueProgram ??= quoteWords(words);
    }
    const fromStdin = readsCodeFromStdin(inv, classified.opaque);
    if (fromStdin !== null) stdinCode.push(fromStdin);
    for (const e of inv.remote ? [] : classified.effects) {
      const problem = addEffect(e.path, e.effect, inv.name);
      if (problem) return unreadable(problem);
    }
    // Opaque code is scanned with the whole line below; here, what network programs are handed, and
    // the arguments a function is called with, which its body may hand to anything (`"$1"`)
    if (!classified.opaque && (classified.kind === 'network' || callsFunction)) {
      for (const w of inv.args) {
        const pieces = pathPieces(w.text);
        if (pieces === null) return unreadable({ id: 'more_paths_handed', subject: String(MAX_PIECES), detail: inv.name });
        // a guarded path handed to it is refused naming the invocation in its words
        for (const piece of pieces) if (addEffect(word(piece), 'mention', quoteWords(words))) return unreadable(tooManyPaths);
      }
    }
  }

  // A descriptor opened on a file for reading can be opened again for writing, through
  // /dev/fd/N, /dev/stdin, /proc/self/fd/N and any spelling of them (`//dev/./fd/3`, `cd /dev/fd;
  // >3`): a guarded file opened by a redirection is as good as written.
  // One computed at run time matters only in a line that writes anything, or runs code it cannot read.
  const writesAnything =
    readRedirects.length > 0 &&
    (opaque.length > 0 ||
      effects.some((e) => e.effect !== 'mention') ||
      raw.invocations.some((inv) =>
        inv.redirects.some((r) => WRITE_REDIRECTS.has(r.op) && !(r.op === '>&' && /^(\d+|-)$/.test(r.target.text))),
      ));
  for (const target of readRedirects) {
    if (/^~[^/]/.test(target.text)) return unreadable({ id: 'redirect_from_other_home', subject: target.text });
    if (target.dynamic && !writesAnything) continue;
    const problem = addEffect(target, 'mention', labelText('read_redirect', locale));
    if (problem)
      return unreadable(problem.id === 'path_at_run_time' ? { id: 'redirect_from_path_at_run_time', subject: target.text } : problem);
  }

  // GLOBIGNORE set turns dotglob on too
  const dotglob = set.has('GLOBIGNORE') || raw.invocations.some((inv) => inv.args.some((w) => w.text === 'dotglob'));
  if (effects.some((e) => e.effect !== 'mention' && e.effect !== 'tracked' && configThatRunsCommands(e.path, e.pattern, dotglob))) {
    everyInvocationReads = false;
    const why: Reason = { id: 'writes_config_that_runs' };
    opaque.push(why);
    const target = effects.find(
      (e) => e.effect !== 'mention' && e.effect !== 'tracked' && configThatRunsCommands(e.path, e.pattern, dotglob),
    )!;
    part('process_exec', `${target.program} ${target.path}`.trim(), why);
  }

  if (arithmetic.some((t) => /\$\{?\w+\}?\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)/.test(t)))
    return unreadable({ id: 'assigns_variable_named_at_run_time' });
  for (const variable of setWithoutAssignment) {
    if (RUNTIME_VARIABLES.has(variable) || COMMAND_VARIABLE.test(variable)) {
      const why: Reason = { id: 'sets_variable_runs', subject: variable };
      opaque.push(why);
      part('process_exec', variable, why);
      everyInvocationReads = false;
    }
  }

  // Arithmetic evaluates a variable's value as an expression, and an array subscript in it
  // (`a[$(cmd)]`) runs cmd: a value read at run time must not reach arithmetic in the same line.
  // run-time values: a builtin that reads one, a command's output, a loop over words or files
  // a function of the line's own may have a program's name (`date() { … }`)
  const numbers = arithmetic.length === 0 ? (text: string) => text : numbersFor(facts, functions);
  const runtime = runtimeNames(facts, raw.invocations, numbers);
  const evaluated = new Set(arithmetic.flatMap((t) => [...t.matchAll(/[A-Za-z_]\w*/g)].map((m) => m[0])));
  if (arithmetic.some((t) => /\$\((?!\()|`|\$[0-9@*#]/.test(numbers(t))) || [...runtime].some((name) => evaluated.has(name))) {
    everyInvocationReads = false;
    const why: Reason = { id: 'runtime_arithmetic' };
    opaque.push(why);
    part(
      'process_exec',
      arithmetic.find((t) => /\$\((?!\()|`|\$[0-9@*#]/.test(numbers(t)) || [...runtime].some((name) => t.includes(name))) ?? '',
      why,
    );
  }

  // Code the gate cannot read may reach anything the line names: catalogued programs, persona-gate, guarded paths.
  const opaqueNames: string[] = [];
  if (opaque.length > 0) {
    const names = [...catalogued, 'persona-gate'];
    // what the line hands to code it runs: every word and here-document of its trees, but the
    // programs the reader read (a program's own name is not handed to the code it runs)
    const programWords = new Set(raw.invocations.map((inv) => inv.program?.node).filter((n) => n !== undefined));
    const handed = [
      ...facts.words.filter((w) => !programWords.has(w)).flatMap((w) => [viewOf(w).text, partsText(w)]),
      ...facts.heredocs,
    ].join('\n');
    const texts = spellings(handed);
    for (const name of names) {
      // persona-gate's own JSON files (`.claude/persona-gate.json`) are paths, checked as mentions below, not the program
      const after = name === 'persona-gate' ? '(?![A-Za-z0-9_]|(?:[.-][A-Za-z0-9_.-]*)?\\.json(?![A-Za-z0-9_]))' : '(?![A-Za-z0-9_])';
      if (new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(name)}${after}`, 'i').test(texts)) opaqueNames.push(name);
    }
    // a glob that may expand to a catalogued program (`/usr/local/bin/ae?t`, `ae*`) names it too
    for (const w of raw.invocations.flatMap((inv) => [inv.program, ...inv.args])) {
      if (!w?.pattern || opaqueNames.length === names.length) continue;
      const last = w.text.slice(w.text.lastIndexOf('/') + 1);
      if (last.length > 256) continue;
      const glob = globMatcher(last);
      for (const name of names) if (!opaqueNames.includes(name) && glob.test(name)) opaqueNames.push(name);
    }
    const pieces = pathPieces([...facts.words.map((w) => viewOf(w).text), ...facts.heredocs].join('\n'));
    if (pieces === null) return unreadable({ id: 'more_than', subject: String(MAX_PIECES), detail: 'opaque_paths' });
    for (const piece of pieces) {
      if (addEffect(word(piece), 'mention', opaqueProgram ?? labelText('opaque_code', locale))) return unreadable(tooManyPaths);
      // opaque code may add to a name it is handed (`XZ_OPT=-S.json xz .claude/settings`): under a
      // host's directory, or near persona-gate, what starts with the name is checked too
      if (
        (HOST_DIRS.test(piece) || piece.includes('persona-gate')) &&
        addEffect(
          word(`${parentOf(piece)}/*`, { ...word(''), pattern: true }),
          'mention',
          opaqueProgram ?? labelText('opaque_code', locale),
        )
      ) {
        return unreadable(tooManyPaths);
      }
    }
    if (opaqueNames.includes('persona-gate')) gateCommands.push(labelText('gate_named_in_code', locale, reasonText(opaque[0]!, locale)));
    for (const n of opaqueNames) if (switchPrograms.has(n)) rearmBy.add(n);
  }

  const directories = workingDirectories(raw.invocations);
  if (directories === null && effects.some((e) => !isAbsoluteOrHome(e.path))) {
    return unreadable({ id: 'relative_after_unknown_cd' });
  }
  const confirmsIdentity =
    unconditionalRead &&
    !conditionalRead &&
    everyInvocationReads &&
    unlisted.length === 0 &&
    opaque.length === 0 &&
    !matched.some((s) => identity?.switches.includes(s.key));
  const decided = level === 'none' ? [] : parts.filter((p) => p.level === level);
  const opaquePart = opaque.length > 0 ? parts.find((p) => opaque.includes(p.reason)) : undefined;
  return {
    matched,
    level,
    invocations,
    unlisted,
    opaque: opaque.map((r) => reasonText(r, locale)),
    decided,
    ...(decided.length > 0 ? { because: partText(decided[0]!.words, decided[0]!.reason, locale) } : {}),
    ...(opaquePart !== undefined ? { opaqueBecause: partText(opaquePart.words, opaquePart.reason, locale) } : {}),
    stdinCode: stdinCode.map((r) => reasonText(r, locale)),
    opaqueNames: opaqueNames.filter((n) => n !== 'persona-gate'),
    effects,
    directories: directories ?? [],
    gateCommands,
    mayRearm: rearmBy.size > 0,
    rearmBy: [...rearmBy],
    confirmsIdentity,
  };
}
