import { describe, expect, it } from 'vitest';
import { hostFixtures, recordedEventsHook } from '../helpers/host-fixtures';
import { taxPolicyWithShell } from '../helpers/policy';

/** Events the real Factory Droid 0.225.2 handed a recording hook (~/.factory/hooks.json), as they were. */
const { adapter, fixture, read } = hostFixtures('droid');

describe('the Droid adapter reads every recorded event', () => {
  const P = '/tmp/pg-e2e-0oej4M';
  it.each([
    ['pre-execute', 'Bash', { command: 'aeat modelo list', riskLevel: 'low', riskLevelReason: 'reads only', summary: 'list modelos' }],
    ['pre-execute-exit-3', 'Bash', { command: 'exit 3' }],
    ['pre-read', 'Read', { file_path: `${P}/notes.txt` }],
    ['pre-read-missing', 'Read', { file_path: `${P}/missing.txt` }],
    ['pre-ls', 'LS', { path: P, directory_path: P }],
    ['pre-create', 'Write', { file_path: `${P}/new.txt`, content: 'new file\n' }],
    ['pre-edit', 'Edit', { file_path: `${P}/notes.txt`, old_str: 'hello', new_str: 'bye' }],
    ['pre-grep', 'Grep', { pattern: 'second', path: P }],
    ['pre-glob', 'Glob', { patterns: ['*.txt'], folder: P }],
    ['pre-mcp-aeat-whoami', 'mcp__aeat__whoami', {}],
    ['pre-mcp-aeat-modelo_list', 'mcp__aeat__modelo_list', { modelo: '303' }],
    ['pre-toolsearch', 'ToolSearch', { query: 'aeat modelo list' }],
    ['pre-fetchurl', 'WebFetch', { url: 'http://127.0.0.1:9/x' }],
    ['pre-websearch', 'WebSearch', { query: 'modelo 303' }],
    ['pre-todowrite', 'TodoWrite', { todos: '1. [in_progress] prepare' }],
  ])('%s → %s', (name, tool, input) => {
    const event = read(name);
    expect(event.hook_event_name).toBe('PreToolUse');
    expect(event.tool_name).toBe(tool);
    expect(event.tool_input).toMatchObject(input);
    expect(event.tool_use_id).toBeUndefined();
    expect(event.session_id).toBe(fixture(name).session_id);
  });

  it.each([
    ['add', ['/tmp/pg-e2e-Z1ZCo9/added.txt']],
    ['update', ['/tmp/pg-e2e-Z1ZCo9/notes.txt']],
    ['move', ['/tmp/pg-e2e-Z1ZCo9/added.txt', '/tmp/pg-e2e-Z1ZCo9/moved.txt']],
    ['delete', ['/tmp/pg-e2e-Z1ZCo9/moved.txt']],
    ['two-files', ['/tmp/pg-e2e-Z1ZCo9/two-a.txt', '/tmp/pg-e2e-Z1ZCo9/two-b.txt']],
    ['relative', ['rel.txt']],
  ])('ApplyPatch (%s): an Edit writing the paths in its patch', (name, paths) => {
    const event = read(`pre-applypatch-${name}`);
    expect(event).toMatchObject({ tool_name: 'Edit', host_tool_name: 'ApplyPatch', written_paths: paths });
    expect(read(`post-applypatch-${name}`).written_paths).toEqual(paths);
  });

  it("PostToolUse carries tool_response as text; an MCP tool's reads as Claude Code's content blocks", () => {
    expect(read('post-mcp-aeat-whoami')).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'mcp__aeat__whoami',
      tool_response: [{ type: 'text', text: 'Erika Example (NIF 00000000T)' }],
    });
    expect(read('post-execute').tool_response).toBe('aeat: ran modelo list\n\n\n[Process exited with code 0]');
  });

  it('a post-tool event has the same tool and input as its pre-tool event, so the two sign alike', () => {
    for (const name of ['execute', 'read', 'ls', 'create', 'edit', 'grep', 'glob', 'mcp-aeat-whoami', 'applypatch-move']) {
      const pre = read(`pre-${name}`);
      const post = read(`post-${name}`);
      expect([post.tool_name, post.tool_input]).toEqual([pre.tool_name, pre.tool_input]);
    }
  });

  it('SessionStart is read; Stop and SessionEnd are not events it reads', () => {
    expect(read('session-start')).toEqual({
      hook_event_name: 'SessionStart',
      session_id: fixture('session-start').session_id,
      source: 'startup',
      cwd: '/tmp/pg-e2e-0oej4M',
    });
    for (const name of ['stop', 'session-end']) expect(adapter.readEvent(fixture(name)).ok).toBe(false);
  });
});

describe('recorded events through the whole hook', () => {
  // The example policy, with the shell and file writes for the preparer.
  const policy = taxPolicyWithShell();
  policy.personas['modelo-preparer'].families.push('file_write');
  const { state, policyPath, hook, reason } = recordedEventsHook('droid', policy);

  it('a shell handoff is refused naming its owner; a list runs', () => {
    expect(reason(hook('pre-execute', 'modelo-preparer', (e) => (e.tool_input.command = 'aeat modelo export 303')))).toContain(
      'owned by the verifier persona',
    );
    expect(hook('pre-execute', 'modelo-preparer')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('an ApplyPatch that moves a file onto the policy is refused by self-protection', () => {
    const r = hook('pre-applypatch-move', 'modelo-preparer', (e) => {
      e.cwd = state;
      e.tool_input.input = e.tool_input.input.replace('/tmp/pg-e2e-Z1ZCo9/moved.txt', policyPath);
    });
    expect(reason(r)).toBe(
      'persona-gate: this call would change the persona-gate policy, which guards this session. Only the user may change it, outside the agent.',
    );
  });

  it("the identity gate: a mutation is refused until the recorded whoami's post-tool event, matched by signature, has run", () => {
    const session = (e: any) => (e.session_id = 'droid-identity-unit');
    const create = (e: any) => {
      session(e);
      e.tool_name = 'aeat___modelo_work_create';
      e.tool_input = { modelo: '303' };
    };
    expect(reason(hook('pre-mcp-aeat-modelo_list', 'modelo-preparer', create))).toContain('has not yet confirmed which profile is active');
    expect(hook('pre-mcp-aeat-whoami', 'modelo-preparer', session).stdout).toBe('');
    expect(hook('post-mcp-aeat-whoami', 'modelo-preparer', session).exitCode).toBe(0);
    expect(hook('pre-mcp-aeat-modelo_list', 'modelo-preparer', create)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});
