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
    const { StateStore, KEEP_SNAPSHOTS, SWEEP_EVERY } = await import('../../src/io/state-store');
    const { sessionKey } = await import('../../src/io/hash');
    const dir = mkdtempSync(join(tmpdir(), 'pg-store-'));
    try {
      const store = new StateStore(dir).open();
      const key = sessionKey('s');
      for (let i = 0; i < 10; i++) store.update('s', [{ op: 'count', stage: 'x' }]);
      // What a writer killed after publishing seq 3 and before deleting would leave, and a stray temp file.
      writeFileSync(join(store.sessionsDir, `${key}.1.json`), JSON.stringify(emptyState()));
      writeFileSync(join(store.sessionsDir, `${key}.5.123.abc.tmp`), '{');
      for (let i = 10; i < SWEEP_EVERY; i++) store.update('s', [{ op: 'count', stage: 'x' }]);
      const files = readdirSync(store.sessionsDir).filter((f) => f.startsWith(key));
      expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(KEEP_SNAPSHOTS);
      expect(files.filter((f) => f.endsWith('.tmp'))).toHaveLength(0);
      expect(store.read('s').state.iterations.x).toBe(SWEEP_EVERY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
