import { valuesOf, type Parsed } from '../../getopt';
import type { Word } from '../../syntax/word';

/**
 * awk: its program read for what it does besides printing — the commands it runs (`system("…")`,
 * `print | "…"`, `"…" | getline`), gawk's `@` calls and directives, and the files `print > FILE`
 * writes. A command given as one literal string is a shell line (awk runs it with `sh -c`), read
 * by the walk like `bash -c`; a command built at run time, a coprocess (`|&`), a program read from a
 * file, gawk's extensions, its debugger and its profile and dump files are opaque; so is a program
 * given at run time.
 */

/** The escapes of an awk string that every awk decodes alike (mawk keeps `\/` as it is, gawk makes it `/`). */
const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
};

/** `| getline` at a position (sticky: tested where the scan is, never on a copy of the rest). */
const GETLINE_AFTER_PIPE = /\|[ \t]*getline\b/y;
/** `< "/inet…"` at a position: gawk's network files. */
const INET_AFTER_LESS = /<\s*"\/inet/y;

/** The names awk goes by. */
export const AWKS: ReadonlySet<string> = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** What an awk program does besides printing. */
export interface AwkProgram {
  writes: string[];
  commands: string[];
  /**
   * It reads its input: false when its rules are all `BEGIN { … }` (function definitions aside)
   * and it has no `getline`, since awk then exits after them, opening none of its file operands.
   */
  readsInput: boolean;
}

/**
 * Why a program is not read: it runs a command built at run time (`system($0)`, `print | cmd`, a
 * coprocess), which its input may give it; it writes a file whose name is built at run time
 * (`print > $2`); or it holds what is not read here.
 */
export type AwkUnread = 'runs_built_command' | 'writes_built_target' | 'not_read';

/**
 * What an awk program writes (`print > "FILE"`), the command lines it runs, each a literal
 * string, and whether it reads its input; else why it is not read.
 */
export function awkProgram(s: string): AwkProgram | AwkUnread {
  const writes: string[] = [];
  const commands: string[] = [];
  /** The `{ … }` depth: the top level holds the rules and function definitions. */
  let braces = 0;
  /** What the top-level item being read is, before its `{`: a BEGIN rule, a function definition, or none yet. */
  let item = 'none' as 'none' | 'begin' | 'function';
  let begins = 0;
  let readsInput = false;
  /** A token at the top level: only `BEGIN` and a function's header keep the program from reading input. */
  const topLevel = (token: string) => {
    if (braces > 0) return;
    if (item === 'none' && token === 'BEGIN') item = 'begin';
    else if (item === 'none' && (token === 'function' || token === 'func')) item = 'function';
    else if (item !== 'function' || !/^[A-Za-z_(),]/.test(token)) readsInput = true;
  };
  /** The string literal just read, when it stood alone as an operand. */
  let standalone: string | null = null;
  let k = 0;
  const spaces = () => {
    while (s[k] === ' ' || s[k] === '\t') k++;
  };
  let depth = 0;
  /** The parenthesis depth a print statement started at, or -1 outside one. */
  let printDepth = -1;
  /** The previous significant token ends an operand: a `/` that follows is division, not a regex. */
  let afterOperand = false;
  /** A string literal, its escapes decoded as awk decodes them; null when one is not read here (octal, hex, unknown). */
  const str = (): string | null => {
    let out = '';
    k++;
    while (k < s.length && s[k] !== '"') {
      if (s[k] === '\\') {
        const decoded = ESCAPES[s[k + 1] ?? ''];
        if (decoded === undefined) return null;
        out += decoded;
        k += 2;
      } else out += s[k++];
    }
    if (k >= s.length) return null;
    k++;
    return out;
  };
  while (k < s.length) {
    const c = s[k]!;
    if (c === ' ' || c === '\t') {
      k++;
      continue;
    }
    // a string stands alone before a pipe only when nothing but blanks comes between them
    if (c !== '|' && c !== '"') standalone = null;
    if (c === '#') {
      while (k < s.length && s[k] !== '\n') k++;
      continue;
    }
    if (c === '"') {
      topLevel('"');
      const alone = !afterOperand;
      const text = str();
      if (text === null) return 'not_read';
      standalone = alone ? text : null;
      afterOperand = true;
      continue;
    }
    if (c === '/' && !afterOperand) {
      topLevel('/');
      k++;
      // a `/` inside a bracket expression ends the regex for one awk and not for another: not read
      let bracket = false;
      while (k < s.length && s[k] !== '\n' && (bracket || s[k] !== '/')) {
        if (s[k] === '\\') k += 2;
        else if (bracket) {
          if (s[k] === '/') return 'not_read';
          if (s[k] === ']') bracket = false;
          k++;
        } else if (s[k] === '[') {
          bracket = true;
          k++;
          if (s[k] === '^') k++;
          if (s[k] === ']') k++;
        } else k++;
      }
      if (s[k] !== '/') return 'not_read';
      k++;
      afterOperand = true;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const start = k;
      while (k < s.length && /[A-Za-z_0-9]/.test(s[k]!)) k++;
      const id = s.slice(start, k);
      topLevel(id);
      // gawk's `case` takes a regex (`case /x/:`); for mawk it is a variable, and `/` after it divides
      if (id === 'case') return 'not_read';
      if (id === 'getline') readsInput = true;
      if (id === 'system') {
        // system("LINE"): only a literal line, alone in the parentheses
        spaces();
        if (s[k] !== '(') return 'not_read';
        k++;
        spaces();
        if (s[k] !== '"') return 'runs_built_command';
        const line = str();
        spaces();
        if (line === null) return 'not_read';
        if (s[k] !== ')') return 'runs_built_command';
        commands.push(line);
        k++;
        afterOperand = true;
        continue;
      }
      if (id === 'print' || id === 'printf') printDepth = depth;
      // after getline (a value: `getline / 2` divides) an operand has ended
      afterOperand = !['print', 'printf', 'return', 'in', 'do', 'else'].includes(id);
      continue;
    }
    if (/[0-9.]/.test(c)) {
      topLevel(c);
      while (k < s.length && /[0-9.eExXa-fA-F]/.test(s[k]!)) k++;
      afterOperand = true;
      continue;
    }
    if (c === '@' || c === '`') return 'not_read';
    if (c === '|') {
      if (s[k + 1] === '|') {
        k += 2;
        afterOperand = false;
        continue;
      }
      if (s[k + 1] === '&') return 'runs_built_command';
      // "LINE" | getline: the string right before the pipe, standing alone
      GETLINE_AFTER_PIPE.lastIndex = k;
      if (standalone !== null && GETLINE_AFTER_PIPE.test(s)) {
        commands.push(standalone);
        readsInput = true;
        k++;
        afterOperand = false;
        continue;
      }
      // print … | "LINE", ending the statement
      if (printDepth >= 0 && depth === printDepth) {
        k++;
        spaces();
        if (s[k] !== '"') return 'runs_built_command';
        const line = str();
        spaces();
        if (line === null) return 'not_read';
        if (!(k >= s.length || /[;}\n#]/.test(s[k]!))) return 'runs_built_command';
        commands.push(line);
        afterOperand = true;
        continue;
      }
      // a command built before the pipe (`cmd | getline`)
      return 'runs_built_command';
    }
    if (c === '>' && printDepth >= 0 && depth === printDepth) {
      // print … > FILE, >> FILE: the target must be a literal file name
      k += s[k + 1] === '>' ? 2 : 1;
      while (s[k] === ' ' || s[k] === '\t') k++;
      if (s[k] !== '"') return 'writes_built_target';
      const target = str();
      if (target === null || target === '' || target.startsWith('/inet')) return 'not_read';
      // the target is that string alone: `> "." "claude/x"` concatenates a name known from more than one string
      spaces();
      if (!(k >= s.length || /[;}\n#]/.test(s[k]!))) return 'writes_built_target';
      if (!/^\/dev\/(null|stdout|stderr|fd\/[12])$/.test(target)) writes.push(target);
      afterOperand = true;
      continue;
    }
    INET_AFTER_LESS.lastIndex = k;
    if (c === '<' && INET_AFTER_LESS.test(s)) return 'not_read';
    if (c === '{') {
      if (braces === 0 && item === 'none') readsInput = true;
      braces++;
    } else if (c === '}') {
      braces--;
      if (braces === 0) {
        if (item === 'begin') begins++;
        item = 'none';
      }
    } else if (c !== ';' && c !== '\n' && !(c === '\\' && s[k + 1] === '\n')) topLevel(c);
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    if (c === ';' || c === '\n' || c === '{' || c === '}') printDepth = -1;
    if (c === '\\' && s[k + 1] === '\n') {
      k += 2;
      continue;
    }
    afterOperand = c === ')' || c === ']' || c === '$' || (c === '+' && s[k + 1] === '+') || (c === '-' && s[k + 1] === '-');
    if (afterOperand && (c === '+' || c === '-')) k++;
    k++;
  }
  // an empty program, or one with no BEGIN rule, is taken to read (awks differ on an empty one)
  return { writes, commands, readsInput: readsInput || begins === 0 || braces !== 0 || item !== 'none' };
}

/** The awk programs of a parsed invocation: each `-e`/`--source`, else its first operand. */
export function programsOf(parsed: Parsed<unknown>): Word[] {
  const programs = valuesOf(parsed, '-e', '--source');
  if (programs.length === 0 && parsed.operands[0]) programs.push(parsed.operands[0]);
  return programs;
}

/** The command lines an awk invocation runs, when its programs are read (else the reader finds it opaque). */
export function awkCommandLines(parsed: Parsed<unknown>): string[] {
  const lines: string[] = [];
  for (const p of programsOf(parsed)) {
    const read = p.dynamic ? 'not_read' : awkProgram(p.text);
    if (typeof read !== 'string') lines.push(...read.commands);
  }
  return lines;
}
