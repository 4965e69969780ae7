import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide, type DecideInput, type Decision } from '../../src/core/decide';
import type { ToolEvent } from '../../src/core/event';
import { buildPolicyIndex, type MemoryPolicyIndex, type PolicyIndex } from '../../src/core/policy-index';
import { emptyState, type SessionState } from '../../src/core/state';
import type { DecideOptions } from '../../src/core/types';
import { validatePolicy } from '../../src/policy/validate';

export const ROOT = join(__dirname, '..', '..');
export const TAX_POLICY_PATH = join(ROOT, 'examples', 'tax-filing.json');
export const MERGE_POLICY_PATH = join(ROOT, 'examples', 'merge-captain.json');
export const SOFTWARE_POLICY_PATH = join(ROOT, 'examples', 'software-team.json');

export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/**
 * The example tax policy as JSON with the modelo-preparer given the shell family and a ceiling that
 * reaches it: as shipped, the shell tool itself is outside that persona's reach, so a shell handoff
 * would be refused for the shell before the handoff gate is reached.
 */
export function taxPolicyWithShell(ceiling: 'process_exec' | 'network' = 'process_exec'): Record<string, any> {
  const policy = readJson(TAX_POLICY_PATH) as Record<string, any>;
  policy.personas['modelo-preparer'].families.push('shell');
  policy.personas['modelo-preparer'].ceiling = ceiling;
  return policy;
}

export function indexOf(policy: unknown, path = '/policy.json'): MemoryPolicyIndex {
  const result = validatePolicy(policy);
  if (!result.ok) throw new Error(`test policy invalid: ${JSON.stringify(result.problems)}`);
  return buildPolicyIndex(result.policy, 'sha-test', path);
}

export const taxIndex = () => indexOf(readJson(TAX_POLICY_PATH), TAX_POLICY_PATH);
export const mergeIndex = () => indexOf(readJson(MERGE_POLICY_PATH), MERGE_POLICY_PATH);

export function pre(tool: string, input: Record<string, unknown> = {}, extra: Partial<ToolEvent> = {}): ToolEvent {
  return {
    hook_event_name: 'PreToolUse',
    session_id: 'test-session',
    tool_name: tool,
    tool_input: input,
    tool_use_id: 'toolu_1',
    cwd: '/work/project',
    ...extra,
  };
}

export const confirmed = (): SessionState => ({ ...emptyState(), confirmed: true });

/** decide() with the defaults of a test: an empty session, no environment, confirmation on the post event, nothing guarded, no shell reader. */
export function run(
  index: PolicyIndex,
  event: ToolEvent,
  opts: {
    state?: SessionState;
    env?: Record<string, string>;
    options?: Partial<DecideOptions>;
    isProtected?: DecideInput['isProtected'];
    shell?: DecideInput['shell'];
  } = {},
): Decision {
  return decide({
    event,
    index,
    state: opts.state ?? emptyState(),
    env: opts.env ?? {},
    options: { confirmOn: 'post', ...opts.options },
    isProtected: opts.isProtected ?? (() => null),
    ...(opts.shell ? { shell: opts.shell } : {}),
  });
}
