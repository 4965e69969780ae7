/**
 * Commands whose output is only numbers, given these words: bash may evaluate such output as
 * arithmetic (`$(( $(date +%s) - start ))`) without an array subscript in it running a command.
 * Every word must be written out: a value known only at run time may change the output (`date
 * "$F"` may print `a[$(cmd)]`). What they read is judged as any invocation of theirs.
 */

/** Each program's words after its name: every one must match `args`, and one at least `needs` where given. */
const PRINTS_NUMBER: Readonly<Record<string, { args: RegExp; needs?: RegExp; first?: string }>> = {
  __proto__: null as never,
  // a format of numeric fields only (%s, %Y, %m …), in UTC or not
  date: { args: /^(-u|--utc|--universal|\+(%[sYmdHMSjuwNyGVUk]|[0-9])+)$/, needs: /^\+/ },
  nproc: { args: /^(--all)$/ },
  id: { args: /^-[ugr]+$/, needs: /[ug]/ },
  // counts of its standard input: no file named (a file's name follows its count)
  wc: { args: /^(-[lcmw]+|--(lines|bytes|chars|words))$/, needs: /./ },
  // `git rev-list --count REV…`
  git: {
    first: 'rev-list',
    args: /^(--count|--all|--first-parent|--no-merges|--merges|--branches|--tags|--remotes|[^-].*)$/,
    needs: /^--count$/,
  },
};

/** Whether a command of these literal words prints only numbers. */
export function printsNumber(words: readonly string[]): boolean {
  const [name, ...rest] = words;
  const rule = name === undefined ? undefined : PRINTS_NUMBER[name];
  if (!rule) return false;
  const args = rule.first === undefined ? rest : rest[0] === rule.first ? rest.slice(1) : null;
  if (args === null) return false;
  return args.every((a) => rule.args.test(a)) && (rule.needs === undefined || args.some((a) => rule.needs!.test(a)));
}
