import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { ROOT } from '../helpers/policy';
import { hooksJson, makeCodexProject, runCodex, trustCodexHooks } from './support/codex';
import { describeConfined } from './support/loopback-only';
import { startResponsesModel, type ResponsesTurn } from './support/responses-model';

/**
 * The fixtures in test/fixtures/hosts/codex/ are what the pinned Codex sends a hook: this session
 * makes the same calls with a recording hook and checks that Codex still sends those events (names,
 * tools, inputs, fields; ids and temporary paths aside). With RECORD_CODEX_FIXTURES=1 it rewrites them.
 */

beforeAll(() => {
  hostCli('codex');
}, 900_000);

const FIXTURES = join(ROOT, 'test', 'fixtures', 'hosts', 'codex');
const PATCH_ADD = '*** Begin Patch\n*** Add File: notes.txt\n+hello\n+world\n*** End Patch\n';
const PATCH_MOVE =
  '*** Begin Patch\n*** Update File: notes.txt\n*** Move to: moved.txt\n@@\n-hello\n+hola\n world\n*** Add File: sub/other.txt\n+x\n*** Delete File: sub/gone.txt\n*** End Patch\n';

const TURNS: ResponsesTurn[] = [
  [{ name: 'exec_command', input: { cmd: 'aeat modelo list' } }],
  [{ name: 'whoami', namespace: 'mcp__aeat', input: {} }],
  [{ name: 'modelo_work_create', namespace: 'mcp__aeat', input: { modelo: '303' } }],
  [{ name: 'apply_patch', raw: PATCH_ADD }],
  [{ name: 'apply_patch', raw: PATCH_MOVE }],
  [{ name: 'view_image', input: { path: 'moved.txt' } }],
  [{ name: 'list_mcp_resources', input: {} }],
  [{ name: 'read_mcp_resource', input: { server: 'aeat', uri: 'file:///x' } }],
  [
    {
      name: 'request_user_input',
      input: {
        questions: [
          {
            id: 'q1',
            header: 'Q',
            question: 'Which?',
            options: [
              { label: 'a', description: 'A' },
              { label: 'b', description: 'B' },
            ],
          },
        ],
      },
    },
  ],
  [{ name: 'create_goal', input: { objective: 'prepare modelo 303' } }],
  [{ name: 'exec_command', input: { cmd: 'pwd', workdir: '/tmp' } }],
  [{ name: 'exec_command', input: { cmd: 'bash', tty: true, yield_time_ms: 500 } }],
  (requests) => {
    const id = /session ID (\d+)/.exec(JSON.stringify(requests.at(-1)?.body.input ?? []))?.[1];
    return [{ name: 'write_stdin', input: { session_id: Number(id ?? 0), chars: 'aeat modelo export 303\nexit\n', yield_time_ms: 1500 } }];
  },
];

function fixtureName(e: Record<string, any>): string {
  const event =
    (
      {
        PreToolUse: 'pre',
        PostToolUse: 'post',
        SessionStart: 'session-start',
        UserPromptSubmit: 'user-prompt-submit',
        Stop: 'stop',
      } as Record<string, string>
    )[e.hook_event_name] ?? e.hook_event_name;
  if (typeof e.tool_name !== 'string') return event;
  if (e.tool_name === 'Bash')
    return `${event}-${({ 'aeat modelo list': 'bash', pwd: 'bash-workdir', bash: 'bash-tty-shell' } as Record<string, string>)[e.tool_input.command] ?? 'bash-other'}`;
  if (e.tool_name === 'apply_patch')
    return `${event}-${String(e.tool_input.command).includes('Move to') ? 'apply-patch-move-add-delete' : 'apply-patch-add'}`;
  return `${event}-${e.tool_name.replace(/^mcp__aeat__/, 'mcp-aeat-').replace(/_/g, '-')}`;
}

/** What must not drift: the fields, the names, the inputs, the result's shape; ids, times and temporary paths aside. */
function shape(e: Record<string, any>, root: string): unknown {
  const text = JSON.stringify(e).split(root).join('<root>');
  const event = JSON.parse(text);
  return {
    keys: Object.keys(event).sort(),
    hook_event_name: event.hook_event_name,
    tool_name: event.tool_name,
    tool_input: event.tool_input,
    cwd: event.cwd,
    source: event.source,
    tool_response:
      event.tool_response === undefined
        ? undefined
        : event.tool_name === 'create_goal'
          ? Object.keys(event.tool_response).sort()
          : typeof event.tool_response === 'string'
            ? typeof event.tool_response
            : event.tool_response,
  };
}

let cleanupDir: string | undefined;
afterAll(() => {
  if (cleanupDir) rmSync(cleanupDir, { recursive: true, force: true });
});

describeConfined('the real Codex CLI: the events a hook gets (fixtures for the adapter)', () => {
  it('Codex sends a hook the events the fixtures hold', async () => {
    const model = await startResponsesModel(TURNS);
    const project = makeCodexProject();
    cleanupDir = dirname(project.dir);
    const file = hooksJson(project.recordingHook, ['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit', 'Stop']);
    writeFileSync(join(project.codexHome, 'hooks.json'), JSON.stringify(file, null, 2));
    trustCodexHooks(project);
    try {
      const run = await runCodex(project, model.url);
      expect(run.code, run.stderr).toBe(0);
    } finally {
      await model.close();
    }
    const events = project.hookEvents().map((h) => h.event as Record<string, any>);
    const recorded = new Map(events.map((e) => [fixtureName(e), e]));
    expect(recorded.size).toBe(events.length);
    if (process.env.RECORD_CODEX_FIXTURES === '1') {
      mkdirSync(FIXTURES, { recursive: true });
      for (const [name, e] of recorded) writeFileSync(join(FIXTURES, `${name}.json`), `${JSON.stringify(e, null, 2)}\n`);
    }
    const committed = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect([...recorded.keys()].sort()).toEqual(committed.sort());
    // No event for write_stdin: what it typed ran (the tty shell's post event shows it) without a hook seeing it.
    expect(project.aeatRuns()).toEqual(['modelo list', 'modelo export 303']);
    for (const name of committed) {
      const fixture = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
      // The temporary root the fixture was recorded in: the transcript lies in its HOME.
      const fixtureRoot = /^(\/.+)\/home\/\.codex\//.exec(String(fixture.transcript_path))![1]!;
      expect(shape(recorded.get(name)!, dirname(project.dir)), name).toEqual(shape(fixture, fixtureRoot));
    }
  });
});
