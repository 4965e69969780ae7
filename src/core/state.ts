/** Per-session state (SPEC §6) and the pure operations that change it. */
export interface SessionState {
  v: 1;
  /** An identity read has run since the session started or the last switch. */
  confirmed: boolean;
  /** The active profile's display label, when known. */
  label: string | null;
  /** Bumped by every switch and reset: a read confirms only the epoch it was let through in. */
  epoch: number;
  /** Identity reads let through and not yet seen to run: tool_use_id → epoch. */
  pending_reads: Record<string, number>;
  persona: string | null;
  stage: string | null;
  /** Calls let through per stage during its current visit. */
  iterations: Record<string, number>;
}

export type StateOp =
  | { op: 'count'; stage: string }
  | { op: 'rearm' }
  | { op: 'pending_read'; tool_use_id: string }
  | { op: 'confirm'; label: string | null }
  | { op: 'confirm_read'; tool_use_id: string; label: string | null }
  | { op: 'reset' }
  | { op: 'set_persona'; persona: string | null }
  | { op: 'enter_stage'; stage: string | null };

export const MAX_PENDING_READS = 64;

export function emptyState(): SessionState {
  return { v: 1, confirmed: false, label: null, epoch: 0, pending_reads: {}, persona: null, stage: null, iterations: {} };
}

function withPending(pending: Record<string, number>, id: string, epoch: number): Record<string, number> {
  const next: Record<string, number> = {};
  const kept = Object.entries(pending).filter(([key]) => key !== id);
  for (const [key, value] of kept.slice(Math.max(0, kept.length - (MAX_PENDING_READS - 1)))) next[key] = value;
  next[id] = epoch;
  return next;
}

function without(record: Record<string, number>, id: string): Record<string, number> {
  const next: Record<string, number> = {};
  for (const [key, value] of Object.entries(record)) if (key !== id) next[key] = value;
  return next;
}

export function applyOp(state: SessionState, op: StateOp): SessionState {
  switch (op.op) {
    case 'count':
      return { ...state, iterations: { ...state.iterations, [op.stage]: (state.iterations[op.stage] ?? 0) + 1 } };
    case 'rearm':
      return { ...state, confirmed: false, label: null, epoch: state.epoch + 1, pending_reads: {} };
    case 'pending_read':
      return { ...state, pending_reads: withPending(state.pending_reads, op.tool_use_id, state.epoch) };
    case 'confirm':
      return { ...state, confirmed: true, label: op.label ?? state.label };
    case 'confirm_read': {
      const epoch = Object.prototype.hasOwnProperty.call(state.pending_reads, op.tool_use_id)
        ? state.pending_reads[op.tool_use_id]
        : undefined;
      if (epoch !== state.epoch) return state;
      return { ...state, confirmed: true, label: op.label ?? state.label, pending_reads: without(state.pending_reads, op.tool_use_id) };
    }
    case 'reset':
      return { ...emptyState(), epoch: state.epoch + 1 };
    case 'set_persona':
      return { ...state, persona: op.persona, stage: null };
    case 'enter_stage':
      return {
        ...state,
        stage: op.stage,
        iterations: op.stage === null ? state.iterations : { ...state.iterations, [op.stage]: 0 },
      };
  }
}

export function applyOps(state: SessionState, ops: readonly StateOp[]): SessionState {
  return ops.reduce(applyOp, state);
}

/** Reads a stored state; anything that is not exactly a state is rejected (the caller denies). */
export function parseState(value: unknown): SessionState | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const s = value as Record<string, unknown>;
  const isCountMap = (m: unknown): m is Record<string, number> =>
    typeof m === 'object' && m !== null && !Array.isArray(m) &&
    Object.values(m).every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0);
  const nullableString = (x: unknown): x is string | null => x === null || typeof x === 'string';
  if (
    s.v !== 1 ||
    typeof s.confirmed !== 'boolean' ||
    !nullableString(s.label) ||
    typeof s.epoch !== 'number' || !Number.isInteger(s.epoch) || s.epoch < 0 ||
    !isCountMap(s.pending_reads) ||
    !nullableString(s.persona) ||
    !nullableString(s.stage) ||
    !isCountMap(s.iterations)
  ) {
    return null;
  }
  return {
    v: 1,
    confirmed: s.confirmed,
    label: s.label,
    epoch: s.epoch,
    pending_reads: s.pending_reads,
    persona: s.persona,
    stage: s.stage,
    iterations: s.iterations,
  };
}
