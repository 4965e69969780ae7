import type { Command, Redirect, Script, SimpleCommand, Word as WordNode, WordPart } from './ast';
import { parseExpandedText, parseScript, ParseError } from './parser';
import { viewOf, type Word } from './word';

/**
 * Every simple command a tree may run — in its lists, compound commands, function bodies, and the
 * command and process substitutions of its words, redirections, here-documents, loops' word
 * lists, case subjects, `[[ … ]]` and arithmetic — with whether it runs only conditionally.
 */

export interface FoundCommand {
  /** Null for the redirections of a compound command. */
  node: SimpleCommand | null;
  /** The command's words, assignments first, as the reader views them. */
  words: Word[];
  redirects: { op: string; target: Word; node: Redirect }[];
  /** Runs only if an earlier command succeeded or failed, or inside a condition, loop, case or function body. */
  conditional: boolean;
}

export interface Walked {
  commands: FoundCommand[];
  /** Names of the functions the line defines. */
  functions: string[];
}

/** A here-document's body reads as standard input. */
const HEREDOC_INPUT: Word = { text: '/dev/stdin', dynamic: false, pattern: false, quoted: true, ansi: false };

function redirectView(r: Redirect): FoundCommand['redirects'][number] {
  return { op: r.op === '<<-' ? '<<' : r.op, target: r.heredoc ? HEREDOC_INPUT : viewOf(r.target), node: r };
}

export function walkScript(script: Script, depth: number): Walked {
  const out: Walked = { commands: [], functions: [] };
  new Walker(out, depth).script(script, false);
  return out;
}

class Walker {
  constructor(
    private readonly out: Walked,
    private readonly depth: number,
  ) {}

  script(s: Script, conditional: boolean): void {
    for (const st of s.statements) {
      this.pipeline(st.list.first.commands, conditional);
      for (const r of st.list.rest) this.pipeline(r.pipeline.commands, true);
    }
  }

  private pipeline(commands: Command[], conditional: boolean): void {
    for (const c of commands) this.command(c, conditional);
  }

  private command(c: Command, cond: boolean): void {
    switch (c.type) {
      case 'simple': {
        for (const a of c.assigns) this.word(a.word, cond);
        for (const w of c.words) this.word(w, cond);
        for (const r of c.redirects) {
          this.word(r.target, cond);
          if (r.heredoc) this.parts(r.heredoc.parts, cond);
        }
        this.out.commands.push({
          node: c,
          words: [...c.assigns.map((a) => viewOf(a.word)), ...c.words.map(viewOf)],
          redirects: c.redirects.map(redirectView),
          conditional: cond,
        });
        return;
      }
      case 'subshell':
      case 'group':
        this.script(c.body, cond);
        this.redirects(c.redirects, cond);
        return;
      case 'if':
        for (const b of c.branches) {
          this.script(b.cond, true);
          this.script(b.body, true);
        }
        if (c.else) this.script(c.else, true);
        this.redirects(c.redirects, cond);
        return;
      case 'while':
        this.script(c.cond, true);
        this.script(c.body, true);
        this.redirects(c.redirects, cond);
        return;
      case 'for':
        for (const w of c.items ?? []) this.word(w, true);
        this.script(c.body, true);
        this.redirects(c.redirects, cond);
        return;
      case 'arithfor':
        this.parts(c.nested, true);
        this.script(c.body, true);
        this.redirects(c.redirects, cond);
        return;
      case 'case':
        this.word(c.subject, true);
        for (const item of c.items) {
          for (const p of item.patterns) this.word(p, true);
          this.script(item.body, true);
        }
        this.redirects(c.redirects, cond);
        return;
      case 'func':
        this.out.functions.push(c.name);
        this.command(c.body, true);
        return;
      case 'arithcmd':
        this.parts(c.nested, cond);
        this.caseInArithmetic(c.expr, cond);
        this.redirects(c.redirects, cond);
        return;
      case 'test':
        for (const w of c.words) this.word(w, cond);
        this.redirects(c.redirects, cond);
        return;
      case 'coproc':
        this.command(c.body, cond);
        return;
    }
  }

  /** A compound command's redirections: recorded as a command of their own, that runs no program. */
  private redirects(rs: Redirect[], cond: boolean): void {
    if (rs.length === 0) return;
    for (const r of rs) {
      this.word(r.target, cond);
      if (r.heredoc) this.parts(r.heredoc.parts, cond);
    }
    this.out.commands.push({ node: null, words: [], redirects: rs.map(redirectView), conditional: cond });
  }

  private word(w: WordNode, cond: boolean): void {
    this.parts(w.parts, cond);
    // bash expands an array subscript in a quoted name or value, whole or put together from pieces
    // (`[[ 'a[$(cmd)]' -eq 0 ]]`, `x='a['\$'(cmd)]'; echo $((x))`): read what it would run
    const text = viewOf(w).text;
    if (hasSubscriptSubstitution(text)) {
      try {
        this.parts(parseExpandedText(text, this.depth), cond);
      } catch (err) {
        if (!(err instanceof ParseError)) throw err;
        // a text that is not code when read so: nothing runs from it
      }
    }
  }

  private parts(parts: readonly WordPart[], cond: boolean): void {
    for (const p of parts) {
      switch (p.type) {
        case 'dq':
          this.parts(p.parts, cond);
          break;
        case 'param':
          for (const w of p.nested) this.word(w, cond);
          break;
        case 'cmdsubst':
        case 'procsubst':
          this.script(p.body, cond);
          break;
        case 'arith':
          this.parts(p.nested, cond);
          this.caseInArithmetic(p.expr, cond);
          break;
        case 'extglob':
          this.parts(p.nested, cond);
          break;
        case 'array':
          for (const e of p.elements) this.word(e, cond);
          break;
        default:
          break;
      }
    }
  }

  /** bash may not take `((…))` as arithmetic where a case pattern's `)` upsets its count: read the subshell too. */
  private caseInArithmetic(expr: string, cond: boolean): void {
    if (!/\bcase\b/.test(expr)) return;
    try {
      this.script(parseScript(`(${expr})`, this.depth + 1), cond);
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
    }
  }
}

/** An array subscript holding a command substitution (`a[$(cmd)]`), found in one pass. */
export function hasSubscriptSubstitution(text: string): boolean {
  let open = false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '[') open = true;
    else if (c === ']') open = false;
    else if (open && (c === '`' || (c === '$' && text[k + 1] === '('))) return true;
  }
  return false;
}
