import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { taxPolicyWithShell } from '../helpers/policy';
import { chatToolResults, startChatModel, type ChatModel } from './support/chat-model';
import { makeCopilotProject, runCopilot, type CopilotProject, type CopilotProjectOptions } from './support/copilot';
import { initHost } from './support/host-stubs';
import { describeConfined } from './support/loopback-only';
import type { ToolUse } from './support/model-server';

/**
 * The real GitHub Copilot CLI (1.0.102), headless and offline, driven by a scripted Chat Completions
 * model on 127.0.0.1 with no other network, persona-gate registered by `init --host copilot`, a
 * stand-in `aeat` MCP server and a recording `aeat` program on PATH.
 */

beforeAll(() => {
  hostCli('copilot');
}, 900_000);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

/** The example policy, with the shell for the preparer (so that a shell handoff reaches the handoff gate). */
function policy() {
  return taxPolicyWithShell();
}

async function session(
  turns: ToolUse[][],
  persona: string | null,
  opts: CopilotProjectOptions & { register?: boolean; distrust?: boolean } = {},
) {
  const model: ChatModel = await startChatModel(turns);
  // The folder's trust is init's to record, as a user's init would.
  const project: CopilotProject = makeCopilotProject({ policy: policy(), trustFolder: false, ...opts });
  cleanup.push(
    () => model.close(),
    () => rmSync(project.dir, { recursive: true, force: true }),
  );
  if (opts.register !== false) {
    const said = initHost('copilot', project);
    expect(said).toContain(`trusted ${realpathSync(project.dir)} in ${join(project.home, '.copilot', 'config.json')}`);
  }
  // A user who takes the trust back (or never gave it): what doctor --host copilot fails on.
  if (opts.distrust) writeFileSync(join(project.home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [] }));
  const run = await runCopilot(project, model.url, { env: persona ? { PERSONA_GATE_PERSONA: persona } : {} });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.timedOut).toBe(false);
  return { project, results: chatToolResults(model.requests), mcpRan: project.executed().map((e) => e.tool), aeatRan: project.aeatRan() };
}

const bash = (command: string): ToolUse[] => [{ name: 'bash', input: { command, description: 'run it' } }];
const mcp = (tool: string, input: Record<string, unknown> = {}): ToolUse[] => [{ name: `aeat-${tool}`, input }];
const DENIED = 'Denied by preToolUse hook: ';

describeConfined('persona-gate inside the real Copilot CLI', () => {
  it('as modelo-preparer: the shell handoff never runs and the model reads who owns it; a list runs; the policy cannot be overwritten; a mutation waits for whoami', async () => {
    const { project, results, mcpRan, aeatRan } = await session(
      [
        bash('aeat modelo export 303'),
        bash('aeat modelo list'),
        [{ name: 'create', input: { path: '.claude/persona-gate.json', file_text: '{}' } }],
        mcp('modelo_work_create', { modelo: '303' }),
        mcp('whoami'),
        mcp('modelo_work_create', { modelo: '303' }),
      ],
      'modelo-preparer',
    );
    expect(aeatRan).toEqual(['modelo list']);
    expect(results[0]!.content.startsWith(`${DENIED}persona-gate:`)).toBe(true);
    expect(results[0]!.content).toContain('it is an irreversible handoff owned by the verifier persona');
    expect(results[1]!.content).toContain('aeat: ran modelo list');
    // Copilot's create names its file `path`: the adapter reads it as the file Write writes.
    expect(results[2]!.content).toContain('which guards this session');
    expect(JSON.parse(readFileSync(join(project.dir, '.claude', 'persona-gate.json'), 'utf8')).version).toBe(1);
    // No call id in Copilot's events: the whoami's post-tool event is matched to its call by tool and input.
    expect(results[3]!.content).toContain('this session has not yet confirmed which profile is active');
    expect(mcpRan).toEqual(['whoami', 'modelo_work_create']);
    expect(results[5]!.content).toBe('draft created');
  });

  it('as coordinator: an MCP mutation outside the scope never runs; a read does', async () => {
    const { results, mcpRan } = await session([mcp('modelo_work_create', { modelo: '303' }), mcp('modelo_list')], 'coordinator');
    expect(mcpRan).toEqual(['modelo_list']);
    expect(results[0]!.content).toContain(`${DENIED}persona-gate:`);
    expect(results[0]!.content).toContain('the coordinator persona may not run modelo.work.create');
  });

  it('a broken policy: nothing runs, and the model is told why', async () => {
    const { results, mcpRan, aeatRan } = await session([bash('aeat modelo list'), mcp('modelo_list')], 'modelo-preparer', {
      policyText: '{ "version": 1, "catalog": ',
    });
    expect(aeatRan).toEqual([]);
    expect(mcpRan).toEqual([]);
    for (const r of results) {
      expect(r.content.startsWith(DENIED)).toBe(true);
      expect(r.content).toContain('is not valid');
    }
  });

  it('a project registration in a folder Copilot does not trust is skipped without a word: the handoff runs (what doctor --host copilot must warn about)', async () => {
    const { aeatRan } = await session([bash('aeat modelo export 303')], 'modelo-preparer', { distrust: true });
    expect(aeatRan).toEqual(['modelo export 303']);
  });
});
