import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyState } from '../../src/core/state';
import { KEEP_SNAPSHOTS, StateStore } from '../../src/io/state-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pg-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const snapshotNames = (store: StateStore) =>
  readdirSync(store.sessionDir('s'))
    .filter((f) => f.endsWith('.json'))
    .sort((a, b) => parseInt(a) - parseInt(b));

describe('the snapshot store', () => {
  it('keeps a bounded number of snapshots, sweeping what killed writers left', () => {
    const store = new StateStore(dir).open();
    for (let i = 0; i < 10; i++) store.update('s', [{ op: 'count', stage: 'x' }]);
    const session = store.sessionDir('s');
    // What writers killed mid-publish leave: an old snapshot past the window, a stray temporary file.
    writeFileSync(join(session, '1.json'), JSON.stringify(emptyState()));
    writeFileSync(join(session, '5.123.abc.tmp'), '{');
    expect(store.read('s').state.iterations.x).toBe(10);
    store.update('s', [{ op: 'count', stage: 'x' }]);
    expect(snapshotNames(store)).toEqual(['4.json', '5.json', '6.json', '7.json', '8.json', '9.json', '10.json', '11.json']);
    expect(readdirSync(session).filter((f) => f.endsWith('.tmp'))).toHaveLength(0);
    expect(store.read('s').state.iterations.x).toBe(11);
    expect(KEEP_SNAPSHOTS).toBe(8);
  });

  it('finds the latest snapshot across a hole in the kept window', () => {
    const store = new StateStore(dir).open();
    for (let i = 0; i < 12; i++) store.update('s', [{ op: 'count', stage: 'x' }]);
    unlinkSync(join(store.sessionDir('s'), '8.json'));
    expect(store.read('s')).toMatchObject({ seq: 12, state: { iterations: { x: 12 } } });
    store.update('s', [{ op: 'count', stage: 'x' }]);
    expect(store.read('s')).toMatchObject({ seq: 13, state: { iterations: { x: 13 } } });
  });

  /** A store whose writer, once armed, is descheduled at `where` while `others` updates land. */
  function stalledWriter(where: 'decide' | 'beforeLink', others: number) {
    let armed = false;
    let stalled = 0;
    const stall = () => {
      if (!armed || stalled > 0) return;
      stalled++;
      const other = new StateStore(dir).open();
      for (let i = 0; i < others; i++) other.update('s', [{ op: 'rearm' }]);
    };
    const store = new StateStore(dir, where === 'beforeLink' ? { beforeLink: stall } : {}).open();
    store.update('s', [{ op: 'rearm' }]);
    armed = true;
    const rearm = () =>
      store.transact('s', Date.now() + 5000, () => {
        if (where === 'decide') stall();
        return { ops: [{ op: 'rearm' } as const] };
      });
    return { store, rearm, stalled: () => stalled };
  }

  // A writer that read snapshot N and was descheduled while more than KEEP_SNAPSHOTS others landed
  // finds N+1 deleted; were it to link there, its update would sit below the latest, unread.
  it.each(['decide', 'beforeLink'] as const)(
    'keeps the update of a writer descheduled at %s while the window moved past its number',
    (where) => {
      const writer = stalledWriter(where, KEEP_SNAPSHOTS + 3);
      const result = writer.rearm();
      expect(writer.stalled()).toBe(1);
      const expected = 1 + KEEP_SNAPSHOTS + 3 + 1;
      expect(result.state.epoch).toBe(expected);
      expect(writer.store.read('s')).toMatchObject({ seq: expected, state: { epoch: expected } });
      const kept = snapshotNames(writer.store).map((f) => parseInt(f));
      expect(kept).toEqual(Array.from({ length: KEEP_SNAPSHOTS }, (_, i) => expected - KEEP_SNAPSHOTS + 1 + i));
    },
  );

  it('removes the temporary file of a number before it deletes the snapshot of that number', () => {
    // Snapshot 2 is deleted by the writer that publishes 2 + KEEP_SNAPSHOTS. A writer that still
    // holds a temporary file for number 2 (descheduled after its last look) must have lost it by
    // then, or its link into the freed name would succeed.
    const store = new StateStore(dir).open();
    store.update('s', [{ op: 'rearm' }]);
    const deleted: number[] = [];
    const collector = new StateStore(dir, {
      beforeDeletingSnapshots: (sessionDir, deleting) => {
        for (const seq of deleting) {
          expect(readdirSync(sessionDir).filter((f) => f.startsWith(`${seq}.`) && f.endsWith('.tmp'))).toEqual([]);
          deleted.push(seq);
        }
      },
    }).open();
    for (let seq = 2; seq < 2 + KEEP_SNAPSHOTS; seq++) collector.update('s', [{ op: 'rearm' }]);
    writeFileSync(join(store.sessionDir('s'), '2.4242.stalled.tmp'), '{}');
    collector.update('s', [{ op: 'rearm' }]);
    expect(deleted).toEqual([1, 2]);
    expect(readdirSync(store.sessionDir('s')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
