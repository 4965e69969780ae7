import { getopt, type GetoptSpec } from '../getopt';
import type { Reason } from '../reasons';
import type { OptionSpec, ProgramSpec } from '../registry/types';
import { literalWord, type Word } from '../syntax/word';
import type { Peeled } from './wrapper';

/**
 * GNU parallel, as it runs its command (checked against GNU parallel 20221122): the command's
 * words are joined with spaces and run by a shell; the argument lists after `:::` (and `:::+`)
 * are words of the line, each job taking one argument of each list; those after `::::` are files
 * of arguments, and without any list the arguments are read from stdin. An argument is quoted for
 * that shell and appended to the command, unless a replacement string (`{}`, `{.}`, `{/}`, `{#}`
 * …) stands in it: then it goes there. Without a command, each job's arguments, joined with
 * spaces, are the line the shell runs (`parallel ::: 'echo a; touch x'` runs both).
 *
 * Read so: each job of arguments the line gives is a command of its own (`parallel gzip ::: *.log`
 * is `gzip *.log`), a replacement string a word known at run time; arguments read at run time are
 * appended at run time, as xargs's; with no command, each job is read as a line of its own, like
 * `bash -c`. Opaque: a command the shell would read otherwise than as its words (`'echo $HOME'`,
 * `{a,b}`, `>`; not under -q, which quotes each word), no command and no argument lists of the
 * line, an option that runs a program or code (`--ssh`, `--rpl`, `{= … =}`), or moreutils' `--`.
 */

/** At most this many jobs are read one by one; past it, the arguments are taken as read at run time. */
const MAX_JOBS = 32;

/** The replacement strings a command may hold: `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, and `{N}` with those. */
const REPLACEMENT = /\{(?:-?\d+)?(?:\.|\/|\/\/|\/\.)?\}|\{#\}|\{%\}/g;

/** What a shell (sh, bash, zsh, dash) reads as these words and nothing else, joined with spaces. */
const PLAIN_TOKEN = /^[A-Za-z0-9_./:@+,-][A-Za-z0-9_./:@+,=%-]*$/;

const SEPARATORS = new Set([':::', ':::+', '::::', '::::+']);

export function peelParallel(spec: ProgramSpec, rest: Word[], table: GetoptSpec<OptionSpec>): Peeled {
  const name = spec.name;
  const opaque = (reason: Reason, writes: Word[] = []): Peeled => ({ kind: 'run', words: rest, opaque: reason, writes });
  const parsed = getopt<OptionSpec>(rest, table, 1);
  const unknown = parsed.unknown[0];
  if (unknown !== undefined) return opaque({ id: 'wrapper_option_unknown', subject: name, detail: unknown.text });
  const writes: Word[] = [];
  let replace: string | undefined;
  let quote = false;
  let pipe = false;
  let readAtRunTime = false;
  let why: Reason | undefined;
  for (const u of parsed.used) {
    const o = u.option.data;
    if (!o) continue;
    // help, a dry run, an option that reaches another host: parallel's own spec reads the call
    if (o.help || o.mode === 'prints' || o.level !== undefined) return { kind: 'run', words: rest };
    if (o.opaque) why ??= { id: o.opaque as Reason['id'], subject: name, detail: u.name };
    if (o.role === 'runs') why ??= { id: 'wrapper_runs_program', subject: name, detail: u.name };
    // `--joblog +FILE` appends to FILE
    if (o.role === 'writes' && u.value) writes.push(u.value.text.startsWith('+') ? { ...u.value, text: u.value.text.slice(1) } : u.value);
    if (o.mode === 'replace') replace = u.value?.text ?? '{}';
    else if (o.mode === 'quote') quote = true;
    else if (o.mode === 'pipe') pipe = true;
    // arguments from a file, or several to a job, or split into columns: the jobs are known at run time
    else if (o.mode === 'arg-file' || o.mode === 'grouping') readAtRunTime = true;
  }
  if (why) return opaque(why, writes);
  const operands = parsed.operands;
  const first = operands.findIndex((w) => SEPARATORS.has(w.text));
  const command = first === -1 ? operands : operands.slice(0, first);
  // moreutils' parallel: `-- CMD …` runs each word as a command, `CMD -- ARG …` the command with each
  // word after it; GNU's takes them for words of its command. With no command before it, or with
  // argument lists, the two readings part: opaque. Otherwise GNU's, with arguments read at run time,
  // reads at least what moreutils' runs.
  if (parsed.dashdash || (first !== -1 && command.some((w) => w.text === '--')))
    return opaque({ id: 'moreutils_parallel', subject: name }, writes);
  // the argument lists: words of the line, or files read at run time
  const lists: Word[][] = [];
  for (let k = first; k !== -1 && k < operands.length;) {
    const separator = operands[k]!.text;
    let end = k + 1;
    while (end < operands.length && !SEPARATORS.has(operands[end]!.text)) end++;
    if (separator.startsWith('::::')) readAtRunTime = true;
    else lists.push(operands.slice(k + 1, end));
    k = end < operands.length ? end : -1;
  }
  if (first === -1 && !pipe) readAtRunTime = true;
  const count = lists.reduce((n, list) => n * list.length, 1);
  // every combination of one argument from each list (a linked list, `:::+` or --link, takes fewer)
  const jobs = (): Word[][] => lists.reduce<Word[][]>((done, list) => done.flatMap((args) => list.map((a) => [...args, a])), [[]]);
  if (command.length === 0) {
    if (pipe || readAtRunTime || count > MAX_JOBS) return opaque({ id: 'runs_commands_from_input', subject: name }, writes);
    // each job's arguments, joined with spaces, are the line its shell runs (a glob's files are known at run time)
    const sources = jobs().map((args) => ({
      source: args.map((a) => a.text).join(' '),
      dynamic: args.some((a) => a.dynamic || a.pattern),
    }));
    return { kind: 'reparse-many', sources, via: name, writes };
  }
  const words = quote ? command : shellWords(command, replace);
  if (!Array.isArray(words)) return opaque({ id: 'wrapper_shell', subject: name, detail: words.detail }, writes);
  // under -I, its string stands where `{}` did
  const holds = (w: Word) =>
    (replace !== undefined && replace !== '' && w.text.includes(replace)) ||
    [...w.text.matchAll(REPLACEMENT)].some((m) => replace === undefined || m[0] !== '{}');
  const replaces = words.some(holds);
  const marked = words.map((w) => (holds(w) ? { ...w, dynamic: true } : w));
  const job = (args: Word[]): Word[] =>
    replaces ? words.flatMap((w) => (holds(w) ? substituted(w, args, replace) : [w])) : [...words, ...args];
  // --pipe hands each block of stdin to the command's stdin: no argument is appended
  if (pipe) return { kind: 'run', words: marked, completed: lists.length > 0, via: name, writes };
  if (readAtRunTime || count > MAX_JOBS) return { kind: 'run', words: marked, completed: true, via: name, writes };
  return { kind: 'run-many', runs: jobs().map(job), via: name, writes };
}

/** What each replacement string makes of an argument (`{.}` drops the extension, `{/}` the directory …). */
const TRANSFORMS: Record<string, (t: string) => string> = {
  __proto__: null as never,
  '': (t) => t,
  '.': (t) => t.replace(/\.[^/.]*$/, ''),
  '/': (t) => t.replace(/^.*\//, ''),
  '//': (t) => (t.includes('/') ? t.replace(/\/[^/]*$/, '') : '.'),
  '/.': (t) => t.replace(/^.*\//, '').replace(/\.[^/.]*$/, ''),
};

/**
 * A command word with replacement strings, for one job's arguments (one from each list): the word
 * `{}` alone is the arguments; a replacement string elsewhere is put together from the argument it
 * names when that argument is a word written out (a glob only whole, as `{}`), and known at run
 * time otherwise, as are `{#}` and `{%}`.
 */
function substituted(w: Word, args: readonly Word[], replace: string | undefined): Word[] {
  const whole = replace ?? '{}';
  if (w.text === whole) return [...args];
  let dynamic = w.dynamic;
  let pattern = w.pattern;
  const put = (arg: Word | undefined, transform: string): string => {
    if (arg === undefined || arg.dynamic || (arg.pattern && transform !== '')) {
      dynamic = true;
      return '';
    }
    pattern ||= arg.pattern;
    return TRANSFORMS[transform]!(arg.text);
  };
  const one = args.length === 1 ? args[0] : undefined;
  let text = w.text;
  if (replace !== undefined && replace !== '') text = text.split(replace).join('\u0000');
  text = text.replace(/\{(-?\d+)?(\.|\/|\/\/|\/\.)?\}|\{#\}|\{%\}/g, (m, n: string | undefined, t: string | undefined) => {
    if (m === '{#}' || m === '{%}') {
      dynamic = true;
      return m;
    }
    if (n === undefined) return replace !== undefined && t === undefined ? m : put(one, t ?? '');
    const k = Number(n);
    return put(k > 0 ? args[k - 1] : args[args.length + k], t ?? '');
  });
  if (text.includes('\u0000')) text = text.split('\u0000').join(put(one, ''));
  return [{ ...w, text, dynamic, pattern }];
}

/**
 * The words the shell parallel starts reads from the command joined with spaces, when they are
 * those words split at spaces and nothing else: no expansion, quote, operator, glob or brace
 * (replacement strings aside). Otherwise, the word it would read otherwise.
 */
function shellWords(command: readonly Word[], replace: string | undefined): Word[] | { detail: string } {
  const out: Word[] = [];
  for (const w of command) {
    if (w.dynamic || w.pattern) return { detail: w.text };
    for (const token of w.text.split(/[ \t]+/)) {
      if (token === '') continue;
      let bare = token.replace(REPLACEMENT, 'x');
      if (replace !== undefined && replace !== '') bare = bare.split(replace).join('x');
      if (!PLAIN_TOKEN.test(bare)) return { detail: w.text };
      out.push(literalWord(token));
    }
  }
  return out;
}
