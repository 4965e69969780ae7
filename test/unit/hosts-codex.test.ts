import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codex } from '../../src/hosts/codex';
import { cleanEnv, runCli, tempDir } from '../helpers/cli';
import { hostFixtures } from '../helpers/host-fixtures';
import { TAX_POLICY_PATH } from '../helpers/policy';

/** Every event Codex 0.171.0 sent a hook in one recorded session (test/fixtures/hosts/codex/README.md). */
const { dir: FIXTURES, fixture } = hostFixtures('codex');

const SESSION = '01a22d88-141a-7af2-8821-8454b88c9805';

describe('codex: the recorded events, read into Claude Code terms', () => {
  // [fixture, event name, tool name, tool input, call id, tool the host named (when renamed), paths the patch writes]
  const table: [string, string, string, Record<string, unknown>, string, string | undefined, string[] | undefined][] = [
    ['pre-bash', 'PreToolUse', 'Bash', { command: 'aeat modelo list' }, 'call_e2e_2', undefined, undefined],
    ['post-bash', 'PostToolUse', 'Bash', { command: 'aeat modelo list' }, 'call_e2e_2', undefined, undefined],
    // The workdir the model chose is the event's cwd.
    ['pre-bash-workdir', 'PreToolUse', 'Bash', { command: 'pwd' }, 'call_e2e_22', undefined, undefined],
    ['post-bash-workdir', 'PostToolUse', 'Bash', { command: 'pwd' }, 'call_e2e_22', undefined, undefined],
    ['pre-bash-tty-shell', 'PreToolUse', 'Bash', { command: 'bash' }, 'call_e2e_24', undefined, undefined],
    ['post-bash-tty-shell', 'PostToolUse', 'Bash', { command: 'bash' }, 'call_e2e_24', undefined, undefined],
    ['pre-mcp-aeat-whoami', 'PreToolUse', 'mcp__aeat__whoami', {}, 'call_e2e_4', undefined, undefined],
    ['post-mcp-aeat-whoami', 'PostToolUse', 'mcp__aeat__whoami', {}, 'call_e2e_4', undefined, undefined],
    [
      'pre-mcp-aeat-modelo-work-create',
      'PreToolUse',
      'mcp__aeat__modelo_work_create',
      { modelo: '303' },
      'call_e2e_6',
      undefined,
      undefined,
    ],
    [
      'post-mcp-aeat-modelo-work-create',
      'PostToolUse',
      'mcp__aeat__modelo_work_create',
      { modelo: '303' },
      'call_e2e_6',
      undefined,
      undefined,
    ],
    ['pre-apply-patch-add', 'PreToolUse', 'Edit', fixture('pre-apply-patch-add').tool_input, 'call_e2e_8', 'apply_patch', ['notes.txt']],
    ['post-apply-patch-add', 'PostToolUse', 'Edit', fixture('post-apply-patch-add').tool_input, 'call_e2e_8', 'apply_patch', ['notes.txt']],
    [
      'pre-apply-patch-move-add-delete',
      'PreToolUse',
      'Edit',
      fixture('pre-apply-patch-move-add-delete').tool_input,
      'call_e2e_10',
      'apply_patch',
      ['notes.txt', 'moved.txt', 'sub/other.txt', 'sub/gone.txt'],
    ],
    ['pre-view-image', 'PreToolUse', 'Read', { path: 'moved.txt' }, 'call_e2e_12', 'view_image', undefined],
    [
      'pre-request-user-input',
      'PreToolUse',
      'AskUserQuestion',
      fixture('pre-request-user-input').tool_input,
      'call_e2e_18',
      'request_user_input',
      undefined,
    ],
    ['pre-create-goal', 'PreToolUse', 'TodoWrite', { objective: 'prepare modelo 303' }, 'call_e2e_20', 'create_goal', undefined],
    ['post-create-goal', 'PostToolUse', 'TodoWrite', { objective: 'prepare modelo 303' }, 'call_e2e_20', 'create_goal', undefined],
    // Codex's MCP resource tools keep their names: a policy that wants them names them itself.
    ['pre-list-mcp-resources', 'PreToolUse', 'list_mcp_resources', {}, 'call_e2e_14', undefined, undefined],
    ['post-list-mcp-resources', 'PostToolUse', 'list_mcp_resources', {}, 'call_e2e_14', undefined, undefined],
    ['pre-read-mcp-resource', 'PreToolUse', 'read_mcp_resource', { server: 'aeat', uri: 'file:///x' }, 'call_e2e_16', undefined, undefined],
  ];

  it.each(table)('%s', (name, eventName, tool, input, callId, hostTool, written) => {
    const raw = fixture(name);
    const parsed = codex.readEvent(raw);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const event = parsed.event as unknown as Record<string, unknown>;
    const expected: Record<string, unknown> = {
      hook_event_name: eventName,
      session_id: SESSION,
      tool_name: tool,
      tool_input: input,
      cwd: raw.cwd,
      tool_use_id: callId,
    };
    // An MCP tool's result is its content blocks, as Claude Code gives it.
    if (eventName === 'PostToolUse') expected.tool_response = tool.startsWith('mcp__') ? raw.tool_response.content : raw.tool_response;
    if (hostTool !== undefined) expected.host_tool_name = hostTool;
    if (written !== undefined) expected.written_paths = written;
    expect(event).toEqual(expected);
    // Codex always gives a call id: nothing is matched by signature.
    expect(event.call_signature).toBeUndefined();
  });

  it('reads every recorded fixture (none left without a row)', () => {
    const named = new Set([...table.map((r) => r[0]), 'session-start', 'user-prompt-submit', 'stop']);
    const files = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect(files.filter((f) => !named.has(f))).toEqual([]);
  });

  it('reads SessionStart with its source', () => {
    expect(codex.readEvent(fixture('session-start'))).toEqual({
      ok: true,
      event: { hook_event_name: 'SessionStart', session_id: SESSION, source: 'startup', cwd: fixture('session-start').cwd },
    });
  });

  it('does not read the events it is not registered for (UserPromptSubmit, Stop)', () => {
    for (const name of ['user-prompt-submit', 'stop']) expect(codex.readEvent(fixture(name)).ok).toBe(false);
  });

  it('reads the patch of an apply_patch call from its command field; a patch it cannot read writes nothing it knows of', () => {
    const raw = fixture('pre-apply-patch-add');
    const parsed = codex.readEvent({
      ...raw,
      tool_input: { command: '*** Begin Patch\n*** Update File: /abs/.claude/persona-gate.json\n@@\n-a\n+b\n*** End Patch\n' },
    });
    expect(parsed.ok && 'written_paths' in parsed.event && parsed.event.written_paths).toEqual(['/abs/.claude/persona-gate.json']);
    const unreadable = codex.readEvent({ ...raw, tool_input: { patch: 'not where Codex puts it' } });
    expect(unreadable.ok && 'written_paths' in unreadable.event && unreadable.event.written_paths).toEqual([]);
  });
});

describe('codex: recorded events through the built hook', () => {
  function project(): { dir: string; env: Record<string, string> } {
    const dir = tempDir('pg-codex-unit-');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'persona-gate.json'), readFileSync(TAX_POLICY_PATH));
    return { dir, env: cleanEnv({ HOME: join(dir, 'home'), PERSONA_GATE_STATE_DIR: join(dir, 'state') }) };
  }
  const hook = (event: unknown, env: Record<string, string>, dir: string) =>
    runCli(['hook', '--host', 'codex'], { input: JSON.stringify(event), env, cwd: dir });

  it('a confirm-tier call is refused, saying a person must approve it, with the label read from the recorded whoami result', () => {
    const { dir, env } = project();
    const base = fixture('pre-mcp-aeat-whoami');
    expect(hook({ ...base, cwd: dir }, { ...env, PERSONA_GATE_PERSONA: 'verifier' }, dir).stdout).toBe('');
    expect(hook({ ...fixture('post-mcp-aeat-whoami'), cwd: dir }, { ...env, PERSONA_GATE_PERSONA: 'verifier' }, dir).code).toBe(0);
    const r = hook(
      { ...base, cwd: dir, tool_name: 'mcp__aeat__modelo_export', tool_input: { modelo: '303' }, tool_use_id: 'call_x' },
      { ...env, PERSONA_GATE_PERSONA: 'verifier' },
      dir,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(
      /^\[Active profile: Erika Example \(NIF 00000000T\)\] persona-gate: modelo\.export needs the user's confirmation\..* Codex cannot ask a person from here, so the call is denied: a person must approve it/,
    );
  });

  it('an apply_patch that writes the policy is refused', () => {
    const { dir, env } = project();
    const raw = fixture('pre-apply-patch-add');
    const r = hook(
      { ...raw, cwd: dir, tool_input: { command: '*** Begin Patch\n*** Add File: .claude/persona-gate.json\n+{}\n*** End Patch\n' } },
      { ...env, PERSONA_GATE_PERSONA: 'modelo-preparer' },
      dir,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toContain('would change the persona-gate policy');
  });

  it('an ordinary apply_patch is judged as an edit of the files it names', () => {
    const { dir, env } = project();
    const r = hook({ ...fixture('pre-apply-patch-add'), cwd: dir }, { ...env, PERSONA_GATE_PERSONA: 'coordinator' }, dir);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toContain('the coordinator persona may not run Edit');
  });
});
