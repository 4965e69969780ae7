import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { ROOT, taxPolicyWithShell } from '../helpers/policy';
import { geminiToolResults, offeredTools } from './support/gemini-model';
import { makeGeminiProject, runGemini, type GeminiProject, type GeminiProjectOptions, type RunGeminiOptions } from './support/gemini';
import { describeConfined } from './support/loopback-only';
import type { ToolUse } from './support/model-server';

// The pinned Gemini CLI, installed into the test cache on first use (a download the first time).
beforeAll(() => {
  hostCli('gemini');
}, 900_000);

const cleanup: (() => void)[] = [];
afterEach(() => {
  while (cleanup.length > 0) cleanup.pop()!();
});

function project(opts: GeminiProjectOptions = {}): GeminiProject {
  const p = makeGeminiProject(opts);
  cleanup.push(() => rmSync(p.root, { recursive: true, force: true }));
  return p;
}

async function run(p: GeminiProject, turns: ToolUse[][], opts: RunGeminiOptions = {}) {
  const ran = await runGemini(p, turns, opts);
  expect(ran.code, ran.stderr.slice(-3000)).toBe(0);
  return { ...ran, results: geminiToolResults(ran.model.requests) };
}

const call = (name: string, input: Record<string, unknown> = {}): ToolUse[] => [{ name, input }];

const FIXTURES = join(ROOT, 'test', 'fixtures', 'hosts', 'gemini');

/** Replaces what differs from run to run (session, times, temporary paths, process ids) with fixed words. */
function normalize(value: unknown, root: string, session: string): unknown {
  const text = JSON.stringify(value)
    .split(root)
    .join('<ROOT>')
    .split(session)
    .join('<SESSION>')
    .replace(/"timestamp":"[^"]*"/g, '"timestamp":"<TIME>"')
    .replace(/session-[0-9T:-]+-<SESSION>|session-[0-9T:-]+-[0-9a-f]{8}/g, 'session-<STARTED>')
    .replace(/PGID: \d+/g, 'PGID: <N>')
    .replace(/"[^"]*(\/test\/e2e\/support\/mcp-server\.mjs)"/g, '"<REPO>$1"')
    .replace(/"id":"[0-9a-f-]{36}"/g, '"id":"<ID>"')
    .replace(new RegExp(process.execPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), '<NODE>');
  return JSON.parse(text);
}

describeConfined('Gemini CLI: the events a hook gets (fixtures for the adapter)', () => {
  it('sends BeforeTool / AfterTool for every built-in tool and MCP tool, and SessionStart, as recorded', async () => {
    const p = project({ hookCommand: 'record' });
    const file = join(p.dir, 'notes.txt');
    // One call per turn, each with an input no other call has: an event is known by its tool and input.
    const script: [string, ToolUse][] = [
      ['run_shell_command', { name: 'run_shell_command', input: { command: 'echo hi > made.txt', description: 'Make a file.' } }],
      ['mcp_aeat_whoami', { name: 'mcp_aeat_whoami', input: {} }],
      ['mcp_aeat_modelo_list', { name: 'mcp_aeat_modelo_list', input: { modelo: '303' } }],
      ['mcp_aeat_execute', { name: 'mcp_aeat_execute', input: { command: 'modelo.list' } }],
      ['read_file', { name: 'read_file', input: { file_path: file } }],
      ['read_file.relative', { name: 'read_file', input: { file_path: 'notes.txt' } }],
      ['write_file', { name: 'write_file', input: { file_path: join(p.dir, 'new.txt'), content: 'new content\n' } }],
      [
        'replace',
        { name: 'replace', input: { file_path: file, instruction: 'Say bye, not hello.', old_string: 'hello', new_string: 'bye' } },
      ],
      ['list_directory', { name: 'list_directory', input: { dir_path: p.dir } }],
      ['glob', { name: 'glob', input: { pattern: '*.txt' } }],
      ['grep_search', { name: 'grep_search', input: { pattern: 'bye', dir_path: p.dir } }],
      ['web_fetch', { name: 'web_fetch', input: { prompt: 'Summarize https://example.com/page' } }],
      ['google_web_search', { name: 'google_web_search', input: { query: 'modelo 303' } }],
      ['write_todos', { name: 'write_todos', input: { todos: [{ description: 'Prepare modelo 303.', status: 'in_progress' }] } }],
      ['list_background_processes', { name: 'list_background_processes', input: {} }],
      [
        'update_topic',
        { name: 'update_topic', input: { strategic_intent: 'Prepare the draft.', title: 'Modelo 303', summary: 'Drafting.' } },
      ],
      ['invoke_agent', { name: 'invoke_agent', input: { agent_name: 'generalist', prompt: 'Read the first line of notes.txt.' } }],
      // The subagent's first turn: its calls reach the same hook, in the same session, with nothing to tell them apart.
      ['read_file.subagent', { name: 'read_file', input: { file_path: 'notes.txt', start_line: 1, end_line: 1 } }],
    ];
    // gemini-2.5-pro: write_todos is offered only to Gemini 2 models.
    const ran = await run(
      p,
      script.map(([, c]) => [c]),
      { args: ['-m', 'gemini-2.5-pro'] },
    );
    const events = p.events();
    const session = events[0]!.session_id as string;
    const labelOf = new Map(script.map(([label, c]) => [JSON.stringify([c.name, c.input]), label]));

    const byName: Record<string, unknown> = {};
    for (const event of events) {
      const tool = event.tool_name as string | undefined;
      const name =
        tool === undefined
          ? `${event.hook_event_name}.${event.source ?? event.reason}`
          : `${event.hook_event_name}.${labelOf.get(JSON.stringify([tool, event.tool_input])) ?? tool}`;
      expect(byName[name], `${name} recorded twice`).toBeUndefined();
      byName[name] = event;
    }
    const expected = script.flatMap(([label]) => [`BeforeTool.${label}`, `AfterTool.${label}`]);
    expect(Object.keys(byName).sort()).toEqual(['SessionStart.startup', ...expected].sort());

    // What every event carries; a call id is not among it.
    for (const event of events) {
      const base = ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'timestamp'];
      const extra =
        event.hook_event_name === 'SessionStart'
          ? ['source']
          : [
              'tool_name',
              'tool_input',
              ...(event.hook_event_name === 'AfterTool' ? ['tool_response'] : []),
              ...(String(event.tool_name).startsWith('mcp_') ? ['mcp_context'] : []),
            ];
      expect(Object.keys(event).sort()).toEqual([...base, ...extra].sort());
      expect(event.session_id).toBe(session);
      expect(event.cwd).toBe(p.dir);
    }
    expect((byName['BeforeTool.mcp_aeat_whoami'] as any).mcp_context).toEqual({
      server_name: 'aeat',
      tool_name: 'whoami',
      command: process.execPath,
      args: [join(ROOT, 'test', 'e2e', 'support', 'mcp-server.mjs')],
    });
    // An MCP tool's result is Gemini's parts, its text fenced as untrusted.
    expect((byName['AfterTool.mcp_aeat_whoami'] as any).tool_response.llmContent).toEqual([
      { text: '<untrusted_context>\nErika Example (NIF 00000000T)\n</untrusted_context>' },
    ]);
    expect(p.executed().map((e) => e.tool)).toEqual(['whoami', 'modelo_list', 'execute:modelo.list']);
    // The tools the model was offered: the names the adapter maps.
    expect(offeredTools(ran.model.requests)).toEqual(
      expect.arrayContaining([
        'run_shell_command',
        'read_file',
        'write_file',
        'replace',
        'list_directory',
        'glob',
        'grep_search',
        'web_fetch',
        'google_web_search',
        'write_todos',
        'invoke_agent',
        'mcp_aeat_whoami',
        'mcp_aeat_modelo_work_create',
      ]),
    );

    // The fixtures the unit tests read are these events, as they were; compared with what differs from run to run taken out.
    const update = process.env.PG_UPDATE_FIXTURES === '1' || !existsSync(FIXTURES);
    if (update) {
      rmSync(FIXTURES, { recursive: true, force: true });
      mkdirSync(FIXTURES, { recursive: true });
      for (const [name, event] of Object.entries(byName))
        writeFileSync(join(FIXTURES, `${name}.json`), `${JSON.stringify(event, null, 2)}\n`);
    }
    const stored = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
    expect(stored.sort()).toEqual(
      Object.keys(byName)
        .map((n) => `${n}.json`)
        .sort(),
    );
    for (const f of stored) {
      const fixture = JSON.parse(readFileSync(join(FIXTURES, f), 'utf8'));
      const fixtureRoot = (fixture.cwd as string).replace(/\/project$/, '');
      const now = byName[f.replace(/\.json$/, '')] as any;
      const a = normalize(now, p.root, session) as any;
      const b = normalize(fixture, fixtureRoot, fixture.session_id) as any;
      // grep_search runs ripgrep when one is on PATH, which adds `context` to its input and context lines to its result.
      if (a.tool_name === 'grep_search') {
        delete a.tool_input?.context;
        delete b.tool_input?.context;
      }
      // The result texts of tools that reach the outside, list the folder or search it vary; their shape does not.
      if (
        a.tool_response !== undefined &&
        /^(web_fetch|google_web_search|list_directory|glob|grep_search|invoke_agent|write_file|replace)$/.test(a.tool_name)
      ) {
        expect(Object.keys(a.tool_response).sort(), f).toEqual(Object.keys(b.tool_response).sort());
        delete a.tool_response;
        delete b.tool_response;
      }
      expect(a, f).toEqual(b);
    }
  }, 180_000);
});

describeConfined('persona-gate inside the real Gemini CLI (hook --host gemini)', () => {
  const whoami = call('mcp_aeat_whoami');
  const create = call('mcp_aeat_modelo_work_create', { modelo: '303' });
  const shell = (command: string) => call('run_shell_command', { command, description: 'Run aeat.' });

  it('gates a modelo-preparer: identity before the first mutation, the filing handoff through the shell refused naming its owner, a read through the shell run', async () => {
    // The example policy, with the shell in the modelo-preparer's reach (as shipped, the shell tool itself is outside it).
    const policy = taxPolicyWithShell();
    const p = project({ policy });
    const { results } = await run(p, [create, whoami, create, shell('aeat modelo export 303'), shell('aeat modelo list')], {
      env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
    });
    expect(results.map((r) => r.name)).toEqual([
      'mcp_aeat_modelo_work_create',
      'mcp_aeat_whoami',
      'mcp_aeat_modelo_work_create',
      'run_shell_command',
      'run_shell_command',
    ]);
    // Refused before the whoami: Gemini hands the model the reason as the call's error.
    expect(results[0]!.response.error).toMatch(/^Tool execution blocked: .*this session has not yet confirmed which profile is active/s);
    // Allowed after it: the AfterTool of the whoami, matched by tool and input (Gemini has no call id), confirmed the session.
    expect(results[2]!.response.error).toBeUndefined();
    expect(p.executed().map((e) => e.tool)).toEqual(['whoami', 'modelo_work_create']);
    // The handoff never ran; the model was told who owns it.
    expect(results[3]!.response.error).toMatch(/^Tool execution blocked: .*owned by the verifier persona/s);
    expect(p.aeatRuns()).toEqual(['modelo list']);
    expect(results[4]!.text).toContain('aeat modelo list: ok');
  }, 120_000);

  it("refuses an MCP tool outside the persona's scope, and runs the read it may run", async () => {
    const p = project();
    const { results } = await run(p, [whoami, create, call('mcp_aeat_modelo_list', { modelo: '303' })], {
      env: { PERSONA_GATE_PERSONA: 'coordinator' },
    });
    expect(p.executed().map((e) => e.tool)).toEqual(['whoami', 'modelo_list']);
    expect(results[1]!.response.error).toMatch(/^Tool execution blocked: .*the coordinator persona may not run modelo\.work\.create/s);
  }, 120_000);

  it("turns a confirm-tier command into a refusal that says a person must approve, naming the profile from the whoami's result", async () => {
    const p = project();
    const { results } = await run(p, [whoami, call('mcp_aeat_modelo_export', { modelo: '303' })], {
      env: { PERSONA_GATE_PERSONA: 'verifier' },
    });
    expect(p.executed().map((e) => e.tool)).toEqual(['whoami']);
    expect(results[1]!.response.error).toMatch(/^Tool execution blocked: /);
    expect(results[1]!.text).toContain('[Active profile: Erika Example (NIF 00000000T)]');
    expect(results[1]!.text).toContain('Gemini CLI');
  }, 120_000);

  it('denies every call when the policy is broken, and tells the model why', async () => {
    const p = project({ policyText: '{ "version": 1, "catalog": ' });
    const { results } = await run(p, [whoami, shell('aeat modelo list')], { env: { PERSONA_GATE_PERSONA: 'modelo-preparer' } });
    expect(p.executed()).toEqual([]);
    expect(p.aeatRuns()).toEqual([]);
    for (const r of results) expect(r.response.error).toMatch(/^Tool execution blocked: .*is not valid/s);
  }, 120_000);

  it('blocks when the hook cannot tell which host it serves: exit 2 with the reason on stderr', async () => {
    const p = project({ hookCommand: `node ${JSON.stringify(join(ROOT, 'dist', 'persona-gate.cjs'))} hook --host no-such-host` });
    const { results } = await run(p, [call('mcp_aeat_modelo_list')]);
    expect(p.executed()).toEqual([]);
    expect(results[0]!.response.error).toMatch(/^Tool execution blocked: .*--host/s);
  }, 120_000);
});
