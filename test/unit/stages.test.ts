import { describe, expect, it } from 'vitest';
import { applyOps, emptyState, type StateOp } from '../../src/core/state';
import { buildPolicyIndex } from '../../src/core/policy-index';
import { confirmed, mergeIndex, pre, run, taxIndex } from '../helpers/policy';

const tax = taxIndex();
const merge = mergeIndex();
const verifier = (stage?: string, state = confirmed()) => ({
  env: { PERSONA_GATE_PERSONA: 'verifier', ...(stage ? { PERSONA_GATE_STAGE: stage } : {}) },
  state,
});

describe('gate 5: stages (golden)', () => {
  it.each([
    // [stage, tool, verdict, status]
    ['review', 'mcp__aeat__modelo_list', 'abstain', 'ok'],
    ['review', 'mcp__aeat__modelo_export', 'deny', 'scope_violation'],
    ['file', 'mcp__aeat__modelo_export', 'ask', 'confirmation_required'],
    ['file', 'Read', 'deny', 'scope_violation'],
    ['review', 'Read', 'abstain', 'ok'],
    ['review', 'mcp__aeat__profile_switch', 'deny', 'permission_denied'],
    ['file', 'mcp__aeat__profile_switch', 'abstain', 'ok'],
    [undefined, 'mcp__aeat__modelo_export', 'ask', 'confirmation_required'],
    [undefined, 'Read', 'abstain', 'ok'],
  ])('verifier in stage %s calling %s → %s (%s)', (stage, tool, verdict, status) => {
    const d = run(tax, pre(tool), verifier(stage));
    expect([d.verdict, d.status]).toEqual([verdict, status]);
    expect(d.stage).toBe(stage ?? null);
    if (status === 'scope_violation' || (status === 'permission_denied' && stage)) expect(d.gate).toBe('stage');
  });

  it('says which stage refused and what it allows', () => {
    const d = run(tax, pre('mcp__aeat__modelo_export'), verifier('review'));
    expect(d.reason).toBe(
      'persona-gate: the verifier persona may not run modelo.export in stage "review": the stage allows only modelo.list, modelo.show, modelo.check, config, file_read. Finish this stage and move to one that allows modelo.export, or use an allowed tool.',
    );
  });

  it('narrows the merge captain stage by stage (Harn example)', () => {
    const captain = (stage: string) => ({ env: { PERSONA_GATE_PERSONA: 'merge_captain', PERSONA_GATE_STAGE: stage }, state: confirmed() });
    expect(run(merge, pre('mcp__github__get_pull_request'), captain('classify')).verdict).toBe('abstain');
    expect(run(merge, pre('mcp__linear__get_issue'), captain('classify')).status).toBe('scope_violation');
    expect(run(merge, pre('mcp__linear__get_issue'), captain('plan_repair')).verdict).toBe('abstain');
    expect(run(merge, pre('Edit', { file_path: '/w/a.ts' }), captain('plan_repair')).status).toBe('scope_violation');
    expect(run(merge, pre('Edit', { file_path: '/w/a.ts' }), captain('apply_repair')).verdict).toBe('abstain');
    expect(run(merge, pre('mcp__ci__rerun'), captain('classify')).status).toBe('permission_denied');
    expect(run(merge, pre('mcp__ci__rerun'), captain('apply_repair')).verdict).toBe('abstain');
    expect(run(merge, pre('mcp__github__merge_pull_request'), captain('apply_repair')).status).toBe('permission_denied');
    expect(
      run(merge, pre('mcp__github__merge_pull_request'), { env: { PERSONA_GATE_PERSONA: 'merge_captain' }, state: confirmed() }).status,
    ).toBe('confirmation_required');
  });

  it('takes the session stage before the environment', () => {
    const d = run(tax, pre('mcp__aeat__modelo_export'), {
      env: { PERSONA_GATE_PERSONA: 'verifier', PERSONA_GATE_STAGE: 'file' },
      state: { ...confirmed(), stage: 'review' },
    });
    expect([d.stage, d.status]).toEqual(['review', 'scope_violation']);
  });

  it("refuses every call when the stage is not one of the persona's", () => {
    const d = run(tax, pre('Read'), verifier('submit'));
    expect([d.verdict, d.status, d.rule]).toEqual(['deny', 'config_error', 'unknown_stage']);
    expect(d.reason).toContain('accepted: review, file');
  });

  it('refuses every call when a stage is set without a persona', () => {
    const d = run(tax, pre('Read'), { env: { PERSONA_GATE_STAGE: 'review' }, state: confirmed() });
    expect([d.verdict, d.status]).toEqual(['deny', 'config_error']);
  });

  it("keeps the parent's stage away from a subagent bound to another persona", () => {
    const d = run(tax, pre('mcp__aeat__ledger_list', {}, { agent_type: 'classifier' }), verifier('review'));
    expect([d.persona, d.stage, d.verdict]).toEqual(['classifier', null, 'abstain']);
  });

  it('refuses the call past max_iterations, counting only calls let through', () => {
    const used = { ...confirmed(), iterations: { file: 5 } };
    const d = run(tax, pre('mcp__aeat__modelo_list'), verifier('file', used));
    expect([d.verdict, d.status, d.rule]).toEqual(['deny', 'iteration_limit', 'max_iterations']);
    const fourth = run(tax, pre('mcp__aeat__modelo_list'), verifier('file', { ...confirmed(), iterations: { file: 4 } }));
    expect([fourth.verdict, fourth.ops]).toEqual(['abstain', [{ op: 'count', stage: 'file' }]]);
    const refused = run(tax, pre('Read'), verifier('file', { ...confirmed(), iterations: { file: 0 } }));
    expect([refused.status, refused.ops]).toEqual(['scope_violation', []]);
  });

  it('a start made within a call (the broker judges it) is neither held to max_iterations nor counted: the call was', () => {
    const used = { ...confirmed(), iterations: { file: 5 } };
    const start = run(tax, pre('mcp__aeat__modelo_list'), { ...verifier('file', used), options: { withinCall: true } });
    expect([start.verdict, start.ops]).toEqual(['abstain', []]);
    // the stage's other bounds still hold for it
    const refused = run(tax, pre('Read'), { ...verifier('file', used), options: { withinCall: true } });
    expect(refused.status).toBe('scope_violation');
  });

  it.each(['constructor', 'toString', '__proto__', 'valueOf'])('counts the iterations of a stage named %s like any other', (name) => {
    const policy = structuredClone(tax.policy);
    const stage = policy.personas.verifier!.stages.find((s) => s.name === 'file')!;
    stage.name = name;
    const index = buildPolicyIndex(policy, 'x', '/p.json');
    const first = run(index, pre('mcp__aeat__modelo_list'), verifier(name));
    expect([first.verdict, first.ops]).toEqual(['abstain', [{ op: 'count', stage: name }]]);
    const counted = applyOps(confirmed(), first.ops as StateOp[]);
    expect(Object.getOwnPropertyDescriptor(counted.iterations, name)?.value).toBe(1);
    expect(Object.getPrototypeOf(counted.iterations)).toBe(Object.prototype);
    const last = run(
      index,
      pre('mcp__aeat__modelo_list'),
      verifier(name, JSON.parse(JSON.stringify({ ...counted, iterations: { [name]: stage.max_iterations } }))),
    );
    expect([last.verdict, last.rule]).toEqual(['deny', 'max_iterations']);
  });

  it('an empty allowed_tools denies every tool', () => {
    const policy = structuredClone(tax.policy);
    policy.personas.verifier!.stages[0]!.allowed_tools = [];
    const index = buildPolicyIndex(policy, 'x', '/p.json');
    const d = run(index, pre('Read'), verifier('review'));
    expect(d.status).toBe('scope_violation');
  });

  it('carries the effective scope in the decision', () => {
    const d = run(tax, pre('Read'), verifier('review'));
    expect(d.scope).toEqual({
      persona: 'verifier',
      stage: 'review',
      families: ['modelo', 'config', 'file_read'],
      allowed_tools: ['modelo.list', 'modelo.show', 'modelo.check', 'config', 'file_read'],
      ceiling: 'read_only',
    });
  });
});

describe('per-registration scope without a persona', () => {
  const scoped = (allowedTools?: string[], sideEffectLevel?: 'read_only') => ({
    state: confirmed(),
    options: { dispatch: { allowedTools, sideEffectLevel } },
  });
  it.each<[string, string[] | undefined, 'read_only' | undefined, string]>([
    ['Read', ['Read', 'Grep'], 'read_only', 'ok'],
    ['Glob', ['Read', 'Grep'], 'read_only', 'scope_violation'],
    ['Write', ['Read', 'Write'], 'read_only', 'permission_denied'],
    ['Write', undefined, 'read_only', 'permission_denied'],
    ['mcp__aeat__modelo_list', ['modelo'], undefined, 'ok'],
    ['mcp__aeat__modelo_list', ['file_read'], undefined, 'scope_violation'],
    ['mcp__other__thing', ['mcp__other__thing'], 'read_only', 'permission_denied'],
  ])('%s with --allowed-tools %j --side-effect-level %s → %s', (tool, allowed, level, status) => {
    const d = run(tax, pre(tool, { file_path: '/tmp/x' }), scoped(allowed, level));
    expect(d.status).toBe(status);
    expect(d.persona).toBeNull();
  });

  it('narrows a persona further, never widens it', () => {
    const d = run(tax, pre('Write', { file_path: '/tmp/x' }), {
      env: { PERSONA_GATE_PERSONA: 'coordinator' },
      state: emptyState(),
      options: { dispatch: { allowedTools: ['Write'] } },
    });
    expect(d.status).toBe('permission_denied');
    expect(d.gate).toBe('scope');
  });
});
