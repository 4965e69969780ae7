/**
 * Where a JSON text stops being JSON, as a person finds it: line, column and the line itself with a
 * caret under the place. JSON.parse gives an offset only for some errors, and a different text in
 * each Node version ("[1,2,]" has none on Node 20), so the offset comes from a scan of our own;
 * JSON.parse's own words say what is wrong.
 */

export interface JsonErrorAt {
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
  /** What is wrong, in JSON.parse's words without its position. */
  detail: string;
  /** A comma with nothing after it before `}` or `]` (the commonest slip): line and column are the comma's. */
  trailingComma: boolean;
  /** The line, and a caret under the column (tabs shown as spaces; a long line cut around the column). */
  excerpt: [string, string];
}

const WS = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/** The offset of the first character that makes `text` not JSON (its length when it ends too early), or -1 when it is JSON. */
export function jsonErrorOffset(text: string): number {
  const n = text.length;
  const stack: string[] = [];
  let i = 0;
  type Want = 'value' | 'value_or_close' | 'key' | 'key_or_close' | 'colon' | 'comma_or_close' | 'end';
  let want: Want = 'value';
  const after = (): Want => (stack.length === 0 ? 'end' : 'comma_or_close');
  /** Reads a string at i (a quote); returns the offset of a fault in it, or -1. */
  const string = (): number => {
    i++;
    while (i < n) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return -1;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          for (let k = i + 2; k < i + 6; k++) if (!/[0-9a-fA-F]/.test(text[k] ?? '')) return Math.min(k, n);
          i += 6;
        } else if (e !== undefined && ESCAPES.has(e)) i += 2;
        else return i + 1;
        continue;
      }
      if (c.charCodeAt(0) < 0x20) return i;
      i++;
    }
    return n;
  };
  const digit = (k: number) => text[k] !== undefined && text[k]! >= '0' && text[k]! <= '9';
  /** Reads a number at i; returns the offset of a fault in it (the first character that cannot continue it), or -1. */
  const number = (): number => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (digit(i)) while (digit(i)) i++;
    else return i;
    if (text[i] === '.') {
      i++;
      if (!digit(i)) return i;
      while (digit(i)) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!digit(i)) return i;
      while (digit(i)) i++;
    }
    return -1;
  };
  for (;;) {
    while (i < n && WS.has(text[i]!)) i++;
    if (i >= n) return want === 'end' ? -1 : n;
    const c = text[i]!;
    switch (want) {
      case 'end':
        return i;
      case 'colon':
        if (c !== ':') return i;
        i++;
        want = 'value';
        break;
      case 'key':
      case 'key_or_close':
        if (want === 'key_or_close' && c === '}') {
          stack.pop();
          i++;
          want = after();
        } else if (c === '"') {
          const fault = string();
          if (fault !== -1) return fault;
          want = 'colon';
        } else return i;
        break;
      case 'comma_or_close': {
        const top = stack[stack.length - 1];
        if (c === ',') {
          i++;
          want = top === '{' ? 'key' : 'value';
        } else if ((top === '{' && c === '}') || (top === '[' && c === ']')) {
          stack.pop();
          i++;
          want = after();
        } else return i;
        break;
      }
      case 'value':
      case 'value_or_close': {
        if (want === 'value_or_close' && c === ']') {
          stack.pop();
          i++;
          want = after();
        } else if (c === '{' || c === '[') {
          stack.push(c);
          i++;
          want = c === '{' ? 'key_or_close' : 'value_or_close';
        } else if (c === '"') {
          const fault = string();
          if (fault !== -1) return fault;
          want = after();
        } else if (c === '-' || (c >= '0' && c <= '9')) {
          const fault = number();
          if (fault !== -1) return fault;
          want = after();
        } else {
          const literal = ['true', 'false', 'null'].find((l) => l[0] === c);
          if (literal === undefined) return i;
          for (let k = 0; k < literal.length; k++) if (text[i + k] !== literal[k]) return i + k;
          i += literal.length;
          want = after();
        }
        break;
      }
    }
  }
}

/** JSON.parse's message without the position it adds (which not every Node version gives). */
function plainDetail(message: string): string {
  return message
    .replace(/^Unexpected token (.+?), ".*" is not valid JSON$/s, 'Unexpected token $1')
    .replace(/ (?:in JSON )?at position \d+.*$/s, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const WIDTH = 100;

/** Line, column, JSON.parse's words and the excerpt for the text JSON.parse refused with `err`; null when the text is JSON after all. */
export function jsonErrorAt(text: string, err: unknown): JsonErrorAt | null {
  let offset = jsonErrorOffset(text);
  if (offset === -1) return null;
  let before = offset - 1;
  while (before >= 0 && WS.has(text[before]!)) before--;
  const trailingComma = (text[offset] === '}' || text[offset] === ']') && text[before] === ',';
  if (trailingComma) offset = before;
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const endAt = text.indexOf('\n', offset);
  const raw = text.slice(start, endAt === -1 ? text.length : endAt).replace(/\r$/, '');
  let line = 1;
  for (let k = 0; k < start; k++) if (text.charCodeAt(k) === 10) line++;
  const column = offset - start + 1;
  const shown = raw.replace(/\t/g, ' ');
  // A long line is cut to a window around the column, marked with an ellipsis at each cut.
  const from = shown.length > WIDTH ? Math.max(0, Math.min(column - 1 - WIDTH / 2, shown.length - WIDTH)) : 0;
  const to = Math.min(shown.length, from + WIDTH);
  const head = from > 0 ? '…' : '';
  const excerpt = `${head}${shown.slice(from, to)}${to < shown.length ? '…' : ''}`;
  const caret = `${' '.repeat(head.length + column - 1 - from)}^`;
  return { line, column, detail: plainDetail(err instanceof Error ? err.message : String(err)), trailingComma, excerpt: [excerpt, caret] };
}
