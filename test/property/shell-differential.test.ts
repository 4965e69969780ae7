import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashStubs, type BashStubs, type StubLine, type StubRun } from '../helpers/bash-stubs';
import {
  agreementIndex,
  cataloguedPrograms,
  compare,
  explainComparison,
  makeJudge,
  PERSONA,
  type Comparison,
} from '../helpers/shell-agreement';
import { generatedLine, type GeneratedLine } from '../helpers/shell-grammar';

/**
 * The shell reader against bash itself: lines from a grammar of the constructs the reader claims to
 * read, each run by the real bash with every program stubbed (test/helpers/bash-stubs.ts), each read
 * by the reader and judged by decide() under a persona with the shell at the widest ceiling. A line
 * the persona lets through must not run a program the reader did not report, nor a command the
 * persona is refused on its own (test/helpers/shell-agreement.ts). Lines the persona refuses run
 * nothing and are not run.
 *
 * SHELL_FUZZ_RUNS lines (10,000 by default), SHELL_FUZZ_SEED to replay a run.
 */

const RUNS = Number(process.env.SHELL_FUZZ_RUNS ?? 10_000);
// A fixed seed in CI (the run must not depend on luck); a new one on every other run, to keep looking.
const SEED =
  process.env.SHELL_FUZZ_SEED !== undefined
    ? Number(process.env.SHELL_FUZZ_SEED)
    : process.env.CI
      ? 20261130
      : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
const CHUNK = 5_000;
const arbitrary = generatedLine();

interface Failure {
  comparison: Comparison;
  tags: string[];
  seed: number;
  index: number;
  stubStatus: 0 | 1;
}

describe('bash and the shell reader agree on what a line runs', () => {
  let stubs: BashStubs;
  beforeAll(() => {
    stubs = createBashStubs();
  });
  afterAll(() => stubs.cleanup());

  it(
    `on ${RUNS} generated lines (seed ${SEED})`,
    async () => {
      const index = agreementIndex();
      const judge = makeJudge(index);
      const catalogued = cataloguedPrograms(index);
      const started = Date.now();
      let bashMs = 0;
      let letThrough = 0;
      let ranByBash = 0;
      const retried: string[] = [];
      const failures: Failure[] = [];
      const tagTotals = new Map<string, number>();

      for (let from = 0, chunk = 0; from < RUNS; from += CHUNK, chunk++) {
        const seed = (SEED + chunk) | 0;
        const lines = fc.sample(arbitrary, { seed, numRuns: Math.min(CHUNK, RUNS - from) });
        const decisions = lines.map((l) => judge(l.src));
        // Only lines let through can leak; each distinct one runs once.
        const distinct = new Map<string, StubLine>();
        lines.forEach((l, k) => {
          for (const t of l.tags) tagTotals.set(t, (tagTotals.get(t) ?? 0) + 1);
          if (decisions[k]!.verdict === 'deny') return;
          letThrough++;
          distinct.set(`${l.stubStatus}:${l.src}`, { line: l.src, stubStatus: l.stubStatus });
        });
        const t0 = Date.now();
        const keys = [...distinct.keys()];
        const runs = await stubs.runMany([...distinct.values()]);
        // A line the watchdog stopped (a loaded machine) runs again with more time; one that still
        // does not end is a fault of the grammar, reported as such.
        const slow = runs.flatMap((r, k) => (r.timedOut ? [k] : []));
        retried.push(...slow.map((k) => distinct.get(keys[k]!)!.line));
        if (slow.length > 0) {
          const again = await stubs.runMany(
            slow.map((k) => distinct.get(keys[k]!)!),
            { timeoutSeconds: 15 },
          );
          slow.forEach((k, j) => (runs[k] = again[j]!));
          const hung = slow.filter((k) => runs[k]!.timedOut).map((k) => keys[k]);
          expect(hung, 'lines bash did not finish').toEqual([]);
        }
        bashMs += Date.now() - t0;
        ranByBash += keys.length;
        const runOf = new Map<string, StubRun>(keys.map((key, k) => [key, runs[k]!]));
        lines.forEach((l, k) => {
          const run = runOf.get(`${l.stubStatus}:${l.src}`) ?? null;
          const comparison = compare(l.src, decisions[k]!, run, judge, catalogued);
          if (comparison.disagreements.length > 0) failures.push({ comparison, tags: l.tags, seed, index: k, stubStatus: l.stubStatus });
        });
      }

      const seconds = (Date.now() - started) / 1000;
      console.log(
        `shell differential: ${RUNS} lines, ${letThrough} let through under ${PERSONA}, ${ranByBash} distinct run by bash in ${(bashMs / 1000).toFixed(1)} s ` +
          `(${((ranByBash / bashMs) * 1000).toFixed(0)} lines/s, ${retried.length} run again after the watchdog${retried.length ? `: ${JSON.stringify(retried.slice(0, 5))}` : ''}), ${seconds.toFixed(1)} s in all; ${failures.length} lines disagree (seed ${SEED})`,
      );
      // A persona that refused nearly everything would make this property say nothing.
      expect(letThrough / RUNS).toBeGreaterThan(0.05);
      if (failures.length > 0) {
        const t0 = Date.now();
        const message = report(failures, tagTotals, stubs, judge, catalogued);
        console.log(`shell differential: the first failure shrunk in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        expect.fail(message);
      }
    },
    Math.max(120_000, RUNS * 30),
  );
});

/** The first failure shrunk, which constructs fail how often, and the shortest failing line per construct. */
function report(
  failures: Failure[],
  tagTotals: Map<string, number>,
  stubs: BashStubs,
  judge: ReturnType<typeof makeJudge>,
  catalogued: Set<string>,
): string {
  const first = failures[0]!;
  let shrunk: Comparison | null = null;
  let replayed: string | null = null;
  const details = fc.check(
    fc.property(arbitrary, (l: GeneratedLine) => {
      replayed ??= l.src;
      const comparison = compare(l.src, judge(l.src), stubs.run(l.src, l.stubStatus), judge, catalogued);
      if (comparison.disagreements.length > 0) shrunk = comparison;
      return comparison.disagreements.length === 0;
    }),
    { seed: first.seed, path: String(first.index), interruptAfterTimeLimit: 15_000 },
  );
  const counterexample = details.failed && shrunk !== null ? (shrunk as Comparison) : first.comparison;
  const byTag = new Map<string, Failure[]>();
  for (const f of failures) for (const t of f.tags) byTag.set(t, [...(byTag.get(t) ?? []), f]);
  const table = [...byTag.entries()]
    .map(([tag, fs]) => ({
      tag,
      failed: fs.length,
      total: tagTotals.get(tag) ?? 0,
      shortest: fs.reduce((a, b) => (b.comparison.line.length < a.comparison.line.length ? b : a)),
    }))
    .sort((a, b) => b.failed / b.total - a.failed / a.total || b.failed - a.failed);
  return [
    `${failures.length} generated lines run a program the reader did not report, or one ${PERSONA} is refused, and are let through (seed ${SEED}).`,
    `Shrunk${replayed === first.comparison.line ? '' : ' (replay did not reproduce the sampled line; first failure as sampled)'}:`,
    explainComparison(counterexample),
    '',
    'Failing lines per construct (failed/generated), worst first:',
    ...table.map((r) => `  ${r.tag}: ${r.failed}/${r.total}`),
    '',
    'Shortest failing line of the 12 worst constructs:',
    ...table.slice(0, 12).map((r) => `[${r.tag}]\n${explainComparison(r.shortest.comparison)}`),
  ].join('\n');
}
