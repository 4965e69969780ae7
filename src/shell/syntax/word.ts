import type { Word as WordNode, WordPart } from './ast';

/**
 * What the reader asks of a word, computed once from its parts: its text after quote removal
 * (expansions kept as written: `$HOME`, `$(…)`), whether part of it is only known at run time,
 * whether it may become other words (a live glob or brace expansion), whether any of it was quoted.
 */
export interface Word {
  /** The word after quote removal (ANSI-C quotes decoded); expansions kept as written (`$HOME`, `$(…)`). */
  text: string;
  /** Contains an expansion whose value is only known at run time. */
  dynamic: boolean;
  /** Contains an unquoted glob character or a brace expansion: it may become other words. */
  pattern: boolean;
  /** Any part of it was quoted or escaped (a quoted `if` is not a keyword). */
  quoted: boolean;
  /** Uses ANSI-C (`$'…'`) or locale (`$"…"`) quoting. */
  ansi: boolean;
  /** Where the first quoted or escaped character stands in `text` (-1: none). */
  quotedAt?: number;
  /** Known from the line itself not to begin with `-` once expanded (`R=main; git log "$R"`). */
  startsPlain?: boolean;
  /**
   * The one word each it is known from the line to become, when it is only the expansion of a
   * variable whose every value the line gives (`for d in a b; do rm -r "$d"; done`: `a`, `b`).
   */
  values?: readonly string[];
  /** The word's node, when it comes from the tree. */
  node?: WordNode;
}

export const literalWord = (text: string): Word => ({ text, dynamic: false, pattern: false, quoted: false, ansi: false });

interface Acc {
  text: string;
  /** The text with every quoted or expanded character replaced by `_`: where globs and braces are live. */
  live: string;
  dynamic: boolean;
  quoted: boolean;
  quotedAt: number;
  ansi: boolean;
}

function add(acc: Acc, text: string, live: string | null, quoted: boolean): void {
  if (quoted && !acc.quoted) {
    acc.quoted = true;
    acc.quotedAt = acc.text.length;
  }
  acc.text += text;
  acc.live += live ?? '_'.repeat(text.length);
}

function addPart(acc: Acc, p: WordPart, inDouble: boolean): void {
  switch (p.type) {
    case 'lit':
      add(acc, p.value, inDouble ? null : p.value, inDouble);
      return;
    case 'escaped':
    case 'sq':
      add(acc, p.value, null, true);
      return;
    case 'ansi':
      acc.ansi = true;
      add(acc, p.value, null, true);
      return;
    case 'dq':
      if (p.locale) acc.ansi = true;
      if (!acc.quoted) {
        acc.quoted = true;
        acc.quotedAt = acc.text.length;
      }
      for (const q of p.parts) addPart(acc, q, true);
      return;
    case 'param':
      acc.dynamic = true;
      add(acc, p.text, null, false);
      return;
    case 'cmdsubst':
      acc.dynamic = true;
      add(acc, p.backquote ? '`…`' : `$(${p.source})`, null, false);
      return;
    case 'arith':
      acc.dynamic = true;
      add(acc, p.bracket ? `$[${p.expr}]` : `$((${p.expr}))`, null, false);
      return;
    case 'procsubst':
      add(acc, '/dev/fd/63', null, false);
      return;
    case 'extglob':
      if (p.nested.length > 0) acc.dynamic = true;
      add(acc, p.text, inDouble ? null : '*'.repeat(p.text.length), inDouble);
      return;
    case 'array':
      add(acc, p.text, null, false);
      return;
  }
}

const views = new WeakMap<WordNode, Word>();

/** The reader's view of a word of the tree. */
export function viewOf(w: WordNode): Word {
  const known = views.get(w);
  if (known) return known;
  const acc: Acc = { text: '', live: '', dynamic: false, quoted: false, quotedAt: -1, ansi: false };
  for (const p of w.parts) addPart(acc, p, false);
  const pattern = isPattern(acc.live);
  let dynamic = acc.dynamic;
  // bash expands braces before it removes quotes: a quoted `{`, `}` or `,` inside a live brace
  // expansion (`{a,'{'}`) changes the words it makes, which this text no longer shows
  if (pattern && acc.live.includes('{') && quotedBraceCharacter(acc.text, acc.live)) dynamic = true;
  const view: Word = { text: acc.text, dynamic, pattern, quoted: acc.quoted, ansi: acc.ansi, quotedAt: acc.quotedAt, node: w };
  views.set(w, view);
  return view;
}

/** Whether a quoted character of the word (where `live` differs from `text`) is a brace or a comma. */
function quotedBraceCharacter(text: string, live: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if ((c === '{' || c === '}' || c === ',') && live[k] !== c) return true;
  }
  return false;
}

/** Unquoted `*`, `?`, `[…]`, or a brace expansion `{a,b}` / `{1..3}`. */
export function isPattern(live: string): boolean {
  if (live.includes('*') || live.includes('?')) return true;
  const bracket = live.indexOf('[');
  if (bracket !== -1 && live.indexOf(']', bracket + 1) !== -1) return true;
  let open = -1;
  let separated = false;
  for (let k = 0; k < live.length; k++) {
    const c = live[k];
    if (c === '{') {
      open = k;
      separated = false;
    } else if (c === '}') {
      if (open !== -1 && separated) return true;
      open = -1;
    } else if (open !== -1 && (c === ',' || (c === '.' && live[k + 1] === '.'))) separated = true;
  }
  return false;
}

/**
 * The word's text with a line break where one of its parts ends and another starts: where quoting
 * or an expansion joins two texts (`-x'aeat …'`), a name after the join starts a word of its own.
 */
export function partsText(w: WordNode): string {
  const out: string[] = [];
  const add = (parts: readonly WordPart[]) => {
    for (const p of parts) {
      if (p.type === 'dq') add(p.parts);
      else {
        const acc: Acc = { text: '', live: '', dynamic: false, quoted: false, quotedAt: -1, ansi: false };
        addPart(acc, p, false);
        out.push(acc.text);
      }
    }
  };
  add(w.parts);
  return out.join('\n');
}
