import { describe, expect, it } from 'vitest';
import { applyOps, emptyState, MAX_PENDING_READS, parseState } from '../../src/core/state';

describe('session state operations', () => {
  it('confirms a read only in the epoch it was let through in', () => {
    let s = applyOps(emptyState(), [{ op: 'pending_read', tool_use_id: 'r1' }]);
    s = applyOps(s, [{ op: 'rearm' }]);
    s = applyOps(s, [{ op: 'confirm_read', tool_use_id: 'r1', label: 'Erik' }]);
    expect(s.confirmed).toBe(false);
    s = applyOps(s, [{ op: 'pending_read', tool_use_id: 'r2' }, { op: 'confirm_read', tool_use_id: 'r2', label: 'Erika' }]);
    expect([s.confirmed, s.label]).toEqual([true, 'Erika']);
  });

  it('ignores a confirmation for a read it never let through', () => {
    expect(applyOps(emptyState(), [{ op: 'confirm_read', tool_use_id: 'nope', label: null }]).confirmed).toBe(false);
  });

  it('bounds the pending reads', () => {
    let s = emptyState();
    for (let i = 0; i < 500; i++) s = applyOps(s, [{ op: 'pending_read', tool_use_id: `r${i}` }]);
    expect(Object.keys(s.pending_reads)).toHaveLength(MAX_PENDING_READS);
    expect(s.pending_reads.r499).toBe(0);
  });

  it('resets a stage count when the stage is entered again', () => {
    let s = applyOps(emptyState(), [{ op: 'enter_stage', stage: 'file' }, { op: 'count', stage: 'file' }, { op: 'count', stage: 'file' }]);
    expect(s.iterations.file).toBe(2);
    s = applyOps(s, [{ op: 'enter_stage', stage: 'file' }]);
    expect(s.iterations.file).toBe(0);
  });

  it.each([null, [], 'x', { v: 2 }, { ...emptyState(), confirmed: 'yes' }, { ...emptyState(), iterations: { a: -1 } }])('rejects %j as a state', (value) => {
    expect(parseState(value)).toBeNull();
  });

  it('round-trips a state', () => {
    const s = applyOps(emptyState(), [{ op: 'set_persona', persona: 'verifier' }, { op: 'enter_stage', stage: 'review' }]);
    expect(parseState(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });
});

describe('the snapshot store', () => {
  it('keeps a bounded number of snapshots, sweeping what killed writers left', async () => {
    const { mkdtempSync, readdirSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { StateStore, KEEP_SNAPSHOTS } = await import('../../src/io/state-store');
    const dir = mkdtempSync(join(tmpdir(), 'pg-store-'));
    try {
      const store = new StateStore(dir).open();
      for (let i = 0; i < 10; i++) store.update('s', [{ op: 'count', stage: 'x' }]);
      const session = store.sessionDir('s');
      // What writers killed mid-publish leave: an old snapshot past the window, a stray temporary file.
      writeFileSync(join(session, '1.json'), JSON.stringify(emptyState()));
      writeFileSync(join(session, '5.123.abc.tmp'), '{');
      expect(store.read('s').state.iterations.x).toBe(10);
      store.update('s', [{ op: 'count', stage: 'x' }]);
      const files = readdirSync(session);
      expect(files.filter((f) => f.endsWith('.json')).sort((a, b) => parseInt(a) - parseInt(b))).toEqual(['4.json', '5.json', '6.json', '7.json', '8.json', '9.json', '10.json', '11.json']);
      expect(files.filter((f) => f.endsWith('.tmp'))).toHaveLength(0);
      expect(store.read('s').state.iterations.x).toBe(11);
      expect(KEEP_SNAPSHOTS).toBe(8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never publishes into a number used before, whatever was deleted', async () => {
    const { mkdtempSync, rmSync, unlinkSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { StateStore } = await import('../../src/io/state-store');
    const dir = mkdtempSync(join(tmpdir(), 'pg-store-'));
    try {
      const store = new StateStore(dir).open();
      for (let i = 0; i < 12; i++) store.update('s', [{ op: 'count', stage: 'x' }]);
      // A hole in the middle of the kept window (a deleter racing ahead) does not hide the latest.
      unlinkSync(join(store.sessionDir('s'), '8.json'));
      expect(store.read('s')).toMatchObject({ seq: 12, state: { iterations: { x: 12 } } });
      store.update('s', [{ op: 'count', stage: 'x' }]);
      expect(store.read('s')).toMatchObject({ seq: 13, state: { iterations: { x: 13 } } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
