import { valuesOf, type Parsed } from '../../getopt';
import type { Word } from '../../syntax/word';

/** The names sed goes by. */
export const SEDS: ReadonlySet<string> = new Set(['sed', 'gsed']);

/**
 * What a sed script does: the files it writes (`w FILE`, `s///w FILE`) and the command lines GNU
 * sed's `e COMMAND` runs with `sh -c` (read by the walk, like `bash -c`); null when it runs what is
 * not known from the line (`e` alone and the `e` flag of `s` run the pattern space) or cannot be
 * read. A script sed refuses for a command `-` runs nothing.
 */
export function sedScript(s: string): { writes: string[]; commands: string[] } | 'runs_input' | null {
  const writes: string[] = [];
  const commands: string[] = [];
  let k = 0;
  const skipSpace = () => {
    while (k < s.length && /[\s;]/.test(s[k]!)) k++;
  };
  const toEol = () => {
    const start = k;
    while (k < s.length && s[k] !== '\n') k++;
    return s.slice(start, k);
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
  while (k < s.length && guard++ < 100_000) {
    skipSpace();
    if (k >= s.length) break;
    address();
    while (s[k] === ' ' || s[k] === '!') k++;
    const c = s[k] ?? '';
    if (c === '') break;
    // no sed has a command `-` (`sed -- -i f` takes `-i` for its script): it refuses the whole
    // script before reading any input, and only `w` files already named may have been opened
    if (c === '-') return { writes, commands };
    if (c === 's' || c === 'y') {
      const delim = s[k + 1];
      if (delim === undefined || delim === '\n' || delim === '\\') return null;
      k += 2;
      for (let part = 0; part < 2; part++) {
        while (k < s.length && s[k] !== delim) k += s[k] === '\\' ? 2 : 1;
        if (k >= s.length) return null;
        k++;
      }
      if (c === 's') {
        while (k < s.length && /[gpiImM0-9e]/.test(s[k]!)) {
          // the e flag runs the pattern space as a command
          if (s[k] === 'e') return 'runs_input';
          k++;
        }
        if (s[k] === 'w') {
          k++;
          writes.push(toEol().trim());
          continue;
        }
        if (k < s.length && !/[\s;}]/.test(s[k]!)) return null;
      }
      continue;
    }
    if ('pPdDnNgGhHxlqQ={}=zF'.includes(c)) {
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
      toEol();
      continue;
    }
    // r and R only read the file they name
    if (c === 'r' || c === 'R') {
      k++;
      toEol();
      continue;
    }
    if (c === 'w' || c === 'W') {
      k++;
      writes.push(toEol().trim());
      continue;
    }
    // e COMMAND: the rest of the line, as written (a backslash in it is not read here)
    if (c === 'e') {
      k++;
      const line = toEol().trim();
      // `e` alone runs the pattern space
      if (line === '') return 'runs_input';
      if (line.includes('\\')) return null;
      commands.push(line);
      continue;
    }
    return null;
  }
  return guard >= 100_000 ? null : { writes, commands };
}

/** The scripts of a parsed sed invocation (each `-e`, else its first operand), whether one comes from a file, and the files it reads. */
export function sedScripts(parsed: Parsed<unknown>): { scripts: Word[]; fromFile: boolean; files: Word[] } {
  const scripts = valuesOf(parsed, '-e', '--expression');
  const fromFile = valuesOf(parsed, '-f', '--file').length > 0;
  const ops = parsed.operands;
  if (scripts.length > 0 || fromFile) return { scripts, fromFile, files: [...ops] };
  return { scripts: ops[0] ? [ops[0]] : [], fromFile, files: ops.slice(1) };
}

/** The command lines a sed invocation's `e` commands run, when its scripts are read (else the reader finds it opaque). */
export function sedCommandLines(parsed: Parsed<unknown>): string[] {
  const { scripts, fromFile } = sedScripts(parsed);
  if (fromFile) return [];
  return scripts.flatMap((w) => {
    const read = w.dynamic ? null : sedScript(w.text);
    return read === null || read === 'runs_input' ? [] : read.commands;
  });
}
