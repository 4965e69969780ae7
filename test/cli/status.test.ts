import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

/** A project holding the tax-filing policy, its own state directory and preferences. */
function project(extra: Record<string, string> = {}) {
  const dir = tempDir('pg-status-');
  mkdirSync(join(dir, '.claude'));
  writeFileSync(join(dir, '.claude', 'persona-gate.json'), readFileSync(TAX_POLICY_PATH));
  const env = cleanEnv({
    HOME: dir,
    PERSONA_GATE_STATE_DIR: join(dir, 'state'),
    PERSONA_GATE_CONFIG_HOME: join(dir, 'prefs'),
    CLAUDE_PROJECT_DIR: dir,
    ...extra,
  });
  const hook = (event: Record<string, unknown>, env2: Record<string, string> = {}) =>
    runCli(['hook'], {
      env: { ...env, ...env2 },
      input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_input: {}, tool_use_id: `toolu_${Math.random()}`, cwd: dir, ...event }),
    });
  return { dir, env, hook };
}

describe('--session takes the ids log shows', () => {
  it('accepts a unique prefix, lists the matches of an ambiguous one, and refuses an unknown session', () => {
    const p = project();
    p.hook({ session_id: '5f3a9c1e-0000-aaaa', tool_name: 'mcp__aeat__modelo_list' });
    p.hook({ session_id: '5f3a9c1e-1111-bbbb', tool_name: 'mcp__aeat__modelo_list' });
    const shown = runCli(['log'], { env: p.env })
      .stdout.split('\n')
      .find((l) => /^\d\d:\d\d:\d\d {2}/.test(l))!
      .split(/\s+/)[1]!;
    expect(shown).toBe('5f3a9c1e-000');
    expect(JSON.parse(runCli(['session', 'show', '--session', shown], { env: p.env }).stdout).session_id).toBe('5f3a9c1e-0000-aaaa');
    expect(runCli(['log', '--session', '5f3a9c1e-1'], { env: p.env }).stdout).toContain('5f3a9c1e-111');
    const ambiguous = runCli(['session', 'show', '--session', '5f3a'], { env: p.env });
    expect(ambiguous).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'persona-gate: 5f3a starts 2 session ids; give more of it:\n  5f3a9c1e-0000-aaaa\n  5f3a9c1e-1111-bbbb\n',
    });
    for (const args of [['session', 'show'], ['session', 'reset'], ['log'], ['status']]) {
      expect(runCli([...args, '--session', 'no-such'], { env: p.env })).toMatchObject({
        code: 1,
        stdout: '',
        stderr: 'persona-gate: no session no-such (the sessions persona-gate has seen: persona-gate log)\n',
      });
    }
    expect(existsSync(join(p.dir, 'state', 'receipts'))).toBe(true);
    // A session not seen yet can still be given a persona before its first call.
    expect(runCli(['session', 'persona', 'verifier', '--session', 'fresh'], { env: p.env }).code).toBe(0);
    expect(JSON.parse(runCli(['session', 'show', '--session', 'fresh'], { env: p.env }).stdout).persona).toBe('verifier');
  });

  it('shows where the persona comes from: the session, the environment or the agent type', () => {
    const p = project();
    p.hook({ session_id: 's-env', tool_name: 'mcp__aeat__modelo_list' });
    const fromEnv = JSON.parse(
      runCli(['session', 'show', '--session', 's-env'], { env: { ...p.env, PERSONA_GATE_PERSONA: 'coordinator' } }).stdout,
    );
    expect(fromEnv).toMatchObject({
      persona: null,
      in_effect: { persona: 'coordinator', persona_source: 'env', persona_env: 'PERSONA_GATE_PERSONA' },
    });
    runCli(['session', 'persona', 'verifier', '--session', 's-env'], { env: p.env });
    expect(
      JSON.parse(runCli(['session', 'show', '--session', 's-env'], { env: { ...p.env, PERSONA_GATE_PERSONA: 'coordinator' } }).stdout)
        .in_effect,
    ).toMatchObject({ persona: 'verifier', persona_source: 'session' });
    p.hook({ session_id: 's-agent', tool_name: 'mcp__aeat__modelo_list', agent_type: 'verifier' });
    expect(JSON.parse(runCli(['session', 'show', '--session', 's-agent'], { env: p.env }).stdout).in_effect).toMatchObject({
      persona: 'verifier',
      persona_source: 'agent_type',
    });
  });
});

describe('status', () => {
  it('shows the policy, the most recent session under it, the persona and its source, the stage, the identity and the last decisions', () => {
    const p = project();
    p.hook({ session_id: 'older', tool_name: 'mcp__aeat__modelo_list' });
    p.hook({ session_id: 'newer', tool_name: 'mcp__aeat__modelo_export' }, { PERSONA_GATE_PERSONA: 'coordinator' });
    const r = runCli(['status'], { env: { ...p.env, PERSONA_GATE_PERSONA: 'coordinator' }, cwd: p.dir });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^policy:   ${join(p.dir, '.claude', 'persona-gate.json').replace(/[.]/g, '\\.')} \\(valid, sha256 [0-9a-f]{12}\\)$`),
    );
    expect(lines.slice(1, 5)).toEqual([
      'session:  newer',
      'persona:  coordinator (from the environment, PERSONA_GATE_PERSONA)',
      'stage:    (none)',
      'identity: not confirmed: the first state-changing call is refused until an identity read',
    ]);
    expect(lines[6]).toBe('last decisions:');
    expect(lines[7]).toMatch(/newer +coordinator +deny +permission_denied +mcp__aeat__modelo_export → modelo\.export/);
  });

  it('prints JSON, and fails when the policy does not validate', () => {
    const p = project();
    p.hook({ session_id: 'only', tool_name: 'mcp__aeat__modelo_list' });
    runCli(['stage', 'enter', 'review', '--session', 'only'], { env: { ...p.env, PERSONA_GATE_PERSONA: 'verifier' } });
    const body = JSON.parse(
      runCli(['status', '--json', '--session', 'on'], { env: { ...p.env, PERSONA_GATE_PERSONA: 'verifier' } }).stdout,
    );
    expect(body).toMatchObject({
      session: 'only',
      persona: 'verifier',
      persona_source: 'env',
      stage: 'review',
      stage_source: 'session',
      identity: { confirmed: false, label: null },
      policy: { valid: true },
    });
    writeFileSync(join(p.dir, '.claude', 'persona-gate.json'), '{"version": 1}');
    const bad = runCli(['status'], { env: p.env });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^policy: {3}.* \(INVALID: \d+ problems?; persona-gate validate\): every tool call is refused\n/);
  });
});

describe('statusline', () => {
  it("reads Claude Code's status-line JSON and prints persona · stage · profile and the identity state, writing nothing", () => {
    const p = project();
    const input = (session: string) =>
      JSON.stringify({
        hook_event_name: 'Status',
        session_id: session,
        cwd: p.dir,
        model: { id: 'x', display_name: 'X' },
        workspace: { current_dir: p.dir, project_dir: p.dir },
        version: '2.1.332',
      });
    const env = { ...p.env, CLAUDE_PROJECT_DIR: '' };
    expect(runCli(['statusline'], { env, input: input('new') })).toMatchObject({
      code: 0,
      stdout: 'persona-gate: unscoped · identity not confirmed\n',
      stderr: '',
    });
    expect(existsSync(join(p.dir, 'state'))).toBe(false);
    expect(runCli(['session', 'persona', 'verifier', '--session', 's'], { env: p.env }).code).toBe(0);
    expect(runCli(['stage', 'enter', 'review', '--session', 's'], { env: p.env }).code).toBe(0);
    // An identity read that ran: PreToolUse, then PostToolUse with the profile's label.
    p.hook({ session_id: 's', tool_name: 'mcp__aeat__whoami', tool_use_id: 'toolu_who' });
    runCli(['hook'], {
      env,
      input: JSON.stringify({
        hook_event_name: 'PostToolUse',
        session_id: 's',
        tool_name: 'mcp__aeat__whoami',
        tool_input: {},
        tool_use_id: 'toolu_who',
        tool_response: [{ type: 'text', text: 'ACME SL' }],
        cwd: p.dir,
      }),
    });
    expect(runCli(['statusline'], { env, input: input('s') }).stdout).toBe('persona-gate: verifier · review · ACME SL · identity ✓\n');
    expect(runCli(['statusline'], { env: { ...env, PERSONA_GATE_LOCALE: 'es' }, input: input('new') }).stdout).toBe(
      'persona-gate: sin persona · identidad sin confirmar\n',
    );
  });

  it('prints one line and exits 0 whatever it is given', () => {
    const p = project();
    const empty = tempDir('pg-empty-');
    expect(
      runCli(['statusline'], {
        env: { ...p.env, CLAUDE_PROJECT_DIR: empty },
        input: JSON.stringify({ session_id: 'x', cwd: empty, workspace: { project_dir: empty } }),
        cwd: empty,
      }),
    ).toMatchObject({ code: 0, stdout: 'persona-gate: no policy\n' });
    expect(runCli(['statusline'], { env: p.env, input: 'not json' })).toMatchObject({
      code: 0,
      stdout: 'persona-gate: unscoped · identity not confirmed\n',
    });
  });
});

describe('uninstall', () => {
  it('removes exactly the registrations init added, keeps everything else, and --purge removes the policy', () => {
    const p = project();
    const own = {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }],
      },
    };
    const settingsPath = join(p.dir, '.claude', 'settings.json');
    writeFileSync(settingsPath, JSON.stringify(own));
    runCli(['init', '--dir', p.dir], { env: p.env });
    const r = runCli(['uninstall', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(0);
    // then what the sandbox step added, where the machine has the sandbox (test/cli/uninstall.test.ts)
    expect(r.stdout).toMatch(
      new RegExp(
        `^removed the hook for PreToolUse, PostToolUse, PostToolUseFailure, SessionStart from ${settingsPath}\n(.*\n)*kept the policy ${join(p.dir, '.claude', 'persona-gate.json')} \\(--purge removes it\\)\n$`,
      ),
    );
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual(own);
    expect(runCli(['uninstall', '--dir', p.dir], { env: p.env }).stdout).toContain(
      `${settingsPath} registers no persona-gate hook: unchanged`,
    );
    const purge = runCli(['uninstall', '--dir', p.dir, '--purge'], { env: p.env });
    expect(purge.stdout).toContain(`removed the policy ${join(p.dir, '.claude', 'persona-gate.json')}`);
    expect(existsSync(join(p.dir, '.claude', 'persona-gate.json'))).toBe(false);
    expect(JSON.parse(readFileSync(settingsPath, 'utf8'))).toEqual(own);
  });

  it('removes the settings file and the .claude directory when init made them and --purge is given', () => {
    const dir = tempDir('pg-fresh-');
    // a home of its own: init also writes the user's launch settings there, which outlive one project
    const home = tempDir('pg-fresh-home-');
    const env = cleanEnv({ HOME: home, PERSONA_GATE_STATE_DIR: join(dir, 'state'), PERSONA_GATE_CONFIG_HOME: join(dir, 'prefs') });
    runCli(['init', '--dir', dir], { env });
    const r = runCli(['uninstall', '--dir', dir, '--purge'], { env });
    expect(r.stdout).toContain('held nothing else, so it was removed');
    expect(existsSync(join(dir, '.claude'))).toBe(false);
  });

  it('refuses a settings file it cannot parse, and changes nothing', () => {
    const p = project();
    writeFileSync(join(p.dir, '.claude', 'settings.json'), '{ "hooks": ');
    expect(runCli(['uninstall', '--dir', p.dir, '--purge'], { env: p.env }).code).toBe(1);
    expect(existsSync(join(p.dir, '.claude', 'persona-gate.json'))).toBe(true);
  });
});

describe('small fixes', () => {
  it('log says when nothing matches', () => {
    const p = project();
    expect(runCli(['log'], { env: p.env })).toMatchObject({ code: 0, stdout: '', stderr: 'no receipts match\n' });
  });

  it('list without --persona lists the personas', () => {
    const p = project();
    const r = runCli(['list'], { env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^personas of .*persona-gate\.json \(persona-gate list --persona NAME shows what one may call\):\n/);
    expect(r.stdout).toMatch(/^ {2}verifier +ceiling workspace_write; families .*; stages review, file — /m);
    expect(JSON.parse(runCli(['list', '--format', 'json'], { env: p.env }).stdout).personas.map((x: { name: string }) => x.name)).toContain(
      'coordinator',
    );
  });

  it('config names the usage of the action given', () => {
    const p = project();
    expect(runCli(['config', 'set'], { env: p.env }).stderr).toBe(
      'persona-gate config set: give a KEY and a VALUE (persona-gate config set locale es)\n',
    );
    expect(runCli(['config', 'unset'], { env: p.env }).stderr).toBe('persona-gate config unset: give a KEY (locale, policy or stateDir)\n');
    expect(runCli(['config', 'frob'], { env: p.env })).toMatchObject({
      code: 1,
      stderr: 'persona-gate config: unknown action "frob": get KEY, set KEY VALUE, unset KEY or list\n',
    });
  });
});

describe('log --limit and --since', () => {
  it('keeps the last N receipts, those since a time, and refuses a bad value with its usage', () => {
    const dir = tempDir();
    const env = cleanEnv({
      HOME: dir,
      PERSONA_GATE_STATE_DIR: join(dir, 'state'),
      PERSONA_GATE_CONFIG: TAX_POLICY_PATH,
      PERSONA_GATE_PERSONA: 'coordinator',
    });
    for (const tool of ['Read', 'Glob', 'Grep']) runCli(['hook'], { env, input: preEvent(tool, {}, { session_id: 'log-limit' }) });
    const all = runCli(['log', '--json'], { env }).stdout.trim().split('\n');
    expect(all).toHaveLength(3);
    const last = runCli(['log', '--json', '--limit', '2'], { env })
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l).tool_name);
    expect(last).toEqual(['Glob', 'Grep']);
    expect(runCli(['log', '--json', '--since', '1h'], { env }).stdout.trim().split('\n')).toHaveLength(3);
    expect(runCli(['log', '--since', '2999-01-01'], { env })).toMatchObject({ stdout: '', stderr: 'no receipts match\n', code: 0 });
    expect(runCli(['log', '--limit', '0'], { env })).toMatchObject({
      stderr: 'persona-gate log: --limit takes a whole number of receipts, 1 or more, not "0"\n',
      code: 1,
    });
    expect(runCli(['log', '--since', 'yesterday-ish'], { env }).code).toBe(1);
  });
});
