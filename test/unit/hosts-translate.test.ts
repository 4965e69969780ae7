import { describe, expect, it } from 'vitest';
import { applyOps, emptyState, type SessionState } from '../../src/core/state';
import { HOST_ADAPTERS } from '../../src/hosts';
import { patchPaths } from '../../src/hosts/translate';

describe('patchPaths', () => {
  it.each([
    ['*** Begin Patch\n*** Update File: a/b.ts\n@@\n-x\n+y\n*** End Patch', ['a/b.ts']],
    ['*** Begin Patch\n*** Add File: n.txt\n+hi\n*** Delete File: old.txt\n*** End Patch', ['n.txt', 'old.txt']],
    ['*** Begin Patch\n*** Update File: x\n*** Move to: .claude/persona-gate.json\n*** End Patch', ['x', '.claude/persona-gate.json']],
    ['--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b\n', ['src/x.ts']],
    ['--- /dev/null\n+++ b/new.ts\n', ['new.ts']],
    ['--- x.ts\t2024-01-01\n+++ y.ts\t2024-01-01\n', ['x.ts', 'y.ts']],
    ['just words', []],
  ])('%j', (text, paths) => {
    expect(patchPaths(text)).toEqual(paths);
  });
});

describe('the adapters read each host into Claude Code terms', () => {
  const read = (host: keyof typeof HOST_ADAPTERS, event: Record<string, unknown>) => {
    const r = HOST_ADAPTERS[host].readEvent({ session_id: 's', tool_input: {}, ...event });
    if (!r.ok) throw new Error(r.detail);
    return r.event;
  };

  it.each([
    [
      'gemini',
      { hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', host_tool_name: 'run_shell_command', tool_input: { command: 'ls' } },
    ],
    [
      'gemini',
      { hook_event_name: 'AfterTool', tool_name: 'replace', tool_input: { file_path: 'a' } },
      { hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: 'a' } },
    ],
    [
      'qwen',
      { hook_event_name: 'PreToolUse', tool_name: 'write_file', tool_call_id: 'c1', tool_input: { file_path: 'a' } },
      { tool_name: 'Write', tool_use_id: 'c1' },
    ],
    [
      'droid',
      { hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command: 'ls', riskLevel: 'low' } },
      { tool_name: 'Bash', tool_input: { command: 'ls', riskLevel: 'low' } },
    ],
    ['droid', { hook_event_name: 'PreToolUse', tool_name: 'Create', tool_input: { file_path: 'x' } }, { tool_name: 'Write' }],
    [
      'copilot',
      { hook_event_name: 'PreToolUse', tool_name: 'create', tool_input: { path: 'x' } },
      { tool_name: 'Write', tool_input: { path: 'x', file_path: 'x' } },
    ],
    [
      'copilot',
      { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_result: { text_result_for_llm: 'ok' } },
      { tool_name: 'Bash', tool_response: { text_result_for_llm: 'ok' } },
    ],
    [
      'codex',
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command: ['git', 'commit', '-m', "it's"] } },
      { tool_input: { command: "git commit -m 'it'\\''s'" } },
    ],
    ['codex', { hook_event_name: 'PreToolUse', tool_name: 'mcp__aeat__whoami' }, { tool_name: 'mcp__aeat__whoami' }],
    // The agent Gemini runs is agent_name: a subagent_type the model adds beside it does not steer the delegation gate.
    [
      'gemini',
      {
        hook_event_name: 'BeforeTool',
        tool_name: 'invoke_agent',
        tool_input: { agent_name: 'generalist', subagent_type: 'verifier', prompt: 'p' },
      },
      { tool_name: 'Task', tool_input: { subagent_type: 'generalist' } },
    ],
    // Copilot's create writes path, whatever file_path the model adds.
    [
      'copilot',
      {
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { path: '.claude/persona-gate.json', file_path: 'notes.txt', file_text: '{}' },
      },
      { tool_input: { file_path: '.claude/persona-gate.json', content: '{}' } },
    ],
  ] as const)('%s %j', (host, event, expected) => {
    expect(read(host, event)).toMatchObject(expected);
  });

  it('a host event without an id carries none (the hook signs the call instead)', () => {
    expect(read('gemini', { hook_event_name: 'BeforeTool', tool_name: 'read_file', tool_use_id: 'forged' })).not.toHaveProperty(
      'tool_use_id',
    );
  });
});

describe('pending reads matched by signature', () => {
  const sig = 'sig:abc';
  const confirmedAfter = (ops: Parameters<typeof applyOps>[1], start: SessionState = emptyState()) => applyOps(start, ops).confirmed;

  it('confirm the epoch they were let through in', () => {
    expect(
      confirmedAfter([
        { op: 'pending_read', tool_use_id: sig },
        { op: 'confirm_read', tool_use_id: sig, label: null },
      ]),
    ).toBe(true);
  });

  it('an identical read let through again after a switch, while the first is still pending, confirms neither', () => {
    const s = applyOps(emptyState(), [{ op: 'pending_read', tool_use_id: sig }, { op: 'rearm' }, { op: 'pending_read', tool_use_id: sig }]);
    const afterFirst = applyOps(s, [{ op: 'confirm_read', tool_use_id: sig, label: null }]);
    expect(afterFirst.confirmed).toBe(false);
    expect(afterFirst.pending_reads).toEqual({});
    // A later read, let through alone, confirms again.
    expect(
      confirmedAfter(
        [
          { op: 'pending_read', tool_use_id: sig },
          { op: 'confirm_read', tool_use_id: sig, label: null },
        ],
        afterFirst,
      ),
    ).toBe(true);
  });

  it('a call id still goes at a switch, as before', () => {
    const s = applyOps(emptyState(), [
      { op: 'pending_read', tool_use_id: 'toolu_1' },
      { op: 'pending_read', tool_use_id: sig },
      { op: 'rearm' },
    ]);
    expect(s.pending_reads).toEqual({ [sig]: -1 });
  });
});
