import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { sessionKey } from '../../src/io/hash';
import { cleanEnv, denyJson, preEvent, runCli, runCliAsync, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

function setup(policy: string | null = readFileSync(TAX_POLICY_PATH, 'utf8')) {
  const dir = tempDir();
  const stateDir = join(dir, 'state');
  const policyPath = join(dir, 'policy.json');
  if (policy !== null) writeFileSync(policyPath, policy);
  const env = cleanEnv({ PERSONA_GATE_STATE_DIR: stateDir, PERSONA_GATE_CONFIG: policyPath, HOME: dir });
  return { dir, stateDir, policyPath, env };
}

/** Every failure of SPEC §5 ends in a deny: JSON on stdout with exit 0, or the reason on stderr with exit 2. */
describe('hook: failing closed', () => {
  it('denies every call when no policy is found, saying where it looked', () => {
    const dir = tempDir();
    const env = cleanEnv({ PERSONA_GATE_STATE_DIR: join(dir, 'state'), HOME: dir });
    const r = runCli(['hook'], { input: preEvent('Read', {}, { cwd: dir }), env, cwd: dir });
    const searched = [];
    for (let d = dir; ; d = join(d, '..')) {
      searched.push(join(d, '.claude', 'persona-gate.json'));
      if (d === '/') break;
    }
    expect(r).toMatchObject({ stdout: denyJson(en.noPolicy(searched)), stderr: '', code: 0 });
  });

  it('denies when the policy does not validate, naming each problem', () => {
    const s = setup(JSON.stringify({ version: 1, catalog: { families: { modelo: { level: 'write' } } }, personas: {} }));
    const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      denyJson(
        en.invalidPolicy(s.policyPath, [
          'catalog.families.modelo.level: "write" is not one of "none", "read_only", "workspace_write", "process_exec", "network"',
        ]),
      ),
    );
  });

  it('denies when the policy is not JSON', () => {
    const s = setup('{ "version": 1, ');
    const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /^persona-gate: the policy .* is not valid: \(root\): not valid JSON/,
    );
  });

  it('denies when the policy cannot be read', () => {
    const s = setup(null);
    mkdirSync(s.policyPath);
    const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(r).toMatchObject({ stdout: denyJson(en.unreadablePolicy(s.policyPath, 'not_regular')), code: 0 });
  });

  it('denies when --config names a missing file', () => {
    const s = setup();
    const missing = join(s.dir, 'missing.json');
    const r = runCli(['hook', '--config', missing], { input: preEvent('Read'), env: s.env });
    expect(r).toMatchObject({ stdout: denyJson(en.unreadablePolicy(missing, 'missing')), code: 0 });
  });

  it.each([
    [
      'malformed JSON',
      '{"hook_event_name": "PreToolUse", ',
      en.eventMalformed('Expected double-quoted property name in JSON at position 34'),
    ],
    ['empty input', '', en.eventEmpty()],
    ['whitespace only', ' \n\t ', en.eventEmpty()],
    ['an array', '[]', en.eventShape('expected a JSON object, got an array')],
    ['a scalar', '42', en.eventShape('expected a JSON object, got number')],
    ['null', 'null', en.eventShape('expected a JSON object, got null')],
    [
      'no hook_event_name',
      '{"session_id":"s","tool_name":"Read","tool_input":{}}',
      en.eventShape('hook_event_name is missing or not a string'),
    ],
    [
      'an unknown hook event',
      '{"hook_event_name":"Notification","session_id":"s"}',
      en.eventShape('unsupported hook_event_name "Notification"'),
    ],
  ])('exits 2 with the reason on stderr for %s', (_name, input, reason) => {
    const s = setup();
    const r = runCli(['hook'], { input, env: s.env });
    expect(r).toMatchObject({ stdout: '', stderr: `${reason}\n`, code: 2 });
  });

  it('exits 2 for an event over 1 MiB', () => {
    const s = setup();
    const big = preEvent('Write', { file_path: '/tmp/x', content: 'x'.repeat(1024 * 1024) });
    const r = runCli(['hook'], { input: big, env: s.env });
    expect(r).toMatchObject({ stdout: '', stderr: `${en.eventTooLarge(1024 * 1024)}\n`, code: 2 });
  });

  it.each([
    ['tool_input null', { tool_input: null }, 'tool_input is missing or not an object'],
    ['tool_input an array', { tool_input: [] }, 'tool_input is missing or not an object'],
    ['no tool_name', { tool_name: undefined }, 'tool_name is missing or not a non-empty string'],
    ['an empty session_id', { session_id: '' }, 'session_id is missing or not a non-empty string'],
    ['a numeric agent_type', { agent_type: 7 }, 'agent_type must be a string'],
  ])('denies a PreToolUse with %s', (_name, patch, detail) => {
    const s = setup();
    const event = { ...JSON.parse(preEvent('Read')), ...patch };
    const r = runCli(['hook'], { input: JSON.stringify(event), env: s.env });
    expect(r).toMatchObject({ stdout: denyJson(en.eventShape(detail)), stderr: '', code: 0 });
  });

  it('accepts extra fields Claude Code adds between versions', () => {
    const s = setup();
    const event = {
      ...JSON.parse(preEvent('Read')),
      prompt_id: 'p1',
      effort: 'high',
      agent_id: 'a1',
      permission_mode: 'default',
      transcript_path: '/x',
    };
    const r = runCli(['hook'], { input: JSON.stringify(event), env: s.env });
    expect(r).toMatchObject({ stdout: '', stderr: '', code: 0 });
  });

  it('denies every call under an unknown persona', () => {
    const s = setup();
    const r = runCli(['hook'], { input: preEvent('Read'), env: { ...s.env, PERSONA_GATE_PERSONA: 'auditor' } });
    expect(r).toMatchObject({
      stdout: denyJson(
        en.unknownPersona('auditor', [
          'classifier',
          'coordinator',
          'ledger-groomer',
          'modelo-preparer',
          'onboarding',
          'reconciler',
          'verifier',
        ]),
      ),
      code: 0,
    });
  });

  it('denies when the state directory is a file', () => {
    const s = setup();
    writeFileSync(s.stateDir, 'not a directory');
    const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(r).toMatchObject({ stdout: denyJson(en.stateError(`${s.stateDir} is a file, not a directory; remove it`)), code: 0 });
  });

  it('denies when the session state is corrupt', () => {
    const s = setup();
    expect(runCli(['hook'], { input: preEvent('mcp__aeat__profile_switch'), env: s.env }).code).toBe(0);
    const session = join(s.stateDir, 'sessions', sessionKey('cli-session'));
    const file = readdirSync(session).find((f) => f.endsWith('.json'))!;
    writeFileSync(join(session, file), '{"v":1,"confirmed":tr');
    const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(r).toMatchObject({ stdout: denyJson(en.stateError('the session state file is corrupt')), code: 0 });
  });

  it('denies on an unknown hook option', () => {
    const s = setup();
    const r = runCli(['hook', '--bogus'], { input: preEvent('Read'), env: s.env });
    expect(r).toMatchObject({
      stdout: denyJson(
        en.hookUsage(
          en.hookUnknownOption('--bogus', ['--config', '--host', '--confirm-on', '--allowed-tools', '--side-effect-level', '--help']),
        ),
      ),
      code: 0,
    });
    expect(r.stdout).not.toContain('internal error');
  });

  it.each([
    [
      ['--confg', 'p.json'],
      'unknown option --confg (did you mean --config?); the options are --config, --host, --confirm-on, --allowed-tools, --side-effect-level, --help',
    ],
    [
      ['--side-effect-level', 'read_olny'],
      '--side-effect-level takes none, read_only, workspace_write, process_exec, network, not "read_olny" (did you mean read_only?)',
    ],
    [['--confirm-on=prr'], '--confirm-on takes pre, post, not "prr" (did you mean pre?)'],
    [['--config'], '--config needs a value'],
  ])('denies %j as a usage error that says what to pass', (args, problem) => {
    const s = setup();
    const r = runCli(['hook', ...args], { input: preEvent('Read'), env: s.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: en.hookUsage(problem),
    });
  });

  it('denies at its own deadline when stdin never ends', async () => {
    const s = setup();
    const r = await runCliAsync(['hook'], {
      input: '{"hook_event_name":',
      env: { ...s.env, PERSONA_GATE_DEADLINE_MS: '400' },
      keepStdinOpen: true,
    });
    expect(r).toMatchObject({ stdout: '', stderr: `${en.deadline(400)}\n`, code: 2 });
    expect(r.ms).toBeLessThan(5000);
  });

  it('keeps the verdict when receipts cannot be written', () => {
    const s = setup();
    mkdirSync(s.stateDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(s.stateDir, 'receipts'), 'a file where the receipts directory should be');
    const denied = runCli(['hook'], {
      input: preEvent('mcp__aeat__modelo_work_create'),
      env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' },
    });
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const passed = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(passed).toMatchObject({ stdout: '', stderr: '', code: 0 });
  });

  it('never exits 1, whatever the input', () => {
    const s = setup();
    for (const input of ['', 'x', '{}', '[1]', '"s"', preEvent('Read'), preEvent(''), '\u0000']) {
      expect(runCli(['hook'], { input, env: s.env }).code).not.toBe(1);
    }
  });
});

describe('the binary', () => {
  function copyDist() {
    const dir = tempDir();
    for (const f of ['persona-gate.cjs', 'hook.js', 'hook.js.cache', 'policy-validate.js', 'shell.js']) {
      writeFileSync(join(dir, f), readFileSync(join(__dirname, '..', '..', 'dist', f)));
    }
    return dir;
  }

  it('denies with exit 2 when the hook bundle cannot even be loaded', () => {
    const dir = copyDist();
    rmSync(join(dir, 'hook.js'));
    const s = setup();
    const r = spawnSync(process.execPath, [join(dir, 'persona-gate.cjs'), 'hook'], {
      input: preEvent('Read'),
      env: s.env,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^persona-gate: the hook could not start \(.*ENOENT.*\)\. The call is denied\.\n$/);
  });

  it("blocks another host's call with exit 2 when the hosts' adapters cannot be loaded; Claude Code's calls do not need them", () => {
    const dir = copyDist();
    const s = setup();
    const r = spawnSync(process.execPath, [join(dir, 'persona-gate.cjs'), 'hook', '--host', 'codex'], {
      input: preEvent('mcp__aeat__modelo_work_create'),
      env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^persona-gate: the hook could not start \(.*ENOENT.*hosts\.js.*\)\. The call is denied\.\n$/);
    const own = spawnSync(process.execPath, [join(dir, 'persona-gate.cjs'), 'hook'], {
      input: preEvent('mcp__aeat__modelo_work_create'),
      env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' },
      encoding: 'utf8',
    });
    expect(own.status).toBe(0);
    expect(JSON.parse(own.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('persona-gate.js, which registrations made before persona-gate.cjs name, is the same binary and decides the same', () => {
    const dist = join(__dirname, '..', '..', 'dist');
    expect(readFileSync(join(dist, 'persona-gate.js'))).toStrictEqual(readFileSync(join(dist, 'persona-gate.cjs')));
    const s = setup();
    const answers = ['persona-gate.cjs', 'persona-gate.js'].map((bin) =>
      spawnSync(process.execPath, [join(dist, bin), 'hook'], {
        input: preEvent('mcp__aeat__modelo_work_create'),
        env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' },
        encoding: 'utf8',
      }),
    );
    for (const r of answers) expect(r.status).toBe(0);
    expect(JSON.parse(answers[0]!.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answers[1]!.stdout).toBe(answers[0]!.stdout);
  });

  it('persona-gate.js stays CommonJS under a package.json above it that says "type": "module"', () => {
    // An installation of dist/ alone, whose nearest package.json is not persona-gate's own.
    const root = tempDir();
    const dist = join(root, 'pkg', 'dist');
    cpSync(join(__dirname, '..', '..', 'dist'), dist, { recursive: true });
    writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
    writeFileSync(join(root, 'pkg', 'package.json'), '{"type":"module"}\n');
    const s = setup();
    for (const bin of ['persona-gate.js', 'persona-gate.cjs']) {
      const r = spawnSync(process.execPath, [join(dist, bin), 'hook'], {
        input: preEvent('mcp__aeat__modelo_work_create'),
        env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' },
        encoding: 'utf8',
      });
      expect(r.status, `${bin}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
  });

  it('decides as usual when the code cache is corrupt or missing', () => {
    const s = setup();
    for (const cache of ['garbage', null]) {
      const dir = copyDist();
      if (cache === null) rmSync(join(dir, 'hook.js.cache'));
      else writeFileSync(join(dir, 'hook.js.cache'), cache);
      const r = spawnSync(process.execPath, [join(dir, 'persona-gate.cjs'), 'hook'], {
        input: preEvent('mcp__aeat__modelo_work_create'),
        env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' },
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
  });
});
