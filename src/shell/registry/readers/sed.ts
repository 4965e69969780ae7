import { valuesOf } from '../../getopt';
import type { Effect, NamedReader } from '../../read/classify';
import type { Word } from '../../syntax/word';
import { baseName, joinPath, opaque, parentOf, word, writer } from '../readers';

/**
 * sed: its script read as sed reads it — the files `w` writes, and whether `e` (or the `e` flag of
 * `s`) runs commands — then, with -i, the files it edits in place and their backups.
 */

/**
 * What a sed script does: the files it writes (`w FILE`, `s///w FILE`), or null when it runs
 * commands or cannot be read. A script sed refuses for a command `-` runs nothing.
 */
export function sedScript(s: string): { writes: string[] } | null {
  const writes: string[] = [];
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
    if (c === '-') return { writes };
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
          if (s[k] === 'e') return null;
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
    return null;
  }
  return guard >= 100_000 ? null : { writes };
}

/** Files `w` names that are not files of the workspace. */
const STREAMS = new Set(['/dev/stdout', '/dev/stderr']);

export const sedReader: NamedReader = (ctx) => {
  const { parsed } = ctx;
  const scripts = valuesOf(parsed, '-e', '--expression');
  const fromFile = valuesOf(parsed, '-f', '--file');
  const ops = parsed.operands;
  const files = scripts.length === 0 && fromFile.length === 0 ? ops.slice(1) : ops;
  if (scripts.length === 0 && fromFile.length === 0 && ops[0]) scripts.push(ops[0]);
  const inPlace = parsed.used.some((u) => u.option.data?.mode === 'in-place');
  const written: Word[] = [];
  for (const script of scripts) {
    const read = script.dynamic ? null : sedScript(script.text);
    if (fromFile.length > 0 || read === null) {
      const r = opaque(ctx, 'sed_script_runs');
      return inPlace ? { ...r, effects: files.map((path) => ({ path, effect: 'write' as const })) } : r;
    }
    for (const w of read.writes) if (w !== '' && !STREAMS.has(w)) written.push(word(w, script));
  }
  if (fromFile.length > 0) return opaque(ctx, 'sed_script_runs');
  const effects: Effect[] = written.map((path) => ({ path, effect: 'write' }));
  if (!inPlace) return effects.length > 0 ? writer(ctx, effects) : { ...ctx.base, level: 'read_only', kind: 'reader', effects: [] };
  for (const path of files) effects.push({ path, effect: 'write' });
  // a backup under the suffix given (`-i.bak`, `--in-place=.bak`); a `*` in it stands for the file's name
  for (const u of parsed.used) {
    if (u.option.data?.mode !== 'in-place' || u.value === undefined) continue;
    const suffix = u.value.text;
    for (const file of files) {
      if (!suffix.includes('*')) effects.push({ path: word(`${file.text}${suffix}`, file), effect: 'write' });
      else {
        const named = suffix.replace(/\*/g, baseName(file.text));
        effects.push(
          { path: word(named, file), effect: 'write' },
          { path: word(joinPath(parentOf(file.text), named), file), effect: 'write' },
        );
      }
    }
  }
  return writer(ctx, effects);
};
