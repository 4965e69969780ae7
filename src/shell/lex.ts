/**
 * A bash lexer and parser, just deep enough to find every simple command a command line runs:
 * quotes, escapes and line continuations; `;` `&&` `||` `|` `|&` `&` and newlines; subshells and
 * groups; `$(…)`, backticks, `<(…)` and `>(…)` (parsed recursively); here-documents (bodies
 * skipped, but substitutions in unquoted ones parsed); redirections with their targets. What it
 * cannot read with confidence (an unterminated quote, nesting past the bound) is reported, never
 * guessed.
 */

export interface Word {
  /** The word with quotes removed; expansions are kept as written (`$HOME`, `$(…)`). */
  text: string;
  /** Contains an expansion whose value is only known at run time. */
  dynamic: boolean;
}

export interface Redirect {
  op: string;
  target: Word;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
}

export interface ShellParse {
  commands: SimpleCommand[];
  unparsable?: string;
}

export const MAX_DEPTH = 6;

class Unparsable extends Error {}

type Token = { kind: 'word'; word: Word } | { kind: 'op'; op: string } | { kind: 'redirect'; op: string };

const CONTROL_OPS = ['&&', '||', ';;&', ';;', ';&', '|&', ';', '&', '|', '(', ')'];
const REDIRECT_OPS = ['&>>', '&>', '<<<', '<<-', '<<', '>>', '>|', '>&', '<&', '<>', '>', '<'];

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expand: boolean;
}

class Lexer {
  i = 0;
  tokens: Token[] = [];
  heredocs: PendingHeredoc[] = [];
  nested: string[] = [];

  constructor(readonly src: string) {}

  private peek(n = 0): string {
    return this.src[this.i + n] ?? '';
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.i);
  }

  run(): void {
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r') {
        this.i++;
      } else if (c === '\\' && this.peek(1) === '\n') {
        this.i += 2;
      } else if (c === '\n') {
        this.i++;
        this.tokens.push({ kind: 'op', op: ';' });
        this.readHeredocBodies();
      } else if (c === '#') {
        while (this.i < this.src.length && this.peek() !== '\n') this.i++;
      } else if (this.startsWith('<(') || this.startsWith('>(')) {
        this.i += 2;
        this.nested.push(this.readBalanced(')'));
        this.tokens.push({ kind: 'word', word: { text: '/dev/fd/63', dynamic: false } });
      } else {
        const fdRedirect = /^\d+(?=[<>])/.exec(this.src.slice(this.i, this.i + 12));
        if (fdRedirect) this.i += fdRedirect[0].length;
        const redirect = REDIRECT_OPS.find((op) => this.startsWith(op));
        if (redirect) {
          this.i += redirect.length;
          if (redirect === '<<' || redirect === '<<-') this.readHeredocStart(redirect === '<<-');
          else this.tokens.push({ kind: 'redirect', op: redirect });
          continue;
        }
        if (fdRedirect) this.i -= fdRedirect[0].length;
        const control = CONTROL_OPS.find((op) => this.startsWith(op));
        if (control) {
          this.i += control.length;
          this.tokens.push({ kind: 'op', op: control });
          continue;
        }
        this.tokens.push({ kind: 'word', word: this.readWord() });
      }
    }
    if (this.heredocs.length > 0) this.heredocs = [];
  }

  private readHeredocStart(stripTabs: boolean): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
    const start = this.i;
    const word = this.readWord();
    const raw = this.src.slice(start, this.i);
    if (word.text === '') throw new Unparsable('a here-document without a delimiter');
    this.heredocs.push({ delimiter: word.text, stripTabs, expand: !/['"\\]/.test(raw) });
  }

  private readHeredocBodies(): void {
    for (const doc of this.heredocs) {
      const bodyLines: string[] = [];
      while (this.i < this.src.length) {
        const end = this.src.indexOf('\n', this.i);
        const line = this.src.slice(this.i, end === -1 ? this.src.length : end);
        this.i = end === -1 ? this.src.length : end + 1;
        const compared = doc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === doc.delimiter) break;
        bodyLines.push(line);
      }
      if (doc.expand) this.collectSubstitutions(bodyLines.join('\n'));
    }
    this.heredocs = [];
  }

  /** In a here-document or other expanded text, only `$(…)` and backticks run commands. */
  private collectSubstitutions(text: string): void {
    const inner = new Lexer(text);
    for (inner.i = 0; inner.i < text.length; ) {
      if (text[inner.i] === '\\') inner.i += 2;
      else if (text.startsWith('$((', inner.i)) {
        inner.i += 3;
        inner.readBalanced('))');
      } else if (text.startsWith('$(', inner.i)) {
        inner.i += 2;
        this.nested.push(inner.readBalanced(')'));
      } else if (text[inner.i] === '`') {
        inner.i++;
        this.nested.push(inner.readBackquoted());
      } else inner.i++;
    }
  }

  /** Reads up to the `close` that balances an opening just consumed, honouring quotes. */
  readBalanced(close: ')' | '))' | '}'): string {
    const start = this.i;
    let depth = 1;
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === '\\') {
        this.i += 2;
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.i + 1);
        if (end === -1) throw new Unparsable('an unterminated single quote');
        this.i = end + 1;
      } else if (c === '"') {
        this.i++;
        this.skipDoubleQuoted();
      } else if (c === '`') {
        this.i++;
        this.readBackquoted();
      } else if (close === '}' ? c === '{' : c === '(') {
        depth++;
        this.i++;
      } else if (this.startsWith(close) || (close !== '))' && c === close)) {
        depth--;
        if (depth === 0) {
          const body = this.src.slice(start, this.i);
          this.i += close.length;
          return body;
        }
        this.i++;
      } else if (close === '))' && c === ')') {
        depth--;
        this.i++;
      } else {
        this.i++;
      }
    }
    throw new Unparsable(`an unterminated ${close === '}' ? '${' : '$('}`);
  }

  private skipDoubleQuoted(): void {
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        return;
      } else if (this.startsWith('$(')) {
        this.i += 2;
        this.readBalanced(')');
      } else if (c === '`') {
        this.i++;
        this.readBackquoted();
      } else this.i++;
    }
    throw new Unparsable('an unterminated double quote');
  }

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

  /** `$…` at the cursor: records substitutions, returns the text kept in the word. */
  private readDollar(): string {
    const start = this.i;
    if (this.startsWith('$((')) {
      this.i += 3;
      const body = this.readBalanced('))');
      this.collectSubstitutions(body);
      return this.src.slice(start, this.i);
    }
    if (this.startsWith('$(')) {
      this.i += 2;
      this.nested.push(this.readBalanced(')'));
      return this.src.slice(start, this.i);
    }
    if (this.startsWith('${')) {
      this.i += 2;
      this.collectSubstitutions(this.readBalanced('}'));
      return this.src.slice(start, this.i);
    }
    this.i++;
    const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.src.slice(this.i));
    if (name) this.i += name[0].length;
    return this.src.slice(start, this.i);
  }

  private readWord(): Word {
    let text = '';
    let dynamic = false;
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') break;
      if (c === '\\') {
        if (this.peek(1) === '\n') this.i += 2;
        else {
          text += this.peek(1);
          this.i += 2;
        }
        continue;
      }
      if (c === "'") {
        const end = this.src.indexOf("'", this.i + 1);
        if (end === -1) throw new Unparsable('an unterminated single quote');
        text += this.src.slice(this.i + 1, end);
        this.i = end + 1;
        continue;
      }
      if (c === '$' && this.peek(1) === "'") {
        this.i += 2;
        let out = '';
        for (;;) {
          if (this.i >= this.src.length) throw new Unparsable('an unterminated $\'…\' quote');
          const d = this.peek();
          if (d === '\\') {
            const e = this.peek(1);
            out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
            this.i += 2;
          } else if (d === "'") {
            this.i++;
            break;
          } else {
            out += d;
            this.i++;
          }
        }
        text += out;
        continue;
      }
      if (c === '"') {
        this.i++;
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
              this.i += 2;
            } else {
              text += d;
              this.i++;
            }
          } else if (d === '$' && /[A-Za-z_{(0-9@*#?$!-]/.test(this.peek(1))) {
            text += this.readDollar();
            dynamic = true;
          } else if (d === '`') {
            this.i++;
            this.nested.push(this.readBackquoted());
            text += '`…`';
            dynamic = true;
          } else {
            text += d;
            this.i++;
          }
        }
        continue;
      }
      if (c === '$' && /[A-Za-z_{(0-9@*#?$!-]/.test(this.peek(1))) {
        text += this.readDollar();
        dynamic = true;
        continue;
      }
      if (c === '`') {
        this.i++;
        this.nested.push(this.readBackquoted());
        text += '`…`';
        dynamic = true;
        continue;
      }
      if (CONTROL_OPS.some((op) => this.startsWith(op)) || this.startsWith('<') || this.startsWith('>')) {
        // `a=(…)` array assignments keep their parentheses.
        if (c === '(' && text.endsWith('=')) {
          this.i++;
          text += `(${this.readBalanced(')')})`;
          continue;
        }
        break;
      }
      text += c;
      this.i++;
    }
    return { text, dynamic };
  }
}

function splitCommands(tokens: Token[]): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  const flush = () => {
    if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
    current = { words: [], redirects: [] };
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'op') flush();
    else if (t.kind === 'redirect') {
      const next = tokens[k + 1];
      if (next?.kind === 'word') {
        current.redirects.push({ op: t.op, target: next.word });
        k++;
      } else if (t.op !== '>&' && t.op !== '<&') {
        throw new Unparsable(`a redirection ${t.op} without a target`);
      }
    } else current.words.push(t.word);
  }
  flush();
  return commands;
}

/** Every simple command in `src`, substitutions included (to a depth bound). */
export function parseShell(src: string, depth = 0): ShellParse {
  if (depth > MAX_DEPTH) return { commands: [], unparsable: `commands nested more than ${MAX_DEPTH} deep` };
  try {
    const lexer = new Lexer(src);
    lexer.run();
    const commands = splitCommands(lexer.tokens);
    for (const inner of lexer.nested) {
      const parsed = parseShell(inner, depth + 1);
      if (parsed.unparsable) return { commands: [], unparsable: parsed.unparsable };
      commands.push(...parsed.commands);
    }
    return { commands };
  } catch (err) {
    if (err instanceof Unparsable) return { commands: [], unparsable: err.message };
    throw err;
  }
}
