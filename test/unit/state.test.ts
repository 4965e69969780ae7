import { describe, expect, it } from 'vitest';
import { applyOps, emptyState, MAX_PENDING_READS, parseState } from '../../src/core/state';

describe('session state operations', () => {
  it('confirms a read only in the epoch it was let through in', () => {
    let s = applyOps(emptyState(), [{ op: 'pending_read', tool_use_id: 'r1' }]);
    s = applyOps(s, [{ op: 'rearm' }]);
    s = applyOps(s, [{ op: 'confirm_read', tool_use_id: 'r1', label: 'Erik' }]);
    expect(s.confirmed).toBe(false);
    s = applyOps(s, [
      { op: 'pending_read', tool_use_id: 'r2' },
      { op: 'confirm_read', tool_use_id: 'r2', label: 'Erika' },
    ]);
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
    let s = applyOps(emptyState(), [
      { op: 'enter_stage', stage: 'file' },
      { op: 'count', stage: 'file' },
      { op: 'count', stage: 'file' },
    ]);
    expect(s.iterations.file).toBe(2);
    s = applyOps(s, [{ op: 'enter_stage', stage: 'file' }]);
    expect(s.iterations.file).toBe(0);
  });

  it.each([null, [], 'x', { v: 2 }, { ...emptyState(), confirmed: 'yes' }, { ...emptyState(), iterations: { a: -1 } }])(
    'rejects %j as a state',
    (value) => {
      expect(parseState(value)).toBeNull();
    },
  );

  it('round-trips a state', () => {
    const s = applyOps(emptyState(), [
      { op: 'set_persona', persona: 'verifier' },
      { op: 'enter_stage', stage: 'review' },
    ]);
    expect(parseState(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });
});
