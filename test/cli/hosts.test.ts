import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { cleanEnv, denyJson, runCli, runCliAsync, tempDir } from '../helpers/cli';
import { ROOT, TAX_POLICY_PATH, taxPolicyWithShell } from '../helpers/policy';

/**
 * `hook --host H` against the built bundle: every verdict and every failure of SPEC §5 in the form
 * that host honours (SPEC §10), and the identity gate across a host's pre- and post-tool events.
 */

type Host = 'codex' | 'copilot' | 'gemini' | 'qwen' | 'droid';

/** Each host's event names, shell tool, and a tool call that writes a file (path → input). */
const HOSTS: Record<
  Host,
  { pre: string; post: string; shell: string; title: string; callId: boolean; write: [string, (path: string) => Record<string, unknown>] }
> = {
  codex: {
    pre: 'PreToolUse',
    post: 'PostToolUse',
    shell: 'Bash',
    title: 'Codex',
    callId: true,
    write: ['apply_patch', (p) => ({ command: `*** Begin Patch\n*** Add File: ${p}\n+{}\n*** End Patch\n` })],
  },
  copilot: {
    pre: 'PreToolUse',
    post: 'PostToolUse',
    shell: 'Bash',
    title: 'Copilot',
    callId: false,
    write: ['create', (p) => ({ path: p, file_text: '{}' })],
  },
  gemini: {
    pre: 'BeforeTool',
    post: 'AfterTool',
    shell: 'run_shell_command',
    title: 'Gemini CLI',
    callId: false,
    write: ['write_file', (p) => ({ file_path: p, content: '{}' })],
  },
  qwen: {
    pre: 'PreToolUse',
    post: 'PostToolUse',
    shell: 'run_shell_command',
    title: 'Qwen Code',
    callId: true,
    write: ['write_file', (p) => ({ file_path: p, content: '{}' })],
  },
  droid: {
    pre: 'PreToolUse',
    post: 'PostToolUse',
    shell: 'Execute',
    title: 'Droid',
    callId: false,
    write: ['Create', (p) => ({ file_path: p, content: '{}' })],
  },
};

function setup(policy: string | null = readFileSync(TAX_POLICY_PATH, 'utf8'), extra: Record<string, string> = {}) {
  const dir = tempDir('pg-host-');
  const stateDir = join(dir, 'state');
  const policyPath = join(dir, 'policy.json');
  if (policy !== null) writeFileSync(policyPath, policy);
  const env = cleanEnv({ PERSONA_GATE_STATE_DIR: stateDir, PERSONA_GATE_CONFIG: policyPath, HOME: dir, ...extra });
  return { dir, stateDir, policyPath, env };
}

/** A host's own event for a tool call; MCP tools in Gemini's naming carry `mcp_context`. */
function hostEvent(
  host: Host,
  kind: 'pre' | 'post',
  tool: string,
  input: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): string {
  const h = HOSTS[host];
  let name = tool;
  const fields: Record<string, unknown> = {};
  const mcp = /^mcp__([^_]+)__(.+)$/.exec(tool);
  if (mcp && host === 'gemini') {
    name = `mcp_${mcp[1]}_${mcp[2]}`;
    fields.mcp_context = { server_name: mcp[1], tool_name: mcp[2] };
  }
  if (h.callId) fields[host === 'qwen' ? 'tool_call_id' : 'tool_use_id'] = `call-${name}-${JSON.stringify(input).length}`;
  if (kind === 'post') fields[host === 'copilot' ? 'tool_result' : 'tool_response'] = { text: 'Erika Example' };
  return JSON.stringify({
    hook_event_name: kind === 'pre' ? h.pre : h.post,
    session_id: `s-${host}`,
    cwd: '/tmp',
    tool_name: name,
    tool_input: input,
    ...fields,
    ...extra,
  });
}

function denyIn(host: Host, reason: string): string {
  return host === 'gemini' ? `${JSON.stringify({ decision: 'deny', reason })}\n` : denyJson(reason);
}

/** What blocks on a host when the event could not be read: Gemini's JSON, Copilot's Claude JSON (exit 2 hides the reason there), exit 2 elsewhere. */
function unreadIn(host: Host, reason: string): { stdout: string; stderr: string; code: number } {
  if (host === 'gemini' || host === 'copilot') return { stdout: denyIn(host, reason), stderr: '', code: 0 };
  return { stdout: '', stderr: `${reason}\n`, code: 2 };
}

describe.each(Object.keys(HOSTS) as Host[])('hook --host %s', (host) => {
  const h = HOSTS[host];
  const hook = (input: string, env: Record<string, string>, args: string[] = []) =>
    runCli(['hook', '--host', host, ...args], { input, env });

  it('refuses a handoff through its shell tool, naming the owner, in its own form', () => {
    const s = setup(undefined, { PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const r = hook(hostEvent(host, 'pre', h.shell, { command: 'aeat modelo export 303' }), s.env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const reason = host === 'gemini' ? JSON.parse(r.stdout).reason : JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason;
    expect(reason).toContain('owned by the verifier persona');
    expect(r.stdout).toBe(denyIn(host, reason));
    const receipts = readdirSync(join(s.stateDir, 'receipts'));
    const receipt = JSON.parse(
      readFileSync(join(s.stateDir, 'receipts', receipts[0]!), 'utf8')
        .trim()
        .split('\n')
        .pop()!,
    );
    expect(receipt).toMatchObject({ host, verdict: 'deny', status: 'handoff_denied', tool_name: 'Bash', command_key: 'modelo.export' });
    if (h.shell !== 'Bash') expect(receipt.host_tool_name).toBe(h.shell);
  });

  it('answers a call it lets through with nothing at all', () => {
    const s = setup();
    expect(hook(hostEvent(host, 'pre', h.shell, { command: 'aeat modelo list' }), s.env)).toMatchObject({
      stdout: '',
      stderr: '',
      code: 0,
    });
  });

  it('answers an ask (unscoped, a write to the policy) with a deny that says a person must approve', () => {
    const s = setup();
    const r = hook(hostEvent(host, 'pre', h.write[0], h.write[1](s.policyPath)), s.env);
    const reason = host === 'gemini' ? JSON.parse(r.stdout).reason : JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason;
    expect(reason).toContain('which guards this session');
    expect(reason).toMatch(new RegExp(`${h.title} cannot ask a person from here, so the call is denied`));
    expect(r).toMatchObject({ stdout: denyIn(host, reason), code: 0 });
  });

  it('refuses a mutation until the identity read has run, matched across its pre- and post-tool events', () => {
    const s = setup(undefined, { PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const create = hostEvent(host, 'pre', 'mcp__aeat__modelo_work_create', { modelo: '303' });
    expect(hook(create, s.env).stdout).toBe(denyIn(host, en.identityRequired()));
    expect(hook(hostEvent(host, 'pre', 'mcp__aeat__whoami', {}), s.env).stdout).toBe('');
    // Let through is not yet run: the mutation still waits for the read's post-tool event.
    expect(hook(create, s.env).stdout).toBe(denyIn(host, en.identityRequired()));
    expect(hook(hostEvent(host, 'post', 'mcp__aeat__whoami', {}), s.env)).toMatchObject({ stdout: '', code: 0 });
    expect(hook(create, s.env)).toMatchObject({ stdout: '', stderr: '', code: 0 });
    // A switch re-arms, whatever the host.
    expect(hook(hostEvent(host, 'pre', 'mcp__aeat__profile_switch', { profile: 'x' }), s.env).stdout).toBe('');
    expect(hook(create, s.env).stdout).toBe(denyIn(host, en.identityRequired()));
  });

  it.skipIf(h.callId)('without a call id, a post-tool event of another call (other input) does not confirm the read', () => {
    const s = setup(undefined, { PERSONA_GATE_PERSONA: 'modelo-preparer' });
    expect(hook(hostEvent(host, 'pre', 'mcp__aeat__whoami', {}), s.env).stdout).toBe('');
    expect(hook(hostEvent(host, 'post', 'mcp__aeat__whoami', { other: 1 }), s.env).stdout).toBe('');
    expect(hook(hostEvent(host, 'pre', 'mcp__aeat__modelo_work_create', { modelo: '303' }), s.env).stdout).toBe(
      denyIn(host, en.identityRequired()),
    );
  });

  describe('every failure ends in a deny that blocks on this host', () => {
    it('no policy', () => {
      const s = setup(null);
      const r = hook(hostEvent(host, 'pre', h.shell, { command: 'ls' }), { ...s.env, PERSONA_GATE_CONFIG: join(s.dir, 'absent.json') });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(host === 'gemini' ? '"decision":"deny"' : '"permissionDecision":"deny"');
      expect(r.stdout).toContain('absent.json');
    });

    it('an invalid policy', () => {
      const s = setup('{ not json');
      const r = hook(hostEvent(host, 'pre', h.shell, { command: 'ls' }), s.env);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(host === 'gemini' ? '"decision":"deny"' : '"permissionDecision":"deny"');
      // The failure's receipt names the host too.
      const file = readdirSync(join(s.stateDir, 'receipts'))[0]!;
      expect(JSON.parse(readFileSync(join(s.stateDir, 'receipts', file), 'utf8').trim())).toMatchObject({
        host,
        verdict: 'deny',
        status: 'config_error',
      });
    });

    it('an event that is not JSON', () => {
      const s = setup();
      const r = hook('garbage', s.env);
      expect(r).toMatchObject(unreadIn(host, en.eventMalformed(`Unexpected token 'g', "garbage" is not valid JSON`)));
    });

    it('an event of a name this host does not send', () => {
      const s = setup();
      const r = hook(JSON.stringify({ hook_event_name: 'Notification', session_id: 's' }), s.env);
      expect(r).toMatchObject(unreadIn(host, en.eventShape('unsupported hook_event_name "Notification"')));
    });

    it('a pre-tool event without its tool', () => {
      const s = setup();
      const r = hook(JSON.stringify({ hook_event_name: h.pre, session_id: 's', tool_input: {} }), s.env);
      expect(r).toMatchObject({ stdout: denyIn(host, en.eventShape('tool_name is missing or not a non-empty string')), code: 0 });
    });

    it('an oversized event', () => {
      const s = setup();
      const r = hook(hostEvent(host, 'pre', h.shell, { command: `echo ${'x'.repeat(1024 * 1024)}` }), s.env);
      expect(r).toMatchObject(unreadIn(host, en.eventTooLarge(1024 * 1024)));
    });

    it('unusable state', () => {
      const s = setup();
      writeFileSync(s.stateDir, 'not a directory');
      const r = hook(hostEvent(host, 'pre', h.shell, { command: 'ls' }), s.env);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(host === 'gemini' ? '"decision":"deny"' : '"permissionDecision":"deny"');
      expect(r.stdout).toContain('session state cannot be used');
    });

    it('a bad option of its own', () => {
      const s = setup();
      const r = hook(hostEvent(host, 'pre', h.shell, { command: 'ls' }), s.env, ['--confirm-on', 'later']);
      expect(r).toMatchObject({ stdout: denyIn(host, en.hookUsage(en.hookBadValue('--confirm-on', 'later', ['pre', 'post']))), code: 0 });
      expect(r.stdout).not.toContain('internal error');
    });

    it('a host that never closes stdin: the deadline', async () => {
      const s = setup();
      const r = await runCliAsync(['hook', '--host', host], {
        input: `{"hook_event_name":"${h.pre}",`,
        env: { ...s.env, PERSONA_GATE_DEADLINE_MS: '400' },
        keepStdinOpen: true,
      });
      expect(r).toMatchObject(unreadIn(host, en.deadline(400)));
    });
  });
});

describe('hook --host: before the host is known', () => {
  it('an unknown host: exit 2 with the reason and nothing on stdout, the answer that blocks everywhere', () => {
    const s = setup();
    const r = runCli(['hook', '--host', 'cursor'], { input: hostEvent('codex', 'pre', 'Bash', { command: 'ls' }), env: s.env });
    expect(r).toMatchObject({
      stdout: '',
      stderr:
        'persona-gate hook: --host takes claude-code, codex, copilot, gemini, qwen, droid, not "cursor". Fix the hook\'s registration (persona-gate doctor checks it; persona-gate hook --help lists what it takes). The call is denied.\n',
      code: 2,
    });
  });

  it('a misspelt host: a usage error naming the known hosts and the nearest one, still exit 2 with nothing on stdout', () => {
    const s = setup();
    const r = runCli(['hook', '--host', 'claude'], { input: hostEvent('codex', 'pre', 'Bash', { command: 'ls' }), env: s.env });
    expect(r).toMatchObject({ stdout: '', code: 2 });
    expect(r.stderr).toBe(
      `${en.hookUsage('--host takes claude-code, codex, copilot, gemini, qwen, droid, not "claude" (did you mean claude-code?)')}\n`,
    );
    expect(r.stderr).not.toContain('internal error');
    const es = runCli(['hook', '--host=gemni'], {
      input: hostEvent('gemini', 'pre', 'run_shell_command', { command: 'ls' }),
      env: { ...s.env, PERSONA_GATE_LOCALE: 'es' },
    });
    expect(es).toMatchObject({ stdout: '', code: 2 });
    expect(es.stderr).toContain('--host acepta claude-code, codex, copilot, gemini, qwen, droid, no "gemni" (¿quería decir gemini?)');
  });

  it('--host with no value', () => {
    const s = setup();
    const r = runCli(['hook', '--host'], { input: hostEvent('codex', 'pre', 'Bash', { command: 'ls' }), env: s.env });
    expect(r).toMatchObject({ stdout: '', code: 2 });
  });

  it("a Claude Code event under --host gemini is not read as Gemini's: denied in Gemini's form", () => {
    const s = setup();
    const r = runCli(['hook', '--host', 'gemini'], {
      input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } }),
      env: s.env,
    });
    expect(r).toMatchObject({ stdout: denyIn('gemini', en.eventShape('unsupported hook_event_name "PreToolUse"')), code: 0 });
  });
});

describe('hook --host: what the adapters read', () => {
  it('a patch that writes the policy is refused; one that names no file is refused too', () => {
    const s = setup(undefined, { PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const patch = `*** Begin Patch\n*** Update File: ${s.policyPath}\n@@\n-a\n+b\n*** End Patch\n`;
    const r = runCli(['hook', '--host', 'droid'], { input: hostEvent('droid', 'pre', 'ApplyPatch', { input: patch }), env: s.env });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toContain('which guards this session');
    const none = runCli(['hook', '--host', 'droid'], {
      input: hostEvent('droid', 'pre', 'ApplyPatch', { input: 'nothing here' }),
      env: s.env,
    });
    expect(none.stdout).toBe(denyJson(en.patchUnreadable('ApplyPatch')));
  });

  it("Gemini's write_file to the policy is refused by gate 0, under its own field name", () => {
    const s = setup(undefined, { PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const r = runCli(['hook', '--host', 'gemini'], {
      input: hostEvent('gemini', 'pre', 'write_file', { file_path: s.policyPath, content: '{}' }),
      env: s.env,
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny' });
    expect(JSON.parse(r.stdout).reason).toContain('which guards this session');
  });

  it.each([
    ['gemini', 'run_shell_command', 'dir_path'],
    ['qwen', 'run_shell_command', 'directory'],
    ['qwen', 'monitor', 'directory'],
  ] as const)('%s %s: a relative path is checked from the directory its %s names', (host, tool, field) => {
    const s = setup(undefined, { PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const r = runCli(['hook', '--host', host], {
      input: hostEvent(host, 'pre', tool, { command: 'rm -f policy.json', [field]: s.dir }),
      env: s.env,
    });
    expect(r.stdout).toContain('which guards this session');
    const elsewhere = runCli(['hook', '--host', host], {
      input: hostEvent(host, 'pre', tool, { command: 'rm -f policy.json', [field]: join(s.dir, 'elsewhere') }),
      env: s.env,
    });
    expect(elsewhere.stdout).not.toContain('which guards this session');
  });

  it.each([
    ['bash', true],
    ['cat | bash', true],
    ['python3', true],
    ['python3 -i tool.py', true],
    ['node', true],
    ['env sh', true],
    ['bash -c "ls -la"', false],
    ['python3 tool.py', false],
    ['python3 -c "print(1)"', false],
    ['node -e 1', false],
    ['ls -la', false],
    ['source /dev/stdin', true],
    ['. /dev/stdin', true],
    ["awk '{system($0)}'", true],
    ['awk \'{print $1 | "sh"}\'', true],
    ['sed e', true],
    ["sed 's/^/echo /e'", true],
    ['script -q /dev/null', true],
    ['expect', true],
    ['gdb', true],
    ['vim -e', true],
    ['ed', true],
    ['less notes.txt', true],
    ['parallel', true],
    ["awk -F'|' '{print $1}' notes.txt", false],
    ['sed -e s/a/b/ notes.txt', false],
  ] as const)('codex, whose write_stdin feeds a running command unseen: %s', (command, refused) => {
    const policy = taxPolicyWithShell();
    delete policy.identity;
    const s = setup(JSON.stringify(policy), { PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const codex = runCli(['hook', '--host', 'codex'], { input: hostEvent('codex', 'pre', 'Bash', { command }), env: s.env });
    if (refused)
      expect(JSON.parse(codex.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
        'can give a running command input later without persona-gate seeing it',
      );
    else expect(codex.stdout).toBe('');
    // Claude Code gives a command no input after the call: the same line is not refused there.
    const claude = runCli(['hook'], {
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's',
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: 't',
        cwd: '/tmp',
      }),
      env: s.env,
    });
    expect(claude.stdout).toBe('');
  });

  it.each([
    ['claude-code', 'Bash', { run_in_background: true }],
    ['gemini', 'run_shell_command', { is_background: true }],
    ['droid', 'Execute', { fireAndForget: true }],
  ] as const)(
    '%s: a profile switch started in the background is refused (it would switch after later calls were checked)',
    (host, tool, flag) => {
      const policy = taxPolicyWithShell();
      const s = setup(JSON.stringify(policy), { PERSONA_GATE_PERSONA: 'modelo-preparer' });
      const event = (input: Record<string, unknown>) =>
        host === 'claude-code'
          ? JSON.stringify({
              hook_event_name: 'PreToolUse',
              session_id: 's',
              tool_name: tool,
              tool_input: input,
              tool_use_id: 't',
              cwd: '/tmp',
            })
          : hostEvent(host, 'pre', tool, input);
      const args = host === 'claude-code' ? ['hook'] : ['hook', '--host', host];
      const background = runCli(args, { input: event({ command: 'aeat config profile switch Erik', ...flag }), env: s.env });
      expect(background.stdout).toContain('run in the background it would switch after later calls were checked');
      expect(runCli(args, { input: event({ command: 'aeat config profile switch Erik' }), env: s.env }).stdout).toBe('');
    },
  );

  it.each([
    ['claude-code', '.mcp.json'],
    ['droid', '.factory/mcp.json'],
    ['copilot', 'home/.copilot/mcp-config.json'],
  ] as const)('%s: an MCP server configuration (%s) is guarded: a server defined there could answer the identity read', (host, file) => {
    const s = setup(undefined, { PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const path = join(s.dir, file);
    const input =
      host === 'claude-code'
        ? JSON.stringify({
            hook_event_name: 'PreToolUse',
            session_id: 's',
            tool_name: 'Write',
            tool_input: { file_path: path, content: '{}' },
            tool_use_id: 't',
            cwd: s.dir,
          })
        : hostEvent(
            host,
            'pre',
            host === 'droid' ? 'Create' : 'create',
            host === 'droid' ? { file_path: path, content: '{}' } : { path, file_text: '{}' },
          );
    const r = runCli(host === 'claude-code' ? ['hook'] : ['hook', '--host', host], { input, env: s.env });
    expect(r.stdout).toContain('an MCP server configuration');
  });

  it('codex: a workdir the model chose is not where the policy is looked for', () => {
    const session = tempDir('pg-codex-session-');
    mkdirSync(join(session, '.claude'));
    writeFileSync(join(session, '.claude', 'persona-gate.json'), readFileSync(TAX_POLICY_PATH, 'utf8'));
    const elsewhere = tempDir('pg-codex-elsewhere-');
    mkdirSync(join(elsewhere, '.claude'));
    const lax = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    for (const p of Object.values(lax.catalog.commands) as { owner?: string }[]) delete p.owner;
    writeFileSync(join(elsewhere, '.claude', 'persona-gate.json'), JSON.stringify(lax));
    const env = cleanEnv({ PERSONA_GATE_STATE_DIR: join(session, 'state'), HOME: session, PERSONA_GATE_PERSONA: 'modelo-preparer' });
    const event = JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      tool_name: 'mcp__aeat__modelo_export',
      tool_input: {},
      tool_use_id: 't',
      cwd: elsewhere,
    });
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'persona-gate.cjs'), 'hook', '--host', 'codex'], {
      input: event,
      env,
      cwd: session,
      encoding: 'utf8',
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toContain('owned by the verifier persona');
  });

  it("Gemini's MCP names take the server from mcp_context, even with an underscore in it", () => {
    const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    for (const command of Object.values(policy.catalog.commands) as { tools?: string[] }[])
      command.tools = command.tools?.map((t) => t.replace('mcp__aeat__', 'mcp__tax_es__'));
    const s = setup(JSON.stringify(policy), { PERSONA_GATE_PERSONA: 'coordinator' });
    const event = JSON.stringify({
      hook_event_name: 'BeforeTool',
      session_id: 's',
      tool_name: 'mcp_tax_es_modelo_work_create',
      mcp_context: { server_name: 'tax_es', tool_name: 'modelo_work_create' },
      tool_input: {},
    });
    const r = runCli(['hook', '--host', 'gemini'], { input: event, env: s.env });
    expect(JSON.parse(r.stdout).reason).toContain('the coordinator persona may not run modelo.work.create');
  });
});
