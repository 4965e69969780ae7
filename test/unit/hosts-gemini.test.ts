import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gemini } from '../../src/hosts/gemini';
import { processEvent } from '../../src/hook/run';
import { tempDir } from '../helpers/cli';
import { hostFixtures } from '../helpers/host-fixtures';
import { TAX_POLICY_PATH } from '../helpers/policy';

/** Events Gemini CLI 0.61.0 sent a hook, recorded by test/e2e/gemini.test.ts. */
const { dir: DIR, fixture, read } = hostFixtures('gemini');

// host tool (fixture label) → the Claude Code tool it is read as.
const TOOLS: [string, string][] = [
  ['run_shell_command', 'Bash'],
  ['read_file', 'Read'],
  ['read_file.relative', 'Read'],
  ['read_file.subagent', 'Read'],
  ['write_file', 'Write'],
  ['replace', 'Edit'],
  ['list_directory', 'LS'],
  ['glob', 'Glob'],
  ['grep_search', 'Grep'],
  ['web_fetch', 'WebFetch'],
  ['google_web_search', 'WebSearch'],
  ['write_todos', 'TodoWrite'],
  ['list_background_processes', 'BashOutput'],
  ['update_topic', 'TodoWrite'],
  ['invoke_agent', 'Task'],
  ['mcp_aeat_whoami', 'mcp__aeat__whoami'],
  ['mcp_aeat_modelo_list', 'mcp__aeat__modelo_list'],
  ['mcp_aeat_execute', 'mcp__aeat__execute'],
];

describe('the Gemini adapter reads the events Gemini CLI sends', () => {
  it('has a fixture for every row here, and a row for every fixture', () => {
    const names = readdirSync(DIR).map((f) => f.replace(/\.json$/, ''));
    expect(names.sort()).toEqual(
      ['SessionStart.startup', ...TOOLS.flatMap(([label]) => [`BeforeTool.${label}`, `AfterTool.${label}`])].sort(),
    );
  });

  it.each(TOOLS)('%s → %s, before and after, with no call id', (label, tool) => {
    for (const [hostEvent, event] of [
      ['BeforeTool', 'PreToolUse'],
      ['AfterTool', 'PostToolUse'],
    ] as const) {
      const raw = fixture(`${hostEvent}.${label}`);
      const e = read(`${hostEvent}.${label}`);
      expect(e.hook_event_name).toBe(event);
      expect(e.tool_name).toBe(tool);
      expect(e.host_tool_name).toBe(raw.tool_name);
      expect(e.tool_use_id).toBeUndefined();
      expect(e.session_id).toBe(raw.session_id);
      expect(e.cwd).toBe(raw.cwd);
    }
  });

  it('keeps the input in the fields Claude Code uses, and reads the subagent name of invoke_agent as subagent_type', () => {
    expect(read('BeforeTool.run_shell_command').tool_input).toEqual({ command: 'echo hi > made.txt', description: 'Make a file.' });
    const write = read('BeforeTool.write_file').tool_input;
    expect(write.file_path).toBe(fixture('BeforeTool.write_file').tool_input.file_path);
    expect(write.content).toBe('new content\n');
    const edit = read('BeforeTool.replace').tool_input;
    expect([edit.file_path, edit.old_string, edit.new_string]).toEqual([
      fixture('BeforeTool.replace').tool_input.file_path,
      'hello',
      'bye',
    ]);
    expect(read('BeforeTool.read_file.relative').tool_input).toEqual({ file_path: 'notes.txt' });
    expect(read('BeforeTool.mcp_aeat_execute').tool_input).toEqual({ command: 'modelo.list' });
    expect(read('BeforeTool.invoke_agent').tool_input).toEqual({
      agent_name: 'generalist',
      subagent_type: 'generalist',
      prompt: 'Read the first line of notes.txt.',
    });
  });

  it("reads an MCP result as Claude Code's content blocks, without Gemini's untrusted fence", () => {
    expect(read('AfterTool.mcp_aeat_whoami').tool_response).toEqual([{ type: 'text', text: 'Erika Example (NIF 00000000T)' }]);
    expect(read('AfterTool.mcp_aeat_modelo_list').tool_response).toEqual([{ type: 'text', text: 'modelo 303 (draft)' }]);
    // Built-in tools keep Gemini's result as it came.
    expect(read('AfterTool.run_shell_command').tool_response).toEqual(fixture('AfterTool.run_shell_command').tool_response);
  });

  it('names an MCP tool from mcp_context, whatever the server name holds', () => {
    const base = fixture('BeforeTool.mcp_aeat_whoami');
    const as = (tool_name: string, server_name: string, tool: string) => {
      const parsed = gemini.readEvent({ ...base, tool_name, mcp_context: { ...base.mcp_context, server_name, tool_name: tool } });
      return parsed.ok ? (parsed.event as any).tool_name : parsed.detail;
    };
    // Measured: server `tax_aeat.v2 x` → `mcp_tax_aeat.v2_x_whoami`; server `mcp_srv` → `mcp_srv_whoami` (no second prefix).
    expect(as('mcp_tax_aeat.v2_x_whoami', 'tax_aeat.v2 x', 'whoami')).toBe('mcp__tax_aeat.v2 x__whoami');
    expect(as('mcp_srv_whoami', 'mcp_srv', 'whoami')).toBe('mcp__mcp_srv__whoami');
    expect(as('mcp_a_b_c', 'a_b', 'c')).toBe('mcp__a_b__c');
    expect(as('mcp_a_b_c', 'a', 'b_c')).toBe('mcp__a__b_c');
  });

  it('reads SessionStart with its source', () => {
    const e = read('SessionStart.startup');
    expect(e.hook_event_name).toBe('SessionStart');
    expect(e.source).toBe('startup');
  });
});

describe('the Gemini adapter answers in the form Gemini honours', () => {
  // The forms themselves: hosts-answers.test.ts.
  it('Gemini waits forever on a headless ask: never one, and an ask that reaches the adapter anyway is a deny', () => {
    expect(gemini.asks).toBe(false);
    expect(gemini.answer('ask', 'R')).toEqual({ stdout: '{"decision":"deny","reason":"R"}\n', stderr: '', exitCode: 0 });
  });

  const hook = (name: string, persona: string, stateDir: string) =>
    processEvent(
      JSON.stringify(fixture(name)),
      ['--host', 'gemini'],
      { PERSONA_GATE_CONFIG: TAX_POLICY_PATH, PERSONA_GATE_PERSONA: persona, PERSONA_GATE_STATE_DIR: stateDir },
      Date.now(),
      {},
    );

  it("answers the recorded events end to end: a refusal in Gemini's form, a pass as nothing", () => {
    const state = tempDir('pg-gemini-unit-');
    expect(hook('BeforeTool.mcp_aeat_modelo_list', 'coordinator', state)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const denied = hook('BeforeTool.write_file', 'coordinator', state);
    expect(denied.exitCode).toBe(0);
    expect(denied.stderr).toBe('');
    const out = JSON.parse(denied.stdout);
    expect(Object.keys(out)).toEqual(['decision', 'reason']);
    expect(out.decision).toBe('deny');
    expect(out.reason).toContain('coordinator');
    expect(denied.stdout.endsWith('}\n')).toBe(true);
  });

  it("confirms identity from the whoami's AfterTool, matched by tool and input, and takes the label from its result", () => {
    const state = tempDir('pg-gemini-unit-');
    const create = {
      ...fixture('BeforeTool.mcp_aeat_modelo_list'),
      tool_name: 'mcp_aeat_modelo_work_create',
      mcp_context: { ...fixture('BeforeTool.mcp_aeat_modelo_list').mcp_context, tool_name: 'modelo_work_create' },
    };
    const pre = (event: unknown) =>
      processEvent(
        JSON.stringify(event),
        ['--host', 'gemini'],
        { PERSONA_GATE_CONFIG: TAX_POLICY_PATH, PERSONA_GATE_PERSONA: 'modelo-preparer', PERSONA_GATE_STATE_DIR: state },
        Date.now(),
        {},
      );
    expect(JSON.parse(pre(create).stdout).reason).toContain('has not yet confirmed which profile is active');
    expect(pre(fixture('BeforeTool.mcp_aeat_whoami')).stdout).toBe('');
    // Not yet: the whoami has not run.
    expect(JSON.parse(pre(create).stdout).decision).toBe('deny');
    expect(pre(fixture('AfterTool.mcp_aeat_whoami'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(pre(create)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const exportCall = {
      ...create,
      tool_name: 'mcp_aeat_modelo_export',
      mcp_context: { ...create.mcp_context, tool_name: 'modelo_export' },
    };
    const verifier = processEvent(
      JSON.stringify(exportCall),
      ['--host', 'gemini'],
      { PERSONA_GATE_CONFIG: TAX_POLICY_PATH, PERSONA_GATE_PERSONA: 'verifier', PERSONA_GATE_STATE_DIR: state },
      Date.now(),
      {},
    );
    expect(JSON.parse(verifier.stdout).reason).toContain('[Active profile: Erika Example (NIF 00000000T)]');
  });
});
