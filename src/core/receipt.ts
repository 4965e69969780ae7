import type { Decision } from './decide';
import type { Level } from './levels';
import type { GateName, Scope, Status, Verdict } from './types';

/** One line of the audit log (SPEC §7). */
export interface Receipt {
  v: 1;
  ts: string;
  session_id: string;
  agent_id: string | null;
  agent_type: string | null;
  tool_use_id: string | null;
  hook_event: string;
  tool_name: string | null;
  command_key: string | null;
  family: string | null;
  level: Level | null;
  persona: string | null;
  stage: string | null;
  verdict: Verdict;
  status: Status | string;
  gate: GateName | string;
  rule: string;
  reason: string;
  matched: string[];
  scope: Scope;
  policy_sha256: string | null;
  elapsed_ms: number;
  /** Enforcement `audit`: the verdict the call would have been given; `verdict` is the answer, as if it had passed. */
  would?: Verdict;
  /** A shell tool's line: the part that decided its level, and that part's reason id (`network`, `unknown_program`, …). */
  decided_by?: { words: string; reason: string };
  /** The agent host, when it is not Claude Code (SPEC §10). */
  host?: string;
  /** The tool as that host named it, when it was read as a Claude Code tool of another name. */
  host_tool_name?: string;
}

/**
 * `Date.prototype.toISOString`'s text, made from the UTC fields: the first toISOString of a process
 * sets up V8's time zone cache (it reads /etc/localtime and loads ICU's zone data), which costs a
 * hook about 0.2 ms for a time that is UTC anyway.
 */
export function isoTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  const ms = date.getUTCMilliseconds();
  return `${year < 1000 ? `000${year}`.slice(-4) : year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : ms}Z`;
}

export interface ReceiptEvent {
  session_id: string;
  hook_event_name: string;
  tool_name?: string;
  tool_use_id?: string;
  agent_id?: string;
  agent_type?: string;
}

const EMPTY_SCOPE: Scope = { persona: null, stage: null, families: null, allowed_tools: null, ceiling: null };

function header(event: ReceiptEvent, now: Date) {
  return {
    v: 1 as const,
    ts: isoTime(now),
    session_id: event.session_id,
    agent_id: event.agent_id ?? null,
    agent_type: event.agent_type ?? null,
    tool_use_id: event.tool_use_id ?? null,
    hook_event: event.hook_event_name,
    tool_name: event.tool_name ?? null,
  };
}

export function decisionReceipt(event: ReceiptEvent, decision: Decision, policySha: string | null, now: Date, elapsedMs: number): Receipt {
  return {
    ...header(event, now),
    command_key: decision.subject.key,
    family: decision.subject.family,
    level: decision.subject.level,
    persona: decision.persona,
    stage: decision.stage,
    verdict: decision.verdict,
    status: decision.status,
    gate: decision.gate,
    rule: decision.rule,
    reason: decision.reason,
    matched: decision.resolution.matched.map((s) => s.key),
    scope: decision.scope,
    policy_sha256: policySha,
    elapsed_ms: elapsedMs,
    ...(decision.would !== undefined ? { would: decision.would } : {}),
    ...(decision.subject.decidedBy !== undefined ? { decided_by: decision.subject.decidedBy } : {}),
  };
}

/** A receipt for what happened outside the gates: a failure that denied, a confirmation, a reset. */
export function eventReceipt(
  event: ReceiptEvent,
  fields: {
    verdict: Verdict;
    status: string;
    gate: string;
    rule: string;
    reason: string;
    persona?: string | null;
    stage?: string | null;
    command_key?: string | null;
  },
  policySha: string | null,
  now: Date,
  elapsedMs: number,
): Receipt {
  return {
    ...header(event, now),
    command_key: fields.command_key ?? null,
    family: null,
    level: null,
    persona: fields.persona ?? null,
    stage: fields.stage ?? null,
    verdict: fields.verdict,
    status: fields.status,
    gate: fields.gate,
    rule: fields.rule,
    reason: fields.reason,
    matched: [],
    scope: { ...EMPTY_SCOPE, persona: fields.persona ?? null, stage: fields.stage ?? null },
    policy_sha256: policySha,
    elapsed_ms: elapsedMs,
  };
}
