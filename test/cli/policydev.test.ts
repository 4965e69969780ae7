import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { readJson, ROOT, TAX_POLICY_PATH } from '../helpers/policy';

function setup(extra: Record<string, string> = {}) {
  const dir = tempDir();
  return { dir, env: cleanEnv({ PERSONA_GATE_STATE_DIR: join(dir, 'state'), HOME: dir, ...extra }) };
}

const lastLine = (text: string) => text.trimEnd().split('\n').pop();

describe('persona-gate test', () => {
  const examples = readdirSync(join(ROOT, 'examples')).filter(
    (f) => f.endsWith('.json') && !f.endsWith('.test.json') && 'personas' in readJson(join(ROOT, 'examples', f)),
  );

  it('ships a test file for every example policy', () => {
    expect(examples.length).toBeGreaterThan(1);
    for (const example of examples)
      expect(existsSync(join(ROOT, 'examples', example.replace(/\.json$/, '.test.json'))), example).toBe(true);
  });

  /**
   * Cases of the software team's test file written as the policy should behave, that the shell
   * reader still refuses because it closes a program once one of its commands is catalogued
   * (`npm test` once `npm publish` is): each must fail with unlisted_command and nothing else may.
   * Empty this list when a catalogued program's other commands are judged by their level.
   */

  it.each(examples)('passes the test file of examples/%s', (example) => {
    const file = join('examples', example.replace(/\.json$/, '.test.json'));
    const r = runCli(['test', '--json', file], { env: setup().env });
    expect(r.stderr).toBe('');
    const cases: { name: string; ok: boolean; actual: { status: string } }[] = JSON.parse(r.stdout).files[0].cases;
    expect(cases.filter((c) => !c.ok).map((c) => c.name)).toEqual([]);
    const text = runCli(['test', file], { env: setup().env });
    expect(text.stdout).not.toContain('FAIL');
    expect(lastLine(text.stdout)).toMatch(/^\d+ passed, 0 failed$/);
    expect(text.code).toBe(0);
  });

  it.each(examples)('runs the test file of examples/%s copied into a project, against the project policy', (example) => {
    const { dir, env } = setup();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'persona-gate.json'), readFileSync(join(ROOT, 'examples', example)));
    writeFileSync(
      join(dir, '.claude', 'persona-gate.test.json'),
      readFileSync(join(ROOT, 'examples', example.replace(/\.json$/, '.test.json'))),
    );
    const copied = runCli(['test', '--json'], { env, cwd: dir });
    const shipped = runCli(['test', '--json', join('examples', example.replace(/\.json$/, '.test.json'))], { env: setup().env });
    const outcome = (r: typeof copied) => JSON.parse(r.stdout).files[0].cases.map((c: { name: string; ok: boolean }) => [c.name, c.ok]);
    expect(JSON.parse(copied.stdout).files[0]).toMatchObject({ error: null, policy: '.claude/persona-gate.json' });
    expect(outcome(copied)).toEqual(outcome(shipped));
  });

  it('prints each failure with its gate, rule and reason, then the count, and exits 1', () => {
    const { dir, env } = setup();
    const file = join(dir, 'cases.json');
    writeFileSync(
      file,
      JSON.stringify({
        policy: TAX_POLICY_PATH,
        cases: [
          {
            name: 'reads are fine',
            persona: 'coordinator',
            call: { tool: 'mcp__aeat__modelo_list' },
            expect: { verdict: 'abstain', status: 'ok' },
          },
          {
            name: 'the preparer files (wrongly expected)',
            persona: 'modelo-preparer',
            before: [{ tool: 'mcp__aeat__whoami' }],
            call: { tool: 'mcp__aeat__modelo_export' },
            expect: { verdict: 'ask' },
          },
        ],
      }),
    );
    const r = runCli(['test', file], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `cases.json (policy ${TAX_POLICY_PATH})`,
        '  ok    reads are fine',
        '  FAIL  the preparer files (wrongly expected)',
        '        expected ask; got deny handoff_denied',
        '        modelo.export as modelo-preparer: gate handoff, rule owner',
        '        reason: persona-gate: the modelo-preparer persona may not run modelo.export: it is an irreversible handoff owned by the verifier persona. Finish your part and hand off to verifier; do not try it another way.',
        '        earlier calls: mcp__aeat__whoami → abstain ok',
        '1 passed, 1 failed',
        '',
      ].join('\n'),
    );
    const json = JSON.parse(runCli(['test', '--json', file], { env, cwd: dir }).stdout);
    expect(json).toMatchObject({
      passed: 1,
      failed: 1,
      files: [
        {
          cases: [
            { ok: true },
            { ok: false, mismatches: ['verdict'], actual: { verdict: 'deny', status: 'handoff_denied', gate: 'handoff' } },
          ],
        },
      ],
    });
  });

  it('reads .claude/persona-gate.test.json by default, against the policy found as usual', () => {
    const { dir, env } = setup();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'persona-gate.json'), readFileSync(TAX_POLICY_PATH));
    writeFileSync(
      join(dir, '.claude', 'persona-gate.test.json'),
      JSON.stringify({
        cases: [
          { name: 'coordinator reads', persona: 'coordinator', call: { tool: 'mcp__aeat__modelo_list' }, expect: { verdict: 'abstain' } },
        ],
      }),
    );
    const r = runCli(['test'], { env, cwd: dir });
    expect(r.stdout).toBe(
      `.claude/persona-gate.test.json (policy .claude/persona-gate.json)\n  ok    coordinator reads\n1 passed, 0 failed\n`,
    );
    expect(r.code).toBe(0);
  });

  it('fails, naming the problem, for a missing or malformed test file', () => {
    const { dir, env } = setup();
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ cases: [{ name: 'x', call: {}, expect: { verdict: 'maybe' } }] }));
    const r = runCli(['test', 'bad.json', 'missing.json', '--config', TAX_POLICY_PATH], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('bad.json is not a valid test file:\n          cases.0.call.tool: ');
    expect(r.stdout).toContain('cases.0.expect.verdict: ');
    expect(r.stdout).toContain('ERROR  cannot read missing.json: no such file');
    expect(lastLine(r.stdout)).toBe('0 passed, 2 failed');
  });

  it('points at a JSON error in a test file by line and column', () => {
    const { dir, env } = setup();
    writeFileSync(join(dir, 'cases.test.json'), '{\n  "cases": [\n    { "name": "x", }\n  ]\n}\n');
    const r = runCli(['test', 'cases.test.json', '--config', TAX_POLICY_PATH], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'ERROR  cases.test.json:3:18: not valid JSON: a comma with nothing after it (JSON allows none before } or ]): remove it\n          3 |     { "name": "x", }\n            |                  ^\n',
    );
  });

  it('speaks Spanish', () => {
    const { env } = setup({ PERSONA_GATE_LOCALE: 'es' });
    expect(lastLine(runCli(['test', 'examples/tax-filing.test.json'], { env }).stdout)).toMatch(/^\d+ superadas, 0 fallidas$/);
  });
});

function transcriptLine(value: Record<string, unknown>): string {
  return JSON.stringify({ sessionId: 'sess-1', cwd: '/work/p', ...value });
}
const use = (id: string, name: string, input: Record<string, unknown>, ts: string) =>
  transcriptLine({ type: 'assistant', timestamp: ts, message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
const answer = (id: string, text: string, ts: string, isError = false) =>
  transcriptLine({
    type: 'user',
    timestamp: ts,
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text }], ...(isError ? { is_error: true } : {}) }],
    },
    toolUseResult: [{ type: 'text', text }],
  });

describe('persona-gate replay', () => {
  function recorded(dir: string): string {
    const file = join(dir, 'sess-1.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ type: 'summary', summary: 'Prepare the modelo' }),
        use('t1', 'mcp__aeat__modelo_work_create', { modelo: '303' }, '2026-01-01T10:00:01Z'),
        answer('t1', 'refused', '2026-01-01T10:00:02Z', true),
        '{"type":"assistant","message":',
        use('t2', 'mcp__aeat__whoami', {}, '2026-01-01T10:00:03Z'),
        answer('t2', 'Erika Example (NIF 00000000T)', '2026-01-01T10:00:04Z'),
        use('t3', 'mcp__aeat__modelo_work_create', { modelo: '303' }, '2026-01-01T10:00:05Z'),
        answer('t3', 'draft created', '2026-01-01T10:00:06Z'),
        use('t4', 'mcp__aeat__modelo_export', { modelo: '303' }, '2026-01-01T10:00:07Z'),
        'null',
        JSON.stringify({ type: 'brand-new-kind', data: {} }),
      ].join('\n'),
    );
    return file;
  }

  it('prints what the policy would answer to every recorded call, with a summary', () => {
    const { dir, env } = setup();
    const file = recorded(dir);
    const r = runCli(['replay', file, '--config', TAX_POLICY_PATH, '--persona', 'modelo-preparer'], { env, cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^#\s+session\s+persona\s+call\s+verdict\s+status\s+reason$/);
    expect(lines[1]).toMatch(
      /^1\s+sess-1\s+modelo-preparer\s+modelo\.work\.create\s+deny\s+identity_required\s+this session has not yet confirmed/,
    );
    expect(lines[2]).toMatch(/^2\s+sess-1\s+modelo-preparer\s+config\.profile\.status\s+abstain\s+ok$/);
    expect(lines[3]).toMatch(/^3\s+sess-1\s+modelo-preparer\s+modelo\.work\.create\s+abstain\s+ok$/);
    expect(lines[4]).toMatch(
      /^4\s+sess-1\s+modelo-preparer\s+modelo\.export\s+deny\s+handoff_denied\s+the modelo-preparer persona may not run modelo\.export/,
    );
    expect(r.stdout).toContain('by persona, command and status:');
    expect(r.stdout).toMatch(/^ {2}modelo-preparer\s+modelo\.work\.create\s+identity_required\s+deny\s+1$/m);
    expect(r.stdout).toContain('4 calls in 1 session (1 transcript): 2 refused, 0 asked, 2 let through (0 allow, 2 abstain)');
    expect(r.stdout).toContain('11 lines read: 2 without tool calls, 2 not understood and skipped (not_json 1, not_object 1)');
  });

  it('never writes the real state or receipts', () => {
    const { dir, env } = setup();
    const file = recorded(dir);
    expect(runCli(['replay', file, '--config', TAX_POLICY_PATH, '--persona', 'modelo-preparer', '--json'], { env, cwd: dir }).code).toBe(0);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('prints every call as JSON with --json, and only the refusals with --refused', () => {
    const { dir, env } = setup();
    const file = recorded(dir);
    const report = JSON.parse(
      runCli(['replay', file, '--config', TAX_POLICY_PATH, '--persona', 'modelo-preparer', '--json'], { env, cwd: dir }).stdout,
    );
    expect(report.calls.map((c: any) => [c.tool_use_id, c.verdict, c.status])).toEqual([
      ['t1', 'deny', 'identity_required'],
      ['t2', 'abstain', 'ok'],
      ['t3', 'abstain', 'ok'],
      ['t4', 'deny', 'handoff_denied'],
    ]);
    expect(report.verdicts).toEqual({ deny: 2, ask: 0, allow: 0, abstain: 2 });
    expect(report.skipped).toMatchObject({ not_json: 1, not_object: 1 });
    const refused = runCli(['replay', file, '--config', TAX_POLICY_PATH, '--persona', 'modelo-preparer', '--refused'], {
      env,
      cwd: dir,
    }).stdout;
    expect(
      refused
        .split('\n')
        .filter((l) => /^\d+\s+sess-1/.test(l))
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['1', '4']);
  });

  it('reads a directory of transcripts and sidechains, and survives files that are all garbage', () => {
    const { dir, env } = setup();
    const project = join(dir, 'projects', '-work-p');
    mkdirSync(join(project, 'sess-1', 'subagents'), { recursive: true });
    recorded(project);
    writeFileSync(
      join(project, 'sess-1', 'subagents', 'agent-a1.jsonl'),
      [
        transcriptLine({
          type: 'assistant',
          isSidechain: true,
          agentId: 'a1',
          timestamp: '2026-01-01T10:00:06.500Z',
          message: { content: [{ type: 'tool_use', id: 's1', name: 'mcp__aeat__modelo_export', input: {} }] },
        }),
      ].join('\n'),
    );
    writeFileSync(join(project, 'sess-1', 'subagents', 'agent-a1.meta.json'), JSON.stringify({ agentType: 'verifier' }));
    writeFileSync(join(project, 'garbage.jsonl'), '\u0000\u0001\n{{{\n[]\n"x"\n42\n');
    const report = JSON.parse(
      runCli(['replay', join(dir, 'projects'), '--config', TAX_POLICY_PATH, '--persona', 'modelo-preparer', '--json'], { env, cwd: dir })
        .stdout,
    );
    expect(report.calls.map((c: any) => [c.tool_use_id, c.agent_type, c.persona, c.verdict, c.status])).toEqual([
      ['t1', null, 'modelo-preparer', 'deny', 'identity_required'],
      ['t2', null, 'modelo-preparer', 'abstain', 'ok'],
      ['t3', null, 'modelo-preparer', 'abstain', 'ok'],
      // The verifier subagent, confirmed by the session's whoami, outside its stages: asked.
      ['s1', 'verifier', 'verifier', 'ask', 'confirmation_required'],
      ['t4', null, 'modelo-preparer', 'deny', 'handoff_denied'],
    ]);
    expect(report.transcripts).toHaveLength(3);
    expect(report.skipped).toMatchObject({ not_json: 3, not_object: 4 });
  });

  it('exits 1 when there is nothing to replay', () => {
    const { dir, env } = setup();
    expect(runCli(['replay', join(dir, 'nope'), '--config', TAX_POLICY_PATH], { env })).toMatchObject({
      code: 1,
      stderr: `persona-gate replay: ${join(dir, 'nope')} does not exist\n`,
    });
    mkdirSync(join(dir, 'empty'));
    expect(runCli(['replay', join(dir, 'empty'), '--config', TAX_POLICY_PATH], { env })).toMatchObject({
      code: 1,
      stderr: `persona-gate replay: no transcript (*.jsonl) under ${join(dir, 'empty')}\n`,
    });
  });
});

describe('enforcement: audit, end to end', () => {
  function auditProject(change: (policy: any) => void = () => {}) {
    const { dir, env } = setup();
    const policy = readJson(TAX_POLICY_PATH) as any;
    policy.defaults.enforcement = 'audit';
    change(policy);
    const path = join(dir, 'policy.json');
    writeFileSync(path, JSON.stringify(policy));
    return { dir, env: { ...env, PERSONA_GATE_CONFIG: path, PERSONA_GATE_PERSONA: 'coordinator' } };
  }

  it('lets the refused call run, prints nothing, and logs the refusal it would have been', () => {
    const { env } = auditProject();
    const r = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create', { modelo: '303' }), env });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const receipts = runCli(['log', '--json'], { env })
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({
      verdict: 'abstain',
      would: 'deny',
      status: 'permission_denied',
      gate: 'scope',
      command_key: 'modelo.work.create',
    });
    expect(receipts[0].reason).toContain('the coordinator persona may not run modelo.work.create');
    const log = runCli(['log', '--status', 'permission_denied'], { env }).stdout;
    expect(log).toMatch(
      /coordinator +deny\* +mcp__aeat__modelo_work_create → modelo\.work\.create\n +permission_denied: the coordinator persona/,
    );
    expect(log).toMatch(/^ {2}deny\* +audit mode: the verdict the policy would give; the call was answered as if it passed$/m);
    expect(runCli(['log', '--would', '--json'], { env }).stdout.trim().split('\n')).toHaveLength(1);
  });

  it('answers allow with no reason when the policy auto-approves passing calls', () => {
    const { env } = auditProject((p) => (p.defaults.on_pass = 'allow'));
    const r = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create', { modelo: '303' }), env });
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: '' },
    });
  });

  it('still enforces self-protection', () => {
    const { dir, env } = auditProject();
    const r = runCli(['hook'], { input: preEvent('Write', { file_path: join(dir, 'policy.json'), content: '{}' }), env });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(runCli(['log', '--json'], { env }).stdout).not.toContain('"would"');
  });

  it('is shown by explain', () => {
    const { env } = auditProject();
    const r = runCli(['explain', 'mcp__aeat__modelo_work_create', '{}'], { env });
    expect(r.stdout).toContain('audit:   the policy would deny this call; in audit mode the hook answers abstain, as if it passed');
    expect(r.code).toBe(0);
  });
});
