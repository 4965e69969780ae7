import fc from 'fast-check';
import { createRequire } from 'node:module';
import type { Command, Pipeline, Redirect, Script, Word, WordPart } from '../../src/shell/syntax/ast';
import { parseScript } from '../../src/shell/syntax/parser';

/**
 * One small normalized form of a bash line's syntax tree, made from the shell reader's tree and
 * from mvdan/sh's (test/property/tree-oracle.test.ts): the statements, their `&&`/`||` lists and
 * pipelines, every command with its word count and first literal word, the nesting of subshells,
 * groups, compound commands and of command and process substitutions. Where the two trees
 * legitimately differ the mapping hides the difference, in the one place it is named. And a grammar
 * of lines built from the constructs the reader reads.
 */

// ---------------------------------------------------------------------------------------------
// mvdan-sh: a GopherJS build of mvdan.cc/sh/v3/syntax. Its JavaScript wrappers of the nodes are
// slow (a getter per field, a few milliseconds a line), so the tree is read from the Go values
// underneath: a struct pointer is an object with the Go field names, whose constructor's `string`
// is its Go type (and whose constructor's `nil` is the nil pointer); a slice is an object with
// `$array`, `$offset` and `$length`.

// biome-ignore lint: the package has no types
type Node = any;
const sh = createRequire(import.meta.url)('mvdan-sh') as { syntax: Node };
const syntax = sh.syntax;
const mvdanParser = syntax.NewParser(syntax.Variant(syntax.LangBash));
/** Its binary command operators (token values of mvdan.cc/sh/v3/syntax). */
const AND = 10;
const OR = 11;
const PIPE = 12;
const PIPE_ALL = 13;

const list = (slice: Node): Node[] => slice.$array.slice(slice.$offset, slice.$offset + slice.$length);
/** The node's type (`CallExpr`), or null for a nil pointer or interface and for a value that is not a node. */
function kind(o: Node): string | null {
  if (o === null || typeof o !== 'object') return null;
  const t = o.constructor?.string;
  if (typeof t !== 'string' || o.constructor.nil === o || !t.startsWith('*syntax.')) return null;
  return t.slice('*syntax.'.length);
}

/** The normalized form of a line by mvdan/sh, or null when it rejects the line. */
export function viaMvdan(src: string): string | null {
  let file: Node;
  try {
    file = mvdanParser.Parse(src, '').__internal_object__;
  } catch {
    return null;
  }
  return mScript(file.Stmts);
}

function mScript(stmts: Node): string {
  return `[${list(stmts).map(mStatement).join('; ')}]`;
}

function mStatement(st: Node): string {
  return mAndOr(st) + (st.Background ? ' &' : '');
}

/** `&&` and `||` are left-associative binary commands; ours keeps them as one list. */
function mAndOr(st: Node): string {
  const c = st.Cmd;
  if (kind(c) === 'BinaryCmd' && (c.Op === AND || c.Op === OR) && !st.Negated) {
    return `${mAndOr(c.X)} ${c.Op === AND ? '&&' : '||'} ${mPipeline(c.Y)}`;
  }
  return mPipeline(st);
}

/**
 * A pipeline is a left-associative tree of `|` binary commands; `!` is a flag of its statement and
 * `time` a TimeClause around it (ours has both as flags of the pipeline, printed in one order).
 */
function mPipeline(st: Node): string {
  let negated = false;
  let timed = false;
  for (;;) {
    if (st.Negated) negated = !negated;
    if (kind(st.Cmd) === 'TimeClause' && kind(st.Cmd.Stmt) !== null && list(st.Redirs).length === 0) {
      timed = true;
      st = st.Cmd.Stmt;
      continue;
    }
    break;
  }
  const commands: string[] = [];
  // the negation read above is the whole pipeline's; one further down is a command's own
  const flatten = (s: Node, top: boolean): void => {
    if (kind(s.Cmd) === 'BinaryCmd' && (s.Cmd.Op === PIPE || s.Cmd.Op === PIPE_ALL) && (top || !s.Negated)) {
      flatten(s.Cmd.X, false);
      flatten(s.Cmd.Y, false);
    } else commands.push(mCommand(s));
  };
  flatten(st, true);
  return (timed ? 'time ' : '') + (negated ? '! ' : '') + commands.join(' | ');
}

/** Command and process substitutions anywhere in these nodes, in the order of their fields. */
function mSubs(nodes: Node[]): string {
  const out: string[] = [];
  const visit = (o: Node): void => {
    if (o === null || typeof o !== 'object') return;
    if ('$array' in o) {
      for (const e of list(o)) visit(e);
      return;
    }
    const t = kind(o);
    if (t === null) return;
    if (t === 'CmdSubst') out.push(`$${mScript(o.Stmts)}`);
    else if (t === 'ProcSubst') out.push(`<${mScript(o.Stmts)}`);
    else for (const key of Object.keys(o)) if (key !== '$val') visit(o[key]);
  };
  for (const node of nodes) visit(node);
  return out.length === 0 ? '' : `{${out.join(' ')}}`;
}

/** A word's text when all of it is unquoted literal text without a backslash, else `*`. */
function mLiteral(w: Node): string {
  if (kind(w) === null) return '';
  let text = '';
  for (const p of list(w.Parts)) {
    if (kind(p) !== 'Lit') return '*';
    text += p.Value as string;
  }
  return text.includes('\\') ? '*' : text;
}

function mRedirects(redirs: Node[]): string {
  return redirs.length === 0 ? '' : ` r${redirs.length}${mSubs(redirs)}`;
}

function mCall(first: string, words: number, assigns: number, redirs: Node[], subsOf: Node[]): string {
  return `call(${first}/${words}${assigns > 0 ? ` a${assigns}` : ''}${redirs.length > 0 ? ` r${redirs.length}` : ''})${mSubs([...subsOf, ...redirs])}`;
}

function mCommand(st: Node): string {
  const c = st.Cmd;
  const redirs = list(st.Redirs);
  const t = kind(c);
  if (t === null) return mCall('', 0, 0, redirs, []);
  switch (t) {
    case 'CallExpr': {
      const args = list(c.Args);
      return mCall(mLiteral(args[0]), args.length, list(c.Assigns).length, redirs, [c.Assigns, c.Args]);
    }
    // `declare`, `local`, `export`, `readonly`, `typeset`, `nameref`: a clause of their own there,
    // whose arguments are all assignments (a plain word is a "naked" one); ours reads a simple
    // command whose first word is the builtin.
    case 'DeclClause':
      return mCall(c.Variant.Value, 1 + list(c.Args).length, 0, redirs, [c.Args]);
    // `let`: a clause of arithmetic expressions, one per argument; ours, a simple command.
    case 'LetClause':
      return mCall('let', 1 + list(c.Exprs).length, 0, redirs, [c.Exprs]);
    case 'Subshell':
      return `sub${mScript(c.Stmts)}${mRedirects(redirs)}`;
    case 'Block':
      return `grp${mScript(c.Stmts)}${mRedirects(redirs)}`;
    case 'IfClause': {
      // `elif` is an IfClause in the Else of the one before; a plain `else` is one without a condition
      const branches: string[] = [];
      let clause: Node = c;
      let elseBody = '';
      for (;;) {
        branches.push(`${mScript(clause.Cond)} then${mScript(clause.Then)}`);
        const next = clause.Else;
        if (kind(next) === null) break;
        if (list(next.Cond).length === 0) {
          elseBody = ` else${mScript(next.Then)}`;
          break;
        }
        clause = next;
      }
      return `if(${branches.join(' elif ')}${elseBody})${mRedirects(redirs)}`;
    }
    case 'WhileClause':
      return `${c.Until ? 'until' : 'while'}(${mScript(c.Cond)} do${mScript(c.Do)})${mRedirects(redirs)}`;
    case 'ForClause': {
      const loop = c.Loop;
      // ours keeps `for i` (no `in`) apart from `for i in` (an empty list); mvdan/sh does not
      const head =
        kind(loop) === 'CStyleLoop'
          ? `cfor${mSubs([loop.Init, loop.Cond, loop.Post])}`
          : `${c.Select ? 'select' : 'for'} ${loop.Name.Value}:${list(loop.Items).length}${mSubs([loop.Items])}`;
      return `${head} do${mScript(c.Do)}${mRedirects(redirs)}`;
    }
    case 'CaseClause': {
      const items = list(c.Items).map((it: Node) => `${list(it.Patterns).length}${mSubs([it.Patterns])}${mScript(it.Stmts)}`);
      return `case${mSubs([c.Word])}(${items.join(' ')})${mRedirects(redirs)}`;
    }
    // a function's redirections are its body's (`f() { …; } >x`): on the body's statement there
    case 'FuncDecl':
      return `func ${c.Name.Value} ${mCommand(c.Body)}`;
    case 'ArithmCmd':
      return `arith${mSubs([c.X])}${mRedirects(redirs)}`;
    case 'TestClause':
      return `test${mSubs([c.X])}${mRedirects(redirs)}`;
    case 'CoprocClause':
      return `coproc ${mLiteral(c.Name)} ${mCommand(c.Stmt)}`;
    case 'TimeClause':
      return `time ${kind(c.Stmt) === null ? '' : mPipeline(c.Stmt)}${mRedirects(redirs)}`;
    default:
      return `?${t}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Ours.

/** The normalized form of a line by the shell reader's parser, or null when it rejects the line. */
export function viaOurs(src: string): string | null {
  let script: Script;
  try {
    script = parseScript(src);
  } catch {
    return null;
  }
  return oScript(script);
}

function oScript(s: Script): string {
  return `[${s.statements.map((st) => oAndOr(st.list) + (st.background ? ' &' : '')).join('; ')}]`;
}

function oAndOr(list: Script['statements'][number]['list']): string {
  return [oPipeline(list.first), ...list.rest.map((r) => `${r.op} ${oPipeline(r.pipeline)}`)].join(' ');
}

function oPipeline(p: Pipeline): string {
  return (p.timed ? 'time ' : '') + (p.negated ? '! ' : '') + p.commands.map(oCommand).join(' | ');
}

function oParts(parts: WordPart[], out: string[]): void {
  for (const p of parts) {
    switch (p.type) {
      case 'cmdsubst':
        out.push(`$${oScript(p.body)}`);
        break;
      case 'procsubst':
        out.push(`<${oScript(p.body)}`);
        break;
      case 'dq':
        oParts(p.parts, out);
        break;
      case 'param':
        for (const w of p.nested) oParts(w.parts, out);
        break;
      case 'arith':
      case 'extglob':
        oParts(p.nested, out);
        break;
      case 'array':
        for (const w of p.elements) oParts(w.parts, out);
        break;
      default:
        break;
    }
  }
}

function oSubs(words: Word[], redirects: Redirect[] = [], parts: WordPart[] = []): string {
  const out: string[] = [];
  for (const w of words) oParts(w.parts, out);
  oParts(parts, out);
  for (const r of redirects) {
    oParts(r.target.parts, out);
    if (r.heredoc) oParts(r.heredoc.parts, out);
  }
  return out.length === 0 ? '' : `{${out.join(' ')}}`;
}

function oLiteral(w: Word | undefined): string {
  if (w === undefined) return '';
  let text = '';
  for (const p of w.parts) {
    if (p.type !== 'lit') return '*';
    text += p.value;
  }
  return text.includes('\\') ? '*' : text;
}

function oRedirects(redirects: Redirect[]): string {
  return redirects.length === 0 ? '' : ` r${redirects.length}${oSubs([], redirects)}`;
}

function oCommand(c: Command): string {
  switch (c.type) {
    case 'simple': {
      const n = c.redirects.length;
      return `call(${oLiteral(c.words[0])}/${c.words.length}${c.assigns.length > 0 ? ` a${c.assigns.length}` : ''}${n > 0 ? ` r${n}` : ''})${oSubs([...c.assigns.map((a) => a.word), ...c.words], c.redirects)}`;
    }
    case 'subshell':
      return `sub${oScript(c.body)}${oRedirects(c.redirects)}`;
    case 'group':
      return `grp${oScript(c.body)}${oRedirects(c.redirects)}`;
    case 'if':
      return `if(${c.branches.map((b) => `${oScript(b.cond)} then${oScript(b.body)}`).join(' elif ')}${c.else ? ` else${oScript(c.else)}` : ''})${oRedirects(c.redirects)}`;
    case 'while':
      return `${c.until ? 'until' : 'while'}(${oScript(c.cond)} do${oScript(c.body)})${oRedirects(c.redirects)}`;
    case 'for':
      return `${c.select ? 'select' : 'for'} ${c.name}:${c.items?.length ?? 0}${oSubs(c.items ?? [])} do${oScript(c.body)}${oRedirects(c.redirects)}`;
    case 'arithfor':
      return `cfor${oSubs([], [], c.nested)} do${oScript(c.body)}${oRedirects(c.redirects)}`;
    case 'case':
      return `case${oSubs([c.subject])}(${c.items.map((it) => `${it.patterns.length}${oSubs(it.patterns)}${oScript(it.body)}`).join(' ')})${oRedirects(c.redirects)}`;
    case 'func':
      return `func ${c.name} ${oCommand(c.body)}`;
    case 'arithcmd':
      return `arith${oSubs([], [], c.nested)}${oRedirects(c.redirects)}`;
    case 'test':
      return `test${oSubs(c.words)}${oRedirects(c.redirects)}`;
    case 'coproc':
      return `coproc ${c.name ?? ''} ${oCommand(c.body)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// The grammar.

const pick = <T>(...xs: T[]) => fc.constantFrom(...xs);
const NAMES = pick('echo', 'ls', 'cat', 'grep', 'git', 'a', 'b', 'x1', 'printf', 'true', ':', 'test', 'wc');
const ARGS = pick(
  '-n',
  '--all',
  'x',
  'foo.txt',
  '/tmp/a',
  '.',
  '*.ts',
  '{a,b}',
  '~/x',
  'a=b',
  '-',
  '--',
  '1',
  'then',
  'fi',
  '{',
  '}',
  'a:b',
  '%s',
);
const VARS = pick('x', 'HOME', 'y_2', '1', '@', '#', '?');
const PLAIN_TEXT = pick('a', 'b c', ' ', 'x y z', '', '-');

/** A word at substitution depth `d` (0: no substitution inside). */
const words = new Map<number, fc.Arbitrary<string>>();
function word(d: number): fc.Arbitrary<string> {
  const known = words.get(d);
  if (known) return known;
  const inner = d > 0 ? script(d - 1, d > 1 ? 1 : 0) : null;
  const piece: fc.Arbitrary<string> = fc.oneof(
    { weight: 16, arbitrary: ARGS },
    { weight: 2, arbitrary: PLAIN_TEXT.map((t) => `'${t}'`) },
    {
      weight: 2,
      arbitrary: fc
        .array(
          fc.oneof(
            PLAIN_TEXT,
            VARS.map((v) => `$${v}`),
            ...(inner ? [inner.map((s) => `$(${s})`)] : []),
          ),
          { maxLength: 2 },
        )
        .map((xs) => `"${xs.join('')}"`),
    },
    { weight: 2, arbitrary: VARS.map((v) => `$${v}`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(pick('x', 'y'), pick(':-', '-', ':=', '#', '%', '/a/'), fc.oneof(ARGS, ...(inner ? [inner.map((s) => `$(${s})`)] : [])))
        .map(([v, op, w]) => `\${${v}${op}${w}}`),
    },
    { weight: 1, arbitrary: pick('${#x}', '${!x}', '${x[1]}', '$((1 + 2))', '$((x*3))', '\\;', '\\ ', 'a\\"b', "$'\\n'", '$"x"') },
    ...(inner
      ? [
          { weight: 2, arbitrary: inner.map((s) => `$(${s})`) },
          { weight: 1, arbitrary: inner.map((s) => `$( ${s} )`) },
          {
            weight: 2,
            arbitrary: fc
              .array(fc.tuple(NAMES, fc.array(ARGS, { maxLength: 2 })), { minLength: 1, maxLength: 2 })
              .map((cs) => `\`${cs.map(([n, as]) => [n, ...as].join(' ')).join('; ')}\``),
          },
          { weight: 2, arbitrary: fc.tuple(pick('<', '>'), inner).map(([op, s]) => `${op}(${s})`) },
          { weight: 1, arbitrary: inner.map((s) => `$(( $(${s}) + 1 ))`) },
        ]
      : []),
  );
  const w = fc.array(piece, { minLength: 1, maxLength: 2 }).map((ps) => ps.join(''));
  words.set(d, w);
  return w;
}

function redirect(d: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(pick('>', '>>', '<', '2>', '&>', '>|', '<>', '1>', '<<<'), pick('', ' '), word(d)).map(([op, sp, w]) => `${op}${sp}${w}`),
    pick('2>&1', '>&2', '<&0', '2>/dev/null', '&>>log', '{fd}>out'),
  );
}

function simple(d: number): fc.Arbitrary<string> {
  const assign = (names: fc.Arbitrary<string>) =>
    fc.tuple(names, pick('=', '+='), fc.oneof(pick('', '1'), word(d))).map(([n, op, v]) => `${n}${op}${v}`);
  const call = fc
    .tuple(
      fc.array(assign(pick('A', 'b', 'X_1')), { maxLength: 1 }),
      fc.oneof({ weight: 5, arbitrary: NAMES }, { weight: 1, arbitrary: word(d).filter((w) => w !== '{' && w !== '}') }),
      fc.array(fc.oneof({ weight: 4, arbitrary: word(d) }, { weight: 1, arbitrary: redirect(d) }), { maxLength: 2 }),
    )
    .map(([as, name, rest]) => [...as, name, ...rest].join(' '));
  // mvdan/sh refuses an array element assigned for one command (`a[1]=x cmd`, which bash takes): alone only
  const assignments = fc.array(assign(pick('A', 'arr[1]', 'arr[$i]')), { minLength: 1, maxLength: 2 }).map((as) => as.join(' '));
  return fc.oneof({ weight: 9, arbitrary: call }, { weight: 1, arbitrary: assignments });
}

/** One statement: a list of pipelines. */
function andOr(d: number, n: number): fc.Arbitrary<string> {
  const pipeline = fc
    .tuple(fc.boolean(), fc.array(command(d, n), { minLength: 1, maxLength: 2 }), pick(' | ', '|', ' |& '))
    .map(([neg, cs, bar]) => (neg ? '! ' : '') + cs.join(bar));
  const list = fc
    .tuple(pipeline, fc.array(fc.tuple(pick(' && ', ' || ', '&&', ' ||\n'), pipeline), { maxLength: 1 }))
    .map(([p, rest]) => p + rest.map(([op, q]) => op + q).join(''));
  if (n === 0) return list;
  // A function definition stands alone: mvdan/sh reads `f() { …; } | b` as a function whose body
  // is the pipeline `{ …; } | b`, where bash pipes the definition.
  const b = body(d, n - 1);
  const func = fc.oneof(
    fc.tuple(pick('f', 'g_1', 'do_it'), b, pick('() ', ' () ', '()')).map(([name, s, parens]) => `${name}${parens}{ ${s}}`),
    fc.tuple(pick('f', 'g_1'), script(d, n - 1)).map(([name, s]) => `${name}() (${s})`),
    fc.tuple(pick('h', 'fn'), b, pick('', '()')).map(([name, s, parens]) => `function ${name}${parens} { ${s}}`),
  );
  return fc.oneof({ weight: 9, arbitrary: list }, { weight: 1, arbitrary: func });
}

/** A list of statements; `n` compound commands may still nest in it, `d` substitutions. */
const scripts = new Map<string, fc.Arbitrary<string>>();
function script(d: number, n: number): fc.Arbitrary<string> {
  const key = `${d}:${n}`;
  const known = scripts.get(key);
  if (known) return known;
  const s = fc
    .tuple(
      fc.array(fc.tuple(andOr(d, n), pick('; ', ';', ' & ', '\n', '&')), { minLength: 0, maxLength: 1 }),
      andOr(d, n),
      pick('', ';', ' &', '\n'),
    )
    .map(([xs, last, end]) => xs.map(([a, sep]) => a + sep).join('') + last + end);
  scripts.set(key, s);
  return s;
}

/** A list as a compound command's body: ends in a separator. */
function body(d: number, n: number): fc.Arbitrary<string> {
  return fc.tuple(script(d, n), pick('; ', '\n', ';')).map(([s, sep]) => (/[;&\n]$/.test(s) ? `${s} ` : s + sep));
}

function command(d: number, n: number): fc.Arbitrary<string> {
  if (n === 0) return simple(d);
  const b = body(d, n - 1);
  const w = word(d);
  const redirs = fc.array(redirect(d), { maxLength: 1 }).map((rs) => rs.map((r) => ` ${r}`).join(''));
  const compound = fc.oneof(
    fc.tuple(script(d, n - 1), redirs).map(([s, r]) => `(${s})${r}`),
    fc.tuple(script(d, n - 1), redirs).map(([s, r]) => `( ${s} )${r}`),
    fc.tuple(b, redirs).map(([s, r]) => `{ ${s}}${r}`),
    fc
      .tuple(b, b, fc.option(fc.tuple(b, b), { nil: undefined }), fc.option(b, { nil: undefined }))
      .map(([c, t, elif, e]) => `if ${c}then ${t}${elif ? `elif ${elif[0]}then ${elif[1]}` : ''}${e ? `else ${e}` : ''}fi`),
    fc.tuple(pick('while', 'until'), b, b).map(([k, c, s]) => `${k} ${c}do ${s}done`),
    fc.tuple(pick('i', 'f'), fc.array(w, { maxLength: 3 }), b).map(([v, ws, s]) => `for ${v} in ${ws.join(' ')}; do ${s}done`),
    b.map((s) => `for ((i = 0; i < 3; i++)); do ${s}done`),
    fc
      .tuple(w, fc.array(fc.tuple(fc.array(w, { minLength: 1, maxLength: 2 }), b, pick(';;', ';&', ';;&')), { minLength: 1, maxLength: 2 }))
      .map(([subj, items]) => `case ${subj} in ${items.map(([ps, s, t]) => `${ps.join('|')}) ${s}${t} `).join('')}esac`),
    fc.tuple(pick('x + 1', 'i++', 'a == b', 'x = 2 * (y + 1)'), redirs).map(([e, r]) => `((${e}))${r}`),
    // mvdan/sh reads a left operand that looks like a unary operator (`-n`) as one: never generated
    fc
      .tuple(
        w.filter((a) => !a.startsWith('-')),
        pick('==', '!=', '=~', '<'),
        w,
        pick('', ' && -n x', ' || -z $y'),
      )
      .map(([a, op, b2, more]) => `[[ ${a} ${op} ${b2}${more} ]]`),
    fc.tuple(pick('-n', '-f', '-z'), w).map(([op, a]) => `[[ ${op} ${a} ]]`),
  );
  return fc.oneof({ weight: 4, arbitrary: simple(d) }, { weight: 1, arbitrary: compound });
}

export const line = script(1, 1);

// ---------------------------------------------------------------------------------------------

/** A line of the grammar with one character deleted, inserted or the line cut short: mostly lines bash rejects. */
export const mutatedLine = fc
  .tuple(
    line,
    fc.nat(),
    fc.constantFrom('delete', 'insert', 'cut'),
    fc.constantFrom('(', ')', '{', '}', ';', '|', '&', '"', "'", '`', '$(', '<', 'fi', 'done', '\n'),
  )
  .map(([src, at, how, piece]) => {
    const k = src.length === 0 ? 0 : at % src.length;
    if (how === 'delete') return src.slice(0, k) + src.slice(k + 1);
    if (how === 'insert') return `${src.slice(0, k)}${piece}${src.slice(k)}`;
    return src.slice(0, k);
  });
