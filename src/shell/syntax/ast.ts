/**
 * The syntax tree of a bash command line (the shape of mvdan/sh's, reduced to what the reader
 * needs). Every node has its span in the source: `start` and `end` offsets. Words are made of
 * parts, so that what is quoted, what expands at run time and what runs a command is known
 * without reading the text again.
 */

export interface Span {
  start: number;
  end: number;
}

/** Text that stands for itself, unquoted: glob characters and braces in it are live. */
export interface Lit extends Span {
  type: 'lit';
  value: string;
}

/** Characters made literal by a backslash (`\;`, `\ `). */
export interface Escaped extends Span {
  type: 'escaped';
  value: string;
}

/** `'…'` */
export interface SglQuoted extends Span {
  type: 'sq';
  value: string;
}

/** `$'…'`, decoded. */
export interface AnsiC extends Span {
  type: 'ansi';
  value: string;
}

/** `"…"`, or `$"…"` (`locale`). */
export interface DblQuoted extends Span {
  type: 'dq';
  parts: WordPart[];
  locale: boolean;
}

/** `$name`, `$1`, `$@`, `${…}`: `name` is the variable's name ('' when it is not a plain one). */
export interface ParamExp extends Span {
  type: 'param';
  name: string;
  /** The source text, `$x` or `${…}`. */
  text: string;
  /** `${…}` with braces. */
  braced: boolean;
  /** What follows the name inside the braces: `:-default`, `@P`, `[i]`, `:2:3` (source text). */
  rest: string;
  /** `${!name}`, `${!prefix*}`. */
  indirect: boolean;
  /** `${#name}`. */
  length: boolean;
  /** The words inside the braces (defaults, patterns, subscripts), with their own expansions. */
  nested: Word[];
}

/** `$(…)` or a backquoted command. */
export interface CmdSubst extends Span {
  type: 'cmdsubst';
  body: Script;
  backquote: boolean;
  /** The source of the commands (for a backquote, with its escapes removed). */
  source: string;
}

/** `$((…))` or `$[…]`. */
export interface ArithExp extends Span {
  type: 'arith';
  /** The expression's text. */
  expr: string;
  /** The expansions inside it. */
  nested: WordPart[];
  /** `$[…]`. */
  bracket: boolean;
}

/** `<(…)` or `>(…)`. */
export interface ProcSubst extends Span {
  type: 'procsubst';
  op: '<' | '>';
  body: Script;
}

/** `@(…)`, `!(…)`, `+(…)`, `*(…)`, `?(…)`: an extended glob (its text includes the operator). */
export interface ExtGlob extends Span {
  type: 'extglob';
  text: string;
  nested: WordPart[];
}

/** The value of `a=(…)`: its elements. */
export interface ArrayExp extends Span {
  type: 'array';
  elements: Word[];
  text: string;
}

export type WordPart = Lit | Escaped | SglQuoted | AnsiC | DblQuoted | ParamExp | CmdSubst | ArithExp | ProcSubst | ExtGlob | ArrayExp;

export interface Word extends Span {
  type: 'word';
  parts: WordPart[];
}

export interface Redirect extends Span {
  type: 'redirect';
  /** `>`, `>>`, `<`, `<<`, `<<-`, `<<<`, `>&`, `<&`, `&>`, `&>>`, `>|`, `<>`. */
  op: string;
  /** `2` in `2>x`, or `{name}` in `{fd}>x`; '' when none is written. */
  fd: string;
  target: Word;
  /** A here-document's body; `joined` when a backslash before a newline joined two of its lines (unquoted delimiter). */
  heredoc?: { body: string; expand: boolean; parts: WordPart[]; joined?: boolean };
}

export interface Assign extends Span {
  type: 'assign';
  /** The whole word, `NAME=value`, `NAME+=value`, `NAME[i]=value`. */
  word: Word;
  name: string;
  /** The subscript's text in `NAME[i]=`, or null. */
  index: string | null;
  append: boolean;
  /** The value (a word after the `=`, possibly empty; an array's value is one ArrayExp part). */
  value: Word;
}

export interface SimpleCommand extends Span {
  type: 'simple';
  assigns: Assign[];
  words: Word[];
  redirects: Redirect[];
}

export interface Subshell extends Span {
  type: 'subshell';
  body: Script;
  redirects: Redirect[];
}

export interface Group extends Span {
  type: 'group';
  body: Script;
  redirects: Redirect[];
}

export interface IfClause extends Span {
  type: 'if';
  branches: { cond: Script; body: Script }[];
  else: Script | null;
  redirects: Redirect[];
}

export interface WhileClause extends Span {
  type: 'while';
  until: boolean;
  cond: Script;
  body: Script;
  redirects: Redirect[];
}

/** `for NAME [in WORDS]; do …; done` and `select`; `items` null when there is no `in` (the arguments). */
export interface ForClause extends Span {
  type: 'for';
  select: boolean;
  name: string;
  items: Word[] | null;
  body: Script;
  redirects: Redirect[];
}

/** `for ((init; cond; step))`. */
export interface ArithForClause extends Span {
  type: 'arithfor';
  exprs: string[];
  nested: WordPart[];
  body: Script;
  redirects: Redirect[];
}

export interface CaseClause extends Span {
  type: 'case';
  subject: Word;
  items: { patterns: Word[]; body: Script; term: string }[];
  redirects: Redirect[];
}

export interface FuncDecl extends Span {
  type: 'func';
  name: string;
  body: Command;
  /** Written with bash's `function` keyword (POSIX sh reads `function` as a command's name). */
  keyword?: true;
}

/** `((…))` */
export interface ArithCmd extends Span {
  type: 'arithcmd';
  expr: string;
  nested: WordPart[];
  redirects: Redirect[];
}

/** `[[ … ]]`: its words, operators included. */
export interface TestClause extends Span {
  type: 'test';
  words: Word[];
  redirects: Redirect[];
}

/** `coproc [NAME] command`. */
export interface Coproc extends Span {
  type: 'coproc';
  name: string | null;
  body: Command;
}

export type Command =
  | SimpleCommand
  | Subshell
  | Group
  | IfClause
  | WhileClause
  | ForClause
  | ArithForClause
  | CaseClause
  | FuncDecl
  | ArithCmd
  | TestClause
  | Coproc;

export interface Pipeline extends Span {
  type: 'pipeline';
  commands: Command[];
  negated: boolean;
  /** `time` (the reserved word) before the pipeline. */
  timed: boolean;
}

export interface AndOr extends Span {
  type: 'andor';
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
}

export interface Statement extends Span {
  type: 'stmt';
  list: AndOr;
  background: boolean;
}

export interface Script extends Span {
  type: 'script';
  statements: Statement[];
}
