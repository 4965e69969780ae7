import type { Assign, Command, ParamExp, Redirect, Script, Word, WordPart } from './ast';
import { viewOf } from './word';

/**
 * What the trees of a line say about the shell's own state, read from the nodes — never from the
 * raw text: the texts bash evaluates as arithmetic, the variables the line sets without an
 * assignment word (loops, `${NAME:=…}`), and the loops whose values are only known at run time.
 */
export interface TreeFacts {
  /** Every text bash evaluates as arithmetic: `$((…))`, `((…))`, `for ((…))`, `$[…]`, `${s:OFFSET}`, subscripts, `${!name}`, `[[ ]]` numeric tests and `-v`. */
  arithmetic: string[];
  /** Variables a `for`/`select` loop sets, with whether the values are only known at run time (a loop over expansions, files or the arguments). */
  loops: { name: string; runtime: boolean }[];
  /** Variables `${NAME:=…}` and `${NAME=…}` set. */
  defaulted: string[];
  /** The assignments of every simple command, with their subscripts. */
  assigns: Assign[];
  /** Every word of the trees, in order: what code persona-gate cannot read may have been handed. */
  words: Word[];
  /** The bodies of the here-documents. */
  heredocs: string[];
  /**
   * The command substitutions `$(…)` whose output is the output of one simple command (the last of
   * one pipeline, with no assignment before it): their source and that command's words, for what
   * may print only a number (`$(( $(date +%s) - 60 ))`).
   */
  outputs: { source: string; words: Word[] }[];
}

const NUMERIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

export function treeFacts(scripts: readonly Script[]): TreeFacts {
  const facts: TreeFacts = { arithmetic: [], loops: [], defaulted: [], assigns: [], words: [], heredocs: [], outputs: [] };
  const v = new Visitor(facts);
  for (const s of scripts) v.script(s);
  return facts;
}

class Visitor {
  constructor(private readonly f: TreeFacts) {}

  script(s: Script): void {
    for (const st of s.statements) {
      for (const c of st.list.first.commands) this.command(c);
      for (const r of st.list.rest) for (const c of r.pipeline.commands) this.command(c);
    }
  }

  private command(c: Command): void {
    switch (c.type) {
      case 'simple':
        for (const a of c.assigns) {
          this.f.assigns.push(a);
          if (a.index !== null) this.f.arithmetic.push(a.index);
          this.word(a.word);
        }
        for (const w of c.words) this.word(w);
        this.redirects(c.redirects);
        return;
      case 'subshell':
      case 'group':
        this.script(c.body);
        this.redirects(c.redirects);
        return;
      case 'if':
        for (const b of c.branches) {
          this.script(b.cond);
          this.script(b.body);
        }
        if (c.else) this.script(c.else);
        this.redirects(c.redirects);
        return;
      case 'while':
        this.script(c.cond);
        this.script(c.body);
        this.redirects(c.redirects);
        return;
      case 'for':
        // a loop over words the line writes out is known; over expansions, files or the arguments it is not
        this.f.loops.push({ name: c.name, runtime: c.items === null || c.items.some((w) => viewOf(w).dynamic || viewOf(w).pattern) });
        for (const w of c.items ?? []) this.word(w);
        this.script(c.body);
        this.redirects(c.redirects);
        return;
      case 'arithfor':
        this.f.arithmetic.push(...c.exprs);
        this.parts(c.nested);
        this.script(c.body);
        this.redirects(c.redirects);
        return;
      case 'case':
        this.word(c.subject);
        for (const item of c.items) {
          for (const p of item.patterns) this.word(p);
          this.script(item.body);
        }
        this.redirects(c.redirects);
        return;
      case 'func':
        this.command(c.body);
        return;
      case 'arithcmd':
        this.f.arithmetic.push(c.expr);
        this.parts(c.nested);
        this.redirects(c.redirects);
        return;
      case 'test': {
        // within [[ ]], the numeric tests' operands and -v's are arithmetic
        const texts = c.words.map((w) => viewOf(w).text);
        texts.forEach((t, i) => {
          if (NUMERIC_TESTS.has(t)) {
            if (i > 0) this.f.arithmetic.push(texts[i - 1]!);
            if (i + 1 < texts.length) this.f.arithmetic.push(texts[i + 1]!);
          } else if (t === '-v' && i + 1 < texts.length) this.f.arithmetic.push(texts[i + 1]!);
        });
        for (const w of c.words) this.word(w);
        this.redirects(c.redirects);
        return;
      }
      case 'coproc':
        this.command(c.body);
        return;
    }
  }

  private redirects(rs: readonly Redirect[]): void {
    for (const r of rs) {
      this.word(r.target);
      if (r.heredoc) {
        this.f.heredocs.push(r.heredoc.body);
        this.parts(r.heredoc.parts);
      }
    }
  }

  private word(w: Word): void {
    this.f.words.push(w);
    this.parts(w.parts);
  }

  private param(p: ParamExp): void {
    if (p.indirect && p.name !== '') this.f.arithmetic.push(p.name);
    const rest = p.rest;
    if (rest.startsWith('[')) {
      const close = rest.indexOf(']');
      const sub = close === -1 ? rest.slice(1) : rest.slice(1, close);
      if (sub !== '@' && sub !== '*') this.f.arithmetic.push(sub);
    } else if (rest.startsWith(':') && !/^:[-=?+]/.test(rest)) this.f.arithmetic.push(rest.slice(1));
    if (/^:?=/.test(rest) && p.name !== '') this.f.defaulted.push(p.name);
    for (const w of p.nested) this.word(w);
  }

  private parts(parts: readonly WordPart[]): void {
    for (const p of parts) {
      switch (p.type) {
        case 'dq':
          this.parts(p.parts);
          break;
        case 'param':
          this.param(p);
          break;
        case 'cmdsubst': {
          const statements = p.body.statements;
          const last = statements[0]?.list.first.commands.at(-1);
          if (!p.backquote && statements.length === 1 && statements[0]!.list.rest.length === 0 && !statements[0]!.background)
            if (last?.type === 'simple' && last.assigns.length === 0 && last.words.length > 0)
              this.f.outputs.push({ source: p.source, words: last.words });
          this.script(p.body);
          break;
        }
        case 'procsubst':
          this.script(p.body);
          break;
        case 'arith':
          this.f.arithmetic.push(p.expr);
          this.parts(p.nested);
          break;
        case 'extglob':
          this.parts(p.nested);
          break;
        case 'array':
          for (const e of p.elements) this.word(e);
          break;
        default:
          break;
      }
    }
  }
}
