import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEEP_SNAPSHOTS, StateStore } from '../../src/io/state-store';

/**
 * Writers interleaved where a process descheduled inside the store can meet newer snapshots: while
 * it decides, and between its last look and its link. A writer descheduled at a
 * point lets a whole group of other writers (themselves possibly descheduled) run meanwhile. Each
 * writer adds one to a counter; the reference model is a counter: no increment is lost or counted
 * twice, and each writer saw a different value, as if they had run one after another.
 */
type Stall = 'decide' | 'beforeLink';
interface Writer {
  stall: { at: Stall; meanwhile: Writer[] } | null;
}

// Each schedule runs dozens of real file-system transactions: a few hundred per `npm test`.
const RUNS = Number(process.env.STORE_SCHEDULES ?? 500);

const writers: fc.Memo<Writer[]> = fc.memo((depth) =>
  fc.array(
    fc.record({
      stall:
        depth <= 1
          ? fc.constant(null)
          : fc.option(fc.record({ at: fc.constantFrom<Stall>('decide', 'beforeLink'), meanwhile: writers(depth - 1) }), { freq: 2 }),
    }),
    { minLength: 1, maxLength: depth >= 3 ? KEEP_SNAPSHOTS + 4 : 6 },
  ),
);

const count = (list: Writer[]): number => list.reduce((n, w) => n + 1 + (w.stall ? count(w.stall.meanwhile) : 0), 0);

function run(dir: string, writer: Writer, seen: number[]): void {
  let stalled = false;
  const stallHere = (at: Stall) => () => {
    if (writer.stall?.at !== at || stalled) return;
    stalled = true;
    for (const other of writer.stall.meanwhile) run(dir, other, seen);
  };
  const store = new StateStore(dir, { beforeLink: stallHere('beforeLink') }).open();
  const result = store.transact('s', Date.now() + 60_000, () => {
    stallHere('decide')();
    return { ops: [{ op: 'count', stage: 'x' } as const] };
  });
  seen.push(result.state.iterations.x!);
}

describe('the snapshot store against a counter', () => {
  it(
    `loses and doubles no update however writers interleave (${RUNS} schedules)`,
    () => {
      fc.assert(
        fc.property(writers(3), (schedule) => {
          const dir = mkdtempSync(join(tmpdir(), 'pg-store-prop-'));
          try {
            const seen: number[] = [];
            for (const writer of schedule) run(dir, writer, seen);
            const total = count(schedule);
            const store = new StateStore(dir).open();
            expect(store.read('s').state.iterations.x).toBe(total);
            expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
            expect(readdirSync(store.sessionDir('s')).filter((f) => f.endsWith('.json')).length).toBeLessThanOrEqual(KEEP_SNAPSHOTS);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        }),
        { numRuns: RUNS },
      );
    },
    60_000 + RUNS * 20,
  );
});
