import { describe, expect, it } from 'vitest';
import { applyOps, emptyState } from '../../src/core/state';
import { runCase } from '../../src/policydev/cases';
import { replay } from '../../src/policydev/replay';
import { emptyScan, replaySteps, scanTranscript } from '../../src/policydev/transcript';
import { parseTestFile } from '../../src/policydev/test-file';
import { confirmed, indexOf, pre, readJson, run, TAX_POLICY_PATH } from '../helpers/policy';

function taxWith(change: (p: any) => void) {
  const policy = readJson(TAX_POLICY_PATH) as any;
  change(policy);
  return indexOf(policy, TAX_POLICY_PATH);
}

const create = () => pre('mcp__aeat__modelo_work_create', { modelo: '303' });
const env = { PERSONA_GATE_PERSONA: 'coordinator' };

describe('enforcement: audit', () => {
  it('keeps the refusal in the decision and answers as if the call passed', () => {
    const index = taxWith((p) => (p.defaults.enforcement = 'audit'));
    const d = run(index, create(), { env, state: confirmed() });
    expect(d).toMatchObject({ verdict: 'abstain', would: 'deny', status: 'permission_denied', gate: 'scope' });
    expect(d.reason).toContain('may not run modelo.work.create');
  });

  it('answers allow when on_pass is allow, and relaxes an ask as well', () => {
    const index = taxWith((p) => Object.assign(p.defaults, { enforcement: 'audit', on_pass: 'allow' }));
    const d = run(index, pre('mcp__aeat__modelo_export', { modelo: '303' }), {
      env: { PERSONA_GATE_PERSONA: 'verifier' },
      state: confirmed(),
    });
    expect(d).toMatchObject({ verdict: 'allow', would: 'ask', status: 'confirmation_required' });
  });

  it('is per persona: a persona setting overrides the default, both ways', () => {
    const audited = taxWith((p) => (p.personas.coordinator.enforcement = 'audit'));
    expect(run(audited, create(), { env, state: confirmed() })).toMatchObject({ verdict: 'abstain', would: 'deny' });
    expect(run(audited, create(), { env: { PERSONA_GATE_PERSONA: 'modelo-preparer' } })).toMatchObject({
      verdict: 'deny',
      status: 'identity_required',
    });
    const enforced = taxWith((p) => {
      p.defaults.enforcement = 'audit';
      p.personas.coordinator.enforcement = 'enforce';
    });
    const d = run(enforced, create(), { env, state: confirmed() });
    expect(d).toMatchObject({ verdict: 'deny', status: 'permission_denied' });
    expect(d.would).toBeUndefined();
  });

  it('never relaxes self-protection', () => {
    const index = taxWith((p) => (p.defaults.enforcement = 'audit'));
    const d = run(index, pre('Write', { file_path: '/p/.claude/persona-gate.json', content: '{}' }), {
      env: { PERSONA_GATE_PERSONA: 'onboarding' },
      isProtected: (path) => (path.endsWith('persona-gate.json') ? 'the policy' : null),
    });
    expect(d).toMatchObject({ verdict: 'deny', status: 'protected', gate: 'self_protection' });
    expect(d.would).toBeUndefined();
  });

  it('changes the state as if the call passed: a switch let through re-arms, a stage visit counts', () => {
    const index = taxWith((p) => (p.defaults.enforcement = 'audit'));
    const switched = run(index, pre('mcp__aeat__profile_switch', { profile: 'x' }), { env, state: confirmed() });
    expect(switched).toMatchObject({ would: 'deny', status: 'permission_denied' });
    expect(switched.ops).toContainEqual({ op: 'rearm' });
    const staged = run(index, pre('mcp__aeat__modelo_export', {}), {
      env: { PERSONA_GATE_PERSONA: 'verifier', PERSONA_GATE_STAGE: 'file' },
      state: { ...confirmed(), iterations: { file: 5 } },
    });
    expect(staged).toMatchObject({ verdict: 'abstain', would: 'deny', status: 'iteration_limit' });
    expect(applyOps(confirmed(), staged.ops).iterations.file).toBe(1);
  });

  it('leaves an enforcing policy as it was', () => {
    const d = run(
      taxWith(() => {}),
      create(),
      { env, state: confirmed() },
    );
    expect(d).toMatchObject({ verdict: 'deny', status: 'permission_denied' });
    expect('would' in d).toBe(false);
  });
});

const line = (value: unknown) => JSON.stringify(value);
const assistant = (id: string, name: string, input: unknown, ts: string, extra: Record<string, unknown> = {}) =>
  line({
    type: 'assistant',
    sessionId: 's1',
    cwd: '/p',
    timestamp: ts,
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    ...extra,
  });
const result = (id: string, content: unknown, ts: string, extra: Record<string, unknown> = {}) =>
  line({
    type: 'user',
    sessionId: 's1',
    timestamp: ts,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...(extra.is_error ? { is_error: true } : {}) }] },
    ...extra,
  });

describe('transcripts', () => {
  it('skips and counts what it does not understand, and never throws', () => {
    const scan = emptyScan();
    const text = [
      '{not json',
      '[1,2]',
      '"a string"',
      line({ no: 'type' }),
      line({ type: 'assistant', message: 'nope' }),
      line({ type: 'assistant', sessionId: 's1', message: { content: [{ type: 'tool_use', name: 'Read', input: {} }] } }),
      line({ type: 'user', sessionId: 's1', message: { content: [{ type: 'tool_result', content: 'x' }] } }),
      line({ type: 'summary', summary: 'a title' }),
      line({ type: 'user', message: { role: 'user', content: 'a prompt' } }),
      line({ type: 'future-kind', payload: [1] }),
      '',
      assistant('t1', 'Read', { file_path: '/p/a' }, '2026-01-01T00:00:01Z'),
      assistant('t1', 'Read', { file_path: '/p/a' }, '2026-01-01T00:00:01Z'),
      '\u0000\u0001garbage',
    ].join('\n');
    expect(() => scanTranscript(scan, text, 'a.jsonl')).not.toThrow();
    expect(scan.skipped).toEqual({ not_json: 2, not_object: 2, no_type: 1, bad_message: 1, bad_tool_use: 1, bad_tool_result: 1 });
    expect(scan.other).toBe(3);
    expect(scan.lines).toBe(13);
    expect(scan.duplicates).toBe(1);
    expect(scan.calls.map((c) => c.tool_use_id)).toEqual(['t1']);
  });

  it('orders the calls by time across files, and feeds PostToolUse only from results that are not errors', () => {
    const scan = emptyScan();
    scanTranscript(
      scan,
      [
        assistant('a', 'Read', {}, '2026-01-01T00:00:01Z'),
        result('a', 'ok', '2026-01-01T00:00:02Z'),
        assistant('c', 'Read', {}, '2026-01-01T00:00:05Z'),
        result('c', 'denied', '2026-01-01T00:00:06Z', { is_error: true }),
      ].join('\n'),
      'main.jsonl',
    );
    scanTranscript(
      scan,
      [assistant('b', 'Read', {}, '2026-01-01T00:00:03Z', { isSidechain: true, agentId: 'x1' })].join('\n'),
      'agent-x1.jsonl',
    );
    scan.agentTypes.set('x1', 'verifier');
    const steps = replaySteps(scan).map((s) => `${s.kind}:${s.call.tool_use_id}${s.agent_type ? `@${s.agent_type}` : ''}`);
    expect(steps).toEqual(['pre:a', 'post:a', 'pre:b@verifier', 'pre:c']);
  });

  it("takes a sidechain's agent type from the Agent call that launched it when there is no meta file", () => {
    const scan = emptyScan();
    scanTranscript(
      scan,
      [
        assistant('launch', 'Agent', { subagent_type: 'modelo-preparer', prompt: 'go' }, '2026-01-01T00:00:01Z'),
        result('launch', 'launched', '2026-01-01T00:00:02Z', { toolUseResult: { status: 'async_launched', agentId: 'ag7' } }),
        assistant('sub', 'mcp__aeat__whoami', {}, '2026-01-01T00:00:03Z', { isSidechain: true, agentId: 'ag7' }),
      ].join('\n'),
      'main.jsonl',
    );
    expect(replaySteps(scan).find((s) => s.call.tool_use_id === 'sub')?.agent_type).toBe('modelo-preparer');
  });
});

describe('replay', () => {
  const index = () => taxWith(() => {});
  const deps = { env, isProtected: () => null };

  it('confirms identity from a recorded whoami result, in a scratch state per session', () => {
    const scan = emptyScan();
    scanTranscript(
      scan,
      [
        assistant('w', 'mcp__aeat__whoami', {}, '2026-01-01T00:00:01Z'),
        result('w', [{ type: 'text', text: 'Erika' }], '2026-01-01T00:00:02Z', { toolUseResult: [{ type: 'text', text: 'Erika' }] }),
        assistant('c', 'mcp__aeat__modelo_work_create', {}, '2026-01-01T00:00:03Z', { isSidechain: true, agentId: 'p1' }),
        line({
          type: 'assistant',
          sessionId: 's2',
          timestamp: '2026-01-01T00:00:04Z',
          message: { content: [{ type: 'tool_use', id: 'other', name: 'mcp__aeat__modelo_work_create', input: {} }] },
          isSidechain: true,
          agentId: 'p2',
        }),
      ].join('\n'),
      'main.jsonl',
    );
    scan.agentTypes.set('p1', 'modelo-preparer');
    scan.agentTypes.set('p2', 'modelo-preparer');
    const rows = replay(index(), replaySteps(scan), deps);
    expect(rows.map((r) => [r.tool_use_id, r.persona, r.verdict, r.status])).toEqual([
      ['w', 'coordinator', 'abstain', 'ok'],
      ['c', 'modelo-preparer', 'abstain', 'ok'],
      ['other', 'modelo-preparer', 'deny', 'identity_required'],
    ]);
  });

  it('does not feed the result of a call the policy now refuses', () => {
    const scan = emptyScan();
    scanTranscript(
      scan,
      [
        assistant('w', 'mcp__aeat__whoami', {}, '2026-01-01T00:00:01Z'),
        result('w', 'Erika', '2026-01-01T00:00:02Z'),
        assistant('c', 'mcp__aeat__modelo_work_create', {}, '2026-01-01T00:00:03Z'),
      ].join('\n'),
      'main.jsonl',
    );
    // Under this policy the whoami itself is refused (its family is gone), so it never ran.
    const strict = taxWith((p) => (p.personas['modelo-preparer'].families = ['modelo', 'file_read']));
    const rows = replay(strict, replaySteps(scan), { ...deps, env: { PERSONA_GATE_PERSONA: 'modelo-preparer' } });
    expect(rows.map((r) => r.status)).toEqual(['permission_denied', 'identity_required']);
  });
});

describe('policy test cases', () => {
  const index = () => taxWith(() => {});
  const deps = { env: {}, isProtected: () => null, cwd: '/p' };
  const parse = (value: unknown) => {
    const parsed = parseTestFile(value);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return parsed.file.cases[0]!;
  };

  it('runs the earlier calls, feeding their responses to PostToolUse', () => {
    const c = parse({
      cases: [
        {
          name: 'x',
          persona: 'verifier',
          stage: 'file',
          before: [{ tool: 'mcp__aeat__whoami', response: [{ type: 'text', text: 'Erika' }] }],
          call: { tool: 'mcp__aeat__modelo_export' },
          expect: { verdict: 'ask', reason: '[Active profile: Erika]' },
        },
      ],
    });
    const r = runCase(index(), c, deps);
    expect(r).toMatchObject({ ok: true, mismatches: [], before: [{ tool: 'mcp__aeat__whoami', verdict: 'abstain', status: 'ok' }] });
  });

  it('reports each expectation that does not hold', () => {
    const c = parse({
      cases: [
        {
          name: 'x',
          persona: 'coordinator',
          call: { tool: 'mcp__aeat__modelo_list' },
          expect: { verdict: 'deny', status: 'blocked', gate: 'confirmation', rule: 'r', reason: 'nope' },
        },
      ],
    });
    expect(runCase(index(), c, deps)).toMatchObject({
      ok: false,
      mismatches: ['verdict', 'status', 'gate', 'rule', 'reason'],
      actual: { verdict: 'abstain', status: 'ok' },
    });
  });

  it('judges an audit-mode policy by the verdict it would give', () => {
    const c = parse({
      cases: [
        {
          name: 'x',
          persona: 'coordinator',
          call: { tool: 'mcp__aeat__modelo_work_create' },
          expect: { verdict: 'deny', status: 'permission_denied' },
        },
      ],
    });
    const r = runCase(
      taxWith((p) => (p.defaults.enforcement = 'audit')),
      c,
      deps,
    );
    expect(r).toMatchObject({ ok: true, actual: { verdict: 'deny', answered: 'abstain' } });
  });

  it('rejects a malformed test file with the path of each problem', () => {
    const parsed = parseTestFile({ cases: [{ name: 'x', call: { input: {} }, expect: { verdict: 'maybe' } }], extra: 1 });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((p) => p.path).sort()).toEqual(['(root)', 'cases.0.call.tool', 'cases.0.expect.verdict']);
  });

  it('starts every case from an empty session', () => {
    expect(emptyState().confirmed).toBe(false);
    const c = parse({
      cases: [
        {
          name: 'x',
          persona: 'modelo-preparer',
          call: { tool: 'mcp__aeat__modelo_work_create' },
          expect: { verdict: 'deny', status: 'identity_required' },
        },
      ],
    });
    expect(runCase(index(), c, deps).ok).toBe(true);
    expect(runCase(index(), c, deps).ok).toBe(true);
  });
});
