import { unreadableText, type Unreadable } from '../unreadable';
import type {
  AndOr,
  ArithExp,
  ArrayExp,
  Assign,
  CaseClause,
  CmdSubst,
  Command,
  DblQuoted,
  ExtGlob,
  ParamExp,
  Pipeline,
  ProcSubst,
  Redirect,
  Script,
  SimpleCommand,
  Statement,
  Word,
  WordPart,
} from './ast';

/**
 * A bash parser: characters to the syntax tree of ast.ts, as bash reads a command line that is not
 * interactive (no alias or history expansion). One pass, linear in its input: every character is
 * read a bounded number of times (a `((` that turns out not to be arithmetic is read again once,
 * within a budget). Past the limits below — nesting, words, substitutions, here-documents — and on
 * anything bash would reject, it throws ParseError: the line is unreadable, never guessed.
 */

/** How deep `$(…)`, backquotes and process substitutions may nest. */
export const MAX_DEPTH = 6;
/** How deep compound commands may nest. */
export const MAX_NESTING = 200;
export const MAX_WORDS = 10_000;
export const MAX_SUBSTITUTIONS = 4_096;
export const MAX_HEREDOCS = 256;

export class ParseError extends Error {
  constructor(
    readonly problem: Unreadable,
    readonly at: number,
  ) {
    super(unreadableText(problem));
  }
}

/** A work limit passed: no other reading of the line is tried. */
class TooComplex extends ParseError {}

interface Budget {
  words: number;
  substitutions: number;
  heredocs: number;
  /** Characters scanned for the end of a `((` that may turn out not to be arithmetic. */
  arithmetic: number;
}

/** Characters that end an unquoted word. */
const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const PLAIN = /[^ \t\n;&|()<>'"\\$`]+/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const SPECIAL_PARAM = /[0-9@*#?$!-]/;
const REDIRECT_OPS = ['&>>', '&>', '<<<', '<<-', '<<', '>>', '>|', '>&', '<&', '<>', '>', '<'];
/** Words that end a list when they stand at the start of a command. */
const CLOSERS = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', 'esac', '}']);

/** The literal text of a word when it is one unquoted literal (a reserved word can only be that). */
export function plainText(w: Word): string | null {
  return w.parts.length === 1 && w.parts[0]!.type === 'lit' ? w.parts[0]!.value : null;
}

/** The tree of a command line, `depth` substitution levels down (a `bash -c` string read again is one deeper). */
export function parseScript(src: string, depth = 0, options: { powershell?: boolean } = {}): Script {
  const budget: Budget = { words: MAX_WORDS, substitutions: MAX_SUBSTITUTIONS, heredocs: MAX_HEREDOCS, arithmetic: 4 * src.length + 4096 };
  if (depth > MAX_DEPTH) throw new ParseError({ id: 'nested_deeper_than', subject: String(MAX_DEPTH) }, 0);
  const p = new Parser(src, 0, depth, budget);
  p.powershell = options.powershell === true;
  try {
    const script = p.script(null);
    if (p.i < src.length) p.fail({ id: 'unexpected', subject: src[p.i]! });
    p.finishHeredocs();
    return script;
  } catch (err) {
    if (err instanceof RangeError) throw new ParseError({ id: 'too_deeply_nested' }, p.i);
    throw err;
  }
}

/** Parses a text bash expands as a here-document or a double-quoted string: its expansions. */
export function parseExpandedText(src: string, depth: number, budget?: Budget): WordPart[] {
  const p = new Parser(
    src,
    0,
    depth,
    budget ?? { words: MAX_WORDS, substitutions: MAX_SUBSTITUTIONS, heredocs: MAX_HEREDOCS, arithmetic: 4 * src.length + 4096 },
  );
  return p.expandedText(src.length);
}

class Parser {
  i: number;
  nesting = 0;
  pending: Redirect[] = [];
  /**
   * PowerShell rewritten for this parser (resolve-shell's powershellAsPosix): a parenthesis is a
   * grouping of its own commands within a word (`(Get-Date).Year`, `[IO.File]::Open('x')`).
   */
  powershell = false;
  /** Inside `[[ … ]]`, where bash reads extended globs whatever extglob says. */
  private inTest = false;

  constructor(
    readonly src: string,
    start: number,
    private readonly depth: number,
    private readonly budget: Budget,
  ) {
    this.i = start;
  }

  fail(problem: Unreadable, at = this.i): never {
    throw new ParseError(problem, at);
  }

  private peek(n = 0): string {
    return this.src[this.i + n] ?? '';
  }

  private at(s: string): boolean {
    return this.src.startsWith(s, this.i);
  }

  /** Blanks, line continuations and a comment; not newlines. */
  private blanks(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '\\' && this.peek(1) === '\n') this.i += 2;
      else if (c === '#') {
        while (this.i < this.src.length && this.peek() !== '\n') this.i++;
      } else return;
    }
  }

  /** A newline: the bodies of the here-documents started on the line it ends are read after it. */
  private newline(): void {
    this.i++;
    if (this.pending.length > 0) this.readHeredocBodies();
  }

  /** Blanks, comments and newlines. */
  private linebreaks(): void {
    for (;;) {
      this.blanks();
      if (this.peek() === '\n') this.newline();
      else return;
    }
  }

  private enter(): void {
    if (++this.nesting > MAX_NESTING) this.fail({ id: 'nested_deeper_than', subject: String(MAX_NESTING) });
  }

  private leave(): void {
    this.nesting--;
  }

  /** The next word, when it is a plain unquoted one, without consuming it. */
  private peekReserved(): string | null {
    const c = this.peek();
    if (c === '' || META.has(c) || c === '"' || c === "'" || c === '\\' || c === '$' || c === '`') {
      return null;
    }
    PLAIN.lastIndex = this.i;
    const m = PLAIN.exec(this.src);
    if (!m) return null;
    const next = this.src[this.i + m[0].length] ?? '';
    // `{` and `}` are reserved only as words of their own
    if (next !== '' && !META.has(next)) return null;
    // …and `fi<(…)` is one word, a process substitution in it
    if ((next === '<' || next === '>') && this.src[this.i + m[0].length + 1] === '(') return null;
    return m[0];
  }

  private reserved(word: string): boolean {
    if (this.peekReserved() !== word) return false;
    this.i += word.length;
    return true;
  }

  private expectReserved(word: string): void {
    this.linebreaks();
    if (!this.reserved(word)) this.fail({ id: 'expected', subject: word });
  }

  /**
   * Statements up to the end of the input, a `)` (`close`), or a reserved word of `until` at the
   * start of a command; the terminator is left unread.
   */
  script(until: ReadonlySet<string> | null, close = false): Script {
    const start = this.i;
    const statements: Statement[] = [];
    for (;;) {
      this.linebreaks();
      const c = this.peek();
      if (c === '') break;
      if (c === ')') {
        if (close) break;
        this.fail({ id: 'unexpected', subject: ')' });
      }
      if (c === ';') {
        if (until !== null && (this.at(';;') || this.at(';&'))) break;
        this.fail({ id: 'unexpected', subject: this.at(';;') ? ';;' : ';' });
      }
      // `&>file cmd` starts with a redirection
      if ((c === '&' && this.peek(1) !== '>') || c === '|') this.fail({ id: 'unexpected', subject: c });
      const word = this.powershell ? null : this.peekReserved();
      if (word !== null && CLOSERS.has(word)) {
        if (until !== null && until.has(word)) break;
        this.fail({ id: 'unexpected', subject: word });
      }
      statements.push(this.statement());
    }
    return { type: 'script', statements, start, end: this.i };
  }

  /** A list that must hold a command (`if`'s condition, a loop's body, a group). */
  private nonEmpty(until: ReadonlySet<string> | null, what: string, close = false): Script {
    const s = this.script(until, close);
    if (s.statements.length === 0) this.fail({ id: 'empty_part', subject: what });
    return s;
  }

  private statement(): Statement {
    const start = this.i;
    const list = this.andOr();
    this.blanks();
    let background = false;
    const c = this.peek();
    if (c === '&' && this.peek(1) !== '&' && this.peek(1) !== '>') {
      this.i++;
      background = true;
    } else if (c === ';' && this.peek(1) !== ';' && this.peek(1) !== '&') {
      this.i++;
    } else if (c === '\n') {
      this.newline();
    } else if (c !== '' && c !== ')' && !this.at(';;') && !this.at(';&')) {
      const word = this.powershell ? null : this.peekReserved();
      if (word === null || !CLOSERS.has(word)) this.fail({ id: 'unexpected', subject: c });
    }
    return { type: 'stmt', list, background, start, end: this.i };
  }

  private andOr(): AndOr {
    const start = this.i;
    const first = this.pipeline();
    const rest: AndOr['rest'] = [];
    for (;;) {
      this.blanks();
      const op = this.at('&&') ? '&&' : this.at('||') ? '||' : null;
      if (op === null) break;
      this.i += 2;
      this.linebreaks();
      rest.push({ op, pipeline: this.pipeline() });
    }
    return { type: 'andor', first, rest, start, end: this.i };
  }

  private pipeline(): Pipeline {
    const start = this.i;
    this.blanks();
    let timed = false;
    let negated = false;
    for (; !this.powershell;) {
      if (this.peekReserved() === 'time' && this.timeIsReserved()) {
        this.i += 4;
        timed = true;
        this.blanks();
        if (this.peekReserved() === '-p') {
          this.i += 2;
          this.blanks();
        }
        continue;
      }
      if (this.peekReserved() === '!') {
        this.i++;
        negated = !negated;
        this.blanks();
        continue;
      }
      break;
    }
    const commands: Command[] = [this.command()];
    for (;;) {
      this.blanks();
      if (this.peek() !== '|' || this.peek(1) === '|') break;
      this.i += this.at('|&') ? 2 : 1;
      this.linebreaks();
      commands.push(this.command());
    }
    return { type: 'pipeline', commands, negated, timed, start, end: this.i };
  }

  /** bash's `time` takes only `-p`; `time -o FILE cmd` is read as the program time (command time …). */
  private timeIsReserved(): boolean {
    let k = this.i + 4;
    while (this.src[k] === ' ' || this.src[k] === '\t') k++;
    const next = this.src[k] ?? '';
    if (next !== '-') return true;
    return /^-p(?=[ \t\n;&|]|$)|^--(?=[ \t\n;&|]|$)/.test(this.src.slice(k, k + 3));
  }

  private command(): Command {
    this.blanks();
    const start = this.i;
    const c = this.peek();
    if (c === '' || c === ';' || (c === '&' && this.peek(1) !== '>') || c === '|' || c === ')' || c === '\n')
      this.fail(c === '' ? { id: 'missing_command_at_end' } : { id: 'missing_command_before', subject: c });
    if (c === '(' && this.peek(1) === '(' && !this.powershell) {
      const arith = this.tryArithCommand();
      if (arith) return arith;
    }
    // PowerShell has keywords of its own: every statement is read as a command (its blocks as words)
    if (this.powershell) return this.simple();
    if (c === '(') {
      this.i++;
      this.enter();
      const body = this.nonEmpty(null, 'subshell', true);
      this.leave();
      if (this.peek() !== ')') this.fail({ id: 'unterminated', subject: '"("' });
      this.i++;
      return { type: 'subshell', body, redirects: this.trailingRedirects(), start, end: this.i };
    }
    const word = this.peekReserved();
    // after `!`, `time`, `|`, `&&` or `||` a command must follow, not the end of a compound command;
    // and `!` negates only a whole pipeline (`a | ! b` is an error)
    if (word !== null && (CLOSERS.has(word) || word === '!')) this.fail({ id: 'unexpected', subject: word });
    switch (word) {
      case '{':
        return this.group();
      case 'if':
        return this.ifClause();
      case 'while':
      case 'until':
        return this.whileClause(word === 'until');
      case 'for':
      case 'select':
        return this.forClause(word === 'select');
      case 'case':
        return this.caseClause();
      case '[[':
        return this.testClause();
      case 'function':
        return this.functionKeyword();
      case 'coproc':
        return this.coproc();
      default:
        return this.simple();
    }
  }

  private group(): Command {
    const start = this.i;
    this.i++;
    this.enter();
    const body = this.nonEmpty(new Set(['}']), 'group');
    this.leave();
    this.expectReserved('}');
    return { type: 'group', body, redirects: this.trailingRedirects(), start, end: this.i };
  }

  private ifClause(): Command {
    const start = this.i;
    this.i += 2;
    this.enter();
    const branches: { cond: Script; body: Script }[] = [];
    let elseBody: Script | null = null;
    for (;;) {
      const cond = this.nonEmpty(new Set(['then']), 'if_condition');
      this.expectReserved('then');
      const body = this.nonEmpty(new Set(['elif', 'else', 'fi']), 'then_branch');
      branches.push({ cond, body });
      this.linebreaks();
      if (this.reserved('elif')) continue;
      if (this.reserved('else')) {
        elseBody = this.nonEmpty(new Set(['fi']), 'else_branch');
        this.expectReserved('fi');
        break;
      }
      this.expectReserved('fi');
      break;
    }
    this.leave();
    return { type: 'if', branches, else: elseBody, redirects: this.trailingRedirects(), start, end: this.i };
  }

  private whileClause(until: boolean): Command {
    const start = this.i;
    this.i += 5;
    this.enter();
    const cond = this.nonEmpty(new Set(['do']), until ? 'until_condition' : 'while_condition');
    const body = this.doGroup();
    this.leave();
    return { type: 'while', until, cond, body, redirects: this.trailingRedirects(), start, end: this.i };
  }

  private doGroup(): Script {
    this.expectReserved('do');
    const body = this.nonEmpty(new Set(['done']), 'loop_body');
    this.expectReserved('done');
    return body;
  }

  private forClause(select: boolean): Command {
    const start = this.i;
    this.i += select ? 6 : 3;
    this.blanks();
    this.enter();
    if (!select && this.at('((')) {
      this.i += 2;
      const exprStart = this.i;
      const nested: WordPart[] = [];
      this.arithmeticBody(nested, false);
      const text = this.src.slice(exprStart, this.i - 2);
      const exprs = [text];
      this.blanks();
      if (this.peek() === ';') this.i++;
      this.linebreaks();
      const body = this.loopBody();
      this.leave();
      return { type: 'arithfor', exprs, nested, body, redirects: this.trailingRedirects(), start, end: this.i };
    }
    const nameWord = this.word();
    const name = nameWord ? plainText(nameWord) : null;
    if (name === null || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      this.fail({ id: 'needs_variable_name', subject: select ? 'select' : 'for' });
    this.linebreaks();
    let items: Word[] | null = null;
    if (this.reserved('in')) {
      items = [];
      for (;;) {
        this.blanks();
        const c = this.peek();
        if (c === ';' || c === '\n') break;
        if (c === '') this.fail({ id: 'unterminated', subject: select ? 'select' : 'for' });
        const w = this.word();
        if (!w) this.fail({ id: 'unexpected_in', subject: c, detail: 'word_list' });
        items.push(w);
      }
      if (this.peek() === ';') this.i++;
      else this.newline();
    } else if (this.peek() === ';') {
      this.i++;
    }
    this.linebreaks();
    const body = this.loopBody();
    this.leave();
    return { type: 'for', select, name, items, body, redirects: this.trailingRedirects(), start, end: this.i };
  }

  /** `do … done`, or bash's `{ … }` in its place. */
  private loopBody(): Script {
    if (this.peekReserved() === '{') {
      this.i++;
      const body = this.nonEmpty(new Set(['}']), 'loop_body');
      this.expectReserved('}');
      return body;
    }
    return this.doGroup();
  }

  private caseClause(): CaseClause {
    const start = this.i;
    this.i += 4;
    this.blanks();
    const subject = this.word();
    if (!subject) this.fail({ id: 'case_needs_word' });
    this.linebreaks();
    if (!this.reserved('in')) this.fail({ id: 'expected', subject: 'in' });
    this.enter();
    const items: CaseClause['items'] = [];
    for (;;) {
      this.linebreaks();
      if (this.reserved('esac')) break;
      if (this.peek() === '') this.fail({ id: 'unterminated', subject: 'case' });
      if (this.peek() === '(') this.i++;
      const patterns: Word[] = [];
      for (;;) {
        this.blanks();
        const w = this.word();
        if (!w) this.fail({ id: 'case_pattern_missing' });
        patterns.push(w);
        this.blanks();
        if (this.peek() === '|') {
          this.i++;
          continue;
        }
        if (this.peek() === ')') {
          this.i++;
          break;
        }
        this.fail({ id: 'expected_after_case_pattern' });
      }
      const body = this.script(new Set(['esac']));
      this.linebreaks();
      let term = '';
      for (const t of [';;&', ';;', ';&']) {
        if (this.at(t)) {
          term = t;
          this.i += t.length;
          break;
        }
      }
      items.push({ patterns, body, term });
      if (term === '') {
        this.linebreaks();
        if (!this.reserved('esac')) this.fail({ id: 'expected_case_end' });
        break;
      }
    }
    this.leave();
    return { type: 'case', subject, items, redirects: this.trailingRedirects(), start, end: this.i };
  }

  private testClause(): Command {
    const start = this.i;
    this.i += 2;
    const words: Word[] = [];
    let regex = false;
    for (;;) {
      this.blanks();
      if (this.peek() === '\n') {
        this.newline();
        continue;
      }
      if (this.peek() === '') this.fail({ id: 'unterminated', subject: '[[' });
      if (this.peekReserved() === ']]') {
        this.i += 2;
        break;
      }
      const s = this.i;
      for (const op of ['&&', '||', '(', ')', '<', '>', '!']) {
        // `<(…)` and `>(…)` are process substitutions here too, not the operators `<` and `>`
        if (
          !regex &&
          this.at(op) &&
          (op !== '!' || /[ \t\n]/.test(this.peek(1))) &&
          !((op === '<' || op === '>') && this.peek(1) === '(')
        ) {
          this.i += op.length;
          words.push({ type: 'word', parts: [{ type: 'lit', value: op, start: s, end: this.i }], start: s, end: this.i });
          break;
        }
      }
      if (this.i !== s) continue;
      this.inTest = true;
      const w: Word | null = regex ? this.regexWord() : this.word();
      this.inTest = false;
      if (!w) this.fail({ id: 'unexpected_in', subject: this.peek(), detail: 'test' });
      regex = plainText(w) === '=~';
      words.push(w);
    }
    return { type: 'test', words, redirects: this.trailingRedirects(), start, end: this.i };
  }

  /** The right side of `=~`: parentheses and `|` are the regex's own, up to a blank at depth 0. */
  private regexWord(): Word {
    const start = this.i;
    const parts: WordPart[] = [];
    let depth = 0;
    let lit = '';
    let litStart = this.i;
    const flush = () => {
      if (lit !== '') parts.push({ type: 'lit', value: lit, start: litStart, end: this.i });
      lit = '';
    };
    while (this.i < this.src.length) {
      const c = this.peek();
      if ((c === ' ' || c === '\t' || c === '\n') && depth === 0) break;
      // bash runs a process substitution in the regex, at any depth of its parentheses
      if ((c === '<' || c === '>') && this.peek(1) === '(') {
        flush();
        parts.push(this.procSubst());
        litStart = this.i;
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')') depth = Math.max(0, depth - 1);
      if (c === '\\' || c === "'" || c === '"' || c === '$' || c === '`') {
        flush();
        const part = this.wordPart(false);
        if (part) parts.push(part);
        litStart = this.i;
        continue;
      }
      if (lit === '') litStart = this.i;
      lit += c;
      this.i++;
    }
    flush();
    return this.countWord({ type: 'word', parts, start, end: this.i });
  }

  private functionKeyword(): Command {
    const start = this.i;
    this.i += 8;
    this.blanks();
    const nameWord = this.word();
    const name = nameWord ? plainText(nameWord) : null;
    if (name === null) this.fail({ id: 'function_needs_name' });
    this.blanks();
    if (this.peek() === '(') {
      this.i++;
      this.blanks();
      if (this.peek() !== ')') this.fail({ id: 'expected', subject: ')' });
      this.i++;
    }
    return this.functionBody(name, start, true);
  }

  private functionBody(name: string, start: number, keyword = false): Command {
    this.linebreaks();
    this.enter();
    const body = this.command();
    this.leave();
    if (body.type === 'simple') this.fail({ id: 'function_body_not_compound' });
    return { type: 'func', name, body, start, end: this.i, ...(keyword ? { keyword: true as const } : {}) };
  }

  private coproc(): Command {
    const start = this.i;
    this.i += 6;
    this.blanks();
    // `coproc NAME { …; }`: a word before a compound command is the coprocess's name
    const save = this.i;
    const nameWord = this.peekReserved();
    if (
      nameWord !== null &&
      /^[A-Za-z_][A-Za-z0-9_]*$/.test(nameWord) &&
      !['{', 'if', 'while', 'until', 'for', 'select', 'case', '[['].includes(nameWord)
    ) {
      this.i += nameWord.length;
      this.blanks();
      const next = this.peekReserved();
      if (this.peek() === '(' || (next !== null && ['{', 'if', 'while', 'until', 'for', 'select', 'case', '[['].includes(next))) {
        this.enter();
        const body = this.command();
        this.leave();
        return { type: 'coproc', name: nameWord, body, start, end: this.i };
      }
      this.i = save;
    }
    this.enter();
    const body = this.command();
    this.leave();
    return { type: 'coproc', name: null, body, start, end: this.i };
  }

  /** Redirections after a compound command. */
  private trailingRedirects(): Redirect[] {
    const out: Redirect[] = [];
    for (;;) {
      this.blanks();
      const r = this.redirect();
      if (!r) return out;
      out.push(r);
    }
  }

  private simple(): Command {
    const start = this.i;
    const assigns: Assign[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      this.blanks();
      const c = this.peek();
      if (c === '' || c === '\n' || c === ';' || c === '|' || c === ')') break;
      if (c === '&' && this.peek(1) !== '>') break;
      if (c === '(' && !this.powershell) {
        // `name () compound`: a function definition
        if (words.length === 1 && assigns.length === 0 && redirects.length === 0) {
          const name = plainText(words[0]!);
          this.i++;
          this.blanks();
          if (this.peek() !== ')') this.fail({ id: 'expected_in_function' });
          this.i++;
          if (name === null) this.fail({ id: 'function_name_not_plain' });
          return this.functionBody(name, start);
        }
        this.fail({ id: 'unexpected', subject: '(' });
      }
      const r = this.redirect();
      if (r) {
        redirects.push(r);
        continue;
      }
      const w = this.word();
      if (!w) this.fail({ id: 'unexpected', subject: c });
      if (words.length === 0) {
        const a = assignmentOf(w);
        if (a) {
          assigns.push(a);
          continue;
        }
      }
      words.push(w);
    }
    if (assigns.length === 0 && words.length === 0 && redirects.length === 0) this.fail({ id: 'missing_command' });
    return { type: 'simple', assigns, words, redirects, start, end: this.i };
  }

  /** A redirection at the cursor (with its fd prefix), or null. */
  private redirect(): Redirect | null {
    const start = this.i;
    let fd = '';
    let k = this.i;
    while (k < this.src.length && this.src[k]! >= '0' && this.src[k]! <= '9' && k - this.i < 10) k++;
    if (k > this.i && (this.src[k] === '<' || this.src[k] === '>')) {
      fd = this.src.slice(this.i, k);
    } else if (this.peek() === '{') {
      NAME.lastIndex = this.i + 1;
      const m = NAME.exec(this.src);
      if (m && this.src[this.i + 1 + m[0].length] === '}' && /[<>]/.test(this.src[this.i + 2 + m[0].length] ?? '')) {
        fd = `{${m[0]}}`;
        k = this.i + 2 + m[0].length;
      } else k = this.i;
    } else k = this.i;
    const op = REDIRECT_OPS.find((o) => this.src.startsWith(o, k));
    if (!op) return null;
    // `<(…)` and `>(…)` are words, digits before them too (`1<(…)` is the word `1/dev/fd/63`)
    if ((op === '<' || op === '>') && this.src[k + 1] === '(') return null;
    this.i = k + op.length;
    this.blanks();
    if (op === '<<' || op === '<<-') return this.heredoc(op, fd, start);
    const target = this.word();
    if (!target) this.fail({ id: 'redirect_without_target', subject: op });
    return { type: 'redirect', op, fd, target, start, end: this.i };
  }

  private heredoc(op: string, fd: string, start: number): Redirect {
    const delimiter = this.word();
    if (!delimiter) this.fail({ id: 'heredoc_without_delimiter' });
    if (
      delimiter.parts.some(
        (p) =>
          p.type !== 'lit' &&
          p.type !== 'sq' &&
          p.type !== 'escaped' &&
          !(p.type === 'dq' && p.parts.every((q) => q.type === 'lit' || q.type === 'escaped')),
      )
    ) {
      this.fail({ id: 'heredoc_delimiter_expansion' });
    }
    if (--this.budget.heredocs < 0) this.fail({ id: 'more_than', subject: String(MAX_HEREDOCS), detail: 'heredocs' });
    const r: Redirect = {
      type: 'redirect',
      op,
      fd,
      target: delimiter,
      start,
      end: this.i,
      heredoc: { body: '', expand: delimiter.parts.every((p) => p.type === 'lit'), parts: [] },
    };
    this.pending.push(r);
    return r;
  }

  /**
   * The bodies of the here-documents started on the line just ended: each ends at the first line
   * equal to its delimiter (leading tabs removed for `<<-`); in one that expands, a backslash
   * before the newline joins lines first. Unterminated, a body runs to the end of the input.
   */
  private readHeredocBodies(): void {
    const docs = this.pending;
    this.pending = [];
    for (const r of docs) {
      const doc = r.heredoc!;
      const delimiter = literalValue(r.target);
      const lines: string[] = [];
      let pending = '';
      while (this.i < this.src.length) {
        const end = this.src.indexOf('\n', this.i);
        const raw = this.src.slice(this.i, end === -1 ? this.src.length : end);
        this.i = end === -1 ? this.src.length : end + 1;
        if (doc.expand && end !== -1 && trailingBackslashes(raw) % 2 === 1) {
          pending += raw.slice(0, -1);
          doc.joined = true;
          continue;
        }
        const line = pending + raw;
        pending = '';
        const compared = r.op === '<<-' ? line.replace(/^\t+/, '') : line;
        if (compared === delimiter) break;
        lines.push(line);
      }
      if (pending !== '') lines.push(pending);
      doc.body = lines.join('\n');
      if (doc.expand && /[$`]/.test(doc.body)) doc.parts = this.sub(doc.body, 0).expandedText(doc.body.length);
    }
  }

  /** Here-documents still waiting for a newline at the end of the input: their bodies are empty. */
  finishHeredocs(): void {
    this.pending = [];
  }

  /** A parser over another text (a backquote's commands, a here-document's body), one level deeper when `deeper`. */
  private sub(src: string, deeper: number): Parser {
    if (this.depth + deeper > MAX_DEPTH) this.fail({ id: 'nested_deeper_than', subject: String(MAX_DEPTH) });
    return new Parser(src, 0, this.depth + deeper, this.budget);
  }

  private countWord(w: Word): Word {
    if (--this.budget.words < 0) throw new TooComplex({ id: 'more_than', subject: String(MAX_WORDS), detail: 'words' }, this.i);
    return w;
  }

  /** An unquoted word at the cursor, or null at a metacharacter. */
  word(): Word | null {
    const start = this.i;
    const parts: WordPart[] = [];
    for (;;) {
      const c = this.peek();
      if (c === '') break;
      if (c === '\\' && this.peek(1) === '\n') {
        this.i += 2;
        continue;
      }
      if (META.has(c)) {
        if ((c === '<' || c === '>') && this.peek(1) === '(' && parts.length === 0) {
          parts.push(this.procSubst());
          continue;
        }
        if ((c === '<' || c === '>') && this.peek(1) === '(') {
          parts.push(this.procSubst());
          continue;
        }
        if (c === '(' && this.powershell) {
          parts.push(this.psGroup());
          continue;
        }
        if (c === '(' && parts.length > 0) {
          const last = parts[parts.length - 1]!;
          // an array value: `a=(…)`, `a+=(…)`
          if (parts.length === 1 && last.type === 'lit' && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/.test(last.value)) {
            parts.push(this.arrayValue());
            continue;
          }
          // an extended glob: `@(a|b)`, `!(x)`; bash parses one only once `shopt -s extglob` has run
          if (last.type === 'lit' && /[@!?*+]$/.test(last.value)) {
            if (!this.inTest && !this.src.includes('extglob')) this.fail({ id: 'extglob_off' });
            const op = last.value.slice(-1);
            last.value = last.value.slice(0, -1);
            last.end--;
            if (last.value === '') parts.pop();
            parts.push(this.extGlob(op));
            continue;
          }
        }
        break;
      }
      const part = this.wordPart(false);
      if (part) parts.push(part);
    }
    if (this.i === start) return null;
    return this.countWord({ type: 'word', parts: mergeLits(parts), start, end: this.i });
  }

  /**
   * One part of a word at the cursor: a run of plain characters, an escape, a quote, an expansion.
   * `inDouble`: inside double quotes, where only `$`, backquotes and some escapes are special.
   */
  private wordPart(inDouble: boolean): WordPart | null {
    const start = this.i;
    const c = this.peek();
    if (c === '\\') {
      const e = this.peek(1);
      if (e === '') {
        this.i++;
        return { type: 'lit', value: '\\', start, end: this.i };
      }
      if (e === '\n') {
        this.i += 2;
        return null;
      }
      this.i += 2;
      return { type: 'escaped', value: e, start, end: this.i };
    }
    if (c === "'") {
      const end = this.src.indexOf("'", this.i + 1);
      if (end === -1) this.fail({ id: 'unterminated', subject: 'single_quote' }, start);
      this.i = end + 1;
      return { type: 'sq', value: this.src.slice(start + 1, end), start, end: this.i };
    }
    if (c === '$' && this.peek(1) === "'") {
      const decoded = decodeAnsiC(this.src, this.i + 2);
      this.i = decoded.end;
      return { type: 'ansi', value: decoded.text, start, end: this.i };
    }
    if (c === '"' || (c === '$' && this.peek(1) === '"')) {
      return this.doubleQuoted();
    }
    if (c === '$') {
      this.continuationAfterDollar();
      return this.dollar(false);
    }
    if (c === '`') return this.backquote();
    PLAIN.lastIndex = this.i;
    const m = PLAIN.exec(this.src);
    if (m) {
      this.i += m[0].length;
      return { type: 'lit', value: m[0], start, end: this.i };
    }
    this.i++;
    return { type: 'lit', value: c, start, end: this.i };
  }

  private doubleQuoted(): DblQuoted {
    const start = this.i;
    const locale = this.peek() === '$';
    this.i += locale ? 2 : 1;
    const parts: WordPart[] = [];
    let lit = '';
    let litStart = this.i;
    const flush = () => {
      if (lit !== '') parts.push({ type: 'lit', value: lit, start: litStart, end: this.i });
      lit = '';
    };
    for (;;) {
      if (this.i >= this.src.length) this.fail({ id: 'unterminated', subject: 'double_quote' }, start);
      const c = this.peek();
      if (c === '"') {
        flush();
        this.i++;
        break;
      }
      if (c === '\\') {
        const e = this.peek(1);
        if (e === '\n') {
          this.i += 2;
          continue;
        }
        if (e === '"' || e === '\\' || e === '$' || e === '`') {
          flush();
          parts.push({ type: 'escaped', value: e, start: this.i, end: this.i + 2 });
          this.i += 2;
          litStart = this.i;
          continue;
        }
        if (lit === '') litStart = this.i;
        lit += c;
        this.i++;
        continue;
      }
      if (c === '$') this.continuationAfterDollar();
      if ((c === '$' && /[A-Za-z_{(0-9@*#?$!\-[]/.test(this.peek(1))) || c === '`') {
        flush();
        parts.push(c === '$' ? this.dollar(true) : this.backquote());
        litStart = this.i;
        continue;
      }
      if (lit === '') litStart = this.i;
      lit += c;
      this.i++;
    }
    return { type: 'dq', parts, locale, start, end: this.i };
  }

  /**
   * Bash removes a backslash-newline before it reads a token, so `$\<newline>(cmd)` is `$(cmd)`,
   * also in double quotes, and `$\<newline>'…'` a C string: a `$` so followed is not read.
   */
  private continuationAfterDollar(): void {
    if (this.peek(1) === '\\' && this.peek(2) === '\n') this.fail({ id: 'continuation_after_dollar' });
  }

  /** `$…` at the cursor. */
  private dollar(inDouble: boolean): WordPart {
    const start = this.i;
    if (this.at('$((')) {
      const arith = this.tryArithExpansion();
      if (arith) return arith;
    }
    if (this.at('$(')) {
      this.i += 2;
      const body = this.nestedScript();
      if (this.peek() !== ')') this.fail({ id: 'unterminated', subject: '$(' }, start);
      this.i++;
      return {
        type: 'cmdsubst',
        body,
        backquote: false,
        source: this.src.slice(start + 2, this.i - 1),
        start,
        end: this.i,
      } satisfies CmdSubst;
    }
    if (this.at('$[')) {
      this.i += 2;
      const nested: WordPart[] = [];
      const exprStart = this.i;
      this.bracketArithmetic(nested);
      return { type: 'arith', expr: this.src.slice(exprStart, this.i - 1), nested, bracket: true, start, end: this.i } satisfies ArithExp;
    }
    if (this.at('${')) return this.braced(inDouble);
    this.i++;
    NAME.lastIndex = this.i;
    const m = NAME.exec(this.src);
    if (m) {
      this.i += m[0].length;
      return param(m[0], this.src.slice(start, this.i), start, this.i);
    }
    const c = this.peek();
    if (c !== '' && SPECIAL_PARAM.test(c)) {
      this.i++;
      return param(c, this.src.slice(start, this.i), start, this.i);
    }
    // a lone `$` is a literal dollar
    return { type: 'lit', value: '$', start, end: this.i };
  }

  /** The commands of a `$(…)` or `<(…)` at the cursor, one substitution level deeper, up to its `)` (left unread). */
  private nestedScript(): Script {
    if (this.depth + 1 > MAX_DEPTH) this.fail({ id: 'nested_deeper_than', subject: String(MAX_DEPTH) });
    if (--this.budget.substitutions < 0)
      throw new TooComplex({ id: 'more_than', subject: String(MAX_SUBSTITUTIONS), detail: 'substitutions' }, this.i);
    const inner = new Parser(this.src, this.i, this.depth + 1, this.budget);
    inner.nesting = this.nesting;
    inner.powershell = this.powershell;
    const body = inner.script(null, true);
    this.i = inner.i;
    // a here-document started inside whose body comes after the substitution's line
    this.pending.push(...inner.pending);
    return body;
  }

  private braced(inDouble: boolean): ParamExp {
    const start = this.i;
    this.i += 2;
    let indirect = false;
    let length = false;
    if (this.peek() === '#' && this.peek(1) !== '}' && !/[:#%/^,@-]/.test(this.peek(1))) {
      length = true;
      this.i++;
    } else if (this.peek() === '!' && this.peek(1) !== '}') {
      indirect = true;
      this.i++;
    }
    let name = '';
    NAME.lastIndex = this.i;
    const m = NAME.exec(this.src);
    if (m) {
      name = m[0];
      this.i += name.length;
    } else if (/[0-9]/.test(this.peek())) {
      while (/[0-9]/.test(this.peek())) name += this.src[this.i++];
    } else if (SPECIAL_PARAM.test(this.peek())) {
      name = this.src[this.i++]!;
    }
    const restStart = this.i;
    const nested: Word[] = [];
    let parts: WordPart[] = [];
    let lit = '';
    let litStart = this.i;
    const flushWord = () => {
      if (lit !== '') parts.push({ type: 'lit', value: lit, start: litStart, end: this.i });
      lit = '';
      if (parts.length > 0) nested.push({ type: 'word', parts: mergeLits(parts), start: parts[0]!.start, end: this.i });
      parts = [];
    };
    for (;;) {
      if (this.i >= this.src.length) this.fail({ id: 'unterminated', subject: '${' }, start);
      const c = this.peek();
      // the first `}` ends it: a `{` of its own does not nest (bash nests only `${`, read as a part)
      if (c === '}') {
        flushWord();
        this.i++;
        break;
      }
      // inside double quotes a single quote in `${…}` quotes nothing
      if ((c === "'" && inDouble) || !(c === '\\' || c === "'" || c === '"' || c === '$' || c === '`')) {
        if (lit === '') litStart = this.i;
        lit += c;
        this.i++;
        continue;
      }
      if (lit !== '') parts.push({ type: 'lit', value: lit, start: litStart, end: this.i });
      lit = '';
      const part = c === '"' ? this.doubleQuoted() : this.wordPart(inDouble);
      if (part) parts.push(part);
      litStart = this.i;
    }
    return {
      type: 'param',
      name,
      text: this.src.slice(start, this.i),
      braced: true,
      rest: this.src.slice(restStart, this.i - 1),
      indirect,
      length,
      nested,
      start,
      end: this.i,
    };
  }

  private backquote(): CmdSubst {
    const start = this.i;
    this.i++;
    let source = '';
    for (;;) {
      if (this.i >= this.src.length) this.fail({ id: 'unterminated', subject: 'backquote' }, start);
      const c = this.peek();
      if (c === '\\' && (this.peek(1) === '`' || this.peek(1) === '\\' || this.peek(1) === '$')) {
        source += this.peek(1);
        this.i += 2;
        continue;
      }
      if (c === '`') {
        this.i++;
        break;
      }
      source += c;
      this.i++;
    }
    if (--this.budget.substitutions < 0)
      throw new TooComplex({ id: 'more_than', subject: String(MAX_SUBSTITUTIONS), detail: 'substitutions' }, this.i);
    const inner = this.sub(source, 1);
    inner.nesting = this.nesting;
    const body = inner.script(null);
    if (inner.i < source.length) inner.fail({ id: 'unexpected', subject: source[inner.i]! });
    return { type: 'cmdsubst', body, backquote: true, source, start, end: this.i };
  }

  private procSubst(): ProcSubst {
    const start = this.i;
    const op = this.peek() as '<' | '>';
    this.i += 2;
    const body = this.nestedScript();
    if (this.peek() !== ')') this.fail({ id: 'unterminated', subject: `${op}(` }, start);
    this.i++;
    return { type: 'procsubst', op, body, start, end: this.i };
  }

  /** PowerShell's `( … )`: its commands, read like a command substitution. */
  private psGroup(): CmdSubst {
    const start = this.i;
    this.i++;
    const body = this.nestedScript();
    if (this.peek() !== ')') this.fail({ id: 'unterminated', subject: '"("' }, start);
    this.i++;
    return { type: 'cmdsubst', body, backquote: false, source: this.src.slice(start + 1, this.i - 1), start, end: this.i };
  }

  private arrayValue(): ArrayExp {
    const start = this.i;
    this.i++;
    const elements: Word[] = [];
    for (;;) {
      this.linebreaks();
      const c = this.peek();
      if (c === '') this.fail({ id: 'unterminated', subject: 'array' }, start);
      if (c === ')') {
        this.i++;
        break;
      }
      const w = this.word();
      if (!w) this.fail({ id: 'unexpected_in', subject: c, detail: 'array' });
      elements.push(w);
    }
    return { type: 'array', elements, text: this.src.slice(start, this.i), start, end: this.i };
  }

  private extGlob(op: string): ExtGlob {
    const start = this.i - 1;
    this.i++;
    const nested: WordPart[] = [];
    let depth = 1;
    while (depth > 0) {
      if (this.i >= this.src.length) this.fail({ id: 'unterminated', subject: 'extended_glob' }, start);
      const c = this.peek();
      if (c === '(') {
        depth++;
        this.i++;
      } else if (c === ')') {
        depth--;
        this.i++;
      } else if (c === '\\' || c === "'" || c === '"' || c === '$' || c === '`') {
        const part = this.wordPart(false);
        if (part && part.type !== 'lit' && part.type !== 'escaped' && part.type !== 'sq') nested.push(part);
      } else this.i++;
    }
    return { type: 'extglob', text: `${op}${this.src.slice(start + 1, this.i)}`, nested, start, end: this.i };
  }

  /** `((…))` as an arithmetic command, or null (the cursor unmoved) when it does not close as one. */
  private tryArithCommand(): Command | null {
    const start = this.i;
    this.i += 2;
    const nested: WordPart[] = [];
    try {
      this.arithmeticBody(nested, true);
    } catch (err) {
      if (!(err instanceof ParseError) || err instanceof TooComplex) throw err;
      this.i = start;
      return null;
    }
    const expr = this.src.slice(start + 2, this.i - 2);
    return { type: 'arithcmd', expr, nested, redirects: this.trailingRedirects(), start, end: this.i };
  }

  private tryArithExpansion(): ArithExp | null {
    const start = this.i;
    this.i += 3;
    const nested: WordPart[] = [];
    try {
      this.arithmeticBody(nested, true);
    } catch (err) {
      if (!(err instanceof ParseError) || err instanceof TooComplex) throw err;
      this.i = start;
      return null;
    }
    return { type: 'arith', expr: this.src.slice(start + 3, this.i - 2), nested, bracket: false, start, end: this.i };
  }

  /**
   * After `((` or `$((`: up to the `))` at depth 0, parentheses balanced; the expansions inside go
   * to `nested`. `budgeted`: the text may turn out not to be arithmetic, so the scan counts
   * against the line's budget.
   */
  private arithmeticBody(nested: WordPart[], budgeted: boolean): void {
    let depth = 0;
    const from = this.i;
    while (this.i < this.src.length) {
      if (budgeted && --this.budget.arithmetic < 0) throw new TooComplex({ id: 'arithmetic_never_closes' }, this.i);
      const c = this.peek();
      if (c === '\\') this.i += 2;
      else if (c === '(') {
        depth++;
        this.i++;
      } else if (c === ')') {
        if (depth === 0) {
          if (this.peek(1) !== ')') this.fail({ id: 'not_arithmetic' });
          this.i += 2;
          return;
        }
        depth--;
        this.i++;
      } else if (c === '$' || c === '`' || c === '"' || c === "'") {
        const part = c === "'" ? this.wordPart(false) : c === '"' ? this.doubleQuoted() : c === '$' ? this.dollar(false) : this.backquote();
        if (part && part.type !== 'lit' && part.type !== 'sq') nested.push(part);
      } else this.i++;
    }
    this.i = from;
    this.fail({ id: 'unterminated', subject: '((' });
  }

  /** After `$[`: up to the matching `]`. */
  private bracketArithmetic(nested: WordPart[]): void {
    let depth = 0;
    const from = this.i;
    while (this.i < this.src.length) {
      const c = this.peek();
      if (c === '\\') this.i += 2;
      else if (c === '[') {
        depth++;
        this.i++;
      } else if (c === ']') {
        this.i++;
        if (depth-- === 0) return;
      } else if (c === '$' || c === '`' || c === '"') {
        const part = c === '"' ? this.doubleQuoted() : c === '$' ? this.dollar(false) : this.backquote();
        if (part && part.type !== 'lit') nested.push(part);
      } else this.i++;
    }
    this.i = from;
    this.fail({ id: 'unterminated', subject: '$[' });
  }

  /** A text bash expands as a here-document's body: its `$` expansions and backquotes, to `end`. */
  expandedText(end: number): WordPart[] {
    const parts: WordPart[] = [];
    while (this.i < end) {
      const c = this.peek();
      if (c === '\\') this.i += 2;
      else if (c === '$' && /[A-Za-z_{(0-9@*#?$!\-[]/.test(this.peek(1))) parts.push(this.dollar(true));
      else if (c === '`') parts.push(this.backquote());
      else this.i++;
    }
    return parts;
  }
}

function param(name: string, text: string, start: number, end: number): ParamExp {
  return { type: 'param', name, text, braced: false, rest: '', indirect: false, length: false, nested: [], start, end };
}

function mergeLits(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (p.type === 'lit' && last?.type === 'lit' && last.end === p.start) {
      out[out.length - 1] = { type: 'lit', value: last.value + p.value, start: last.start, end: p.end };
    } else out.push(p);
  }
  return out;
}

function trailingBackslashes(line: string): number {
  let n = 0;
  while (n < line.length && line[line.length - 1 - n] === '\\') n++;
  return n;
}

/** A word's text after quote removal, when no part of it expands (a here-document's delimiter). */
export function literalValue(w: Word): string {
  let out = '';
  for (const p of w.parts) {
    if (p.type === 'lit' || p.type === 'escaped' || p.type === 'sq' || p.type === 'ansi') out += p.value;
    else if (p.type === 'dq') for (const q of p.parts) out += q.type === 'lit' || q.type === 'escaped' ? q.value : '';
  }
  return out;
}

/** `NAME=value`, `NAME+=value`, `NAME[i]=value` with the name and `=` unquoted: the assignment, or null. */
export function assignmentOf(w: Word): Assign | null {
  const first = w.parts[0];
  if (first?.type !== 'lit') return null;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(first.value);
  if (!m) return null;
  const name = m[1]!;
  // the subscript may hold expansions: find the `]` and the `=` after it in the word's parts
  let k = name.length;
  let index: string | null = null;
  let partAt = 0;
  let text = first.value;
  if (text[k] === '[') {
    // the subscript: up to a `]` in a literal part
    let sub = '';
    let offset = k + 1;
    for (;;) {
      const part = w.parts[partAt];
      if (!part) return null;
      const value = part.type === 'lit' ? part.value : null;
      if (value !== null) {
        const close = value.indexOf(']', offset);
        if (close !== -1) {
          sub += value.slice(offset, close);
          text = value;
          k = close + 1;
          break;
        }
        sub += value.slice(offset);
      } else sub += sourceOf(part);
      partAt++;
      offset = 0;
    }
    index = sub;
  }
  let append = false;
  if (text[k] === '+') {
    append = true;
    k++;
  }
  if (text[k] !== '=') return null;
  const restOfPart = text.slice(k + 1);
  const part = w.parts[partAt] as { start: number; end: number };
  const valueStart = part.start + (part.end - part.start - (text.length - k - 1));
  const valueParts: WordPart[] = [
    ...(restOfPart !== '' ? [{ type: 'lit' as const, value: restOfPart, start: valueStart, end: part.end }] : []),
    ...w.parts.slice(partAt + 1),
  ];
  return {
    type: 'assign',
    word: w,
    name,
    index,
    append,
    value: { type: 'word', parts: valueParts, start: valueStart, end: w.end },
    start: w.start,
    end: w.end,
  };
}

/** The source text of a part, as written (for subscripts and the like). */
export function sourceOf(p: WordPart): string {
  switch (p.type) {
    case 'lit':
    case 'escaped':
    case 'sq':
    case 'ansi':
      return p.value;
    case 'dq':
      return p.parts.map(sourceOf).join('');
    case 'param':
      return p.text;
    case 'cmdsubst':
      return p.backquote ? `\`${p.source}\`` : `$(${p.source})`;
    case 'arith':
      return p.bracket ? `$[${p.expr}]` : `$((${p.expr}))`;
    case 'procsubst':
      return '/dev/fd/63';
    case 'extglob':
      return p.text;
    case 'array':
      return p.text;
  }
}

/** Decodes the body of `$'…'` from `start` (after the opening quote) to the closing quote. */
export function decodeAnsiC(src: string, start: number): { text: string; end: number } {
  let out = '';
  let i = start;
  for (;;) {
    if (i >= src.length) throw new ParseError({ id: 'unterminated', subject: 'ansi_quote' }, start);
    const c = src[i]!;
    if (c === "'") return { text: out, end: i + 1 };
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = src[i + 1] ?? '';
    i += 2;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) out += simple;
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

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  __proto__: null as never,
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};
