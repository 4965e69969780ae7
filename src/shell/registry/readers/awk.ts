import { hasOption, valuesOf } from '../../getopt';
import type { NamedReader } from '../../read/classify';
import { opaque, word, writer } from '../readers';

/**
 * awk: its program read for what it does besides printing — a pipe to or from a command (`|`,
 * `|&`), `system()`, gawk's `@` calls and directives, and the files `print … > FILE` writes. A
 * program read from a file, gawk's extensions, its debugger and its profile and dump files are
 * opaque; so is a program given at run time.
 */

/** What an awk program writes (`print > "FILE"`), or null when it runs commands or its targets are known only at run time. */
export function awkProgram(s: string): { writes: string[] } | null {
  const writes: string[] = [];
  let k = 0;
  let depth = 0;
  /** The parenthesis depth a print statement started at, or -1 outside one. */
  let printDepth = -1;
  /** The previous significant token ends an operand: a `/` that follows is division, not a regex. */
  let afterOperand = false;
  const str = (): string | null => {
    let out = '';
    k++;
    while (k < s.length && s[k] !== '"') {
      if (s[k] === '\\') {
        out += s[k + 1] ?? '';
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
    if (c === '#') {
      while (k < s.length && s[k] !== '\n') k++;
      continue;
    }
    if (c === '"') {
      if (str() === null) return null;
      afterOperand = true;
      continue;
    }
    if (c === '/' && !afterOperand) {
      k++;
      while (k < s.length && s[k] !== '/' && s[k] !== '\n') k += s[k] === '\\' ? 2 : 1;
      if (s[k] !== '/') return null;
      k++;
      afterOperand = true;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const start = k;
      while (k < s.length && /[A-Za-z_0-9]/.test(s[k]!)) k++;
      const id = s.slice(start, k);
      if (id === 'system') return null;
      if (id === 'print' || id === 'printf') printDepth = depth;
      afterOperand = !['print', 'printf', 'return', 'in', 'getline', 'case', 'do', 'else'].includes(id);
      continue;
    }
    if (/[0-9.]/.test(c)) {
      while (k < s.length && /[0-9.eExXa-fA-F]/.test(s[k]!)) k++;
      afterOperand = true;
      continue;
    }
    if (c === '@' || c === '`') return null;
    if (c === '|') {
      if (s[k + 1] === '|') {
        k += 2;
        afterOperand = false;
        continue;
      }
      return null;
    }
    if (c === '>' && printDepth >= 0 && depth === printDepth) {
      // print … > FILE, >> FILE: the target must be a literal file name
      k += s[k + 1] === '>' ? 2 : 1;
      while (s[k] === ' ' || s[k] === '\t') k++;
      if (s[k] !== '"') return null;
      const target = str();
      if (target === null || target === '' || target.startsWith('/inet')) return null;
      if (!/^\/dev\/(null|stdout|stderr|fd\/[12])$/.test(target)) writes.push(target);
      afterOperand = true;
      continue;
    }
    if (c === '<' && /^<\s*"\/inet/.test(s.slice(k))) return null;
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
  return { writes };
}

export const awkReader: NamedReader = (ctx) => {
  const { parsed } = ctx;
  // mawk's -W exec FILE takes the program from FILE, -W interactive from a terminal: every -W is opaque
  const programs = valuesOf(parsed, '-e', '--source');
  // a program file, an extension or include file, the debugger, or files it profiles and dumps into
  if (
    hasOption(
      parsed,
      '-f',
      '--file',
      '-E',
      '--exec',
      '-i',
      '--include',
      '-l',
      '--load',
      '-D',
      '--debug',
      '-p',
      '--profile',
      '-d',
      '--dump-variables',
      '-o',
      '--pretty-print',
      '-W',
    )
  )
    return opaque(ctx, 'awk_program_runs');
  const operands = [...parsed.operands];
  if (programs.length === 0) {
    const first = operands.shift();
    if (!first) return { ...ctx.base, level: 'read_only', kind: 'reader', effects: [] };
    programs.push(first);
  }
  const writes: string[] = [];
  for (const p of programs) {
    if (p.dynamic) return opaque(ctx, 'awk_program_runs');
    const read = awkProgram(p.text);
    if (read === null) return opaque(ctx, 'awk_program_runs');
    writes.push(...read.writes);
  }
  // operands are files it reads, or var=value assignments
  return writer(
    ctx,
    writes.map((w) => ({ path: word(w), effect: 'write' as const })),
    true,
  );
};
