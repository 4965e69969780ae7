import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getopt, type Arity, type GetoptOption, type GetoptSpec } from '../../src/shell/getopt';
import type { Word } from '../../src/shell/syntax/word';
import { installed } from '../helpers/programs';

/**
 * The registry's option parser against util-linux getopt(1), which parses with glibc's
 * getopt_long: generated option tables (short options with no, a required or an optional value,
 * long options likewise, some sharing a prefix, permuting or stopping at the first operand) and
 * generated argument lists (clusters, attached and detached values, abbreviations, `=` values,
 * `--`, `-`, unknown options, values missing at the end). Both must agree on whether the words
 * parse, and when they do, on every option with its full name and value, in order, and on the
 * operands.
 *
 * What getopt(1) cannot say is left out of the tables: `-NUM`, words matched whole, long options
 * with one dash, values that always follow (tree), long options only written whole. One difference
 * is not the programs': getopt(1) gives every long option the same return value, so glibc takes an
 * abbreviation shared by two long options of the same arity as the first of them, where a program
 * (each option its own value) reports it ambiguous, as the parser does. Such a case is counted and
 * skipped, never compared.
 *
 * PROPERTY_RUNS cases (600 by default, one bash for all of them) from a fixed seed;
 * GETOPT_ORACLE_SEED replays another.
 */

const RUNS = Number(
  process.env.GETOPT_ORACLE_RUNS ?? (process.env.PROPERTY_RUNS ? Math.max(600, Math.floor(Number(process.env.PROPERTY_RUNS) / 50)) : 600),
);
const SEED = Number(process.env.GETOPT_ORACLE_SEED ?? 20261206);

const LETTERS = ['a', 'b', 'c', 'd', 'e', 'f'];
/** Long names with shared prefixes (`al…`, `be…`, `col…`), so abbreviations are exact, unique or ambiguous. */
const LONGS = ['alpha', 'alto', 'all', 'beta', 'better', 'color', 'colour', 'quiet'];
const ARITIES: Arity[] = ['none', 'required', 'optional'];

interface Case {
  shorts: { letter: string; arg: Arity }[];
  longs: { name: string; arg: Arity }[];
  stop: boolean;
  words: string[];
}

const arity = fc.constantFrom(...ARITIES);
const value = fc.constantFrom('v', 'x=y', '', '-b', '--', 'file');

function wordsFor(shorts: Case['shorts'], longs: Case['longs']): fc.Arbitrary<string[]> {
  const letters = [...shorts.map((s) => s.letter), 'z'];
  const names = [...longs.map((l) => l.name), 'zeta'];
  const cluster = fc
    .tuple(
      fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 3 }),
      fc.option(fc.constantFrom('v', '1', '=x'), { nil: undefined }),
    )
    .map(([ls, tail]) => `-${ls.join('')}${tail ?? ''}`);
  const long = fc
    .tuple(fc.constantFrom(...names), fc.integer({ min: 1, max: 6 }), fc.option(value, { nil: undefined }))
    .map(([name, n, v]) => `--${name.slice(0, Math.min(n, name.length))}${v === undefined ? '' : `=${v}`}`);
  const operand = fc.constantFrom('file', 'x=y', '-', '', 'a b');
  return fc.array(
    fc.oneof(
      { weight: 4, arbitrary: cluster },
      { weight: 3, arbitrary: long },
      { weight: 3, arbitrary: operand },
      { weight: 1, arbitrary: fc.constant('--') },
      { weight: 1, arbitrary: value },
    ),
    {
      maxLength: 8,
    },
  );
}

const cases: fc.Arbitrary<Case> = fc
  .tuple(
    fc.uniqueArray(fc.tuple(fc.constantFrom(...LETTERS), arity), { selector: ([l]) => l, maxLength: 5 }),
    fc.uniqueArray(fc.tuple(fc.constantFrom(...LONGS), arity), { selector: ([n]) => n, maxLength: 6 }),
    fc.boolean(),
  )
  .chain(([s, l, stop]) => {
    const shorts = s.map(([letter, arg]) => ({ letter, arg }));
    const longs = l.map(([name, arg]) => ({ name, arg }));
    return wordsFor(shorts, longs).map((words) => ({ shorts, longs, stop, words }));
  });

const literal = (text: string): Word => ({ text, dynamic: false, pattern: false, quoted: false, ansi: false });
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The parser's reading in getopt(1)'s canonical form, or null where it reports an error. */
function ours(c: Case): string[] | null {
  const options: GetoptOption[] = [
    ...c.shorts.map((s) => ({ names: [`-${s.letter}`], arg: s.arg })),
    ...c.longs.map((l) => ({ names: [`--${l.name}`], arg: l.arg })),
  ];
  const spec: GetoptSpec = { options, ...(c.stop ? { stopAtOperand: true } : {}) };
  const p = getopt(c.words.map(literal), spec);
  if (p.unknown.length > 0 || p.missingValue.length > 0) return null;
  const out: string[] = [];
  for (const u of p.used) {
    out.push(u.name);
    if (u.option.arg === 'required' || u.option.arg === 'optional') out.push(u.value?.text ?? '');
  }
  return [...out, '--', ...p.operands.map((w) => w.text)];
}

/** A long word's abbreviation that prefixes two long options of the same arity: getopt(1)'s quirk (above). */
function sameArityAmbiguity(c: Case): boolean {
  return c.words.some((w) => {
    if (!w.startsWith('--') || w === '--') return false;
    const name = w.slice(2).split('=')[0]!;
    if (c.longs.some((l) => l.name === name)) return false;
    const hits = c.longs.filter((l) => l.name.startsWith(name));
    return hits.length > 1 && hits.every((h) => h.arg === hits[0]!.arg);
  });
}

/** How getopt(1)'s -o and -l say an option's arity. */
const COLONS: Record<Arity, string> = { none: '', required: ':', optional: '::' };

/** Runs every case through getopt(1) in one bash: per case, its exit status and, when 0, the words it printed. */
function theirs(all: Case[]): { status: number; words: string[] }[] {
  const script = all
    .map((c) => {
      const short = `${c.stop ? '+' : ''}${c.shorts.map((s) => s.letter + COLONS[s.arg]).join('')}`;
      const long = c.longs.map((l) => l.name + COLONS[l.arg]).join(',');
      const args = c.words.map(quote).join(' ');
      return `o=$(getopt -o ${quote(short)}${long ? ` -l ${quote(long)}` : ''} -n t -- ${args} 2>/dev/null); r=$?; printf '%s\\037' "$r"; if [ "$r" = 0 ]; then eval "set -- $o"; printf '%s\\037' "$@"; fi; printf '\\036'`;
    })
    .join('\n');
  const env = { ...process.env };
  delete env.POSIXLY_CORRECT;
  delete env.GETOPT_COMPATIBLE;
  const run = spawnSync('bash', ['-s'], { input: script, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`bash: ${run.status ?? run.error?.message} ${run.stderr}`);
  const records = run.stdout.split('\x1e');
  records.pop();
  return records.map((r) => {
    const fields = r.split('\x1f');
    fields.pop();
    return { status: Number(fields[0]), words: fields.slice(1) };
  });
}

describe.skipIf(!installed('getopt'))('the option parser against util-linux getopt', () => {
  it(`agrees on ${RUNS} generated tables and argument lists (seed ${SEED})`, () => {
    const all = fc.sample(cases, { seed: SEED, numRuns: RUNS });
    const got = theirs(all);
    expect(got).toHaveLength(all.length);
    let compared = 0;
    let skipped = 0;
    const wrong: string[] = [];
    all.forEach((c, i) => {
      const mine = ours(c);
      const them = got[i]!.status === 0 ? got[i]!.words : null;
      if (sameArityAmbiguity(c) && mine === null && them !== null) {
        skipped++;
        return;
      }
      compared++;
      if (JSON.stringify(mine) !== JSON.stringify(them))
        wrong.push(`${JSON.stringify(c)}\n  ours:   ${JSON.stringify(mine)}\n  getopt: ${JSON.stringify(them)}`);
    });
    expect(wrong.slice(0, 5).join('\n')).toBe('');
    // the comparison covers both outcomes, not only one
    expect(compared).toBeGreaterThan(RUNS * 0.8);
    expect(skipped).toBeLessThan(RUNS * 0.2);
    const errors = all.filter((c) => ours(c) === null).length;
    expect(errors).toBeGreaterThan(RUNS * 0.1);
    expect(errors).toBeLessThan(RUNS * 0.9);
  });

  it('sees the differences that matter: a parser that does not abbreviate disagrees', () => {
    const c: Case = {
      shorts: [{ letter: 'b', arg: 'required' }],
      longs: [{ name: 'alpha', arg: 'required' }],
      stop: false,
      words: ['--alp', 'v', '-bx', 'f'],
    };
    expect(ours(c)).toEqual(['--alpha', 'v', '-b', 'x', '--', 'f']);
    expect(theirs([c])[0]).toEqual({ status: 0, words: ['--alpha', 'v', '-b', 'x', '--', 'f'] });
    const exact: Case = { ...c, words: ['--alp', 'v'] };
    const spec: GetoptSpec = { options: [{ names: ['--alpha'], arg: 'required' }], exactLong: true };
    expect(getopt(['--alp', 'v'].map(literal), spec).unknown).toHaveLength(1);
    expect(theirs([exact])[0]!.status).toBe(0);
  });
});
