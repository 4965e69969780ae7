import { decide, localeFor, type Decision, type Env, type ShellResolver } from '../core/decide';
import type { ToolEvent } from '../core/event';
import type { Locale } from '../core/messages';
import type { PolicyIndex } from '../core/policy-index';
import { decidePost } from '../core/post';
import { applyOps, emptyState, type SessionState } from '../core/state';
import type { DecideOptions, PinnedLookup, ProtectedPathCheck, Verdict } from '../core/types';
import type { EarlierTestCall, Expectation, TestCall, TestCase } from './test-file';

/** What the decision engine needs besides the policy: supplied by the edge. */
export interface CaseDeps {
  env: Env;
  isProtected: ProtectedPathCheck;
  /** The same check naming guarded paths in a case's language, when the edge has one per language. */
  isProtectedIn?: (locale: Locale) => ProtectedPathCheck;
  pinned?: PinnedLookup;
  shell?: ShellResolver;
  cwd: string;
  locale?: Locale;
  /** Gate 0's options for a case judged under the sandbox (`"sandbox": true`), given the case's home. */
  sandbox?: (home: string | undefined) => Pick<DecideOptions, 'sandboxed' | 'outsideSandbox'>;
}

export interface Outcome {
  /** The verdict the policy gives: in audit mode, the one it would give. */
  verdict: Verdict;
  /** The answer the host gets, when audit mode lets a refusal through. */
  answered?: Verdict;
  status: string;
  gate: string;
  rule: string;
  reason: string;
  command_key: string;
  persona: string | null;
  stage: string | null;
}

export interface CaseResult {
  name: string;
  ok: boolean;
  expected: Expectation;
  actual: Outcome;
  /** Each expectation that did not hold, by field. */
  mismatches: ('verdict' | 'status' | 'gate' | 'rule' | 'reason')[];
  before: { tool: string; verdict: Verdict; status: string }[];
}

export const TEST_SESSION = 'persona-gate-test';

export function outcomeOf(decision: Decision): Outcome {
  return {
    verdict: decision.would ?? decision.verdict,
    ...(decision.would !== undefined ? { answered: decision.verdict } : {}),
    status: decision.status,
    gate: decision.gate,
    rule: decision.rule,
    reason: decision.reason,
    command_key: decision.subject.key,
    persona: decision.persona,
    stage: decision.stage,
  };
}

function eventFor(call: TestCall, n: number, cwd: string): ToolEvent {
  return {
    hook_event_name: 'PreToolUse',
    session_id: TEST_SESSION,
    tool_name: call.tool,
    tool_input: call.input,
    tool_use_id: `toolu_test_${n}`,
    cwd,
    ...(call.agent_type !== undefined ? { agent_type: call.agent_type } : {}),
  };
}

/**
 * One case, decided as the hook would decide it: a fresh session whose persona and stage come
 * from the environment the policy names (so a bound agent type still chooses its own persona),
 * the earlier calls in order — each let through runs, and its response feeds the PostToolUse
 * step — then the call under test.
 */
export function runCase(index: PolicyIndex, testCase: TestCase, deps: CaseDeps): CaseResult {
  const env: Env = {
    ...deps.env,
    ...testCase.env,
    [index.settings.persona_env]: testCase.persona ?? '',
    [index.settings.stage_env]: testCase.stage ?? '',
  };
  let state: SessionState = emptyState();
  const isProtected = deps.isProtectedIn ? deps.isProtectedIn(deps.locale ?? localeFor(index, env)) : deps.isProtected;
  const sandbox = testCase.sandbox === true && deps.sandbox ? deps.sandbox(env.HOME) : {};
  const judge = (event: ToolEvent) =>
    decide({
      event,
      index,
      state,
      env,
      options: { confirmOn: 'post', ...sandbox },
      isProtected,
      ...(deps.pinned ? { pinned: deps.pinned } : {}),
      ...(deps.shell ? { shell: deps.shell } : {}),
      ...(deps.locale ? { locale: deps.locale } : {}),
    });
  const before: CaseResult['before'] = [];
  testCase.before.forEach((call: EarlierTestCall, i) => {
    const event = eventFor(call, i + 1, deps.cwd);
    const decision = judge(event);
    state = applyOps(state, decision.ops);
    before.push({ tool: call.tool, verdict: decision.would ?? decision.verdict, status: decision.status });
    if (decision.verdict === 'deny') return;
    const post = decidePost(index, { ...event, hook_event_name: 'PostToolUse', tool_response: call.response }, env, deps.shell);
    state = applyOps(state, post.ops);
  });
  const actual = outcomeOf(judge(eventFor(testCase.call, testCase.before.length + 1, deps.cwd)));
  const expected = testCase.expect;
  const mismatches: CaseResult['mismatches'] = [];
  if (actual.verdict !== expected.verdict) mismatches.push('verdict');
  if (expected.status !== undefined && actual.status !== expected.status) mismatches.push('status');
  if (expected.gate !== undefined && actual.gate !== expected.gate) mismatches.push('gate');
  if (expected.rule !== undefined && actual.rule !== expected.rule) mismatches.push('rule');
  if (expected.reason !== undefined && !actual.reason.includes(expected.reason)) mismatches.push('reason');
  return { name: testCase.name, ok: mismatches.length === 0, expected, actual, mismatches, before };
}
