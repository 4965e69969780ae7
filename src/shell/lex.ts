/**
 * A bash reader, just deep enough to find every simple command a command line may run: quotes
 * (single, double, ANSI-C `$'…'` decoded, locale `$"…"`), escapes and line continuations;
 * `;` `&&` `||` `|` `|&` `&` and newlines; subshells, groups, `if`/`while`/`until`/`for`/`case`
 * and function definitions; `$(…)`, backticks, `<(…)` and `>(…)` (read recursively, here-documents
 * inside them included); arithmetic `((…))` and `$((…))`; `[[ … ]]`; here-documents (the
 * substitutions of unquoted ones read); redirections with their targets.
 *
 * It is linear in its input: every character is visited a bounded number of times (a substitution
 * is read once per nesting level, and nesting is capped). Past the documented limits — nesting,
 * words, commands, here-documents — the line is reported unreadable, never guessed.
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
}

export interface Redirect {
  op: string;
  target: Word;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** Runs only if an earlier command succeeded or failed, or inside a condition, loop, case or function body. */
  conditional: boolean;
}

export interface ShellParse {
  commands: SimpleCommand[];
  /** Names of the functions the line defines. */
  functions: string[];
  unparsable?: string;
}

/** How deep `$(…)`, backticks and `bash -c` strings may nest before the line is unreadable. */
export const MAX_DEPTH = 6;
/** More words than this in one command line: unreadable. */
export const MAX_WORDS = 10_000;
/** More `$(…)`, backticks and process substitutions than this in one command line: unreadable. */
export const MAX_SUBSTITUTIONS = 4_096;
/** More here-documents than this in one command line: unreadable. */
export const MAX_HEREDOCS = 256;

export class Unparsable extends Error {}
/** Past a work limit: the line is unreadable, and no fallback reading is tried. */
class TooComplex extends Unparsable {}

export type Token =
  | { kind: 'word'; word: Word }
  | { kind: 'op'; op: string }
  | { kind: 'redirect'; op: string }
  | { kind: 'nested'; tokens: Token[] | null; source?: string };

const CONTROL_OPS = ['&&', '||', ';;&', ';;', ';&', '|&', ';', '&', '|', '(', ')'];
const REDIRECT_OPS = ['&>>', '&>', '<<<', '<<-', '<<', '>>', '>|', '>&', '<&', '<>', '>', '<'];
const WORD_BREAK = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const NAME = /[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]/y;
/** A run of characters that stand for themselves in an unquoted word. */
const PLAIN = /[^ \t\n;&|()<>'"\\$`]+/y;
/** Characters that may start an operator or a redirection. */
const OPERATOR_START = new Set(['<', '>', '&', '|', ';', '(', ')']);
const FD_PREFIX = /\d{1,9}(?=[<>])/y;

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expand: boolean;
}

interface Budget {
  words: number;
  heredocs: number;
  substitutions: number;
  /** Characters scanned looking for the end of `((…))` that may turn out not to be arithmetic. */
  arithmetic: number;
}

export function decodeAnsiC(src: string, start: number): { text: string; end: number } {
  let out = '';
  let i = start;
  for (;;) {
    if (i >= src.length) throw new Unparsable("an unterminated $'…' quote");
    const c = src[i]!;
    if (c === "'") return { text: out, end: i + 1 };
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = src[i + 1] ?? '';
    i += 2;
    const simple: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
    if (e in simple) out += simple[e];
    else if (e >= '0' && e <= '7') {
      let digits = e;
      while (digits.length < 3 && /[0-7]/.test(src[i] ?? '')) digits += src[i++];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const max = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      let digits = '';
      while (digits.length < max && /[0-9a-fA-F]/.test(src[i] ?? '')) digits += src[i++];
      if (digits === '') out += `\\${e}`;
      else {
        const code = parseInt(digits, 16);
        out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
    } else if (e === 'c') {
      const ch = src[i++] ?? '';
      out += String.fromCharCode(ch.toUpperCase().charCodeAt(0) ^ 0x40);
    } else out += `\\${e}`;
  }
}

export class Lexer {
  i: number;
  tokens: Token[] = [];
  private heredocs: PendingHeredoc[] = [];

  constructor(
    readonly src: string,
    start: number,
    private readonly depth: number,
    private readonly budget: Budget,
  ) {
    this.i = start;
  }

  private peek(n = 0): string {
    return this.src[this.i + n] ?? '';
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.i);
  }

  private nest(): Lexer {
    if (this.depth + 1 > MAX_DEPTH) throw new Unparsable(`commands nested more than ${MAX_DEPTH} deep`);
    if (--this.budget.substitutions < 0) throw new Unparsable(`more than ${MAX_SUBSTITUTIONS} command substitutions`);
    return new Lexer(this.src, this.i, this.depth + 1, this.budget);
  }

  /**
   * Reads tokens to the end of the source, or — for the body of a `$(…)` — to the `)` that closes
   * it (a `)` ending a `case` pattern does not), and returns with the cursor after that `)`.
   */
  run(untilClose = false): Token[] {
    let parens = 0;
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === ' ' || c === '\t') {
        this.i++;
      } else if (c === '\\' && this.peek(1) === '\n') {
        this.i += 2;
      } else if (c === '\n') {
        this.i++;
        this.tokens.push({ kind: 'op', op: '\n' });
        this.readHeredocBodies();
      } else if (c === '#' && this.i !== this.wordContinuesAt) {
        while (this.i < this.src.length && this.peek() !== '\n') this.i++;
      } else if (this.startsWith('<(') || this.startsWith('>(')) {
        this.i += 2;
        const inner = this.nest();
        inner.run(true);
        this.i = inner.i;
        this.tokens.push({ kind: 'nested', tokens: inner.tokens });
        this.tokens.push({ kind: 'word', word: { text: '/dev/fd/63', dynamic: false, pattern: false, quoted: false, ansi: false } });
        // `<(…)#x` is one word to bash: what follows is not a comment
        this.wordContinuesAt = this.i;
      } else if (this.startsWith('((') && this.atCommandStart() && this.tryArithmetic()) {
        // an arithmetic command: only its substitutions run
      } else if (!OPERATOR_START.has(c) && !(c >= '0' && c <= '9')) {
        this.pushWord();
      } else {
        FD_PREFIX.lastIndex = this.i;
        const fd = FD_PREFIX.exec(this.src);
        if (fd) this.i += fd[0].length;
        const redirect = REDIRECT_OPS.find((op) => this.startsWith(op));
        if (redirect) {
          this.i += redirect.length;
          if (redirect === '<<' || redirect === '<<-') this.readHeredocStart(redirect === '<<-');
          else this.tokens.push({ kind: 'redirect', op: redirect });
          continue;
        }
        if (fd) this.i -= fd[0].length;
        const control = CONTROL_OPS.find((op) => this.startsWith(op));
        if (control) {
          if (control === '(') parens++;
          if (control === ')') {
            if (parens === 0 && this.caseDepth > 0) {
              // the end of a case pattern
            } else if (parens === 0 && untilClose) {
              this.i++;
              return this.tokens;
            } else parens = Math.max(0, parens - 1);
          }
          this.i += control.length;
          this.tokens.push({ kind: 'op', op: control });
          continue;
        }
        this.pushWord();
      }
    }
    if (untilClose) throw new Unparsable('an unterminated $( or <(');
    return this.tokens;
  }

  private caseDepth = 0;
  /** A position where a word goes on (after a process substitution), so a `#` there starts no comment. */
  private wordContinuesAt = -1;

  private pushWord(): void {
    const startsCommand = this.atCommandStart();
    const word = this.readWord();
    if (!word.quoted && word.text === 'case' && startsCommand) this.caseDepth++;
    if (!word.quoted && word.text === 'esac' && startsCommand && this.caseDepth > 0) this.caseDepth--;
    if (--this.budget.words < 0) throw new Unparsable(`more than ${MAX_WORDS} words`);
    this.tokens.push({ kind: 'word', word });
  }

  private atCommandStart(): boolean {
    const last = this.tokens[this.tokens.length - 1];
    return last === undefined || last.kind === 'op' || (last.kind === 'word' && !last.word.quoted && ['then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', '{', 'for'].includes(last.word.text));
  }

  /** `((…))` when it closes as arithmetic; otherwise leaves the cursor for two `(`. */
  private tryArithmetic(): boolean {
    const start = this.i;
    this.i += 2;
    try {
      const body = this.readArithmetic();
      this.collectSubstitutions(body);
      if (/\bcase\b/.test(body)) this.tokens.push(...this.subshellReading(body));
      return true;
    } catch (err) {
      if (!(err instanceof Unparsable) || err instanceof TooComplex) throw err;
      this.i = start;
      return false;
    }
  }

  /** After `((` or `$((`: up to the matching `))`, parentheses balanced. */
  private readArithmetic(): string {
    const start = this.i;
    let depth = 0;
    while (this.i < this.src.length) {
      if (--this.budget.arithmetic < 0) throw new TooComplex('arithmetic that never closes, too often');
      const c = this.peek();
      if (c === '\\') this.i += 2;
      else if (c === '(') {
        depth++;
        this.i++;
      } else if (c === ')') {
        if (depth === 0) {
          if (this.peek(1) !== ')') throw new Unparsable('not arithmetic');
          const body = this.src.slice(start, this.i);
          this.i += 2;
          return body;
        }
        depth--;
        this.i++;
      } else if (c === "'" || c === '"' || c === '`') {
        // quotes inside arithmetic are rare; read them so a `)` inside does not count
        if (c === '`') {
          this.i++;
          this.readBackquoted();
        } else {
          const end = this.src.indexOf(c, this.i + 1);
          if (end === -1) throw new Unparsable('an unterminated quote');
          this.i = end + 1;
        }
      } else this.i++;
    }
    throw new Unparsable('an unterminated ((');
  }

  private readHeredocStart(stripTabs: boolean): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
    const word = this.readWord();
    if (word.text === '') throw new Unparsable('a here-document without a delimiter');
    if (word.dynamic || word.ansi) throw new Unparsable('a here-document delimiter with an expansion');
    if (--this.budget.heredocs < 0) throw new Unparsable(`more than ${MAX_HEREDOCS} here-documents`);
    this.heredocs.push({ delimiter: word.text, stripTabs, expand: !word.quoted });
    this.tokens.push({ kind: 'redirect', op: '<<' });
    this.tokens.push({ kind: 'word', word: { text: '/dev/stdin', dynamic: false, pattern: false, quoted: true, ansi: false } });
  }

  /**
   * Bodies of the here-documents started on the line just ended. bash ends a body at the first
   * line equal to the delimiter (leading tabs removed for `<<-`); in an unquoted one a backslash
   * before the newline joins lines first. Unterminated, the body runs to the end of the input.
   */
  private readHeredocBodies(): void {
    for (const doc of this.heredocs) {
      const lines: string[] = [];
      let pending = '';
      while (this.i < this.src.length) {
        const end = this.src.indexOf('\n', this.i);
        const raw = this.src.slice(this.i, end === -1 ? this.src.length : end);
        this.i = end === -1 ? this.src.length : end + 1;
        if (doc.expand && end !== -1 && trailingBackslashes(raw) % 2 === 1) {
          pending += raw.slice(0, -1);
          continue;
        }
        const line = pending + raw;
        pending = '';
        const compared = doc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === doc.delimiter) break;
        lines.push(line);
      }
      if (pending !== '') lines.push(pending);
      const body = lines.join('\n');
      if (doc.expand) this.collectSubstitutions(body);
    }
    this.heredocs = [];
  }

  /** In a here-document or other expanded text, only `$(…)`, `$((…))` and backticks run commands. */
  private collectSubstitutions(text: string): void {
    const inner = new Lexer(text, 0, this.depth, this.budget);
    while (inner.i < text.length) {
      const c = text[inner.i]!;
      if (c === '\\') inner.i += 2;
      else if (c === '$' && text[inner.i + 1] === '(') {
        const nested = inner.readDollar();
        for (const t of nested.nested) this.tokens.push(t);
      } else if (c === '$' && text[inner.i + 1] === '{') {
        const nested = inner.readDollar();
        for (const t of nested.nested) this.tokens.push(t);
      } else if (c === '`') {
        inner.i++;
        this.tokens.push(this.nestedFromSource(inner.readBackquoted()));
      } else inner.i++;
    }
  }

  /** `(( body ))` read as nested subshells instead of arithmetic; nothing when it does not read so. */
  private subshellReading(body: string): Token[] {
    if (this.depth + 1 > MAX_DEPTH) throw new Unparsable(`commands nested more than ${MAX_DEPTH} deep`);
    try {
      const inner = new Lexer(`(${body})`, 0, this.depth + 1, this.budget);
      return [{ kind: 'nested', tokens: inner.run(false) }];
    } catch (err) {
      if (err instanceof TooComplex) throw err;
      return [];
    }
  }

  private nestedFromSource(source: string): Token {
    if (this.depth + 1 > MAX_DEPTH) throw new Unparsable(`commands nested more than ${MAX_DEPTH} deep`);
    if (--this.budget.substitutions < 0) throw new Unparsable(`more than ${MAX_SUBSTITUTIONS} command substitutions`);
    const inner = new Lexer(source, 0, this.depth + 1, this.budget);
    inner.run(false);
    return { kind: 'nested', tokens: inner.tokens, source };
  }

  /** After an opening `"`: to the closing one; the commands its substitutions run go to `out`. */
  private skipDoubleQuoted(out: Token[]): void {
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        return;
      } else if (c === '$' && (this.peek(1) === '(' || this.peek(1) === '{')) out.push(...this.readDollar().nested);
      else if (c === '`') {
        this.i++;
        out.push(this.nestedFromSource(this.readBackquoted()));
      } else this.i++;
    }
    throw new Unparsable('an unterminated double quote');
  }

  /** After an opening backquote: the text up to the closing one, with `\``, `\\` and `\$` unescaped. */
  readBackquoted(): string {
    let out = '';
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === '\\' && (this.peek(1) === '`' || this.peek(1) === '\\' || this.peek(1) === '$')) {
        out += this.peek(1);
        this.i += 2;
      } else if (c === '`') {
        this.i++;
        return out;
      } else {
        out += c;
        this.i++;
      }
    }
    throw new Unparsable('an unterminated backquote');
  }

  /** `${…}` body: up to the matching `}`, quotes honoured; the commands its substitutions run go to `out`. */
  private readBraced(out: Token[]): void {
    let depth = 1;
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        this.skipDoubleQuoted(out);
      } else if (c === '`') {
        this.i++;
        out.push(this.nestedFromSource(this.readBackquoted()));
      } else if (c === '$' && this.peek(1) === '(') out.push(...this.readDollar().nested);
      // a single quote quotes nothing inside `${…}` within double quotes: read what it would hide
      else if (c === '{') {
        depth++;
        this.i++;
      } else if (c === '}') {
        this.i++;
        if (--depth === 0) return;
      } else this.i++;
    }
    throw new Unparsable('an unterminated ${');
  }

  /** `$…` at the cursor: the text kept in the word, and the commands it runs. */
  readDollar(): { text: string; nested: Token[] } {
    const start = this.i;
    const nested: Token[] = [];
    if (this.startsWith('$((')) {
      this.i += 3;
      try {
        const body = this.readArithmetic();
        if (this.depth + 1 > MAX_DEPTH) throw new Unparsable(`commands nested more than ${MAX_DEPTH} deep`);
        const holder = new Lexer(body, 0, this.depth + 1, this.budget);
        holder.collectSubstitutions(body);
        nested.push(...holder.tokens);
        // bash may not take it as arithmetic where a case pattern's `)` upsets its count: read the subshell too
        if (/\bcase\b/.test(body)) nested.push(...this.subshellReading(body));
        return { text: this.src.slice(start, this.i), nested };
      } catch (err) {
        if (!(err instanceof Unparsable) || err instanceof TooComplex) throw err;
        this.i = start;
      }
    }
    if (this.startsWith('$(')) {
      this.i += 2;
      const inner = this.nest();
      inner.run(true);
      this.i = inner.i;
      nested.push({ kind: 'nested', tokens: inner.tokens });
      return { text: this.src.slice(start, this.i), nested };
    }
    if (this.startsWith('${')) {
      this.i += 2;
      this.readBraced(nested);
      return { text: this.src.slice(start, this.i), nested };
    }
    this.i++;
    NAME.lastIndex = this.i;
    const name = NAME.exec(this.src);
    if (name) this.i += name[0].length;
    return { text: this.src.slice(start, this.i), nested };
  }

  private readWord(): Word {
    /** The word after quote removal, in pieces joined at the end. */
    const textParts: string[] = [];
    /** The same with every quoted or escaped character replaced by a placeholder: where globs and braces are live. */
    const liveParts: string[] = [];
    let text = '';
    let live = '';
    const settle = () => {
      if (text.length > 256) {
        textParts.push(text);
        liveParts.push(live);
        text = '';
        live = '';
      }
    };
    let dynamic = false;
    let quoted = false;
    /** Where in the word's text the first quoted or escaped character stands (`A="x y"` is still an assignment). */
    let quotedAt = -1;
    let ansi = false;
    const markQuoted = () => {
      if (!quoted) {
        quoted = true;
        quotedAt = textParts.reduce((n, p) => n + p.length, 0) + text.length;
      }
    };
    const pushNested = (tokens: Token[]) => {
      for (const t of tokens) this.tokens.push(t);
    };
    while (this.i < this.src.length) {
      settle();
      PLAIN.lastIndex = this.i;
      const plain = PLAIN.exec(this.src);
      if (plain) {
        text += plain[0];
        live += plain[0];
        this.i += plain[0].length;
        continue;
      }
      const c = this.peek();
      if (WORD_BREAK.has(c)) {
        // `a=(…)` array assignments keep their parentheses
        if (c === '(' && textParts.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(text)) {
          this.i++;
          const inner = this.nest();
          const start = this.i;
          inner.run(true);
          // the elements are words, not commands: only their substitutions run
          for (const t of inner.tokens) if (t.kind === 'nested') this.tokens.push(t);
          text += `(${this.src.slice(start, inner.i - 1)})`;
          live += '_'.repeat(inner.i - start + 1);
          this.i = inner.i;
          continue;
        }
        if (c === '(' && /^[@!?*+]$/.test(text.slice(-1)) && text.length > 0) {
          // an extglob pattern such as @(a|b): read it as part of the word
          const start = this.i;
          this.i++;
          const inner = this.nest();
          inner.run(true);
          for (const t of inner.tokens) if (t.kind === 'nested') this.tokens.push(t);
          this.i = inner.i;
          text += this.src.slice(start, this.i);
          live += '*'.repeat(this.i - start);
          continue;
        }
        break;
      }
      if (c === '\\') {
        // a run of escapes at once
        const escaped: string[] = [];
        while (this.src[this.i] === '\\' && this.i + 1 < this.src.length) {
          const e = this.src[this.i + 1]!;
          if (e !== '\n') escaped.push(e);
          this.i += 2;
        }
        if (this.src[this.i] === '\\') this.i++;
        if (escaped.length > 0) {
          markQuoted();
          text += escaped.join('');
          live += '_'.repeat(escaped.length);
        }
        continue;
      }
      if (c === "'") {
        const end = this.src.indexOf("'", this.i + 1);
        if (end === -1) throw new Unparsable('an unterminated single quote');
        const part = this.src.slice(this.i + 1, end);
        markQuoted();
        text += part;
        live += '_'.repeat(part.length);
        this.i = end + 1;
        continue;
      }
      if (c === '$' && this.peek(1) === "'") {
        const decoded = decodeAnsiC(this.src, this.i + 2);
        markQuoted();
        text += decoded.text;
        live += '_'.repeat(decoded.text.length);
        this.i = decoded.end;
        ansi = true;
        continue;
      }
      if (c === '"' || (c === '$' && this.peek(1) === '"')) {
        if (c === '$') {
          ansi = true;
          this.i++;
        }
        this.i++;
        markQuoted();
        for (;;) {
          if (this.i >= this.src.length) throw new Unparsable('an unterminated double quote');
          const d = this.peek();
          if (d === '"') {
            this.i++;
            break;
          }
          if (d === '\\') {
            const e = this.peek(1);
            if (e === '\n') this.i += 2;
            else if ('"\\$`'.includes(e)) {
              text += e;
              live += '_';
              this.i += 2;
            } else {
              text += d;
              live += '_';
              this.i++;
            }
          } else if (d === '$' && /[A-Za-z_{(0-9@*#?$!-]/.test(this.peek(1))) {
            const read = this.readDollar();
            pushNested(read.nested);
            text += read.text;
            live += '_'.repeat(read.text.length);
            dynamic = true;
          } else if (d === '`') {
            this.i++;
            this.tokens.push(this.nestedFromSource(this.readBackquoted()));
            text += '`…`';
            live += '___';
            dynamic = true;
          } else {
            text += d;
            live += '_';
            this.i++;
          }
        }
        continue;
      }
      if (c === '$' && /[A-Za-z_{(0-9@*#?$!-]/.test(this.peek(1))) {
        const read = this.readDollar();
        pushNested(read.nested);
        text += read.text;
        live += '_'.repeat(read.text.length);
        dynamic = true;
        continue;
      }
      if (c === '`') {
        this.i++;
        this.tokens.push(this.nestedFromSource(this.readBackquoted()));
        text += '`…`';
        live += '___';
        dynamic = true;
        continue;
      }
      text += c;
      live += c;
      this.i++;
    }
    textParts.push(text);
    liveParts.push(live);
    const whole = textParts.join('');
    const liveWhole = liveParts.join('');
    const pattern = isPattern(liveWhole);
    // bash expands braces before it removes quotes: a quoted `{`, `}` or `,` inside a live brace
    // expansion (`{a,'{'}`) changes the words it makes, which this text no longer shows
    if (pattern && liveWhole.includes('{') && quotedBraceCharacter(whole, liveWhole)) dynamic = true;
    // bash expands an array subscript in a quoted name or value, whole or put together from pieces
    // (`[[ 'a[$(cmd)]' -eq 0 ]]`, `x='a['\$'(cmd)]'; echo $((x))`): read what it would run
    if (hasSubscriptSubstitution(whole)) this.collectSubstitutions(whole);
    return { text: whole, dynamic, pattern, quoted, ansi, quotedAt };
  }
}

/** Whether a quoted character of the word (where `live` differs from `text`) is a brace or a comma. */
function quotedBraceCharacter(text: string, live: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if ((c === '{' || c === '}' || c === ',') && live[k] !== c) return true;
  }
  return false;
}

/** An array subscript holding a command substitution (`a[$(cmd)]`), found in one pass. */
function hasSubscriptSubstitution(text: string): boolean {
  let open = false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '[') open = true;
    else if (c === ']') open = false;
    else if (open && (c === '`' || (c === '$' && text[k + 1] === '('))) return true;
  }
  return false;
}

function trailingBackslashes(line: string): number {
  let n = 0;
  while (n < line.length && line[line.length - 1 - n] === '\\') n++;
  return n;
}

/** Unquoted `*`, `?`, `[…]`, or a brace expansion `{a,b}` / `{1..3}`. */
function isPattern(live: string): boolean {
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

const RESERVED_START = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{']);
const CLOSERS = new Set(['fi', 'done', '}', 'esac']);

/**
 * From tokens to simple commands. Keywords are recognised where bash recognises them (unquoted, at
 * the start of a command); `for`/`select` headers, `case` patterns and `[[ … ]]` are not commands;
 * a function's body counts as commands the line may run.
 */
/** Words that start a compound command. */
const COMPOUND_START = new Set(['{', 'if', 'while', 'until', 'for', 'select', 'case', '[[', '((']);

export function splitCommands(tokens: readonly Token[], baseConditional: boolean, out: ShellParse): void {
  let current: SimpleCommand | null = null;
  let afterAndOr = false;
  let control = 0;
  let functionBodies = 0;
  let pendingFunction = false;
  const braceIsFunction: boolean[] = [];
  let mode: 'normal' | 'forHeader' | 'casePattern' | 'caseSubject' | 'test' = 'normal';
  const conditional = () => baseConditional || afterAndOr || control > 0 || functionBodies > 0;
  const flush = () => {
    if (current && (current.words.length > 0 || current.redirects.length > 0)) out.commands.push(current);
    current = null;
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'nested') {
      if (t.tokens) splitCommands(t.tokens, conditional(), out);
      continue;
    }
    if (mode === 'test') {
      if (t.kind === 'word' && !t.word.quoted && t.word.text === ']]') mode = 'normal';
      continue;
    }
    if (mode === 'forHeader') {
      if (t.kind === 'op' && (t.op === ';' || t.op === '\n')) mode = 'normal';
      else if (t.kind === 'word' && !t.word.quoted && t.word.text === 'do') mode = 'normal';
      continue;
    }
    if (mode === 'caseSubject') {
      if (t.kind === 'word' && !t.word.quoted && t.word.text === 'in') mode = 'casePattern';
      continue;
    }
    if (mode === 'casePattern') {
      if (t.kind === 'word' && !t.word.quoted && t.word.text === 'esac') {
        control = Math.max(0, control - 1);
        mode = 'normal';
      } else if (t.kind === 'op' && t.op === ')') mode = 'normal';
      continue;
    }
    if (t.kind === 'op') {
      if (t.op === '(' && current !== null && (current as SimpleCommand).words.length === 1 && (current as SimpleCommand).redirects.length === 0) {
        const next = tokens[k + 1];
        if (next?.kind === 'op' && next.op === ')') {
          // `name () body`: a function definition
          out.functions.push((current as SimpleCommand).words[0]!.text);
          current = null;
          pendingFunction = true;
          k++;
          continue;
        }
      }
      flush();
      if (t.op === '&&' || t.op === '||') afterAndOr = true;
      else if (t.op === ';;' || t.op === ';&' || t.op === ';;&') mode = 'casePattern';
      else if (t.op !== '|' && t.op !== '|&' && t.op !== '(' && t.op !== ')') afterAndOr = false;
      if (t.op === '(' && pendingFunction) {
        braceIsFunction.push(true);
        functionBodies++;
        pendingFunction = false;
      } else if (t.op === '(') braceIsFunction.push(false);
      else if (t.op === ')' && braceIsFunction.length > 0 && braceIsFunction.pop()) functionBodies--;
      continue;
    }
    if (t.kind === 'redirect') {
      const next = tokens[k + 1];
      current ??= { words: [], redirects: [], conditional: conditional() };
      if (next?.kind === 'word') {
        current.redirects.push({ op: t.op, target: next.word });
        k++;
      } else if (t.op !== '>&' && t.op !== '<&') {
        throw new Unparsable(`a redirection ${t.op} without a target`);
      }
      continue;
    }
    const word = t.word;
    if (current === null && !word.quoted) {
      const w = word.text;
      if (w === 'function') {
        const name = tokens[k + 1];
        if (name?.kind === 'word') {
          out.functions.push(name.word.text);
          k++;
          if (tokens[k + 1]?.kind === 'op' && (tokens[k + 1] as { op: string }).op === '(' && tokens[k + 2]?.kind === 'op' && (tokens[k + 2] as { op: string }).op === ')') k += 2;
        }
        pendingFunction = true;
        continue;
      }
      if (w === '{') {
        braceIsFunction.push(pendingFunction);
        if (pendingFunction) functionBodies++;
        pendingFunction = false;
        continue;
      }
      if (w === '}') {
        if (braceIsFunction.pop()) functionBodies--;
        continue;
      }
      if (w === 'if' || w === 'while' || w === 'until') {
        control++;
        continue;
      }
      if (w === 'fi' || w === 'done') {
        control = Math.max(0, control - 1);
        continue;
      }
      if (w === 'for' || w === 'select') {
        control++;
        mode = 'forHeader';
        continue;
      }
      if (w === 'case') {
        control++;
        mode = 'caseSubject';
        continue;
      }
      if (w === '[[') {
        mode = 'test';
        continue;
      }
      if (w === 'esac') {
        control = Math.max(0, control - 1);
        continue;
      }
      if (w === 'coproc') {
        // `coproc NAME { …; }`: a word followed by a compound command is the coprocess's name, not a program
        const name = tokens[k + 1];
        const after = tokens[k + 2];
        const compound = after?.kind === 'op' ? after.op === '(' : after?.kind === 'word' && !after.word.quoted && COMPOUND_START.has(after.word.text);
        if (name?.kind === 'word' && !name.word.quoted && compound) k++;
        continue;
      }
      if (RESERVED_START.has(w) || CLOSERS.has(w)) continue;
    }
    current ??= { words: [], redirects: [], conditional: conditional() };
    current.words.push(word);
  }
  flush();
}

/** Every simple command in `src`, substitutions included (to a depth bound). */
export function parseShell(src: string, depth = 0): ShellParse {
  const out: ShellParse = { commands: [], functions: [] };
  if (depth > MAX_DEPTH) return { ...out, unparsable: `commands nested more than ${MAX_DEPTH} deep` };
  try {
    const lexer = new Lexer(src, 0, depth, { words: MAX_WORDS, heredocs: MAX_HEREDOCS, substitutions: MAX_SUBSTITUTIONS, arithmetic: 4 * src.length + 4096 });
    const tokens = lexer.run(false);
    splitCommands(tokens, false, out);
    return out;
  } catch (err) {
    if (err instanceof Unparsable) return { commands: [], functions: [], unparsable: err.message };
    if (err instanceof RangeError) return { commands: [], functions: [], unparsable: 'the command line is too deeply nested' };
    throw err;
  }
}
