import type { Command, Script, SimpleCommand, Word as WordNode, WordPart } from './ast';
import { viewOf } from './word';

/**
 * What the line itself says a variable holds, read in the order bash runs it: `R=main; git log
 * "$R"` and `for f in a b; do find "$f" …; done` name no option, though `"$R"` alone might.
 * Only straight-line literal values are known; anything that may change a variable in a way the
 * tree does not show forgets what is known (a builtin that assigns, an arithmetic expansion, a
 * compound command that assigns inside), and anything that may run code the line does not show
 * before a later command (a trap, eval, source, a function the line defines, a command whose
 * name is known only at run time, an attribute such as `declare -i` or `-n`) ends all knowing
 * for the rest of the line. Variables from outside the line are never known.
 */

/** Builtins that cannot change a variable or install code. */
const INERT = new Set([
  ':',
  'true',
  'false',
  'echo',
  'test',
  '[',
  'pwd',
  'type',
  'help',
  'times',
  'dirs',
  'jobs',
  'kill',
  'disown',
  'exit',
  'return',
  'break',
  'continue',
  'caller',
  'logout',
  'suspend',
  'fg',
  'bg',
  'umask',
  'ulimit',
  'hash',
]);

/** Builtins that assign only the variables of the directory stack. */
const DIRECTORY = new Set(['cd', 'pushd', 'popd']);
const DIRECTORY_VARIABLES = ['PWD', 'OLDPWD', 'DIRSTACK'];

/** Builtins that assign or unset the variables their arguments name. */
const NAMING = new Set(['export', 'readonly', 'unset']);

/** Builtins that may assign variables the tree does not name, but install no code. */
const ASSIGNING = new Set(['read', 'let', 'printf', 'shift', 'getopts', 'wait']);

/** Every other bash builtin and keyword-like name: it may install code or attributes. */
const OTHER_BUILTINS = new Set([
  '.',
  'source',
  'alias',
  'unalias',
  'bind',
  'builtin',
  'command',
  'compgen',
  'complete',
  'compopt',
  'declare',
  'typeset',
  'local',
  'enable',
  'eval',
  'exec',
  'fc',
  'history',
  'mapfile',
  'readarray',
  'set',
  'shopt',
  'trap',
]);

/** What running a node may do to the shell's variables. */
export interface Change {
  /** Names it may assign. */
  names: Set<string>;
  /** It may assign any variable. */
  any: boolean;
  /** It may install code that runs before later commands, or attributes that change assignment. */
  poison: boolean;
}

const none = (): Change => ({ names: new Set(), any: false, poison: false });

function merge(into: Change, c: Change): Change {
  for (const n of c.names) into.names.add(n);
  into.any ||= c.any;
  into.poison ||= c.poison;
  return into;
}

/** Whether an expansion among these parts may assign (`${x:=v}`, `$((x=1))`, an array subscript, `${!x}`). */
export function partsAssign(parts: readonly WordPart[]): boolean {
  for (const p of parts) {
    switch (p.type) {
      case 'dq':
      case 'extglob':
        if (partsAssign(p.type === 'dq' ? p.parts : p.nested)) return true;
        break;
      case 'param':
        if (p.indirect || !/^(|:?[-+?][^[]*|#{1,2}[^[]*|%{1,2}[^[]*|\/[^[]*|[\^,]{1,2}[^[]*|@[QEAKaku])$/.test(p.rest)) return true;
        if (p.nested.some((w) => partsAssign(w.parts))) return true;
        break;
      case 'arith':
        return true;
      case 'array':
        if (p.elements.some((w) => partsAssign(w.parts))) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

function simpleAssigns(c: SimpleCommand): boolean {
  if (c.assigns.some((a) => a.index !== null || partsAssign(a.value.parts))) return true;
  if (c.words.some((w) => partsAssign(w.parts))) return true;
  return c.redirects.some((r) => partsAssign(r.target.parts) || (r.heredoc !== undefined && partsAssign(r.heredoc.parts)));
}

/** What a simple command may change, `functions` being the names the line defines. */
export function simpleChange(c: SimpleCommand, functions: ReadonlySet<string>): Change {
  const out = none();
  if (simpleAssigns(c)) out.any = true;
  if (c.words.length === 0) {
    for (const a of c.assigns) out.names.add(a.name);
    return out;
  }
  const name = viewOf(c.words[0]!);
  if (name.dynamic || name.pattern || functions.has(name.text) || OTHER_BUILTINS.has(name.text)) {
    out.poison = true;
    return out;
  }
  if (!INERT.has(name.text) && !ASSIGNING.has(name.text) && !DIRECTORY.has(name.text) && !NAMING.has(name.text)) return out;
  // an assignment before a builtin may outlive it
  for (const a of c.assigns) out.names.add(a.name);
  if (ASSIGNING.has(name.text)) out.any = true;
  if (DIRECTORY.has(name.text)) for (const n of DIRECTORY_VARIABLES) out.names.add(n);
  if (NAMING.has(name.text)) {
    for (const w of c.words.slice(1)) {
      const v = viewOf(w);
      const named = /^([A-Za-z_]\w*)(\[|\+?=|$)/.exec(v.text);
      if (v.dynamic || v.pattern) out.any = true;
      else if (named) out.names.add(named[1]!);
    }
  }
  return out;
}

/** What a command may change in the shell that runs it, read from its whole tree. */
export function changeOf(c: Command, functions: ReadonlySet<string>): Change {
  switch (c.type) {
    case 'simple':
      return simpleChange(c, functions);
    case 'subshell':
      return none();
    case 'group':
      return scriptChange(c.body, functions);
    case 'if': {
      const out = none();
      for (const b of c.branches) merge(merge(out, scriptChange(b.cond, functions)), scriptChange(b.body, functions));
      return c.else ? merge(out, scriptChange(c.else, functions)) : out;
    }
    case 'while':
      return merge(scriptChange(c.cond, functions), scriptChange(c.body, functions));
    case 'for': {
      const out = merge(none(), scriptChange(c.body, functions));
      out.names.add(c.name);
      if ((c.items ?? []).some((w) => partsAssign(w.parts))) out.any = true;
      return out;
    }
    case 'case': {
      const out = none();
      if (partsAssign(c.subject.parts)) out.any = true;
      for (const item of c.items) merge(out, scriptChange(item.body, functions));
      return out;
    }
    case 'func':
      return none();
    case 'arithfor':
    case 'arithcmd':
    case 'test':
      return { names: new Set(), any: true, poison: false };
    case 'coproc':
      return { names: new Set(), any: true, poison: true };
  }
}

export function scriptChange(s: Script, functions: ReadonlySet<string>): Change {
  const out = none();
  for (const st of s.statements) {
    if (st.background) continue;
    for (const p of [st.list.first, ...st.list.rest.map((r) => r.pipeline)]) {
      // each part of a pipeline runs in a subshell, except perhaps the last (`shopt -s lastpipe`)
      const last = p.commands[p.commands.length - 1];
      if (last) merge(out, changeOf(last, functions));
    }
  }
  return out;
}

/** At most this many variables are known at once, so that copying what is known stays cheap. */
const MAX_KNOWN = 64;

/** The literal values each variable is known to hold at a point of the line. */
export class Known {
  private readonly values = new Map<string, readonly string[]>();
  /** Functions defined for sure in this shell before this point (`f() { …; }; f`). */
  private readonly functions = new Set<string>();
  poisoned = false;

  copy(): Known {
    const k = new Known();
    for (const [n, v] of this.values) k.values.set(n, v);
    for (const f of this.functions) k.functions.add(f);
    k.poisoned = this.poisoned;
    return k;
  }

  /** A function definition that runs for sure here: later calls of the name in this shell run it. */
  define(name: string): void {
    if (this.functions.size < MAX_KNOWN) this.functions.add(name);
  }

  /** Whether a call of `name` here runs a function this shell defined for sure before it. */
  defines(name: string): boolean {
    return this.functions.has(name);
  }

  get(name: string): readonly string[] | undefined {
    return this.poisoned ? undefined : this.values.get(name);
  }

  set(name: string, values: readonly string[]): void {
    if (this.poisoned) return;
    if (this.values.size >= MAX_KNOWN && !this.values.has(name)) return;
    this.values.set(name, values);
  }

  /** Forget what a change may have touched. */
  apply(c: Change): void {
    if (c.poison) this.poisoned = true;
    if (c.any || c.poison) this.values.clear();
    else for (const n of c.names) this.values.delete(n);
  }

  /** What this command, run for sure, teaches: its literal assignments, when it has no words. */
  learn(c: SimpleCommand, functions: ReadonlySet<string>): void {
    const change = simpleChange(c, functions);
    this.apply(change);
    if (change.any || change.poison || c.words.length > 0) return;
    for (const a of c.assigns) {
      const v = literalValue(a.value);
      if (v !== null && !a.append) this.set(a.name, [v]);
    }
  }
}

/** An assignment's or a for-list item's value when it is a literal the shell will not change. */
export function literalValue(w: WordNode): string | null {
  const v = viewOf(w);
  if (v.dynamic || v.pattern || v.text.startsWith('~') || v.text.includes(':~')) return null;
  return v.text;
}

/** An unquoted expansion of one of these splits and globs into no word that starts with `-`. */
const PLAIN_UNQUOTED = /^[A-Za-z0-9_./:@%+=,^~#]+$/;

/**
 * Whether a word is known not to begin with `-` once expanded: its first part the plain expansion
 * of a variable whose every known value is non-empty and begins otherwise (quoted), or holds
 * nothing that splits or globs into such a word (unquoted).
 */
export function startsPlain(w: WordNode, known: Known): boolean {
  let first = w.parts[0];
  let quoted = false;
  if (first?.type === 'dq') {
    first = first.parts[0];
    quoted = true;
  }
  if (first?.type !== 'param' || first.rest !== '' || first.indirect || first.length || !/^[A-Za-z_]\w*$/.test(first.name)) return false;
  const values = known.get(first.name);
  if (values === undefined || values.length === 0) return false;
  return values.every((v) => (quoted ? v.length > 0 && !v.startsWith('-') : PLAIN_UNQUOTED.test(v)));
}

/**
 * The words a word is known to become: it is the plain expansion of one variable and nothing else
 * (`"$d"`, `$d`), and every value the line gives that variable is one word that is no option, no
 * pattern and the same unquoted (`for d in src lib`); null otherwise.
 */
export function knownValues(w: WordNode, known: Known): readonly string[] | null {
  let only = w.parts.length === 1 ? w.parts[0] : undefined;
  let quoted = false;
  if (only?.type === 'dq') {
    only = only.parts.length === 1 ? only.parts[0] : undefined;
    quoted = true;
  }
  if (only?.type !== 'param' || only.rest !== '' || only.indirect || only.length || !/^[A-Za-z_]\w*$/.test(only.name)) return null;
  const values = known.get(only.name);
  if (values === undefined || values.length === 0) return null;
  // unquoted, a value splits and globs: only those that stay one literal word are known
  const one = quoted ? /^[^-]/ : PLAIN_UNQUOTED;
  return values.every((v) => one.test(v) && !v.startsWith('-')) ? values : null;
}
