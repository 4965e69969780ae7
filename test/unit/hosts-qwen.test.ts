import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HookEvent, ToolEvent } from '../../src/core/event';
import { qwen } from '../../src/hosts/qwen';
import { hostFixtures } from '../helpers/host-fixtures';

/**
 * The Qwen Code adapter against the events Qwen Code 0.24.4 really sent a recording hook
 * (test/fixtures/hosts/qwen, one file per event, recorded by a headless run against a scripted model).
 */

const { dir: FIXTURES, fixture } = hostFixtures('qwen');

function read(raw: unknown): HookEvent {
  const parsed = qwen.readEvent(raw);
  if (!parsed.ok) throw new Error(`not read: ${parsed.detail}`);
  return parsed.event;
}

function readTool(raw: unknown): ToolEvent {
  const event = read(raw);
  if (event.hook_event_name === 'SessionStart') throw new Error('a SessionStart event');
  return event;
}

describe('Qwen Code events read as Claude Code events', () => {
  // fixture → the Claude Code tool, the host's tool name when it differs, and the input fields persona-gate reads
  const TOOLS: [string, string, string | undefined, Record<string, unknown>][] = [
    ['pre-run_shell_command', 'Bash', 'run_shell_command', { command: 'aeat modelo list', description: 'List modelos' }],
    ['post-run_shell_command', 'Bash', 'run_shell_command', { command: 'aeat modelo list' }],
    ['pre-subagent-run_shell_command', 'Bash', 'run_shell_command', { command: 'aeat modelo show 303' }],
    ['pre-monitor', 'Bash', 'monitor', { command: 'echo hi', max_events: 1 }],
    ['pre-read_file', 'Read', 'read_file', { file_path: '/tmp/pg-qwen-yuyZ4d/project/notes.txt' }],
    ['pre-write_file', 'Write', 'write_file', { file_path: '/tmp/pg-qwen-yuyZ4d/project/notes.txt', content: 'hello world\n' }],
    [
      'pre-edit',
      'Edit',
      'edit',
      { file_path: '/tmp/pg-qwen-yuyZ4d/project/notes.txt', old_string: 'hello world', new_string: 'hello there' },
    ],
    [
      'pre-notebook_edit',
      'NotebookEdit',
      'notebook_edit',
      { notebook_path: '/tmp/pg-qwen-yuyZ4d/project/book.ipynb', cell_id: 'c1', new_source: '2' },
    ],
    ['pre-glob', 'Glob', 'glob', { pattern: '*.txt' }],
    ['pre-grep_search', 'Grep', 'grep_search', { pattern: 'hello', glob: '*.txt' }],
    ['pre-list_directory', 'LS', 'list_directory', { path: '/tmp/pg-qwen-yuyZ4d/project' }],
    ['pre-web_fetch', 'WebFetch', 'web_fetch', { url: 'http://127.0.0.1:9/x', prompt: 'summarize' }],
    ['pre-todo_write', 'TodoWrite', 'todo_write', { todos: [{ id: '1', content: 'prepare modelo 303', status: 'pending' }] }],
    ['pre-agent', 'Agent', 'agent', { subagent_type: 'general-purpose', prompt: 'Prepare modelo 303.' }],
    ['pre-tool_search', 'ToolSearch', 'tool_search', { query: 'select:mcp__aeat__whoami' }],
    // MCP tools keep Qwen Code's name, which is already Claude Code's: called directly or through tool_call.
    ['pre-mcp-whoami', 'mcp__aeat__whoami', undefined, {}],
    ['pre-mcp-modelo_list', 'mcp__aeat__modelo_list', undefined, { year: '2025' }],
    // A tool persona-gate has no mapping for keeps its name (an unknown tool unless a policy names it).
    ['pre-read_mcp_resource', 'read_mcp_resource', undefined, { server_name: 'aeat', uri: 'aeat://none' }],
  ];

  it.each(TOOLS)('%s → %s', (name, tool, hostTool, input) => {
    const raw = fixture(name);
    const event = readTool(raw);
    expect(event.hook_event_name).toBe(raw.hook_event_name);
    expect(event.tool_name).toBe(tool);
    expect(event.host_tool_name).toBe(hostTool);
    expect(event.tool_input).toMatchObject(input);
    expect(event.session_id).toBe(raw.session_id);
    expect(event.cwd).toBe(raw.cwd);
    // The call id is the one Qwen Code makes up for each call (tool_use_id), unique whatever ids the
    // model gives (a provider may repeat those), not the model's tool_call_id.
    expect(raw.tool_use_id).toMatch(/^toolu_\d+_\w+$/);
    expect(event.tool_use_id).toBe(raw.tool_use_id);
  });

  it('every recorded fixture is covered by a case above or below', () => {
    const covered = new Set([
      ...TOOLS.map((t) => t[0]),
      'session-start',
      'post-mcp-whoami',
      'post-mcp-modelo_list',
      'post-agent',
      'post-subagent-run_shell_command',
      'post-failure-web_fetch',
      'post-failure-read_mcp_resource',
    ]);
    const files = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect(files.filter((f) => !f.startsWith('post-') && !covered.has(f))).toEqual([]);
    for (const f of files.filter((f) => f.startsWith('post-') && !covered.has(f))) {
      // the remaining post-tool events: each is the PostToolUse of a call whose pre-tool event is above
      const event = readTool(fixture(f));
      const pre = readTool(fixture(f.replace(/^post-/, 'pre-')));
      expect([event.hook_event_name, event.tool_name, event.tool_use_id]).toEqual(['PostToolUse', pre.tool_name, fixture(f).tool_use_id]);
      expect(event.tool_response).toEqual(fixture(f).tool_response);
    }
  });

  it('pairs a post-tool event with its pre-tool event by the same call id', () => {
    for (const [pre, post] of [
      ['pre-run_shell_command', 'post-run_shell_command'],
      ['pre-mcp-whoami', 'post-mcp-whoami'],
      ['pre-subagent-run_shell_command', 'post-subagent-run_shell_command'],
    ] as const) {
      const a = readTool(fixture(pre));
      const b = readTool(fixture(post));
      expect(b.hook_event_name).toBe('PostToolUse');
      expect(b.tool_use_id).toBe(a.tool_use_id);
      expect(b.tool_name).toBe(a.tool_name);
    }
  });

  it("reads an MCP tool's result as its content parts, so a label path like 0.text finds the text", () => {
    const raw = fixture('post-mcp-whoami');
    expect(raw.tool_response).toEqual({
      llmContent: [{ text: 'Erika Example (NIF 00000000T)' }],
      returnDisplay: 'Erika Example (NIF 00000000T)',
    });
    expect(readTool(raw).tool_response).toEqual([{ text: 'Erika Example (NIF 00000000T)' }]);
  });

  it("keeps a built-in tool's result as Qwen Code sent it", () => {
    const raw = fixture('post-run_shell_command');
    expect(readTool(raw).tool_response).toEqual(raw.tool_response);
  });

  it('keeps the agent_id of a subagent (Qwen Code sends no agent_type on tool events)', () => {
    const event = readTool(fixture('pre-subagent-run_shell_command'));
    expect(event.agent_id).toBe('general-purpose-call_e2e_18');
    expect(event.agent_type).toBeUndefined();
  });

  it('reads SessionStart', () => {
    const raw = fixture('session-start');
    expect(read(raw)).toMatchObject({ hook_event_name: 'SessionStart', session_id: raw.session_id, source: 'startup', cwd: raw.cwd });
  });

  it('does not read PostToolUseFailure (a tool that failed confirms nothing; init does not register it)', () => {
    for (const name of ['post-failure-web_fetch', 'post-failure-read_mcp_resource']) expect(qwen.readEvent(fixture(name)).ok).toBe(false);
  });

  describe('a shell command given a directory runs there, and is read so', () => {
    const CASES: [string, string, string, string][] = [
      ['run_shell_command', 'rm -f settings.json', '/p/.qwen', 'cd /p/.qwen && rm -f settings.json'],
      ['run_shell_command', 'ls', '.qwen', 'cd .qwen && ls'],
      ['run_shell_command', 'touch x', "/tmp/it's here", "cd '/tmp/it'\\''s here' && touch x"],
      ['monitor', 'tail -f log', '/var/log', 'cd /var/log && tail -f log'],
      ['run_shell_command', 'ls', '', 'ls'],
      ['run_shell_command', 'ls', '   ', 'ls'],
    ];
    it.each(CASES)('%s %j in %j', (tool, command, directory, expected) => {
      const raw = fixture(tool === 'monitor' ? 'pre-monitor' : 'pre-run_shell_command');
      raw.tool_input = { command, directory };
      const event = readTool(raw);
      expect(event.tool_name).toBe('Bash');
      expect(event.tool_input.command).toBe(expected);
      expect(event.tool_input.directory).toBe(directory);
    });

    it('only for the shell tools', () => {
      const raw = fixture('pre-glob');
      raw.tool_input = { pattern: '*', directory: '/elsewhere' };
      expect(readTool(raw).tool_input).toEqual({ pattern: '*', directory: '/elsewhere' });
    });
  });

  it('refuses to read what is not an event', () => {
    for (const raw of [
      null,
      [],
      'x',
      { ...fixture('pre-glob'), hook_event_name: 'BeforeTool' },
      { ...fixture('pre-glob'), tool_input: 'ls' },
      { ...fixture('pre-glob'), session_id: 7 },
    ]) {
      expect(qwen.readEvent(raw).ok).toBe(false);
    }
  });
});
