import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en, messagesFor } from '../../src/core/messages';
import { guardWordsFor } from '../../src/core/guard-words';

const es = messagesFor('es');
import { cleanEnv, decisionJson, denyJson, preEvent, runCli, tempDir } from '../helpers/cli';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';

function setup(extra: Record<string, string> = {}) {
  const dir = tempDir();
  const stateDir = join(dir, 'state');
  const env = cleanEnv({ PERSONA_GATE_STATE_DIR: stateDir, PERSONA_GATE_CONFIG: TAX_POLICY_PATH, HOME: dir, ...extra });
  return { dir, stateDir, env };
}

const post = (tool: string, id: string, response: unknown) =>
  JSON.stringify({
    hook_event_name: 'PostToolUse',
    session_id: 'cli-session',
    tool_name: tool,
    tool_input: {},
    tool_use_id: id,
    tool_response: response,
    cwd: ROOT,
  });
const start = (source: string) => JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'cli-session', source, cwd: ROOT });

describe('hook: the identity flow across processes', () => {
  it('refuses the first mutation, is cleared by a whoami that ran, re-armed by a switch, reset by /clear', () => {
    const { env } = setup({ PERSONA_GATE_PERSONA: 'verifier' });
    const mutate = () => runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env });
    expect(mutate().stdout).toBe(denyJson(en.identityRequired()));

    expect(runCli(['hook'], { input: preEvent('mcp__aeat__whoami', {}, { tool_use_id: 'who-1' }), env })).toMatchObject({
      stdout: '',
      code: 0,
    });
    // Let through but not yet run: still refused.
    expect(mutate().stdout).toBe(denyJson(en.identityRequired()));
    expect(
      runCli(['hook'], { input: post('mcp__aeat__whoami', 'who-1', [{ type: 'text', text: 'Erika Example (NIF 00000000T)' }]), env }),
    ).toMatchObject({ stdout: '', stderr: '', code: 0 });
    expect(mutate()).toMatchObject({ stdout: '', code: 0 });

    // The filing asks, echoing whose profile it touches.
    const filing = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_export'), env });
    expect(filing.stdout).toBe(
      decisionJson('ask', en.confirmationRequired(en.identityEcho('Erika Example (NIF 00000000T)'), 'modelo.export')),
    );

    expect(runCli(['hook'], { input: preEvent('mcp__aeat__profile_switch'), env }).stdout).toBe('');
    expect(mutate().stdout).toBe(denyJson(en.identityRequired()));
    expect(runCli(['hook'], { input: preEvent('mcp__aeat__modelo_export'), env }).stdout).toBe(denyJson(en.identityRequired()));

    // A read that was let through before the switch does not confirm after it.
    expect(runCli(['hook'], { input: post('mcp__aeat__whoami', 'who-1', [{ type: 'text', text: 'Erik' }]), env }).code).toBe(0);
    expect(mutate().stdout).toBe(denyJson(en.identityRequired()));

    runCli(['hook'], { input: preEvent('mcp__aeat__whoami', {}, { tool_use_id: 'who-2' }), env });
    runCli(['hook'], { input: post('mcp__aeat__whoami', 'who-2', [{ type: 'text', text: 'Erik' }]), env });
    expect(mutate().stdout).toBe('');
    expect(runCli(['hook'], { input: start('resume'), env })).toMatchObject({ stdout: '', code: 0 });
    expect(mutate().stdout).toBe('');
    expect(runCli(['hook'], { input: start('clear'), env })).toMatchObject({ stdout: '', code: 0 });
    expect(mutate().stdout).toBe(denyJson(en.identityRequired()));
  });

  it('confirms on PreToolUse with --confirm-on pre', () => {
    const { env } = setup();
    runCli(['hook', '--confirm-on', 'pre'], { input: preEvent('mcp__aeat__whoami'), env });
    expect(runCli(['hook', '--confirm-on', 'pre'], { input: preEvent('mcp__aeat__modelo_work_create'), env }).stdout).toBe('');
  });

  it('gives the same bytes for a command called directly and through the meta tool', () => {
    const { env } = setup({ PERSONA_GATE_PERSONA: 'modelo-preparer' });
    for (const [tool, key] of [
      ['mcp__aeat__modelo_export', 'modelo.export'],
      ['mcp__aeat__modelo_work_create', 'modelo.work.create'],
      ['mcp__aeat__bank_reconcile', 'bank.reconcile'],
      ['mcp__aeat__modelo_list', 'modelo.list'],
    ] as const) {
      const direct = runCli(['hook'], { input: preEvent(tool), env });
      const meta = runCli(['hook'], { input: preEvent('mcp__aeat__execute', { command: key }), env });
      expect(meta.stdout).toBe(direct.stdout);
      expect(meta.stderr).toBe(direct.stderr);
      expect(meta.code).toBe(direct.code);
    }
  });

  it('writes one receipt per decision with the SPEC fields', () => {
    const { env, stateDir } = setup({ PERSONA_GATE_PERSONA: 'modelo-preparer' });
    runCli(['hook'], { input: preEvent('mcp__aeat__modelo_export', {}, { agent_id: 'a1', agent_type: 'modelo-preparer' }), env });
    const log = runCli(['log', '--json', '--session', 'cli-session'], { env });
    const lines = log.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const receipt = JSON.parse(lines[0]!);
    expect(Object.keys(receipt)).toEqual(
      expect.arrayContaining([
        'v',
        'ts',
        'session_id',
        'agent_id',
        'agent_type',
        'tool_use_id',
        'hook_event',
        'tool_name',
        'command_key',
        'family',
        'level',
        'persona',
        'stage',
        'verdict',
        'status',
        'gate',
        'reason',
        'scope',
        'policy_sha256',
        'elapsed_ms',
      ]),
    );
    expect(receipt).toMatchObject({
      v: 1,
      session_id: 'cli-session',
      agent_id: 'a1',
      agent_type: 'modelo-preparer',
      tool_use_id: 'toolu_cli',
      hook_event: 'PreToolUse',
      tool_name: 'mcp__aeat__modelo_export',
      command_key: 'modelo.export',
      family: 'modelo',
      level: 'workspace_write',
      persona: 'modelo-preparer',
      verdict: 'deny',
      status: 'handoff_denied',
      gate: 'handoff',
    });
    expect(receipt.policy_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(receipt.scope).toEqual({
      persona: 'modelo-preparer',
      stage: null,
      families: ['modelo', 'ledger', 'config', 'file_read'],
      allowed_tools: null,
      ceiling: 'workspace_write',
    });
    void stateDir;
  });

  it('speaks Spanish when the policy or PERSONA_GATE_LOCALE says so', () => {
    const { env, dir } = setup({ PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const viaEnv = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_export'), env: { ...env, PERSONA_GATE_LOCALE: 'es' } });
    expect(viaEnv.stdout).toBe(denyJson(es.handoff('modelo-preparer', 'modelo.export', 'verifier')));
    const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    policy.locale = 'es';
    const path = join(dir, 'es.json');
    writeFileSync(path, JSON.stringify(policy));
    const viaPolicy = runCli(['hook'], {
      input: preEvent('mcp__aeat__modelo_work_create'),
      env: { ...env, PERSONA_GATE_CONFIG: path, PERSONA_GATE_PERSONA: '' },
    });
    expect(viaPolicy.stdout).toBe(denyJson(es.identityRequired()));
  });

  it('names a guarded path in the language it refuses in', () => {
    const { env } = setup({ PERSONA_GATE_PERSONA: 'modelo-preparer', PERSONA_GATE_LOCALE: 'es' });
    const out = runCli(['hook'], { input: preEvent('Bash', { command: 'echo "{}" > ~/.claude/settings.json' }), env });
    expect(out.stdout).toBe(denyJson(es.protectedTarget(guardWordsFor('es').userRegistration('settings.json'))));
  });

  it('narrows one registration with --allowed-tools and --side-effect-level', () => {
    const { env } = setup();
    const args = ['hook', '--allowed-tools', 'Read,Grep,modelo', '--side-effect-level', 'read_only'];
    expect(runCli(args, { input: preEvent('Read'), env }).stdout).toBe('');
    expect(runCli(args, { input: preEvent('Glob'), env }).stdout).toBe(
      denyJson(en.stageScope(en.dispatchWho(), en.dispatchStage(), 'Glob', ['Read', 'Grep', 'modelo'])),
    );
    expect(runCli(args, { input: preEvent('mcp__aeat__modelo_work_create'), env }).stdout).toBe(
      denyJson(en.stageCeiling(en.dispatchWho(), en.dispatchStage(), 'modelo.work.create', 'workspace_write', 'read_only')),
    );
  });
});
