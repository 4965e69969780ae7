import type { Command, Redirect, Script, SimpleCommand, Word as WordNode, WordPart } from './ast';
import { parseExpandedText, parseScript, ParseError } from './parser';
import { changeOf, Known, knownValues, literalValue, partsAssign, simpleChange, startsPlain } from './values';
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
  /**
   * Its name is that of a function defined for sure before it in the same shell (not in a
   * subshell, a branch, a pipeline or a function body that may not have run): bash runs that
   * function, whose body the walk has read where it is defined.
   */
  callsFunction?: boolean;
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
  new Walker(out, depth).script(script, false, new Known());
  return out;
}

/**
 * Each method is given what is known of the variables where its node runs (values.ts), and
 * whether the node runs for sure once the commands before it in its scope have run (`definite`):
 * only such a node's literal assignments are learnt.
 */
class Walker {
  private readonly functions = new Set<string>();

  constructor(
    private readonly out: Walked,
    private readonly depth: number,
  ) {}

  script(s: Script, conditional: boolean, known: Known): void {
    for (const st of s.statements) {
      // a command run in the background runs in a subshell of its own
      const k = st.background ? known.copy() : known;
      this.pipeline(st.list.first.commands, conditional, k, true);
      for (const r of st.list.rest) this.pipeline(r.pipeline.commands, true, k, false);
    }
  }

  private pipeline(commands: Command[], conditional: boolean, known: Known, definite: boolean): void {
    if (commands.length === 1) return this.command(commands[0]!, conditional, known, definite);
    for (const c of commands) this.command(c, conditional, known.copy(), false);
    // the last part of a pipeline may run in this shell (`shopt -s lastpipe`)
    const last = commands[commands.length - 1];
    if (last) known.apply(changeOf(last, this.functions));
  }

  private command(c: Command, cond: boolean, known: Known, definite: boolean): void {
    if (c.type === 'simple') return this.simple(c, cond, known, definite);
    if (c.type === 'func') {
      this.out.functions.push(c.name);
      this.functions.add(c.name);
      if (definite) known.define(c.name);
      // a function runs where it is called, with whatever the line has done by then
      const inside = new Known();
      inside.poisoned = true;
      this.command(c.body, true, inside, true);
      return;
    }
    // a compound command that may not run, or not whole, is read on a copy, then forgotten in what it may assign
    const k = definite && c.type === 'group' ? known : known.copy();
    this.compound(c, cond, k);
    if (k !== known) known.apply(changeOf(c, this.functions));
    if (c.type !== 'coproc') this.redirects(c.redirects, cond, known);
  }

  private simple(c: SimpleCommand, cond: boolean, known: Known, definite: boolean): void {
    for (const a of c.assigns) this.word(a.word, cond, known);
    for (const w of c.words) this.word(w, cond, known);
    for (const r of c.redirects) {
      this.word(r.target, cond, known);
      if (r.heredoc) this.parts(r.heredoc.parts, cond, known);
    }
    // expansions that assign (`$((R=1))`) change what the words after them hold
    if (!c.words.some((w) => partsAssign(w.parts) || c.redirects.some((r) => partsAssign(r.target.parts)))) {
      for (const w of c.words) {
        if (startsPlain(w, known)) viewOf(w).startsPlain = true;
        const values = knownValues(w, known);
        if (values) viewOf(w).values = values;
      }
      for (const r of c.redirects) {
        const values = knownValues(r.target, known);
        if (values) viewOf(r.target).values = values;
      }
    }
    const name = c.words[0] === undefined ? undefined : viewOf(c.words[0]);
    const callsFunction = name !== undefined && !name.dynamic && !name.pattern && !name.text.includes('/') && known.defines(name.text);
    this.out.commands.push({
      node: c,
      words: [...c.assigns.map((a) => viewOf(a.word)), ...c.words.map(viewOf)],
      redirects: c.redirects.map(redirectView),
      conditional: cond,
      ...(callsFunction ? { callsFunction } : {}),
    });
    if (definite) known.learn(c, this.functions);
    else known.apply(simpleChange(c, this.functions));
  }

  private compound(c: Exclude<Command, SimpleCommand | { type: 'func' }>, cond: boolean, known: Known): void {
    switch (c.type) {
      case 'subshell':
      case 'group':
        this.script(c.body, cond, known);
        return;
      case 'if':
        // each condition runs after those before it failed; each body after its condition
        for (const b of c.branches) {
          this.script(b.cond, true, known);
          this.script(b.body, true, known.copy());
        }
        if (c.else) this.script(c.else, true, known.copy());
        return;
      case 'while':
        known.apply(changeOf(c, this.functions));
        this.script(c.cond, true, known);
        this.script(c.body, true, known);
        return;
      case 'for': {
        for (const w of c.items ?? []) this.word(w, true, known);
        const values = c.select || c.items === null ? null : c.items.map(literalValue);
        known.apply(changeOf(c, this.functions));
        if (values && values.every((v) => v !== null)) known.set(c.name, values as string[]);
        this.script(c.body, true, known);
        return;
      }
      case 'arithfor':
        this.parts(c.nested, true, known);
        known.apply(changeOf(c, this.functions));
        this.script(c.body, true, known);
        return;
      case 'case': {
        this.word(c.subject, true, known);
        for (const item of c.items) for (const p of item.patterns) this.word(p, true, known);
        // a body that falls through (`;&`, `;;&`) runs after the one before it
        if (c.items.some((i) => i.term !== ';;')) known.apply(changeOf(c, this.functions));
        for (const item of c.items) this.script(item.body, true, known.copy());
        return;
      }
      case 'arithcmd':
        this.parts(c.nested, cond, known);
        this.caseInArithmetic(c.expr, cond, known);
        return;
      case 'test':
        for (const w of c.words) this.word(w, cond, known);
        return;
      case 'coproc':
        this.command(c.body, cond, known.copy(), false);
        return;
    }
  }

  /** A compound command's redirections: recorded as a command of their own, that runs no program. */
  private redirects(rs: Redirect[], cond: boolean, known: Known): void {
    if (rs.length === 0) return;
    for (const r of rs) {
      this.word(r.target, cond, known);
      if (r.heredoc) this.parts(r.heredoc.parts, cond, known);
    }
    this.out.commands.push({ node: null, words: [], redirects: rs.map(redirectView), conditional: cond });
  }

  private word(w: WordNode, cond: boolean, known: Known): void {
    this.parts(w.parts, cond, known);
    // bash expands an array subscript in a quoted name or value, whole or put together from pieces
    // (`[[ 'a[$(cmd)]' -eq 0 ]]`, `x='a['\$'(cmd)]'; echo $((x))`): read what it would run
    const text = viewOf(w).text;
    if (hasSubscriptSubstitution(text)) {
      try {
        this.parts(parseExpandedText(text, this.depth), cond, known);
      } catch (err) {
        if (!(err instanceof ParseError)) throw err;
        // a text that is not code when read so: nothing runs from it
      }
    }
  }

  private parts(parts: readonly WordPart[], cond: boolean, known: Known): void {
    for (const p of parts) {
      switch (p.type) {
        case 'dq':
          this.parts(p.parts, cond, known);
          break;
        case 'param':
          for (const w of p.nested) this.word(w, cond, known);
          break;
        case 'cmdsubst':
        case 'procsubst':
          // a substitution runs in a subshell: what it assigns stays there
          this.script(p.body, cond, known.copy());
          break;
        case 'arith':
          this.parts(p.nested, cond, known);
          this.caseInArithmetic(p.expr, cond, known);
          break;
        case 'extglob':
          this.parts(p.nested, cond, known);
          break;
        case 'array':
          for (const e of p.elements) this.word(e, cond, known);
          break;
        default:
          break;
      }
    }
  }

  /** bash may not take `((…))` as arithmetic where a case pattern's `)` upsets its count: read the subshell too. */
  private caseInArithmetic(expr: string, cond: boolean, known: Known): void {
    if (!/\bcase\b/.test(expr)) return;
    try {
      this.script(parseScript(`(${expr})`, this.depth + 1), cond, known.copy());
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
