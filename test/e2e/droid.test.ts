import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { taxPolicyWithShell } from '../helpers/policy';
import { chatToolResults, startChatModel, type ChatModel } from './support/chat-model';
import { makeDroidProject, runDroid, type DroidProject, type DroidProjectOptions } from './support/droid';
import { initHost } from './support/host-stubs';
import { describeConfined } from './support/loopback-only';
import type { ToolUse } from './support/model-server';

/**
 * The real Factory Droid (0.225.2), `droid exec --auto high`, driven by a scripted Chat Completions
 * model on 127.0.0.1 with no other network, persona-gate registered by `init --host droid --no-sandbox`, a
 * stand-in `aeat` MCP server and a recording `aeat` program on PATH.
 */

beforeAll(() => {
  hostCli('droid');
}, 900_000);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

/** The example policy, with the shell for the preparer (so that a shell handoff reaches the handoff gate). */
function policy() {
  return taxPolicyWithShell();
}

async function session(turns: ToolUse[][], persona: string | null, opts: DroidProjectOptions & { modelId?: string } = {}) {
  const model: ChatModel = await startChatModel(turns);
  const project: DroidProject = makeDroidProject({ policy: policy(), ...opts });
  cleanup.push(
    () => model.close(),
    () => rmSync(project.dir, { recursive: true, force: true }),
  );
  // The gate's own answers, with Droid's sandbox left off: under it, Droid's sandbox answers a
  // file tool's write to a denied path before the hook is asked (droid-sandbox.test.ts).
  initHost('droid', project, ['--no-sandbox']);
  const run = await runDroid(project, model.url, { env: persona ? { PERSONA_GATE_PERSONA: persona } : {}, modelId: opts.modelId });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.timedOut).toBe(false);
  return { project, results: chatToolResults(model.requests), mcpRan: project.executed().map((e) => e.tool), aeatRan: project.aeatRan() };
}

const execute = (command: string): ToolUse[] => [
  { name: 'Execute', input: { command, summary: 'run it', riskLevel: 'low', riskLevelReason: 'a scripted step' } },
];
const mcp = (tool: string, input: Record<string, unknown> = {}): ToolUse[] => [{ name: `aeat___${tool}`, input }];

describeConfined('persona-gate inside the real Factory Droid', () => {
  it('as modelo-preparer: the shell handoff never runs and the model reads who owns it; a list runs; the policy cannot be overwritten; a mutation waits for whoami', async () => {
    const { project, results, mcpRan, aeatRan } = await session(
      [
        execute('aeat modelo export 303'),
        execute('aeat modelo list'),
        [{ name: 'Create', input: { file_path: '.claude/persona-gate.json', content: '{}' } }],
        mcp('modelo_work_create', { modelo: '303' }),
        mcp('whoami'),
        mcp('modelo_work_create', { modelo: '303' }),
      ],
      'modelo-preparer',
    );
    expect(aeatRan).toEqual(['modelo list']);
    // Droid shows the model a deny as "Error: <reason>".
    expect(results[0]!.content.startsWith('Error: persona-gate:')).toBe(true);
    expect(results[0]!.content).toContain('it is an irreversible handoff owned by the verifier persona');
    expect(results[1]!.content).toContain('aeat: ran modelo list');
    expect(results[2]!.content).toContain('which guards this session');
    expect(JSON.parse(readFileSync(join(project.dir, '.claude', 'persona-gate.json'), 'utf8')).version).toBe(1);
    // No call id in Droid's events: the whoami's post-tool event is matched to its call by tool and input.
    expect(results[3]!.content).toContain('this session has not yet confirmed which profile is active');
    expect(mcpRan).toEqual(['whoami', 'modelo_work_create']);
    expect(results[5]!.content).toBe('draft created');
  });

  it('as coordinator: an MCP mutation outside the scope never runs; a read does', async () => {
    const { results, mcpRan } = await session([mcp('modelo_work_create', { modelo: '303' }), mcp('modelo_list')], 'coordinator');
    expect(mcpRan).toEqual(['modelo_list']);
    expect(results[0]!.content).toContain('Error: persona-gate:');
    expect(results[0]!.content).toContain('the coordinator persona may not run modelo.work.create');
  });

  it('a broken policy: nothing runs, and the model is told why', async () => {
    const { results, mcpRan, aeatRan } = await session([execute('aeat modelo list'), mcp('modelo_list')], 'modelo-preparer', {
      policyText: '{ "version": 1, "catalog": ',
    });
    expect(aeatRan).toEqual([]);
    expect(mcpRan).toEqual([]);
    for (const r of results) {
      expect(r.content.startsWith('Error: persona-gate:')).toBe(true);
      expect(r.content).toContain('is not valid');
    }
  });

  it('with a GPT model Droid edits through ApplyPatch: a patch that writes the policy never applies, one that writes elsewhere does', async () => {
    const patch = (path: string) => [
      {
        name: 'ApplyPatch',
        input: `*** Begin Patch\n*** Add File: notes.txt\n+a note\n*** Add File: ${path}\n+{}\n*** End Patch\n` as unknown as Record<
          string,
          unknown
        >,
      },
    ];
    const { project, results } = await session([mcp('whoami'), patch('.claude/persona-gate.json'), patch('other.txt')], null, {
      modelId: 'gpt-5-codex',
    });
    expect(results[1]!.content).toContain('which guards this session');
    expect(JSON.parse(readFileSync(join(project.dir, '.claude', 'persona-gate.json'), 'utf8')).version).toBe(1);
    expect(results[2]!.content).toContain('Success');
    expect(readFileSync(join(project.dir, 'other.txt'), 'utf8')).toBe('{}\n');
  });
});
