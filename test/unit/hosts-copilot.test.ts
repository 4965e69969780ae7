import { describe, expect, it } from 'vitest';
import { hostFixtures, recordedEventsHook } from '../helpers/host-fixtures';
import { stateReceipts } from '../helpers/log-lines';
import { taxPolicyWithShell } from '../helpers/policy';

/** Events the real Copilot CLI 1.0.102 handed a recording hook (PascalCase registration), as they were. */
const { adapter, fixture, read } = hostFixtures('copilot');

describe('the Copilot adapter reads every recorded event', () => {
  const P = '/tmp/pg-e2e-H14h6t';
  it.each([
    ['pre-bash', 'Bash', { command: 'aeat modelo list', description: 'list' }],
    ['pre-bash-exit-3', 'Bash', { command: 'exit 3' }],
    ['pre-view-file', 'Read', { file_path: `${P}/notes.txt`, path: `${P}/notes.txt` }],
    ['pre-view-dir', 'Read', { file_path: P }],
    ['pre-create', 'Write', { file_path: `${P}/new.txt`, content: 'new file\n', path: `${P}/new.txt`, file_text: 'new file\n' }],
    ['pre-edit', 'Edit', { file_path: `${P}/notes.txt`, old_string: 'hello', new_string: 'bye' }],
    ['pre-grep', 'Grep', { pattern: 'second', path: P }],
    ['pre-glob', 'Glob', { pattern: '*.txt' }],
    ['pre-mcp-aeat-whoami', 'mcp__aeat__whoami', {}],
    ['pre-mcp-aeat-modelo_list', 'mcp__aeat__modelo_list', { modelo: '303' }],
    ['pre-list_bash', 'BashOutput', {}],
    ['pre-sql', 'sql', { query: 'SELECT 1' }],
    ['pre-fetch_copilot_cli_documentation', 'fetch_copilot_cli_documentation', {}],
    ['pre-web_fetch', 'WebFetch', { url: 'http://127.0.0.1:9/x' }],
    ['pre-task', 'Agent', { subagent_type: 'explore', agent_type: 'explore', prompt: 'p' }],
    ['pre-rg', 'Grep', { pattern: 'second' }],
  ])('%s → %s', (name, tool, input) => {
    const event = read(name);
    expect(event.hook_event_name).toBe('PreToolUse');
    expect(event.tool_name).toBe(tool);
    expect(event.tool_input).toMatchObject(input);
    // Copilot gives no call id: the hook signs the call instead.
    expect(event.tool_use_id).toBeUndefined();
    expect(event.session_id).toBe(fixture(name).session_id);
  });

  it("a field the model adds under Claude Code's name does not hide the file Copilot writes", () => {
    const raw = fixture('pre-create');
    raw.tool_input.file_path = '/tmp/harmless.txt';
    raw.tool_input.path = '/work/.claude/persona-gate.json';
    const parsed = adapter.readEvent(raw);
    expect(parsed.ok && (parsed.event as any).tool_input.file_path).toBe('/work/.claude/persona-gate.json');
  });

  it('apply_patch arrives as Edit whose input is the patch text: the paths it writes are read out of it', () => {
    const event = read('pre-apply_patch');
    expect(event.tool_name).toBe('Edit');
    expect(event.host_tool_name).toBe('apply_patch');
    expect(event.written_paths).toEqual(['/tmp/pg-e2e-E63opw/added.txt', '/tmp/pg-e2e-E63opw/notes.txt']);
    expect(read('post-apply_patch').written_paths).toEqual(event.written_paths);
  });

  it("PostToolUse carries tool_result; an MCP tool's text reads as Claude Code's content blocks", () => {
    const whoami = read('post-mcp-aeat-whoami');
    expect(whoami).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'mcp__aeat__whoami', tool_input: {} });
    expect(whoami.tool_response).toEqual([{ type: 'text', text: 'Erika Example (NIF 00000000T)' }]);
    const bash = read('post-bash');
    expect(bash.tool_response).toEqual({
      result_type: 'success',
      text_result_for_llm: 'aeat: ran modelo list\n<shellId: 0 completed with exit code 0>',
    });
  });

  it('a post-tool event has the same tool and input as its pre-tool event, so the two sign alike', () => {
    for (const name of ['bash', 'view-file', 'create', 'edit', 'grep', 'glob', 'mcp-aeat-whoami', 'task', 'apply_patch']) {
      const pre = read(`pre-${name}`);
      const post = read(`post-${name}`);
      expect([post.tool_name, post.tool_input]).toEqual([pre.tool_name, pre.tool_input]);
    }
  });

  it("a subagent's events belong to its parent's session", () => {
    const sub = read('subagent-pre-view');
    const raw = fixture('subagent-pre-view');
    expect(sub.session_id).toBe(raw.parent_agent_id);
    expect(sub).toMatchObject({ agent_id: raw.agent_id, agent_type: 'explore', tool_name: 'Read' });
    expect(read('subagent-post-view').session_id).toBe(raw.parent_agent_id);
  });

  it('SessionStart is read; the events persona-gate does not handle are not Copilot events it reads', () => {
    expect(read('session-start')).toEqual({
      hook_event_name: 'SessionStart',
      session_id: fixture('session-start').session_id,
      source: 'new',
      cwd: '/tmp/pg-e2e-H14h6t',
    });
    for (const name of ['user-prompt-submit', 'stop', 'session-end', 'post-failure-web_fetch'])
      expect(adapter.readEvent(fixture(name)).ok).toBe(false);
  });
});

describe('recorded events through the whole hook', () => {
  // The example policy, with the shell for the preparer.
  const { state, hook, reason } = recordedEventsHook('copilot', taxPolicyWithShell());

  it('a shell handoff is refused naming its owner, as Claude Code JSON', () => {
    const r = hook('pre-bash', 'modelo-preparer', (e) => (e.tool_input.command = 'aeat modelo export 303'));
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(reason(r)).toContain('owned by the verifier persona');
    expect(hook('pre-bash', 'modelo-preparer')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('an MCP mutation is refused by scope under coordinator, and a read passes silently', () => {
    const r = hook('pre-mcp-aeat-modelo_list', 'coordinator', (e) => (e.tool_name = 'aeat-modelo_work_create'));
    expect(reason(r)).toContain('the coordinator persona may not run modelo.work.create');
    expect(hook('pre-mcp-aeat-modelo_list', 'coordinator')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it("the identity gate: a mutation is refused until the recorded whoami's post-tool event, matched by signature, has run", () => {
    const session = (e: any) => (e.session_id = 'copilot-identity-unit');
    const create = (e: any) => {
      session(e);
      e.tool_name = 'aeat-modelo_work_create';
      e.tool_input = { modelo: '303' };
    };
    expect(reason(hook('pre-mcp-aeat-modelo_list', 'modelo-preparer', create))).toContain('has not yet confirmed which profile is active');
    expect(hook('pre-mcp-aeat-whoami', 'modelo-preparer', session).stdout).toBe('');
    expect(hook('post-mcp-aeat-whoami', 'modelo-preparer', session).exitCode).toBe(0);
    expect(hook('pre-mcp-aeat-modelo_list', 'modelo-preparer', create)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const receipts = stateReceipts(state);
    expect(receipts.some((r) => r.hook_event === 'PostToolUse' && r.session_id === 'copilot-identity-unit')).toBe(true);
  });
});
