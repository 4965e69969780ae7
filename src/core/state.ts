import { SIGNATURE_KEY } from './event';
import { own } from './own';

/** Per-session state (SPEC §6) and the pure operations that change it. */
export interface SessionState {
  v: 1;
  /** An identity read has run since the session started or the last switch. */
  confirmed: boolean;
  /** The active profile's display label, when known. */
  label: string | null;
  /**
   * What the domain's profile state (identity.profile_state) was when the session was confirmed: a
   * fingerprint of it, or null when the policy names none or it has not been seen.
   */
  profile: string | null;
  /** Bumped by every switch and reset: a read confirms only the epoch it was let through in. */
  epoch: number;
  /** Identity reads let through and not yet seen to run: tool_use_id → epoch. */
  pending_reads: Record<string, number>;
  /**
   * The domain's profile state as each pending read found it when it was let through: a read
   * confirms only if the state is the same when it has run (it may have changed while it ran).
   */
  pending_profiles: Record<string, string | null>;
  persona: string | null;
  stage: string | null;
  /** Calls let through per stage during its current visit. */
  iterations: Record<string, number>;
}

export type StateOp =
  | { op: 'count'; stage: string }
  | { op: 'rearm' }
  | { op: 'pending_read'; tool_use_id: string; profile?: string | null }
  | { op: 'confirm'; label: string | null; profile?: string | null }
  | { op: 'confirm_read'; tool_use_id: string; label: string | null; profile?: string | null }
  | { op: 'reset' }
  | { op: 'set_persona'; persona: string | null }
  | { op: 'enter_stage'; stage: string | null };

export const MAX_PENDING_READS = 64;

export function emptyState(): SessionState {
  return {
    v: 1,
    confirmed: false,
    label: null,
    profile: null,
    epoch: 0,
    pending_reads: {},
    pending_profiles: {},
    persona: null,
    stage: null,
    iterations: {},
  };
}

/** A pending read that can no longer confirm anything: its post-tool event only clears it. */
const STALE = -1;

function withPending(pending: Record<string, number>, id: string, epoch: number): Record<string, number> {
  const next: Record<string, number> = {};
  const kept = Object.entries(pending).filter(([key]) => key !== id);
  for (const [key, value] of kept.slice(Math.max(0, kept.length - (MAX_PENDING_READS - 1)))) next[key] = value;
  // Calls matched by signature cannot be told apart: an identical read still pending from another
  // epoch makes both ambiguous, so neither confirms.
  const before = Object.prototype.hasOwnProperty.call(pending, id) ? pending[id] : undefined;
  next[id] = id.startsWith(SIGNATURE_KEY) && before !== undefined && before !== epoch ? STALE : epoch;
  return next;
}

/**
 * What a switch or a reset leaves of the pending reads. A call id names one call, so its entry
 * simply goes; a signature may be shared by a read that ran before the switch and one let through
 * after it, so it stays, stale, until its post-tool event clears it.
 */
function afterRearm(pending: Record<string, number>): Record<string, number> {
  const next: Record<string, number> = {};
  for (const key of Object.keys(pending)) if (key.startsWith(SIGNATURE_KEY)) next[key] = STALE;
  return next;
}

function without<T>(record: Record<string, T>, id: string): Record<string, T> {
  const next: Record<string, T> = {};
  for (const [key, value] of Object.entries(record)) if (key !== id) next[key] = value;
  return next;
}

/** The profiles of the reads still pending, and only theirs. */
function profilesOf(pending: Record<string, number>, profiles: Record<string, string | null>): Record<string, string | null> {
  const next: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(profiles)) if (Object.prototype.hasOwnProperty.call(pending, key)) next[key] = value;
  return next;
}

export function applyOp(state: SessionState, op: StateOp): SessionState {
  const next = applyOne(state, op);
  return next === state ? state : { ...next, pending_profiles: profilesOf(next.pending_reads, next.pending_profiles) };
}

function applyOne(state: SessionState, op: StateOp): SessionState {
  switch (op.op) {
    case 'count':
      return { ...state, iterations: { ...state.iterations, [op.stage]: (own(state.iterations, op.stage) ?? 0) + 1 } };
    case 'rearm':
      return {
        ...state,
        confirmed: false,
        label: null,
        profile: null,
        epoch: state.epoch + 1,
        pending_reads: afterRearm(state.pending_reads),
      };
    case 'pending_read': {
      const profiles = without(state.pending_profiles, op.tool_use_id);
      if (op.profile !== undefined) profiles[op.tool_use_id] = op.profile;
      return { ...state, pending_reads: withPending(state.pending_reads, op.tool_use_id, state.epoch), pending_profiles: profiles };
    }
    case 'confirm':
      return { ...state, confirmed: true, label: op.label ?? state.label, profile: op.profile ?? null };
    case 'confirm_read': {
      const epoch = Object.prototype.hasOwnProperty.call(state.pending_reads, op.tool_use_id)
        ? state.pending_reads[op.tool_use_id]
        : undefined;
      if (epoch === STALE) return { ...state, pending_reads: without(state.pending_reads, op.tool_use_id) };
      if (epoch !== state.epoch) return state;
      // the profile changed while the read ran: what it showed may not be the profile now active
      const before = Object.prototype.hasOwnProperty.call(state.pending_profiles, op.tool_use_id)
        ? state.pending_profiles[op.tool_use_id]
        : undefined;
      if (before !== undefined && op.profile !== undefined && before !== op.profile)
        return { ...state, pending_reads: without(state.pending_reads, op.tool_use_id) };
      return {
        ...state,
        confirmed: true,
        label: op.label ?? state.label,
        profile: op.profile ?? null,
        pending_reads: without(state.pending_reads, op.tool_use_id),
      };
    }
    case 'reset':
      return { ...emptyState(), epoch: state.epoch + 1, pending_reads: afterRearm(state.pending_reads) };
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
  const isCountMap = (m: unknown, least = 0): m is Record<string, number> =>
    typeof m === 'object' &&
    m !== null &&
    !Array.isArray(m) &&
    Object.values(m).every((n) => typeof n === 'number' && Number.isInteger(n) && n >= least);
  const nullableString = (x: unknown): x is string | null => x === null || typeof x === 'string';
  const isProfileMap = (m: unknown): m is Record<string, string | null> =>
    typeof m === 'object' && m !== null && !Array.isArray(m) && Object.values(m).every(nullableString);
  if (
    s.v !== 1 ||
    typeof s.confirmed !== 'boolean' ||
    !nullableString(s.label) ||
    (s.profile !== undefined && !nullableString(s.profile)) ||
    typeof s.epoch !== 'number' ||
    !Number.isInteger(s.epoch) ||
    s.epoch < 0 ||
    !isCountMap(s.pending_reads, STALE) ||
    (s.pending_profiles !== undefined && !isProfileMap(s.pending_profiles)) ||
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
    // A state written before profile_state existed has seen no profile.
    profile: s.profile === undefined ? null : (s.profile as string | null),
    epoch: s.epoch,
    pending_reads: s.pending_reads,
    // A state written before the reads kept their profile has none to compare.
    pending_profiles: profilesOf(s.pending_reads, (s.pending_profiles as Record<string, string | null> | undefined) ?? {}),
    persona: s.persona,
    stage: s.stage,
    iterations: s.iterations,
  };
}
