import type { ShellReading, ShellInvocationSummary } from '../core/decide';
import type { ToolEvent } from '../core/event';
import { exceeds, type Level } from '../core/levels';
import { bashPrograms, type PolicyIndex } from '../core/policy-index';
import { subjectForCommand, type Subject } from '../core/resolve';
import { isAbsoluteOrHome, type PathEffect } from '../core/types';
import { baseName, readCommandLine, type Invocation } from './commands';
import { decodeAnsiC } from './syntax/parser';
import type { Word } from './syntax/word';
import { BUILTINS, GIT_NETWORK, GIT_READ, GIT_REWRITES_TRACKED, GIT_WRITE, inProgramDirectory, inSystemDirectory, NETWORK, PACKAGE_MANAGERS, READERS, READING_OPTION_CLUSTER, READS_WHATEVER_ARGUMENTS, RUNTIME_VARIABLES, SHOPT_KEEPS_READING, WRITERS, type WriterRule } from './programs';

/**
 * SPEC §3 step 3 and §9 items 1–5 for Bash and PowerShell: every program a command line may run,
 * classified (catalogued command, builtin, reader, writer, network program, or opaque
 * `process_exec`), what it does to paths (for gate 0), and what it asks of persona-gate itself.
 */

const BUILTIN_SET = new Set(BUILTINS);
const READER_SET = new Set(READERS);
const COMPLETED_READERS = new Set(READS_WHATEVER_ARGUMENTS);
const GIT_READ_SET = new Set(GIT_READ);
const GIT_WRITE_SET = new Set(GIT_WRITE);
const GIT_NETWORK_SET = new Set(GIT_NETWORK);

/** Redirections that write to their target. */
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
/** Redirection targets that are not files of the workspace. */
const NOT_A_FILE = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+|zero)$/;
/** Builtins that set the variables their operands name. */
const NAMING_SETTERS = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'read', 'mapfile', 'readarray', 'getopts', 'unset']);
/** The options of those builtins that take a value which is not a variable's name. */
const SETTER_VALUE_OPTIONS: Readonly<Record<string, string>> = { __proto__: null as never, read: 'dinNptu', mapfile: 'dnOsuc', readarray: 'dnOsuc' };
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
function shellOptionsChangingReading(invocations: readonly Invocation[]): string | null {
  for (const inv of invocations) {
    const args = inv.args;
    if (inv.name === 'set') {
      for (let k = 0; k < args.length; k++) {
        const t = args[k]!.text;
        if (args[k]!.dynamic) return 'set with an option known only at run time';
        if (READING_OPTION_CLUSTER.test(t)) return `set ${t}, which changes how later words are read`;
        if (t === '-o' && READING_SET_OPTIONS.test(args[k + 1]?.text ?? '')) return `set -o ${args[k + 1]!.text}, which changes how later words are read`;
      }
    }
    if (inv.name === 'shopt' && !args.some((w) => w.text === '-u')) {
      const setOptions = args.some((w) => /^-[a-z]*o/.test(w.text));
      for (const w of args) {
        if (w.dynamic || w.pattern) return 'shopt with an option known only at run time';
        if (w.text.startsWith('-')) continue;
        // nullglob drops a pattern that matches nothing: harmless in a line with no pattern
        if (w.text === 'nullglob' && !setOptions && !invocations.some((i) => i.args.some((a) => a.pattern) || i.redirects.some((r) => r.target.pattern))) continue;
        if (setOptions ? READING_SET_OPTIONS.test(w.text) : !SHOPT_KEEPS_READING.has(w.text)) return `shopt ${w.text}, which changes how the line's words are read`;
      }
    }
    if ((inv.name === 'mapfile' || inv.name === 'readarray') && args.some((w) => /^-[a-zA-Z]*C/.test(w.text))) return `${inv.name} -C runs a callback`;
    if (NAMING_SETTERS.has(inv.name) || (inv.name === 'printf' && args.some((w) => /^-[a-zA-Z]*v/.test(w.text)))) {
      const values = SETTER_VALUE_OPTIONS[inv.name] ?? '';
      let operand = 0;
      for (let k = 0; k < args.length; k++) {
        const w = args[k]!;
        if (w.dynamic && w.text.startsWith('-')) return `${inv.name} with an option known only at run time (${w.text})`;
        if (/^-[a-zA-Z]*n/.test(w.text) && DECLARERS.includes(inv.name)) return `${inv.name} ${w.text}: a nameref, through which an assignment sets another variable`;
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
        if (!/^[A-Za-z_]\w*$/.test(name)) return `${inv.name} sets a variable named at run time (${w.text})`;
      }
    }
  }
  return null;
}

/**
 * The texts bash evaluates as arithmetic: `$((…))`, `((…))`, `$[…]`, `let` arguments, `[[ … ]]`
 * (its numeric tests and `-v a[i]`), `${s:OFFSET}`, `${a[SUB]}` and `a[SUB]=` subscripts, `${!name}`,
 * and every assignment in a line that declares an integer (`declare -i`).
 */
function arithmeticTexts(text: string, invocations: readonly Invocation[]): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\$?\(\(([^]*?)\)\)|\$\[([^\]]*)\]|\[\[([^]*?)\]\]|\$\{\w+:(?![-=?+])([^}]*)\}|\$\{\w+\[([^\]]*)\]|\$\{!(\w+)|(?:^|[^\w$])\w+\[([^\]]*)\]\+?=|\blet\s+([^;&|\n]*)/g)) {
    const inner = m.slice(1).find((g) => g !== undefined);
    if (inner === undefined || inner === '@' || inner === '*') continue;
    // within [[ ]], only the numeric tests and -v evaluate arithmetic
    if (m[3] !== undefined && !/\s-(eq|ne|lt|le|gt|ge|v)\s/.test(` ${inner} `)) continue;
    out.push(inner);
  }
  if (invocations.some((inv) => DECLARERS.includes(inv.name) && inv.args.some((w) => /^[-+][a-zA-Z]*i/.test(w.text)))) {
    for (const inv of invocations) out.push(...inv.assignments.map((a) => a.slice(a.indexOf('=') + 1)), ...inv.args.filter((w) => w.text.includes('=')).map((w) => w.text.slice(w.text.indexOf('=') + 1)));
  }
  return out;
}

/** Variables the line gives a value known only at run time: read, loops, a command's output, an expansion. */
function runtimeNames(text: string, invocations: readonly Invocation[]): Set<string> {
  const names = new Set<string>();
  // a loop over words the line writes out is known; over expansions, files or arguments it is not
  for (const m of text.matchAll(/\b(?:for|select)\s+(\w+)(\s+in\s+([^;\n]*))?/g)) if (m[2] === undefined || /[$`*?[]/.test(m[3]!)) names.add(m[1]!);
  for (const inv of invocations) {
    for (const a of inv.assignments) {
      const value = a.slice(a.indexOf('=') + 1).replace(/\$\(\([^]*?\)\)/g, '');
      if (value.includes('$') || value.includes('`') || value.startsWith('(')) names.add(a.split(/[=+[]/)[0]!);
    }
    if (RUNTIME_VALUE_SETTERS.has(inv.name) || inv.name === 'printf') for (const w of inv.args) if (/^[A-Za-z_]\w*$/.test(w.text)) names.add(w.text);
    if (DECLARERS.includes(inv.name) || inv.name === 'export' || inv.name === 'readonly') for (const w of inv.args) if (w.text.includes('=') && (w.dynamic || w.text.includes('$'))) names.add(w.text.split(/[=+[]/)[0]!);
  }
  return names;
}

/** Builtins that set a variable to a value known only at run time. */
const RUNTIME_VALUE_SETTERS = new Set(['read', 'mapfile', 'readarray', 'getopts']);
/** `$HOME/…` or `${HOME}/…` with no other expansion. */
const HOME_PATH = /^\$(HOME|\{HOME\})(\/[^$`\\]*)?$/;
/** More guarded-path checks than this in one command line: unreadable. */
const MAX_EFFECTS = 512;
/** A longer path cannot name a file (PATH_MAX): unreadable. */
const MAX_PATH_LENGTH = 4096;
/** More alternatives than this from one brace expansion: unreadable. */
const MAX_BRACE_ALTERNATIVES = 64;
/** Where a path can end inside code: quotes, brackets and the punctuation around it. */
const HOST_DIRS = /(^|\/)\.(claude|codex|gemini|qwen|factory|copilot)(\/|$)/i;

interface Classified {
  level: Level;
  kind: ShellInvocationSummary['kind'];
  opaque?: string;
  effects: { path: Word; effect: PathEffect }[];
}

const word = (text: string, like?: Word): Word => ({ text, dynamic: like?.dynamic ?? false, pattern: like?.pattern ?? false, quoted: like?.quoted ?? false, ansi: false });

/** Operands: the words that are not options, skipping the values of options that take one. */
function operands(args: readonly Word[], valueOptions: readonly string[] = []): Word[] {
  const out: Word[] = [];
  let k = 0;
  for (; k < args.length; k++) {
    const t = args[k]!.text;
    if (t === '--') {
      k++;
      break;
    }
    if (t.startsWith('-') && t !== '-') {
      if (valueOptions.includes(t)) k++;
      continue;
    }
    out.push(args[k]!);
  }
  for (; k < args.length; k++) out.push(args[k]!);
  return out;
}

/** The value of an option (`-o FILE`, `-oFILE`, `--output=FILE`, `--output FILE`). */
function optionValues(args: readonly Word[], short: readonly string[], long: readonly string[], clusters?: string | true): Word[] {
  const out: Word[] = [];
  for (let k = 0; k < args.length; k++) {
    const w = args[k]!;
    const t = w.text;
    if (t === '--') break;
    for (const o of long) {
      // `--pre=X` is `--prefix=X`: getopt_long takes any unambiguous prefix (an ambiguous one is an error)
      const name = o.startsWith('--') && isLongOption(t, o) ? t.split('=')[0]! : o;
      if (t === name && args[k + 1]) out.push(args[k + 1]!);
      else if (t.startsWith(`${name}=`)) out.push(word(t.slice(name.length + 1), w));
    }
    for (const o of short) {
      if (t === o && args[k + 1]) out.push(args[k + 1]!);
      else if (t.startsWith(o) && t.length > o.length && !t.startsWith('--') && o.length === 2) out.push(word(t.slice(2), w));
      else if (clusters !== undefined && o.length === 2 && !t.startsWith('--')) {
        const value = clusterValue(t, o[1]!, clusters);
        if (value === '') {
          if (args[k + 1]) out.push(args[k + 1]!);
        } else if (value !== null) out.push(word(value, w));
      }
    }
  }
  return out;
}

/**
 * The value of option letter `letter` inside a cluster after other letters (`-mo FILE`: '' for
 * the next word; `-fS.json`: '.json'), or null when the cluster does not hold it. `flags`: the
 * letters that may stand before it (true: any letter, when reading more values can only add).
 */
function clusterValue(cluster: string, letter: string, flags: string | true): string | null {
  if (!/^-[a-zA-Z0-9]/.test(cluster)) return null;
  for (let k = 1; k < cluster.length; k++) {
    const c = cluster[k]!;
    if (c === letter) return k === 1 ? null : cluster.slice(k + 1);
    if (!/[a-zA-Z0-9]/.test(c) || (flags !== true && !flags.includes(c))) return null;
  }
  return null;
}

const hasFlag = (args: readonly Word[], re: RegExp) => args.some((w) => w.text !== '--' && re.test(w.text));

/** GNU programs take any unambiguous prefix of a long option (`--in-pl` for `--in-place`): does `arg` spell `--full`? */
function isLongOption(arg: string, full: string, min = 1): boolean {
  if (!arg.startsWith('--')) return false;
  const name = arg.slice(2).split('=')[0]!;
  return name.length >= Math.min(min, full.length - 2) && full.slice(2).startsWith(name);
}

const hasLong = (args: readonly Word[], ...full: string[]) => args.some((w) => full.some((f) => isLongOption(w.text, f)));

/** The values of a long option, however abbreviated (`--out=F`, `--out F`). */
function longValues(args: readonly Word[], full: string): Word[] {
  const out: Word[] = [];
  for (let k = 0; k < args.length; k++) {
    const t = args[k]!.text;
    if (t === '--') break;
    if (!isLongOption(t, full)) continue;
    if (t.includes('=')) out.push(word(t.slice(t.indexOf('=') + 1), args[k]));
    else if (args[k + 1]) out.push(args[k + 1]!);
  }
  return out;
}

function joinPath(dir: string, name: string): string {
  if (name === '' || name === '.') return dir;
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** The name a copy of `source` gets inside a directory: '' for "its contents" (`src/`, `src/.`). */
function copiedName(source: string): string {
  if (source.endsWith('/') || source.endsWith('/.') || source === '.') return '';
  return baseName(source);
}

/** The letters of cp, mv, ln and install that take no value, which may stand before `-t DIR` or `-S SUFFIX` in a cluster. */
const TRANSFER_FLAGS = 'abcCdDfFHilLnPprRsTuvxZ';

/** Effects of a program that copies, moves or links operands into a destination. */
function transferEffects(args: readonly Word[], rule: 'copy' | 'move' | 'link', valueOptions: readonly string[]): Classified['effects'] {
  const effects: Classified['effects'] = [];
  const targetDir = [...optionValues(args, ['-t'], ['-Destination', '-destination'], TRANSFER_FLAGS), ...longValues(args, '--target-directory')][0];
  const suffixes = [...optionValues(args, ['-S'], [], TRANSFER_FLAGS), ...longValues(args, '--suffix')];
  const backupSuffix = hasFlag(args, /^-[a-zA-Z]*b/) || hasLong(args, '--backup') || suffixes.length > 0 ? (suffixes[0]?.text ?? '~') : null;
  // cp -l / -s makes links to its sources, which a later command in the line may write through
  const linksSources = rule === 'copy' && (hasFlag(args, /^-[a-zA-Z]*[ls][a-zA-Z]*$/) || hasLong(args, '--link', '--symbolic-link'));
  const ops = operands(args, [...valueOptions, '-t', '--target-directory']);
  const symbolic = rule === 'link' && hasFlag(args, /^(-[a-zA-Z]*s[a-zA-Z]*|--symbolic)$/);
  let sources: Word[];
  let dest: Word | undefined;
  if (targetDir) {
    sources = ops;
    dest = targetDir;
  } else if (ops.length >= 2) {
    sources = ops.slice(0, -1);
    dest = ops[ops.length - 1];
  } else if (rule === 'link' && ops.length === 1) {
    sources = ops;
    dest = word('.');
  } else {
    sources = ops;
    dest = undefined;
  }
  if (dest) {
    effects.push({ path: dest, effect: 'write' });
    effects.push({ path: dest, effect: 'into' });
    for (const source of sources) effects.push({ path: word(joinPath(dest.text, copiedName(source.text)), dest), effect: 'destroy' });
    // a backup of what is replaced lands beside it, under the suffix given (`-b -S .json`)
    if (backupSuffix !== null) {
      effects.push({ path: word(`${dest.text}${backupSuffix}`, dest), effect: 'write' });
      for (const source of sources) effects.push({ path: word(`${joinPath(dest.text, copiedName(source.text))}${backupSuffix}`, dest), effect: 'write' });
    }
  }
  for (const source of sources) {
    if (rule === 'move') effects.push({ path: source, effect: 'destroy' });
    if (linksSources) effects.push({ path: source, effect: 'link' });
    if (rule === 'link') {
      // A symbolic link's target is relative to the link's directory; a hard link's to the cwd.
      const linkDir = dest && !targetDir && sources.length === 1 && !dest.text.endsWith('/') ? parentOf(dest.text) : dest?.text ?? '.';
      const target = symbolic && !isAbsoluteOrHome(source.text) ? joinPath(linkDir, source.text) : source.text;
      effects.push({ path: word(target, source), effect: 'link' });
    }
  }
  return effects;
}

function parentOf(path: string): string {
  const slash = path.replace(/\/+$/, '').lastIndexOf('/');
  if (slash === -1) return '.';
  return slash === 0 ? '/' : path.slice(0, slash);
}

/** A sed script that only substitutes, prints and deletes: no `e`, `w`, `W`, `r`-less writes or commands. */
function safeSedScript(script: string): boolean {
  let k = 0;
  const s = script;
  const skipSpace = () => {
    while (k < s.length && /[\s;]/.test(s[k]!)) k++;
  };
  const address = () => {
    for (;;) {
      if (/[0-9$]/.test(s[k] ?? '')) {
        while (/[0-9$~+]/.test(s[k] ?? '')) k++;
      } else if (s[k] === '/' || s[k] === '\\') {
        const delim = s[k] === '\\' ? s[++k] : '/';
        k++;
        while (k < s.length && s[k] !== delim) k += s[k] === '\\' ? 2 : 1;
        k++;
        while (s[k] === 'I' || s[k] === 'M') k++;
      } else return;
      if (s[k] === ',') k++;
      else return;
    }
  };
  let guard = 0;
  while (k < s.length && guard++ < 10_000) {
    skipSpace();
    if (k >= s.length) break;
    address();
    while (s[k] === ' ' || s[k] === '!') k++;
    const c = s[k] ?? '';
    if (c === '') break;
    if (c === 's' || c === 'y') {
      const delim = s[k + 1];
      if (delim === undefined || delim === '\n' || delim === '\\') return false;
      k += 2;
      for (let part = 0; part < 2; part++) {
        while (k < s.length && s[k] !== delim) k += s[k] === '\\' ? 2 : 1;
        if (k >= s.length) return false;
        k++;
      }
      if (c === 's') {
        while (k < s.length && /[gpiImM0-9]/.test(s[k]!)) k++;
        if (k < s.length && !/[\s;}]/.test(s[k]!)) return false;
      }
      continue;
    }
    if ('pPdDnNgGhHxlqQ={}=z'.includes(c)) {
      k++;
      while (k < s.length && /[0-9]/.test(s[k]!)) k++;
      continue;
    }
    if (c === 'b' || c === 't' || c === 'T' || c === ':') {
      // GNU sed ends a label at whitespace or `;`: what follows is the next command (`:a w FILE`)
      k++;
      while (k < s.length && (s[k] === ' ' || s[k] === '\t')) k++;
      while (k < s.length && !/[\s;]/.test(s[k]!)) k++;
      continue;
    }
    if (c === 'a' || c === 'i' || c === 'c') {
      while (k < s.length && s[k] !== '\n') k++;
      continue;
    }
    return false;
  }
  return true;
}

const SED_VALUE_OPTIONS = ['-e', '-f', '-l', '--expression', '--file', '--line-length'];

function sedClass(args: readonly Word[]): Classified {
  const scripts = [...optionValues(args, ['-e'], []), ...longValues(args, '--expression')];
  const fromFile = [...optionValues(args, ['-f'], []), ...longValues(args, '--file')];
  const ops = operands(args, SED_VALUE_OPTIONS);
  const files = scripts.length === 0 && fromFile.length === 0 ? ops.slice(1) : ops;
  if (scripts.length === 0 && fromFile.length === 0 && ops[0]) scripts.push(ops[0]);
  const inPlace = hasFlag(args, /^-[a-zA-Z]*i/) || hasLong(args, '--in-place');
  if (fromFile.length > 0 || scripts.some((s) => s.dynamic || !safeSedScript(s.text))) {
    return { level: 'process_exec', kind: 'exec', opaque: 'a sed script that can run commands or write files', effects: inPlace ? files.map((path) => ({ path, effect: 'write' as const })) : [] };
  }
  if (!inPlace) return { level: 'read_only', kind: 'reader', effects: [] };
  const effects: Classified['effects'] = files.map((path) => ({ path, effect: 'write' as const }));
  // a backup under the suffix given (`-i.bak`, `--in-place=.bak`); a `*` in it stands for the file's name
  for (const w of args) {
    const t = w.text;
    if (t === '--') break;
    const suffix = /^-[a-hj-zA-Z]*i(.+)$/.exec(t)?.[1] ?? (t.startsWith('--') && t.includes('=') && isLongOption(t, '--in-place') ? t.slice(t.indexOf('=') + 1) : undefined);
    if (suffix === undefined) continue;
    for (const file of files) {
      if (!suffix.includes('*')) effects.push({ path: word(`${file.text}${suffix}`, file), effect: 'write' });
      else {
        const named = suffix.replace(/\*/g, baseName(file.text));
        effects.push({ path: word(named, file), effect: 'write' }, { path: word(joinPath(parentOf(file.text), named), file), effect: 'write' });
      }
    }
  }
  return { level: 'workspace_write', kind: 'writer', effects };
}

/** GNU tar's short options that take a value. */
const TAR_VALUE_LETTERS = 'bCfFgHIKLNTVX';

function tarClass(args: readonly Word[]): Classified {
  let mode = '';
  const first = args[0]?.text ?? '';
  if (first !== '' && !first.startsWith('-')) mode += first;
  // a cluster's letters up to the first that takes a value (`-cfo.tar`: c, f)
  for (const w of args) {
    if (!/^-[a-zA-Z]/.test(w.text)) continue;
    for (const c of w.text.slice(1)) {
      mode += c;
      if (TAR_VALUE_LETTERS.includes(c)) break;
    }
  }
  // long options as GNU tar takes them, abbreviated (`--extr`, `--cre`)
  if (hasLong(args, '--extract', '--get')) mode += 'x';
  if (hasLong(args, '--create', '--append', '--update', '--concatenate', '--delete')) mode += 'c';
  if (/[IF]/.test(mode) || hasLong(args, '--to-command', '--use-compress-program', '--checkpoint-action', '--info-script', '--new-volume-script', '--rsh-command')) {
    return { level: 'process_exec', kind: 'exec', opaque: 'tar runs a program given on its command line', effects: [] };
  }
  const dirs = [...optionValues(args, ['-C'], []), ...longValues(args, '--directory')];
  const archives = [...optionValues(args, ['-f'], []), ...longValues(args, '--file'), ...longValues(args, '--index-file'), ...longValues(args, '--volno-file')];
  // a cluster `-cvf FILE` (or `-cvfFILE`) names the archive too
  for (let k = 0; k < args.length; k++) {
    const m = /^-[a-zA-Z]*f(.*)$/.exec(args[k]!.text);
    if (!m || args[k]!.text.startsWith('--')) continue;
    if (m[1] !== '') archives.push(word(m[1]!, args[k]));
    else if (args[k + 1]) archives.push(args[k + 1]!);
  }
  if (/x/.test(mode)) {
    // -P keeps the members' absolute and ../ names: they are written wherever they point
    if (/P/.test(mode) || hasLong(args, '--absolute-names')) return { level: 'process_exec', kind: 'exec', opaque: 'tar -P extracts members to the absolute or ../ paths they name', effects: [] };
    const into = dirs.length > 0 ? dirs : [word('.')];
    return { level: 'workspace_write', kind: 'writer', effects: into.map((path) => ({ path, effect: 'destroy' as const })) };
  }
  if (/[cruA]/.test(mode) || longValues(args, '--index-file').length > 0) {
    if (/f/.test(first) && !first.startsWith('-') && args[1]) archives.push(args[1]);
    const effects: Classified['effects'] = archives.map((path) => ({ path, effect: 'write' as const }));
    if (hasLong(args, '--remove-files')) {
      // the files archived are removed: every word that is not an option may be one of them
      // (the archive's name included); names read from a list, or relative to -C, are not in the line
      if (dirs.length > 0 || /T/.test(mode) || hasLong(args, '--files-from')) {
        return { level: 'process_exec', kind: 'exec', opaque: 'tar --remove-files removes files named in a list or under another directory', effects: [] };
      }
      for (let k = 0; k < args.length; k++) if (!args[k]!.text.startsWith('-') && !(k === 0 && first !== '')) effects.push({ path: args[k]!, effect: 'destroy' });
    }
    return { level: 'workspace_write', kind: 'writer', effects };
  }
  return { level: 'read_only', kind: 'reader', effects: [] };
}

/** The options of the `write` rule's programs that take a value (tee takes none). */
const WRITE_VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  __proto__: null as never,
  touch: ['-d', '-r', '-t', '--date', '--reference'],
  truncate: ['-s', '-r', '--size', '--reference'],
  mkdir: ['-m', '--mode'],
  mkfifo: ['-m', '--mode'],
  mktemp: ['-p', '--suffix'],
};
/** The options of the `second` rule's programs that take a value. */
const SECOND_VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  __proto__: null as never,
  uniq: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'],
  xxd: ['-c', '-g', '-l', '-o', '-s', '-n', '-R', '-cols', '-groupsize', '-len', '-offset', '-seek', '-name', '--cols', '--groupsize', '--len', '--offset', '--seek', '--name'],
};
const CP_VALUE_OPTIONS = ['-S', '--suffix', '-m', '-o', '-g', '--mode', '--owner', '--group', '-Path', '-Destination', '-LiteralPath', '-Filter', '-Include', '-Exclude'];

function writerClass(name: string, rule: WriterRule, args: readonly Word[]): Classified {
  const writer = (effects: Classified['effects']): Classified => ({ level: effects.length > 0 ? 'workspace_write' : READER_SET.has(name) ? 'read_only' : 'workspace_write', kind: effects.length > 0 || !READER_SET.has(name) ? 'writer' : 'reader', effects });
  switch (rule) {
    case 'write':
      return writer(operands(args, WRITE_VALUE_OPTIONS[name] ?? []).map((path) => ({ path, effect: 'write' })));
    case 'remove':
      return writer(operands(args, ['-Path', '-LiteralPath', '-Filter', '-Include', '-Exclude', '-Encoding', '-ItemType']).map((path) => ({ path, effect: 'destroy' as const })).concat(optionValues(args, [], ['-Path', '-LiteralPath']).map((path) => ({ path, effect: 'destroy' as const }))));
    case 'copy':
      if (name === 'install' && hasFlag(args, /^(-d|--directory)$/)) return writer(operands(args, CP_VALUE_OPTIONS).map((path) => ({ path, effect: 'write' })));
      return writer(transferEffects(args, 'copy', CP_VALUE_OPTIONS));
    case 'move':
      return writer(transferEffects(args, 'move', CP_VALUE_OPTIONS));
    case 'link':
      return writer(transferEffects(args, 'link', ['-S', '--suffix']));
    case 'mode': {
      const reference = args.some((w) => isLongOption(w.text, '--reference', 3));
      const ops = operands(args, ['--reference']);
      const changed = name === 'chattr' || name === 'setfacl' || reference ? ops : ops.slice(1);
      return writer(changed.map((path) => ({ path, effect: 'destroy' })));
    }
    case 'sed':
      return sedClass(args);
    case 'dd':
      return writer(args.filter((w) => w.text.startsWith('of=')).map((w) => ({ path: word(w.text.slice(3), w), effect: 'write' })));
    case 'sort':
      if (name === 'sort' && args.some((w) => isLongOption(w.text, '--compress-program', 2))) return { level: 'process_exec', kind: 'exec', opaque: 'sort --compress-program runs a program', effects: [] };
      return writer([...optionValues(args, ['-o'], [], true), ...longValues(args, '--output')].map((path) => ({ path, effect: 'write' })));
    case 'second': {
      const ops = operands(args, SECOND_VALUE_OPTIONS[name] ?? []);
      return writer(ops[1] ? [{ path: ops[1], effect: 'write' }] : []);
    }
    case 'extract': {
      if (name === 'tar') return tarClass(args);
      if (name === 'unzip') {
        // listing only: a flag cluster with l, v, t or Z, among the options before -x (after it come
        // names to leave out), not a -d or -P with its value attached (`-ddist`)
        const xAt = args.findIndex((w) => w.text === '-x');
        const options = xAt === -1 ? args : args.slice(0, xAt);
        if (options.some((w) => /^-[a-zA-Z]+$/.test(w.text) && !/^-[dP]/.test(w.text) && /[lvtZ]/.test(w.text))) return { level: 'read_only', kind: 'reader', effects: [] };
        // -: keeps the members' ../ names: they are written wherever they point
        if (hasFlag(args, /^-[^-]*:/)) return { level: 'process_exec', kind: 'exec', opaque: 'unzip -: extracts members to the ../ paths they name', effects: [] };
        const into = optionValues(args, ['-d'], []);
        return writer((into.length > 0 ? into : [word('.')]).map((path) => ({ path, effect: 'destroy' })));
      }
      if (name === 'patch') {
        const ops = operands(args, ['-p', '-i', '-o', '-d', '-F', '-B', '-D', '-r', '-V', '-z', '-Y', '--input', '--output', '--directory', '--reject-file', '--prefix', '--suffix', '--basename-prefix']);
        const out = optionValues(args, ['-o'], ['--output'], true);
        // the reject file, and backups named with a prefix or suffix of the caller's choosing
        const own = optionValues(args, ['-r'], ['--reject-file'], true).map((path) => ({ path, effect: 'write' as const }));
        const named = ops[0] && optionValues(args, ['-i'], ['--input']).length === 0 ? ops[0] : undefined;
        if (named) {
          for (const suffix of optionValues(args, ['-z'], ['--suffix'], true)) own.push({ path: word(`${named.text}${suffix.text}`, named), effect: 'write' });
          for (const prefix of optionValues(args, ['-B'], ['--prefix'], true)) own.push({ path: word(`${prefix.text}${named.text}`, named), effect: 'write' });
          for (const prefix of optionValues(args, ['-Y'], ['--basename-prefix'], true)) own.push({ path: word(joinPath(parentOf(named.text), `${prefix.text}${baseName(named.text)}`), named), effect: 'write' });
        }
        if (out.length > 0) return writer([...out.map((path) => ({ path, effect: 'write' as const })), ...own]);
        if (named) return writer([{ path: named, effect: 'write' }, ...own]);
        if (own.length > 0) return writer([...own, ...(optionValues(args, ['-d'], ['--directory']).concat(word('.'))).map((path) => ({ path, effect: 'destroy' as const }))]);
        return writer((optionValues(args, ['-d'], ['--directory']).concat(word('.'))).map((path) => ({ path, effect: 'destroy' })));
      }
      if (name === '7z' && hasFlag(args, /^-spf/)) return { level: 'process_exec', kind: 'exec', opaque: '7z -spf extracts members to the absolute paths they name', effects: [] };
      // 7z extracts into the current directory, or into -oDIR
      const into = name === '7z' ? optionValues(args, ['-o'], []) : [];
      return writer([word('.'), ...into].map((path) => ({ path, effect: 'destroy' as const })));
    }
    case 'pack':
      if (hasLong(args, '--files', '--files0', '--filelist')) return { level: 'process_exec', kind: 'exec', opaque: `${name} reads the names of the files it changes from a file`, effects: [] };
      if (name === 'split' && hasLong(args, '--filter')) return { level: 'process_exec', kind: 'exec', opaque: 'split --filter runs a command', effects: [] };
      if (name === 'split' || name === 'csplit') {
        const ops = operands(args, ['-a', '-b', '-C', '-l', '-n', '-t', '-f', '--prefix', '--suffix-length', '--bytes', '--lines', '--number', '--additional-suffix']);
        const prefix = name === 'csplit' ? optionValues(args, ['-f'], ['--prefix'], 'ksqz')[0] : ops[1];
        return writer([{ path: word(`${prefix?.text ?? 'x'}*`, { ...(prefix ?? word('')), pattern: true }), effect: 'write' }]);
      }
      {
        // zstd -o FILE writes FILE even with -c; --output-dir-* put the outputs in a directory
        const outputs = name === 'zstd' ? [...optionValues(args, ['-o'], [], true).map((path) => ({ path, effect: 'write' as const })), ...longValues(args, '--output-dir-flat').concat(longValues(args, '--output-dir-mirror')).map((path) => ({ path, effect: 'destroy' as const }))] : [];
        // -N restores the name stored in the archive, in the operand's directory
        if (hasFlag(args, /^-[a-zA-Z]*N[a-zA-Z]*$/) || args.some((w) => isLongOption(w.text, '--name', 2))) for (const path of operands(args, ['-S', '--suffix', '-T', '--threads'])) outputs.push({ path: word(parentOf(path.text), path), effect: 'destroy' });
        // to stdout, a listing or a test: -c, -l or -t in a cluster of letters that take no value (`-Sxt` is the suffix `xt`)
        const toStdout = args.some((w) => w.text !== '--' && (/^--(stdout|to-stdout|list|test)$/.test(w.text) || (/^-[a-zA-Z]*[clt]$/.test(w.text) && !/[SoTMFCDB]/.test(w.text.slice(1, -1)))));
        if (outputs.length === 0 && toStdout) return { level: 'read_only', kind: 'reader', effects: [] };
        // each file is replaced by one with a suffix added (compressing) or taken off (decompressing)
        const suffixes = [...optionValues(args, ['-S'], [], true), ...longValues(args, '--suffix')].map((w) => w.text);
        const all = [...suffixes, '.gz', '.z', '.Z', '.xz', '.bz2', '.zst', '.lz', '.lzma', '.tgz', '.txz', '.tbz2'];
        const effects: Classified['effects'] = outputs;
        for (const path of operands(args, ['-S', '--suffix', '-T', '--threads'])) {
          effects.push({ path, effect: 'destroy' });
          for (const suffix of all) {
            effects.push({ path: word(`${path.text}${suffix}`, path), effect: 'write' });
            if (suffix !== '' && path.text.endsWith(suffix)) effects.push({ path: word(path.text.slice(0, -suffix.length), path), effect: 'write' });
          }
        }
        return writer(effects);
      }
  }
}

function urlName(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  return baseName(path);
}

function networkClass(name: string, args: readonly Word[]): Classified {
  const spec = NETWORK[name]!;
  const effects: Classified['effects'] = [];
  if (name === 'curl') {
    for (const path of optionValues(args, ['-o', '-D', '-c'], ['--output', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--libcurl', '--etag-save', '--hsts', '--alt-svc'])) {
      if (path.text !== '-') effects.push({ path, effect: 'write' });
    }
    if (hasFlag(args, /^(-[a-zA-Z]*O[a-zA-Z]*|--remote-name(-all)?|-J|--remote-header-name)$/)) {
      const dir = optionValues(args, [], ['--output-dir'])[0] ?? word('.');
      effects.push({ path: dir, effect: 'into' });
      for (const url of operands(args, CURL_VALUE_OPTIONS)) if (/^[a-z]+:\/\//i.test(url.text)) effects.push({ path: word(joinPath(dir.text, urlName(url.text)), url), effect: 'write' });
    }
  } else if (name === 'wget') {
    const documents = optionValues(args, ['-O'], ['--output-document']);
    for (const path of [...documents, ...optionValues(args, ['-o', '-a'], ['--output-file', '--append-output'])]) if (path.text !== '-') effects.push({ path, effect: 'write' });
    if (documents.length === 0) {
      const dir = optionValues(args, ['-P'], ['--directory-prefix'])[0] ?? word('.');
      effects.push({ path: dir, effect: hasFlag(args, /^(-[a-zA-Z]*[rmp]|--recursive|--mirror|--page-requisites)$/) ? 'destroy' : 'into' });
      for (const url of operands(args, ['-O', '-o', '-a', '-P', '-e', '-t', '-T', '-w', '-U', '--header', '--user', '--password'])) if (/^[a-z]+:\/\//i.test(url.text)) effects.push({ path: word(joinPath(dir.text, urlName(url.text)), url), effect: 'write' });
    }
  } else if (name === 'scp' || name === 'rsync') {
    if (name === 'rsync' && (hasFlag(args, /^-[a-zA-Z]*e/) || hasLong(args, '--rsh', '--rsync-path'))) return { level: 'network', kind: 'network', opaque: 'rsync runs the remote shell given with -e', effects: [] };
    if (name === 'scp' && hasFlag(args, /^-[a-zA-Z0-9]*[oSF]/)) return { level: 'network', kind: 'network', opaque: 'scp -o/-S/-F can run a program (ProxyCommand)', effects: [] };
    const ops = operands(args, ['-e', '-P', '-i', '-o', '-F', '-J', '-l', '-S', '-c', '--exclude', '--include', '--filter', '-f', '--files-from', '--log-file', '--backup-dir', '--temp-dir', '-T', '--partial-dir', '--port', '--chmod', '--chown']);
    if (ops.length >= 2) {
      const dest = ops[ops.length - 1]!;
      if (!/^[^/]*:/.test(dest.text)) {
        effects.push({ path: dest, effect: 'write' }, { path: dest, effect: 'into' });
        for (const source of ops.slice(0, -1)) effects.push({ path: word(joinPath(dest.text, copiedName(source.text)), dest), effect: 'destroy' });
      }
      if (hasFlag(args, /^--remove-source-files$/)) for (const source of ops.slice(0, -1)) effects.push({ path: source, effect: 'destroy' });
    }
    for (const path of optionValues(args, [], ['--log-file'])) effects.push({ path, effect: 'write' });
  } else if (name === 'sftp' && hasFlag(args, /^-[a-zA-Z0-9]*[oSFD]/)) {
    return { level: 'network', kind: 'network', opaque: 'sftp -o/-S/-F/-D can run a program', effects: [] };
  } else if (name === 'http' || name === 'https') {
    for (const path of optionValues(args, ['-o'], ['--output'])) effects.push({ path, effect: 'write' });
  } else if (/^(invoke-webrequest|iwr|invoke-restmethod|irm)$/.test(name)) {
    for (const path of optionValues(args, [], ['-OutFile', '-outfile'])) effects.push({ path, effect: 'write' });
  }
  return { level: 'network', kind: 'network', ...(spec.opaque ? { opaque: spec.opaque } : {}), effects };
}

const CURL_VALUE_OPTIONS = ['-o', '-D', '-c', '-H', '-d', '-X', '-u', '-A', '-e', '-b', '-x', '-m', '-w', '-F', '-T', '-K', '-r', '-Y', '-y', '-z', '--output', '--header', '--data', '--data-raw', '--data-binary', '--request', '--user', '--user-agent', '--referer', '--cookie', '--proxy', '--max-time', '--connect-timeout', '--write-out', '--form', '--upload-file', '--config', '--output-dir', '--retry', '--cacert', '--cert', '--key'];

const GIT_GLOBAL_VALUE = ['-C', '--namespace', '--super-prefix'];
const REWRITES_TRACKED = new Set(GIT_REWRITES_TRACKED);

/**
 * What a git pathspec may name: git matches `*` across directories and reads `:(magic)`; a glob
 * is checked anywhere below (`**\/spec`), and magic other than `glob`/`top`/`literal` as the whole tree.
 */
function pathspecEffects(p: Word): Classified['effects'] {
  let text = p.text;
  const magic = /^:(\(([^)]*)\)|[/!^]*)/.exec(text);
  if (magic && text.startsWith(':')) {
    const words = (magic[2] ?? '').split(',').filter(Boolean);
    if (words.some((m) => !['glob', 'top', 'literal'].includes(m)) || /[!^]/.test(magic[1] ?? '')) return [{ path: word('.'), effect: 'destroy' }];
    text = text.slice(magic[0].length);
  }
  if (!/[*?[]/.test(text)) return [{ path: word(text, p), effect: 'destroy' }];
  const pattern = { ...p, pattern: true };
  return [
    { path: word(text, pattern), effect: 'destroy' },
    { path: word(text.includes('/') ? text.replace(/\*/g, '**') : `**/${text}`, pattern), effect: 'destroy' },
  ];
}

/** The work tree a git invocation acts on: `-C DIR` (the last), else the current directory. */
function gitWorkTree(args: readonly Word[]): string {
  let dir = '.';
  for (let k = 0; k < args.length; k++) {
    if (args[k]!.text === '-C' && args[k + 1]) dir = joinPath(dir, args[k + 1]!.text);
    else if (!args[k]!.text.startsWith('-')) break;
  }
  return dir;
}
/**
 * git configuration keys that only change how git names, formats and tracks things. Setting any
 * other key is opaque: many make git run a command (`alias.*`, `core.fsmonitor`, `diff.external`,
 * `pager.*`, `*.textconv` …) or read another file that may (`include.path`).
 */
const GIT_CONFIG_PLAIN = /^(user\.(name|email|signingkey)|(author|committer)\.(name|email)|init\.defaultbranch|core\.(autocrlf|eol|safecrlf|filemode|ignorecase|quotepath|whitespace|abbrev|precomposeunicode|symlinks|longpaths)|color\.(ui|diff|status|branch|grep|interactive|decorate|push|remote|transport|advice)(\.[a-z]+)?|advice\.[a-z]+|pull\.(rebase|ff)|push\.(default|autosetupremote|followtags)|fetch\.prune|merge\.(conflictstyle|ff)|rebase\.(autosquash|autostash)|diff\.(renames|algorithm|colormoved|mnemonicprefix|noprefix)|log\.(date|decorate|follow|abbrevcommit|showsignature)|format\.pretty|status\.(short|branch|showuntrackedfiles)|branch\.[^.]+\.(remote|merge|rebase)|commit\.(gpgsign|verbose)|tag\.gpgsign|rerere\.enabled|safe\.directory)$/i;

function gitClass(args: readonly Word[]): Classified {
  let k = 0;
  while (k < args.length) {
    const t = args[k]!.text;
    if (t === '-c' || t.startsWith('--config-env') || t.startsWith('--exec-path') || t === '-c') {
      return { level: 'process_exec', kind: 'exec', opaque: 'git -c / --exec-path can make git run commands', effects: [] };
    }
    // another git directory has a configuration of its own (core.fsmonitor …); another work tree takes the writes elsewhere
    if (isLongOption(t, '--git-dir', 3) || isLongOption(t, '--work-tree') || t === '--bare') {
      return { level: 'process_exec', kind: 'exec', opaque: 'git with another git directory or work tree, whose configuration can make git run commands', effects: [] };
    }
    if (GIT_GLOBAL_VALUE.includes(t)) k += 2;
    else if (t.startsWith('-')) k++;
    else break;
  }
  const sub = args[k]?.text ?? '';
  const rest = args.slice(k + 1);
  if (args[k]?.dynamic) return { level: 'process_exec', kind: 'exec', opaque: 'a git subcommand known only at run time', effects: [] };
  if (hasLong(rest, '--upload-pack', '--receive-pack', '--exec', '--open-files-in-pager', '--ext-diff', '--config') || (['clone', 'fetch', 'pull', 'ls-remote', 'archive'].includes(sub) && hasFlag(rest, /^-u/)) || (sub === 'grep' && hasFlag(rest, /^-[a-zA-Z]*O/)) || (sub === 'rebase' && hasFlag(rest, /^-[a-zA-Z]*x/))) {
    return { level: 'process_exec', kind: 'exec', opaque: `git ${sub} with an option that runs a program`, effects: [] };
  }
  if (sub === '' || GIT_READ_SET.has(sub)) {
    if (sub === 'help' || sub === '') return { level: 'read_only', kind: 'reader', effects: [] };
    return readerWriting(longValues(rest, '--output'));
  }
  if (sub === 'filter-branch' || sub === 'difftool' || sub === 'mergetool' || (sub === 'bisect' && rest[0]?.text === 'run') || (sub === 'submodule' && rest.some((w) => w.text === 'foreach'))) {
    return { level: 'process_exec', kind: 'exec', opaque: `git ${sub} runs commands given on its command line`, effects: [] };
  }
  if (sub === 'init' && rest.some((w) => isLongOption(w.text, '--template') || isLongOption(w.text, '--separate-git-dir') || isLongOption(w.text, '--bare'))) {
    return { level: 'process_exec', kind: 'exec', opaque: 'git init --template copies hooks and a configuration that make git run commands', effects: [] };
  }
  if ((sub === 'rebase' && hasFlag(rest, /^(-x|--exec)(=|$)/)) || (sub === 'commit' && hasFlag(rest, /^--(fixup|squash)=.*!/))) {
    return { level: 'process_exec', kind: 'exec', opaque: `git ${sub} --exec runs commands`, effects: [] };
  }
  if (sub === 'config') {
    const ops = operands(rest, ['--file', '-f', '--blob', '--type', '--default', '--comment']);
    const options = rest.filter((w) => w.text.startsWith('-'));
    // git 2.46's subcommands (`git config get KEY`, `set KEY VALUE`) come first
    const action = ['get', 'list', 'set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(ops[0]?.text ?? '') ? ops.shift()!.text : '';
    const writing = ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(action) || options.some((w) => /^(-e|-[a-zA-Z]*e[a-zA-Z]*)$/.test(w.text) || ['--add', '--replace-all', '--unset', '--unset-all', '--rename-section', '--remove-section', '--edit'].some((o) => isLongOption(w.text, o, 3)));
    const reading = !writing && (action === 'get' || action === 'list' || ops.length <= 1 || options.some((w) => /^-[a-zA-Z]*l$/.test(w.text) || ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list'].some((o) => w.text === o)));
    if (reading) return { level: 'read_only', kind: 'reader', effects: [] };
    const key = ops[0]?.text ?? '';
    // a section renamed (into `core`, `alias` …) or edited by hand may become anything
    if (action === 'rename-section' || action === 'edit' || !GIT_CONFIG_PLAIN.test(key) || options.some((w) => /^-[a-zA-Z]*e/.test(w.text) || isLongOption(w.text, '--rename-section', 3) || isLongOption(w.text, '--edit', 3))) {
      return { level: 'process_exec', kind: 'exec', opaque: 'git configuration that makes git run a command', effects: [] };
    }
    return { level: 'workspace_write', kind: 'writer', effects: [...optionValues(rest, ['-f'], []), ...longValues(rest, '--file')].map((path) => ({ path, effect: 'write' as const })) };
  }
  if (GIT_NETWORK_SET.has(sub)) {
    const effects: Classified['effects'] = [];
    if (sub === 'clone') {
      const ops = operands(rest, ['-b', '--branch', '-o', '--origin', '--depth', '-c', '--config', '--reference', '--separate-git-dir', '-j', '--jobs', '-u', '--upload-pack', '--template', '--filter']);
      if (hasFlag(rest, /^(-u|--upload-pack|--template)(=|$)/) || hasFlag(rest, /^(-c|--config)(=|$)/)) return { level: 'network', kind: 'network', opaque: 'git clone with a program or configuration given on its command line', effects: [] };
      const dest = ops[1] ?? (ops[0] ? word(urlName(ops[0].text).replace(/\.git$/, ''), ops[0]) : undefined);
      if (dest) effects.push({ path: dest, effect: 'destroy' });
    }
    return { level: 'network', kind: 'network', effects };
  }
  if (GIT_WRITE_SET.has(sub)) {
    const effects: Classified['effects'] = [];
    const paths = operands(rest, ['-m', '-b', '-B', '-C', '-c', '-F', '-S', '-u', '--source', '-s', '--author', '--date', '--message', '--file', '--pathspec-from-file', '-X', '--strategy-option', '--onto', '-o', '--conflict', '--orphan', '--format', '--template']);
    if (sub === 'archive' || sub === 'format-patch') for (const path of [...optionValues(rest, ['-o'], []), ...longValues(rest, '--output'), ...longValues(rest, '--output-directory')]) effects.push({ path, effect: 'write' });
    if (sub === 'bundle' && paths[0]?.text === 'create' && paths[1]) effects.push({ path: paths[1], effect: 'write' });
    // operations that rewrite the tracked files of the work tree to another commit
    const onlyPaths = sub === 'restore' || ((sub === 'checkout' || sub === 'reset') && rest.some((w) => w.text === '--')) || ((sub === 'checkout' || sub === 'switch') && hasFlag(rest, /^(-b|-B|-c|-C|--orphan|--create|--force-create)$/) && paths.length <= 2);
    if (REWRITES_TRACKED.has(sub) && !onlyPaths && !hasFlag(rest, /^(-n|--dry-run|--abort|--quit|--continue|--skip|--show-current|--list|-l|--help)$/) && !(sub === 'stash' && ['list', 'show', 'drop', 'clear', 'create', 'store', 'push', 'save'].includes(paths[0]?.text ?? 'push')) && !(sub === 'reset' && !hasFlag(rest, /^--(hard|merge|keep)$/) && paths.length === 0)) {
      effects.push({ path: word(gitWorkTree(args)), effect: 'tracked' });
    }
    if (['checkout', 'restore', 'rm', 'reset', 'stash', 'switch'].includes(sub)) {
      for (const p of paths) if (!(sub === 'stash' && ['push', 'pop', 'apply', 'drop', 'save', 'list', 'show', 'clear', 'branch', 'create', 'store'].includes(p.text))) effects.push(...pathspecEffects(p));
      if (sub === 'stash' && hasFlag(rest, /^(-u|--include-untracked|-a|--all)$/)) effects.push({ path: word('.'), effect: 'destroy' });
      // a hard reset rewrites every tracked file of the work tree
      if (sub === 'reset' && hasFlag(rest, /^--(hard|merge|keep)$/)) effects.push({ path: word('.'), effect: 'destroy' });
    } else if (sub === 'mv') effects.push(...transferEffects(rest, 'move', []));
    else if (sub === 'clean') {
      // `-x` removes ignored files anywhere: the whole work tree, whatever else is named
      if (!hasFlag(rest, /^(-[a-zA-Z]*n|--dry-run)$/)) effects.push({ path: word('.'), effect: 'destroy' });
    }
    else if (sub === 'apply' || sub === 'am') {
      if (!hasFlag(rest, /^(--stat|--numstat|--summary|--check)$/)) effects.push({ path: optionValues(rest, [], ['--directory'])[0] ?? word('.'), effect: 'destroy' });
    } else if (sub === 'worktree' && paths[0]?.text === 'add' && paths[1]) effects.push({ path: paths[1], effect: 'destroy' });
    else if (sub === 'init' && paths[0]) effects.push({ path: paths[0], effect: 'into' });
    // checkout-index and read-tree write the tracked files under a prefix of the caller's choosing
    if (sub === 'checkout-index' || sub === 'read-tree') {
      for (const w of rest) {
        if (!isLongOption(w.text, '--prefix')) continue;
        const at = w.text.indexOf('=');
        if (at === -1) return { level: 'process_exec', kind: 'exec', opaque: `git ${sub} --prefix with its value apart`, effects: [] };
        // the prefix is joined to each path as text (`--prefix=dir/` or `--prefix=name-`)
        effects.push({ path: word(`${w.text.slice(at + 1)}**`, { ...w, pattern: true }), effect: 'destroy' });
      }
    }
    return { level: 'workspace_write', kind: 'writer', effects };
  }
  return { level: 'process_exec', kind: 'exec', opaque: `git ${sub} is not a git command persona-gate knows (it may be an alias)`, effects: [] };
}

function findClass(all: readonly Word[]): Classified {
  // -H, -L, -P, -O3 and -D OPTS come before the starting points
  let first = 0;
  while (first < all.length && /^-([HLP]|O\d*|D)$/.test(all[first]!.text)) first += all[first]!.text === '-D' ? 2 : 1;
  const args = all.slice(first);
  const starts: Word[] = [];
  for (const w of args) {
    if (w.text.startsWith('-') || w.text === '(' || w.text === '!' || w.text === '\\(') break;
    starts.push(w);
  }
  const roots = starts.length > 0 ? starts : [word('.')];
  const effects: Classified['effects'] = [];
  if (hasFlag(args, /^-delete$/)) {
    // with only -name filters, what is deleted matches them anywhere below each root
    const names = optionValues(args, [], ['-name']);
    const deleteAt = args.findIndex((w) => w.text === '-delete');
    const lastName = args.reduce((at, w, k) => (w.text === '-name' ? k : at), -1);
    // -delete before a test, or after `,`, acts on every file below the roots
    // -iname matches in any case, which the pattern check does not read: the roots then
    const onlyNames = names.length > 0 && deleteAt > lastName && !hasFlag(args, /^-(o|or|not|path|ipath|wholename|iwholename|regex|iregex|prune|iname)$/) && !args.some((w) => w.text === '!' || w.text === ',');
    for (const root of roots) {
      if (!onlyNames) {
        effects.push({ path: root, effect: 'destroy' });
        continue;
      }
      for (const n of names) {
        effects.push({ path: word(joinPath(joinPath(root.text, '**'), n.text), { ...n, pattern: true }), effect: 'destroy' });
        // the tests apply to each starting point too
        if (globMatcher(n.text).test(baseName(root.text))) effects.push({ path: root, effect: 'destroy' });
      }
    }
  }
  for (const path of optionValues(args, [], ['-fprint', '-fprint0', '-fprintf', '-fls'])) effects.push({ path, effect: 'write' });
  return { level: effects.length > 0 ? 'workspace_write' : 'read_only', kind: effects.length > 0 ? 'writer' : 'reader', effects };
}

function packageManagerClass(name: string, args: readonly Word[]): Classified {
  const sub = operands(args, ['--prefix', '-C', '--dir', '--cwd', '-w', '--workspace', '--filter'])[0]?.text ?? '';
  if (PACKAGE_MANAGERS[name]!.includes(sub)) return { level: 'network', kind: 'network', opaque: `${name} ${sub} downloads packages and runs their scripts`, effects: [] };
  return { level: 'process_exec', kind: 'exec', opaque: `${name} ${sub || ''} runs the project's scripts`.replace(/ +/g, ' '), effects: [] };
}

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
const COMMAND_VARIABLE = /(EDITOR|PAGER|COMMAND|CMD|SHELL|PROGRAM|ASKPASS|HOOK|HOOKS|EXEC|PRELOAD|OPT|OPTS|OPTIONS|DEFAULTS|SUFFIX|RC|ENV|PROFILE|PATH)$|^(GIT_|LD_|DYLD_|BASH_|ZSTD_|XDG_|PS[0-4]$|PROMPT_|(GZIP|BZIP2?|HOME|TAPE|VERSION_CONTROL)$)/;

/** Builtins that set variables by name (`printf -v PS4`, `read PATH`, `export BASH_ENV`). */
const VARIABLE_SETTERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'printf', 'read', 'mapfile', 'readarray', 'getopts', 'let', 'set-variable', 'new-variable', 'sv']);

/** A reader that writes the files it is told to (`-o FILE`, `--output FILE`), when it is told any. */
function readerWriting(paths: readonly Word[]): Classified {
  return paths.length > 0 ? { level: 'workspace_write', kind: 'writer', effects: paths.map((path) => ({ path, effect: 'write' as const })) } : { level: 'read_only', kind: 'reader', effects: [] };
}

/** SPEC §9.1: a simple command's level, what it runs that cannot be read, and what it does to paths. */
function classify(inv: Invocation, powershell: boolean): Classified {
  const name = powershell ? inv.name.toLowerCase() : inv.name;
  const args = inv.args;
  if (inv.opaque !== undefined) return { level: 'process_exec', kind: 'exec', opaque: inv.opaque, effects: [] };
  if (name === '') return { level: 'none', kind: 'builtin', effects: [] };
  // a function of the program's name does not change its reading: it may be defined after the call,
  // in a subshell, or never.
  // A program named by a path is the known program only in the system's own directories (`./cat` may be anything)
  const program = inv.program?.text ?? '';
  if (!inSystemDirectory(program)) {
    return { level: 'process_exec', kind: 'exec', opaque: `${program} runs code persona-gate cannot read`, effects: [] };
  }
  if (name === 'find') return findClass(args);
  if (name === 'sdiff' || name === 'diff3' || name === 'diff') {
    if (hasLong(args, '--diff-program')) return { level: 'process_exec', kind: 'exec', opaque: `${name} --diff-program runs a program`, effects: [] };
    return readerWriting(name === 'sdiff' ? [...optionValues(args, ['-o'], [], true), ...longValues(args, '--output')] : []);
  }
  if (name === 'tree') return readerWriting(optionValues(args, ['-o'], [], true));
  // readers with an option that runs a program (a preprocessor, a pager) or writes a file
  if ((name === 'rg' && hasLong(args, '--pre', '--hostname-bin')) || (['bat', 'batcat', 'ack', 'ag'].includes(name) && hasLong(args, '--pager'))) {
    return { level: 'process_exec', kind: 'exec', opaque: `${name} runs the program its options name`, effects: [] };
  }
  if (name === 'info') {
    const out = optionValues(args, ['-o'], ['--output'], true);
    if (out.length > 0) return readerWriting(out);
  }
  if (name === 'git') return gitClass(args);
  if (name in WRITERS) return writerClass(name, WRITERS[name]!, args);
  if (name in NETWORK) return networkClass(name, args);
  if (name in PACKAGE_MANAGERS) return packageManagerClass(name, args);
  if (VARIABLE_SETTERS.has(name)) {
    const changes = args.find((w) => {
      const variable = w.text.split(/[=[]/)[0]!.replace(/\+$/, '');
      return RUNTIME_VARIABLES.has(variable) || (/^[A-Za-z_]\w*$/.test(variable) && COMMAND_VARIABLE.test(variable));
    });
    if (changes) return { level: 'process_exec', kind: 'exec', opaque: `${name} ${changes.text.split(/[=[]/)[0]} changes which program runs or what it loads`, effects: [] };
  }
  if (name === 'hash' && hasFlag(args, /^-[a-zA-Z]*p/)) return { level: 'process_exec', kind: 'exec', opaque: 'hash -p makes a name run another program', effects: [] };
  if (BUILTIN_SET.has(name)) return { level: 'none', kind: 'builtin', effects: [] };
  if (READER_SET.has(name)) return { level: 'read_only', kind: 'reader', effects: [] };
  return { level: 'process_exec', kind: 'exec', opaque: `${inv.name} runs code persona-gate cannot read`, effects: [] };
}

/** Interpreters with a read-eval-print loop: started without code, they run what arrives on stdin. */
const REPL_NAMES: ReadonlySet<string> = new Set(['node', 'nodejs', 'ruby', 'irb', 'pry', 'perl', 'php', 'lua', 'luajit', 'deno', 'bun', 'tclsh', 'wish', 'julia', 'ghci', 'jshell', 'R']);
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
/**
 * Programs that, given a terminal, take commands from it: shell escapes (`!cmd` in a pager or an
 * editor), debuggers, database shells, terminal multiplexers, `script`, `expect`, `parallel`.
 */
const TAKES_COMMANDS = new Set(['script', 'expect', 'gdb', 'lldb', 'vim', 'vi', 'nvim', 'ex', 'view', 'vimdiff', 'ed', 'red', 'emacs', 'nano', 'less', 'more', 'most', 'pg', 'man', 'parallel', 'ftp', 'sqlite3', 'mysql', 'mariadb', 'psql', 'mongosh', 'mongo', 'tmux', 'screen']);
/** `/^[gmn]?awk$/` */
const AWK_NAMES: ReadonlySet<string> = new Set(['awk', 'gawk', 'mawk', 'nawk']);
/** Paths that are a program's stdin. */
const STDIN_PATH = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0|\/dev\/tty)$/;

/**
 * Whether a program takes code or commands from its stdin: a shell with neither `-c` nor a script,
 * an interpreter with neither code nor a script (or told `-`, `-i`, `repl`), `source /dev/stdin`, an
 * awk or sed program that runs commands, a program with commands of its own at a terminal. On a
 * host that lets a running command be given input later without a hook event (Codex's
 * write_stdin), what it then runs is never seen. Returns why, or null.
 */
function readsCodeFromStdin(inv: Invocation, opaque: string | undefined): string | null {
  if (opaque !== undefined && opaque.includes('reads commands from stdin')) return opaque;
  const base = inv.name.slice(inv.name.lastIndexOf('/') + 1);
  const args = inv.args.map((w) => w.text);
  if ((base === 'source' || base === '.') && (args.length === 0 || STDIN_PATH.test(args[0]!))) return `${base} runs commands read from stdin`;
  if (TAKES_COMMANDS.has(base)) return `${base} takes commands at a terminal`;
  // `script FILE` starts a shell (FILE is where it records), read here as a wrapper around FILE.
  const wrapper = inv.via.find((v) => TAKES_COMMANDS.has(v));
  if (wrapper !== undefined) return `${wrapper} takes commands at a terminal`;
  if (AWK_NAMES.has(base) && args.some((a, i) => !/^-[Fv]/.test(a) && !/^-[Fv]$/.test(args[i - 1] ?? '') && /system\s*\(|\|/.test(a))) return `${base} runs commands its input gives it`;
  if (base === 'sed' && args.some((a) => /(^|[;{}\n])\s*e(\s|;|$)|\/[gpIiMm0-9]*e[gpIiMm0-9]*(\s|;|$)/.test(a))) return 'sed runs commands its input gives it (the e command)';
  if (!isRepl(base)) return null;
  if (args.some((a) => a === '-' || a === '-i' || a === '--interactive' || a === 'repl')) return opaque ?? `${base} reads code from stdin`;
  for (const a of args) {
    if (CODE_OPTIONS.test(a) || !a.startsWith('-')) return null;
  }
  return opaque ?? `${base} reads code from stdin`;
}

const unreadable = (detail: string): ShellReading => ({
  matched: [],
  level: 'process_exec',
  invocations: [],
  unlisted: [],
  opaque: [],
  opaqueNames: [],
  stdinCode: [],
  effects: [],
  directories: [],
  gateCommands: [],
  mayRearm: false,
  confirmsIdentity: false,
  unparsable: detail,
});

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
  const cdableVars = words.includes('cdable_vars') || invocations.some((inv) => (inv.name === 'shopt' || inv.name === 'set') && inv.args.some((w) => w.dynamic));
  for (const inv of invocations) {
    const name = inv.name.toLowerCase();
    if (DIRECTORY_CHANGERS.has(name) && cdableVars) return null;
    if (DIRECTORY_CHANGERS.has(name)) {
      const target = operands(inv.args)[0];
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
 * The catalogued command an invocation is, by its `bash` prefixes (longest first). A prefix whose
 * words are all literal matches; one that could match only through a word computed at run time
 * makes the call unreadable.
 */
function matchPrefix(index: PolicyIndex, inv: Invocation): { key: string } | { dynamic: string } | null {
  const words: Word[] = [inv.program!, ...inv.args];
  for (const prefix of index.bashPrefixes()) {
    if (prefix.words.length > words.length) continue;
    if (baseName(prefix.words[0]!) !== inv.name) continue;
    let ok = true;
    for (let k = 1; k < prefix.words.length; k++) {
      const expected = prefix.words[k]!;
      const w = words[k]!;
      if (w.dynamic || w.pattern) return { dynamic: `${words.slice(0, k + 1).map((x) => x.text).join(' ')} could be ${prefix.words.join(' ')}` };
      if (w.text !== expected) {
        ok = false;
        break;
      }
    }
    if (ok) return { key: prefix.key };
  }
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
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? 1 : -1) alternatives.push(numeric ? String(n) : String.fromCharCode(n));
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
 * Files that make later calls run commands: git's configuration and hooks (`git status` runs
 * core.fsmonitor, `git commit` a hook) and ssh's configuration (`git fetch` runs a ProxyCommand),
 * and the directories that hold them; any file named `config` (a bare repository's, or one made
 * by hand, has it at its top); curl's and wget's, which name files they write (`output = …` in
 * ~/.curlrc); and the system's program directories, whose programs the reader takes for the
 * known ones, with the usual ones of the home that come first on PATH (`~/.local/bin`).
 */
const RUNS_COMMANDS_LATER = /(^|\/)(\.git(\/(.+\/)?(config|hooks(\/.*)?))?|\.gitconfig|\.config\/git(\/config)?|\.ssh(\/config)?|\.curlrc|\.wgetrc|config)$|(^|\/)(\.local\/bin|\.cargo\/bin|\.bun\/bin|\.deno\/bin|\.npm-global\/bin|\.pyenv\/shims)(\/|$)|^~\/(bin|go\/bin)(\/|$)/i;
/** The names a glob segment must be able to match for a pattern to reach those files. */
const RUNS_COMMANDS_DIRS = ['.git', '.gitconfig', '.config', '.ssh', '.curlrc', '.wgetrc'];

/**
 * Whether writing `path` (a pattern when `pattern`) may write one of RUNS_COMMANDS_LATER. A segment
 * that starts with `*` or `?` matches a dot name only with `dotglob` (`dotglob`: the line names it).
 */
function configThatRunsCommands(path: string, pattern: boolean, dotglob: boolean): boolean {
  const segments: string[] = [];
  for (const segment of path.replace(/\/+/g, '/').split('/')) {
    if (segment === '.') continue;
    if (segment === '..' && segments.length > 0 && segments[segments.length - 1] !== '..' && segments[segments.length - 1] !== '') segments.pop();
    else segments.push(segment);
  }
  const text = segments.join('/').replace(/(.)\/$/, '$1');
  if (RUNS_COMMANDS_LATER.test(text) || inProgramDirectory(text)) return true;
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
    } else if (c === '@' && (command[k + 1] === "'" || command[k + 1] === '"') && (command[k + 2] === '\n' || (command[k + 2] === '\r' && command[k + 3] === '\n'))) {
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
  if (/^\$[A-Za-z_][\w:.]*$/.test(t) && eq && /^[-+*/%]?=$/.test(eq.text) && inv.args[1] && !inv.args[1].dynamic && !/^[$[@(0-9'"-]/.test(inv.args[1].text) && !inv.args[1].quoted) {
    const [program, ...args] = inv.args.slice(1);
    return { ...inv, name: baseName(program!.text), program: program!, args };
  }
  return 'expression';
}

/** SPEC §3 step 3 and §9 for Bash and PowerShell: what the command line runs, writes, and asks of persona-gate. */
export function readShellCall(index: PolicyIndex, event: ToolEvent): ShellReading | null {
  if (event.tool_name !== 'Bash' && event.tool_name !== 'PowerShell') return null;
  const command = event.tool_input.command;
  if (typeof command !== 'string') return unreadable('the command is missing or not a string');
  const powershell = event.tool_name === 'PowerShell';
  const source = powershell ? powershellAsPosix(command) : command;
  if (source === null) return unreadable(`more than ${MAX_POWERSHELL_ESCAPES} backtick escapes`);
  const raw = readCommandLine(source, powershell);
  if (raw.unparsable) return unreadable(raw.unparsable);
  const functions = new Set(raw.functions);
  const changesReading = shellOptionsChangingReading(raw.invocations);
  if (changesReading !== null) return unreadable(changesReading);

  const catalogued = bashPrograms(index);
  const identity = index.settings.identity;
  const switchPrograms = bashPrograms(index, identity?.switches ?? []);

  const matched: Subject[] = [];
  const invocations: ShellInvocationSummary[] = [];
  const unlisted: string[] = [];
  const opaque: string[] = [];
  const stdinCode: string[] = [];
  const effects: ShellReading['effects'] = [];
  const gateCommands: string[] = [];
  let level: Level = 'none';
  /** The first program that runs code the gate cannot read: what a guarded path in the line is handed to. */
  let opaqueProgram: string | undefined;
  let mayRearm = false;
  let everyInvocationReads = true;
  let unconditionalRead = false;
  let conditionalRead = false;
  const raise = (to: Level) => {
    if (exceeds(to, level)) level = to;
  };
  /** The files the line's redirections open for reading. */
  const readRedirects: Word[] = [];
  // `$HOME/…` is the home (`~/…`) when nothing else in the line names HOME (`HOME=x`, `read HOME`)
  let homeKnownOnce: boolean | undefined;
  const homeKnown = () =>
    (homeKnownOnce ??= !/\bHOME\b/.test(command.replace(/\$\{?HOME\}?/g, '')) && !raw.invocations.some((inv) => [...inv.assignments, ...inv.args.map((w) => w.text)].some((w) => /HOME/.test(w.replace(/\$\{?HOME\}?/g, '')))));
  const addEffect = (given: Word, effect: PathEffect, program: string): string | null => {
    const path = given.dynamic && HOME_PATH.test(given.text) && homeKnown() ? word(given.text.replace(/^\$\{?HOME\}?/, '~'), { ...given, dynamic: false }) : given;
    if (NOT_A_FILE.test(path.text)) return null;
    if (path.text.startsWith('~') && effect !== 'mention' && !homeKnown()) return `a path in the home directory (${path.text}) after the line changes HOME`;
    if (path.text.length > MAX_PATH_LENGTH) return `a path longer than ${MAX_PATH_LENGTH} characters`;
    if (path.dynamic) return `a path computed at run time (${path.text}) handed to ${program || 'a redirection'}`;
    const expanded = path.pattern ? expandBraces(path.text) : [path.text];
    if (expanded === null) return `a brace expansion of more than ${MAX_BRACE_ALTERNATIVES} words`;
    for (const text of expanded) effects.push({ path: text, effect, pattern: path.pattern && /[*?[]|[@!+]\(/.test(text), program });
    return effects.length > MAX_EFFECTS ? `more than ${MAX_EFFECTS} paths to check` : null;
  };

  for (let inv of raw.invocations) {
    if (powershell) {
      const expression = powershellExpression(inv);
      if (expression === 'expression') {
        const words = [inv.program!, ...inv.args].map((w) => w.text).join(' ');
        const runs = /::|\.invoke\(|\[scriptblock\]|\.(start|run)\(/i.test(words);
        invocations.push({ program: '', args: [words], level: runs ? 'process_exec' : 'none', kind: runs ? 'exec' : 'builtin', ...(runs ? { opaque: 'a .NET call' } : {}) });
        if (runs) {
          opaque.push(`${words.slice(0, 60)} (a .NET call)`);
          raise('process_exec');
          everyInvocationReads = false;
        }
        const pieces = pathPieces(words);
        if (pieces === null) return unreadable(`more than ${MAX_PIECES} paths in one expression`);
        for (const piece of pieces) if (addEffect(word(piece), 'mention', 'a PowerShell expression')) return unreadable(`more than ${MAX_EFFECTS} paths to check`);
        continue;
      }
      if (expression) inv = expression;
      if (inv.name === '__pscall__') {
        const [program, ...args] = inv.args;
        if (!program) continue;
        if (program.dynamic || program.pattern) return unreadable(`a command name computed at run time (& ${program.text})`);
        inv = { ...inv, name: baseName(program.text), program, args };
      }
    }
    for (const assignment of inv.assignments) {
      const variable = assignment.slice(0, assignment.indexOf('=')).replace(/[+[].*$/, '');
      if (RUNTIME_VARIABLES.has(variable) || COMMAND_VARIABLE.test(variable)) {
        opaque.push(`${variable}=… changes which program runs or what it loads`);
        raise('process_exec');
        everyInvocationReads = false;
      }
    }
    for (const r of inv.redirects) {
      if (r.op === '<') readRedirects.push(r.target);
      if (!WRITE_REDIRECTS.has(r.op)) continue;
      if (r.op === '>&' && /^(\d+|-)$/.test(r.target.text)) continue;
      if (NOT_A_FILE.test(r.target.text)) continue;
      const problem = addEffect(r.target, 'write', inv.name);
      if (problem) return unreadable(problem.startsWith('a path computed') ? `a write target computed at run time (${r.target.text})` : problem);
      raise('workspace_write');
      everyInvocationReads = false;
    }
    if (inv.program === null) continue;
    if ((inv.program.dynamic || inv.program.pattern || inv.program.ansi) && !(powershell && inv.program.dynamic)) {
      return unreadable(`a command name that is not a plain word (${inv.program.text})`);
    }

    const gate = gateSubcommand(inv);
    if (gate) {
      if (isStateChangingGateCall(gate.args, inv.completed)) {
        gateCommands.push(`persona-gate's own state (persona-gate ${gate.args.map((w) => w.text).join(' ')})`.replace(/ \)$/, ')'));
      }
      invocations.push({ program: 'persona-gate', args: gate.args.map((w) => w.text), level: 'read_only', kind: 'gate' });
      raise('read_only');
      continue;
    }

    if (catalogued.has(inv.name)) {
      const match = matchPrefix(index, inv);
      if (match && 'dynamic' in match) return unreadable(`an argument computed at run time (${match.dynamic})`);
      if (match) {
        const subject = subjectForCommand(index, match.key, 'shell');
        if (subject) {
          if (!matched.some((s) => s.key === subject.key)) matched.push(subject);
          invocations.push({ program: inv.name, args: inv.args.map((w) => w.text), level: subject.level ?? 'process_exec', kind: 'catalogued', key: subject.key });
          if (identity?.reads.includes(subject.key)) {
            // it surely runs only as a plain command of the line itself: no condition, wrapper, redirection, function of that name or code read again
            const plain = !inv.conditional && inv.via.length === 0 && inv.redirects.length === 0 && inv.depth === 0 && !functions.has(inv.name) && inv.assignments.length === 0;
            if (plain) unconditionalRead = true;
            else conditionalRead = true;
          } else if (subject.level === null || exceeds(subject.level, 'read_only')) everyInvocationReads = false;
          for (const r of inv.redirects) if (WRITE_REDIRECTS.has(r.op)) everyInvocationReads = false;
          continue;
        }
      }
      const words = [inv.program.text, ...inv.args.map((w) => w.text)].join(' ');
      unlisted.push(inv.completed ? `${words} … (arguments added at run time)` : words);
      invocations.push({ program: inv.name, args: inv.args.map((w) => w.text), level: 'process_exec', kind: 'unlisted' });
      if (switchPrograms.has(inv.name)) mayRearm = true;
      everyInvocationReads = false;
      continue;
    }

    let classified = classify(inv, powershell);
    // `${x@P}` expands a prompt string, command substitutions included: what it runs cannot be read
    if ([inv.program, ...inv.args].some((w) => w?.dynamic && /@P\}/.test(w.text)) && classified.opaque === undefined) {
      classified = { ...classified, level: 'process_exec', kind: 'exec', opaque: 'a prompt expansion (${…@P}) runs the commands in a value' };
    }
    if (powershell && inv.args.some((w) => w.text === '{' || w.text.startsWith('{')) && classified.opaque === undefined) {
      classified = { ...classified, level: 'process_exec', kind: 'exec', opaque: `${inv.name} takes a script block` };
    }
    // `… | xargs rm`: what the program is handed at run time is not in the line
    if (inv.completed && classified.opaque === undefined && !COMPLETED_READERS.has(inv.name)) {
      classified = { ...classified, level: 'process_exec', kind: 'exec', opaque: `xargs runs ${inv.name} with arguments it reads at run time` };
    }
    invocations.push({ program: inv.name, args: inv.args.map((w) => w.text), level: classified.level, kind: classified.kind, ...(classified.opaque ? { opaque: classified.opaque } : {}) });
    raise(classified.level);
    // next to an identity read, only readers: a builtin (`exit`, `set -n`, `trap`) may keep the read from running
    if (classified.kind !== 'reader' || classified.opaque || classified.effects.length > 0) everyInvocationReads = false;
    if (classified.opaque) {
      opaque.push(classified.opaque);
      opaqueProgram ??= inv.name;
    }
    const fromStdin = readsCodeFromStdin(inv, classified.opaque);
    if (fromStdin !== null) stdinCode.push(fromStdin);
    for (const e of classified.effects) {
      const problem = addEffect(e.path, e.effect, inv.name);
      if (problem) return unreadable(problem);
    }
    // Opaque code is scanned with the whole line below; here, what network programs are handed.
    if (!classified.opaque && classified.kind === 'network') {
      for (const w of inv.args) {
        const pieces = pathPieces(w.text);
        if (pieces === null) return unreadable(`more than ${MAX_PIECES} paths handed to ${inv.name}`);
        for (const piece of pieces) if (addEffect(word(piece), 'mention', inv.name)) return unreadable(`more than ${MAX_EFFECTS} paths to check`);
      }
    }
  }

  // A descriptor opened on a file for reading can be opened again for writing, through
  // /dev/fd/N, /dev/stdin, /proc/self/fd/N and any spelling of them (`//dev/./fd/3`, `cd /dev/fd;
  // >3`): a guarded file opened by a redirection is as good as written.
  // One computed at run time matters only in a line that writes anything, or runs code it cannot read.
  const writesAnything = readRedirects.length > 0 && (opaque.length > 0 || effects.some((e) => e.effect !== 'mention') || raw.invocations.some((inv) => inv.redirects.some((r) => WRITE_REDIRECTS.has(r.op) && !(r.op === '>&' && /^(\d+|-)$/.test(r.target.text)))));
  for (const target of readRedirects) {
    if (/^~[^/]/.test(target.text)) return unreadable(`a redirection from ${target.text}, a directory persona-gate does not resolve`);
    if (target.dynamic && !writesAnything) continue;
    const problem = addEffect(target, 'mention', 'a redirection (<), whose descriptor /dev/fd/N can open it again for writing');
    if (problem) return unreadable(problem.startsWith('a path computed') ? `a redirection from a path computed at run time (${target.text})` : problem);
  }

  // the line as bash reads its words: line continuations joined
  const joined = command.replace(/\\\n/g, '');
  // GLOBIGNORE set (named in the line, or in a builtin's operand with quotes) turns dotglob on too
  const dotglob = /GLOBIGNORE/.test(joined) || raw.invocations.some((inv) => inv.assignments.some((a) => a.startsWith('GLOBIGNORE')) || inv.args.some((w) => w.text === 'dotglob' || w.text.startsWith('GLOBIGNORE')));
  if (effects.some((e) => e.effect !== 'mention' && e.effect !== 'tracked' && configThatRunsCommands(e.path, e.pattern, dotglob))) {
    raise('process_exec');
    everyInvocationReads = false;
    opaque.push('a write to git, ssh, curl or wget configuration or git hooks, which make later calls run commands or write files');
  }

  // variables set without an assignment word: `${NAME:=…}`, `for NAME in`, `select NAME in`
  const arithmetic = arithmeticTexts(joined, raw.invocations);
  // variables set without an assignment word: `${NAME:=…}`, `for NAME in`, `select NAME in`, arithmetic (`((PATH=1))`)
  const setInArithmetic = arithmetic.flatMap((t) => [...t.matchAll(/([A-Za-z_]\w*)\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)/g)].map((m) => m[1]!));
  if (arithmetic.some((t) => /\$\{?\w+\}?\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)/.test(t))) return unreadable('arithmetic that assigns a variable named at run time');
  for (const variable of [...[...joined.matchAll(/\$\{(\w+):?=|\b(?:for|select)\s+(\w+)/g)].map((m) => (m[1] ?? m[2])!), ...setInArithmetic]) {
    if (RUNTIME_VARIABLES.has(variable) || COMMAND_VARIABLE.test(variable)) {
      opaque.push(`${variable} set by the line changes which program runs or what it loads`);
      raise('process_exec');
      everyInvocationReads = false;
    }
  }

  // Arithmetic evaluates a variable's value as an expression, and an array subscript in it
  // (`a[$(cmd)]`) runs cmd: a value read at run time must not reach arithmetic in the same line.
  // run-time values: a builtin that reads one, a command's output, a loop over words or files
  const runtime = runtimeNames(joined, raw.invocations);
  const evaluated = new Set(arithmetic.flatMap((t) => [...t.matchAll(/[A-Za-z_]\w*/g)].map((m) => m[0])));
  if (arithmetic.some((t) => /\$\((?!\()|`|\$[0-9@*#]/.test(t)) || [...runtime].some((name) => evaluated.has(name))) {
    raise('process_exec');
    everyInvocationReads = false;
    opaque.push('a value known only at run time evaluated as arithmetic, where an array subscript can run a command');
  }

  // Code the gate cannot read may reach anything the line names: catalogued programs, persona-gate, guarded paths.
  const opaqueNames: string[] = [];
  if (opaque.length > 0) {
    const names = [...catalogued, 'persona-gate'];
    // the raw line, and words whose quoting changed their letters (`a\eat`, `$'\x61eat'`)
    const quotedTexts = [
      command,
      ...raw.sources,
      ...raw.invocations.flatMap((inv) => [inv.program, ...inv.args, ...inv.redirects.map((r) => r.target)].filter((w) => w?.quoted).map((w) => w!.text)),
    ].join('\n');
    const texts = spellings(quotedTexts);
    for (const name of names) {
      if (new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(name)}(?![A-Za-z0-9_])`, 'i').test(texts)) opaqueNames.push(name);
    }
    // a glob that may expand to a catalogued program (`/usr/local/bin/ae?t`, `ae*`) names it too
    for (const w of raw.invocations.flatMap((inv) => [inv.program, ...inv.args])) {
      if (!w?.pattern || opaqueNames.length === names.length) continue;
      const last = w.text.slice(w.text.lastIndexOf('/') + 1);
      if (last.length > 256) continue;
      const glob = globMatcher(last);
      for (const name of names) if (!opaqueNames.includes(name) && glob.test(name)) opaqueNames.push(name);
    }
    const pieces = pathPieces(command);
    if (pieces === null) return unreadable(`more than ${MAX_PIECES} paths in a line that runs code persona-gate cannot read`);
    for (const piece of pieces) {
      if (addEffect(word(piece), 'mention', opaqueProgram ?? 'code persona-gate cannot read')) return unreadable(`more than ${MAX_EFFECTS} paths to check`);
      // opaque code may add to a name it is handed (`XZ_OPT=-S.json xz .claude/settings`): under a
      // host's directory, or near persona-gate, what starts with the name is checked too
      if ((HOST_DIRS.test(piece) || piece.includes('persona-gate')) && addEffect(word(`${parentOf(piece)}/*`, { ...word(''), pattern: true }), 'mention', opaqueProgram ?? 'code persona-gate cannot read')) {
        return unreadable(`more than ${MAX_EFFECTS} paths to check`);
      }
    }
    if (opaqueNames.includes('persona-gate')) gateCommands.push(`persona-gate's own state (persona-gate named in code persona-gate cannot read: ${opaque[0]})`);
    if (opaqueNames.some((n) => switchPrograms.has(n))) mayRearm = true;
  }

  const directories = workingDirectories(raw.invocations);
  if (directories === null && effects.some((e) => !isAbsoluteOrHome(e.path))) {
    return unreadable('a relative path used after a change to a directory known only at run time');
  }
  const confirmsIdentity = unconditionalRead && !conditionalRead && everyInvocationReads && unlisted.length === 0 && opaque.length === 0 && !matched.some((s) => identity?.switches.includes(s.key));
  return {
    matched,
    level,
    invocations,
    unlisted,
    opaque,
    stdinCode,
    opaqueNames: opaqueNames.filter((n) => n !== 'persona-gate'),
    effects,
    directories: directories ?? [],
    gateCommands,
    mayRearm,
    confirmsIdentity,
  };
}
