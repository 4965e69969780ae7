import { decide, type Env, type ShellResolver } from '../core/decide';
import type { ToolEvent } from '../core/event';
import type { Locale } from '../core/messages';
import type { PolicyIndex } from '../core/policy-index';
import { decidePost } from '../core/post';
import { applyOps, emptyState, type SessionState } from '../core/state';
import type { DecideOptions, PinnedLookup, ProtectedPathCheck, Verdict } from '../core/types';
import type { ReplayStep, TranscriptCall } from './transcript';
import { outcomeOf, type Outcome } from './cases';

export interface ReplayDeps {
  env: Env;
  isProtected: ProtectedPathCheck;
  pinned?: PinnedLookup;
  shell?: ShellResolver;
  locale?: Locale;
  /** Gate 0 as the hook has it in this project: whether the host's sandbox holds the guarded paths, and its bounds. */
  sandbox?: Pick<DecideOptions, 'sandboxed' | 'outsideSandbox'>;
  /** Called as the steps are decided (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** One replayed tool call: what the policy would have answered, and why. */
export interface ReplayRow extends Outcome {
  n: number;
  ts: string | null;
  session_id: string;
  tool_use_id: string;
  agent_type: string | null;
  tool_name: string;
  source: string;
  line: number;
}

export interface SummaryRow {
  persona: string | null;
  command_key: string;
  status: string;
  verdict: Verdict;
  calls: number;
}

function preEvent(call: TranscriptCall, agentType: string | undefined): ToolEvent {
  return {
    hook_event_name: 'PreToolUse',
    session_id: call.session_id,
    tool_name: call.tool_name,
    tool_input: call.tool_input,
    tool_use_id: call.tool_use_id,
    ...(call.cwd !== undefined ? { cwd: call.cwd } : {}),
    ...(call.agent_id !== undefined ? { agent_id: call.agent_id } : {}),
    ...(agentType !== undefined ? { agent_type: agentType } : {}),
  };
}

/**
 * Replays the steps in order through the policy, each session with a scratch state of its own
 * held in memory: a PreToolUse is decided and its state changes applied; a PostToolUse (a result
 * the recording shows) confirms an identity read when the replayed answer let the call run.
 */
export function replay(index: PolicyIndex, steps: readonly ReplayStep[], deps: ReplayDeps): ReplayRow[] {
  const states = new Map<string, SessionState>();
  const answered = new Map<string, Verdict>();
  const rows: ReplayRow[] = [];
  const every = Math.max(1, Math.floor(steps.length / 200));
  steps.forEach((step, i) => {
    if (deps.onProgress && i % every === 0) deps.onProgress(i, steps.length);
    const { call } = step;
    const state = states.get(call.session_id) ?? emptyState();
    const event = preEvent(call, step.agent_type);
    if (step.kind === 'post') {
      if (answered.get(call.tool_use_id) === 'deny') return;
      const post = decidePost(
        index,
        { ...event, hook_event_name: 'PostToolUse', tool_response: step.result.response },
        deps.env,
        deps.shell,
      );
      if (post.ops.length > 0) states.set(call.session_id, applyOps(state, post.ops));
      return;
    }
    const decision = decide({
      event,
      index,
      state,
      env: deps.env,
      options: { confirmOn: 'post', ...deps.sandbox },
      isProtected: deps.isProtected,
      ...(deps.pinned ? { pinned: deps.pinned } : {}),
      ...(deps.shell ? { shell: deps.shell } : {}),
      ...(deps.locale ? { locale: deps.locale } : {}),
    });
    if (decision.ops.length > 0) states.set(call.session_id, applyOps(state, decision.ops));
    answered.set(call.tool_use_id, decision.verdict);
    const { command_key, persona, stage, ...verdictAndWhy } = outcomeOf(decision);
    rows.push({
      n: rows.length + 1,
      ts: call.ts,
      session_id: call.session_id,
      tool_use_id: call.tool_use_id,
      agent_type: step.agent_type ?? null,
      tool_name: call.tool_name,
      command_key,
      persona,
      stage,
      ...verdictAndWhy,
      source: call.source,
      line: call.line,
    });
  });
  deps.onProgress?.(steps.length, steps.length);
  return rows;
}

const ORDER: Record<Verdict, number> = { deny: 0, ask: 1, allow: 2, abstain: 3 };

/** Calls counted by persona, command, status and verdict: refusals first, then the most frequent. */
export function summarize(rows: readonly ReplayRow[]): SummaryRow[] {
  const groups = new Map<string, SummaryRow>();
  for (const r of rows) {
    const key = JSON.stringify([r.persona, r.command_key, r.status, r.verdict]);
    const g = groups.get(key);
    if (g) g.calls += 1;
    else groups.set(key, { persona: r.persona, command_key: r.command_key, status: r.status, verdict: r.verdict, calls: 1 });
  }
  return [...groups.values()].sort(
    (a, b) =>
      ORDER[a.verdict] - ORDER[b.verdict] ||
      b.calls - a.calls ||
      (a.persona ?? '').localeCompare(b.persona ?? '') ||
      a.command_key.localeCompare(b.command_key),
  );
}

export function verdictCounts(rows: readonly ReplayRow[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { deny: 0, ask: 0, allow: 0, abstain: 0 };
  for (const r of rows) counts[r.verdict] += 1;
  return counts;
}
