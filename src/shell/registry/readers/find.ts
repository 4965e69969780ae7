import { helpClass, mayBecomeOption, opaqueClass, type Effect, type NamedReader } from '../../read/classify';
import type { Word } from '../../syntax/word';
import { baseName, joinPath, originalWords, reads, word, writer } from '../readers';
import { segmentMatcher } from '../../../core/glob';

/**
 * find's expression, read as find reads it: the starting points, then primaries with their
 * arguments, so that a word that is the argument of `-name` (`find . -name -delete`) is not taken
 * for the `-delete` action; what `-delete` removes, and the files `-fprint` and friends write.
 * The commands of `-exec` and friends are read by the invocation reader (read/peel.ts).
 */

/** Primaries and the number of arguments each takes. */
const ARGS: Readonly<Record<string, number>> = {
  __proto__: null as never,
  '-name': 1,
  '-iname': 1,
  '-path': 1,
  '-ipath': 1,
  '-wholename': 1,
  '-iwholename': 1,
  '-regex': 1,
  '-iregex': 1,
  '-lname': 1,
  '-ilname': 1,
  '-type': 1,
  '-xtype': 1,
  '-user': 1,
  '-group': 1,
  '-uid': 1,
  '-gid': 1,
  '-perm': 1,
  '-size': 1,
  '-mtime': 1,
  '-atime': 1,
  '-ctime': 1,
  '-mmin': 1,
  '-amin': 1,
  '-cmin': 1,
  '-newer': 1,
  '-anewer': 1,
  '-cnewer': 1,
  '-samefile': 1,
  '-inum': 1,
  '-links': 1,
  '-maxdepth': 1,
  '-mindepth': 1,
  '-fstype': 1,
  '-context': 1,
  '-used': 1,
  '-printf': 1,
  '-fprint': 1,
  '-fprint0': 1,
  '-fprintf': 2,
  '-fls': 1,
  '-regextype': 1,
  '-files0-from': 1,
  // BSD find's (macOS): GNU find refuses them before it runs anything
  '-Bmin': 1,
  '-Bnewer': 1,
  '-Btime': 1,
  '-flags': 1,
  '-xattrname': 1,
};

/** The number of arguments a primary takes: `-newerXY REF` (`-newermt DATE`, `-newerBm FILE`) takes one. */
const argsOf = (primary: string): number => ARGS[primary] ?? (/^-newer[aBcm][aBcmt]$/.test(primary) ? 1 : 0);

/** Tests that make `-delete` act on what `-name` alone would not match. */
const OTHER_TESTS = new Set([
  '-o',
  '-or',
  '-not',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-prune',
  '-iname',
  '!',
  ',',
]);

/** The file a primary writes, which find opens as it reads the expression: `-fprint FILE` and its like. */
const printsTo = (p: { name: string; args: Word[] }): Effect[] =>
  (p.name === '-fprint' || p.name === '-fprint0' || p.name === '-fls' || p.name === '-fprintf') && p.args[0]
    ? [{ path: p.args[0], effect: 'write' }]
    : [];

export const findReader: NamedReader = (ctx) => {
  const all = originalWords(ctx);
  // -H, -L, -P, -O3 and -D OPTS come before the starting points
  let first = 0;
  while (first < all.length && /^-([HLP]|O\d*|D)$/.test(all[first]!.text)) first += all[first]!.text === '-D' ? 2 : 1;
  const args = all.slice(first);
  const starts: Word[] = [];
  let k = 0;
  for (; k < args.length; k++) {
    const t = args[k]!.text;
    if (t.startsWith('-') || t === '(' || t === '!' || t === '\\(') break;
    starts.push(args[k]!);
  }
  const roots = starts.length > 0 ? starts : [word('.')];

  /** The primaries of the expression in order, each with its arguments. */
  const primaries: { name: string; word: Word; args: Word[] }[] = [];
  for (; k < args.length; k++) {
    const t = args[k]!.text;
    if (t === '-exec' || t === '-execdir' || t === '-ok' || t === '-okdir') {
      const start = k;
      while (
        k + 1 < args.length &&
        args[k + 1]!.text !== ';' &&
        args[k + 1]!.text !== '\\;' &&
        !(args[k + 1]!.text === '+' && args[k]!.text === '{}')
      )
        k++;
      k++;
      primaries.push({ name: t, word: args[start]!, args: args.slice(start + 1, k) });
      continue;
    }
    const n = argsOf(t);
    primaries.push({ name: t, word: args[k]!, args: args.slice(k + 1, k + 1 + n) });
    k += n;
  }
  // A word known only at run time where a starting point or a primary stands (`find . "$EXPR"`) may be -delete or -exec.
  const computed = [...starts, ...primaries.map((p) => p.word)].find(mayBecomeOption);
  if (computed !== undefined) return opaqueClass({ id: 'options_at_run_time', subject: 'find', detail: computed.text });
  // -help and -version are primaries too, read before anything runs but the files -fprint and its
  // like opened before them; not when they are a primary's argument (`-fprintf --help FMT`)
  const helpAt = primaries.findIndex((p) => /^--?(help|version)$/.test(p.name));
  if (helpAt !== -1) {
    const opened = primaries.slice(0, helpAt).flatMap(printsTo);
    return opened.length > 0 ? writer(ctx, opened) : helpClass('find', []);
  }
  const effects: Effect[] = [];
  const deleteAt = primaries.findIndex((p) => p.name === '-delete');
  if (deleteAt !== -1) {
    const names = primaries
      .filter((p) => p.name === '-name')
      .map((p) => p.args[0])
      .filter((w): w is Word => w !== undefined);
    const lastName = primaries.reduce((at, p, i) => (p.name === '-name' ? i : at), -1);
    // -delete before a test, or after `,`, acts on every file below the roots; so does -iname, which the pattern check does not read
    const onlyNames = names.length > 0 && deleteAt > lastName && !primaries.some((p) => OTHER_TESTS.has(p.name));
    for (const root of roots) {
      if (!onlyNames) {
        effects.push({ path: root, effect: 'destroy' });
        continue;
      }
      for (const n of names) {
        // a root known only at run time keeps the path it starts computed (`find "$R/" -name x -delete`)
        effects.push({
          path: word(joinPath(joinPath(root.text, '**'), n.text), { ...n, pattern: true, dynamic: n.dynamic || root.dynamic }),
          effect: 'destroy',
        });
        // the tests apply to each starting point too
        if (segmentMatcher(n.text, true).test(baseName(root.text))) effects.push({ path: root, effect: 'destroy' });
      }
    }
  }
  effects.push(...primaries.flatMap(printsTo));
  return effects.length > 0 ? writer(ctx, effects) : reads(ctx);
};
