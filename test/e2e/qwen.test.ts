import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { taxPolicyWithShell } from '../helpers/policy';
import { chatToolResults, startChatModel, type ChatToolResult } from './support/chat-model';
import { describeConfined } from './support/loopback-only';
import type { ToolUse } from './support/model-server';
import { stateReceipts } from '../helpers/log-lines';
import { makeQwenProject, runQwen, type QwenProject, type QwenProjectOptions } from './support/qwen';

// The pinned Qwen Code CLI, installed into the test cache on first use (a download the first time).
beforeAll(() => {
  hostCli('qwen');
}, 900_000);

/**
 * The real Qwen Code CLI (`qwen -p … --yolo`), in a network namespace of its own, driven by a
 * scripted Chat Completions model on 127.0.0.1, with persona-gate registered as its hook by
 * `persona-gate init --host qwen` (the project's .qwen/settings.json), a stand-in MCP server `aeat`
 * that records what ran, and a recording `aeat` program on PATH.
 */

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function scenario(opts: {
  /** The model's calls, one turn each; a function when they name the project's paths. */
  turns: ToolUse[][] | ((project: QwenProject) => ToolUse[][]);
  persona?: string;
  project?: QwenProjectOptions;
  /** More environment for the host. */
  env?: (project: QwenProject) => Record<string, string>;
}): Promise<{ project: QwenProject; results: ChatToolResult[]; ran: string[] }> {
  const project = makeQwenProject({ hook: 'init', ...opts.project });
  cleanup.push(() => project.cleanup());
  const turns = typeof opts.turns === 'function' ? opts.turns(project) : opts.turns;
  const model = await startChatModel(turns);
  cleanup.push(() => model.close());
  const run = await runQwen(project, model.url, {
    env: { ...(opts.persona ? { PERSONA_GATE_PERSONA: opts.persona } : {}), ...opts.env?.(project) },
  });
  expect(run.code, run.stderr).toBe(0);
  const results = chatToolResults(model.requests);
  // Every scripted call came back with a result: none was dropped on the way.
  expect(results.length).toBe(turns.length);
  return { project, results, ran: project.executed().map((e) => e.tool) };
}

const call = (name: string, input: Record<string, unknown> = {}): ToolUse[] => [{ name, input }];
/** A deferred tool (every MCP tool is one in Qwen Code) called the way the model is told to: through tool_call. */
const deferred = (name: string, args: Record<string, unknown> = {}): ToolUse[] => call('tool_call', { name, arguments: args });
const shell = (command: string, extra: Record<string, unknown> = {}): ToolUse[] => call('run_shell_command', { command, ...extra });

/** The example policy, with the shell in modelo-preparer's reach so that the handoff is refused as one, not for the shell. */
function shellPolicy(): unknown {
  return taxPolicyWithShell();
}

describeConfined('persona-gate inside the real Qwen Code', () => {
  it('refuses the handoff through the shell tool, naming its owner, and lets an allowed command run', async () => {
    const { project, results } = await scenario({
      persona: 'modelo-preparer',
      project: { policy: shellPolicy(), projectSettings: { general: { enableAutoUpdate: false } } },
      turns: (p) => [
        shell('aeat modelo export 303'),
        // the same handoff run in another directory, and through the tool that streams a command's output
        shell('aeat modelo export 303', { directory: join(p.dir, '.claude') }),
        deferred('monitor', { command: 'aeat modelo export 303', description: 'export', max_events: 1 }),
        shell('aeat modelo list'),
        // a relative path from the directory the command runs in: the project's Qwen registration
        shell('rm -f settings.json', { directory: join(p.dir, '.qwen') }),
      ],
    });
    // The program never ran for the export; it did for the list.
    expect(project.aeatRuns()).toEqual(['modelo list']);
    for (const refused of results.slice(0, 3)) {
      expect(refused.content).toContain('it is an irreversible handoff owned by the verifier persona');
      expect(refused.content.startsWith('persona-gate: ')).toBe(true);
    }
    expect(results[3]!.content).toContain('aeat modelo list: done');
    expect(results[4]!.content).toContain('this call would change the Qwen hook registration (settings.json)');
    expect(existsSync(join(project.dir, '.qwen', 'settings.json'))).toBe(true);
  });

  it('denies every call when the policy is broken, and tells the model why', async () => {
    const { project, results, ran } = await scenario({
      persona: 'modelo-preparer',
      project: { policyText: '{ "version": 1, "catalog": ' },
      turns: [deferred('mcp__aeat__modelo_list'), shell('aeat modelo list')],
    });
    expect(ran).toEqual([]);
    expect(project.aeatRuns()).toEqual([]);
    for (const r of results) expect(r.content).toContain('is not valid');
  });

  it("refuses an MCP tool outside the persona's scope, called through tool_call or directly, and runs a read it may do", async () => {
    const { results, ran } = await scenario({
      persona: 'coordinator',
      turns: [
        deferred('mcp__aeat__modelo_work_create', { modelo: '303' }),
        call('mcp__aeat__modelo_work_create', { modelo: '303' }),
        deferred('mcp__aeat__modelo_list'),
      ],
    });
    expect(ran).toEqual(['modelo_list']);
    expect(results[0]!.content).toContain('the coordinator persona may not run modelo.work.create');
    expect(results[1]!.content).toBe(results[0]!.content);
    expect(results[2]!.content).toBe('modelo 303 (draft)');
  });

  it('refuses the first mutation until a whoami has run, and again after a profile switch', async () => {
    const create = deferred('mcp__aeat__modelo_work_create', { modelo: '303' });
    const whoami = deferred('mcp__aeat__whoami');
    const { project, results, ran } = await scenario({
      persona: 'modelo-preparer',
      turns: [create, whoami, create, deferred('mcp__aeat__profile_switch', { profile: 'Erik Example' }), create, whoami, create],
    });
    expect(ran).toEqual(['whoami', 'modelo_work_create', 'profile_switch', 'whoami', 'modelo_work_create']);
    const refusal = 'this session has not yet confirmed which profile is active';
    expect(results.map((r) => r.content.includes(refusal))).toEqual([true, false, false, false, true, false, false]);
    // The whoami confirmed the session on its PostToolUse, matched by the call id Qwen Code makes up
    // for each call (unique, whatever ids the model gives).
    const receipts = stateReceipts(project.stateDir);
    const pre = receipts.filter((r) => r.hook_event === 'PreToolUse');
    expect(pre.map((r) => [r.host, r.command_key, r.verdict])).toEqual([
      ['qwen', 'modelo.work.create', 'deny'],
      ['qwen', 'config.profile.status', 'abstain'],
      ['qwen', 'modelo.work.create', 'abstain'],
      ['qwen', 'config.profile.switch', 'abstain'],
      ['qwen', 'modelo.work.create', 'deny'],
      ['qwen', 'config.profile.status', 'abstain'],
      ['qwen', 'modelo.work.create', 'abstain'],
    ]);
    const ids = pre.map((r) => r.tool_use_id);
    for (const id of ids) expect(id).toMatch(/^toolu_\d+_\w+$/);
    expect(new Set(ids).size).toBe(ids.length);
    const posts = receipts.filter((r) => r.hook_event === 'PostToolUse' && r.rule === 'post_tool_use');
    expect(posts.map((r) => [r.tool_name, r.tool_use_id])).toEqual([
      ['mcp__aeat__whoami', ids[1]],
      ['mcp__aeat__whoami', ids[5]],
    ]);
  });

  it("answers a confirm-tier command with a deny saying a person must approve, echoing the profile from whoami's result", async () => {
    const { results, ran } = await scenario({
      persona: 'verifier',
      turns: [deferred('mcp__aeat__whoami'), deferred('mcp__aeat__modelo_export', { modelo: '303' })],
    });
    expect(ran).toEqual(['whoami']);
    // The label came from the whoami's PostToolUse response (Qwen Code's llmContent parts).
    expect(
      results[1]!.content.startsWith(
        "[Active profile: Erika Example (NIF 00000000T)] persona-gate: modelo.export needs the user's confirmation.",
      ),
    ).toBe(true);
    expect(results[1]!.content).toContain('Qwen Code cannot ask a person from here, so the call is denied');
  });

  // What Qwen Code itself lets through, which persona-gate cannot see: docs/threat-model.md and doctor --host qwen say so.
  it('is switched off by a project .qwen/settings.json that disables all hooks, unless the system settings pin it', async () => {
    const handoff = [shell('aeat modelo export 303')];
    const off = await scenario({
      persona: 'modelo-preparer',
      project: { policy: shellPolicy(), projectSettings: { disableAllHooks: true } },
      turns: handoff,
    });
    expect(off.project.aeatRuns()).toEqual(['modelo export 303']);
    expect(existsSync(join(off.project.stateDir, 'receipts'))).toBe(false);

    const pinned = await scenario({
      persona: 'modelo-preparer',
      project: { policy: shellPolicy(), projectSettings: { disableAllHooks: true } },
      env: (p) => {
        const system = join(p.root, 'system-settings.json');
        writeFileSync(system, JSON.stringify({ disableAllHooks: false }));
        return { QWEN_CODE_SYSTEM_SETTINGS_PATH: system };
      },
      turns: handoff,
    });
    expect(pinned.project.aeatRuns()).toEqual([]);
    expect(pinned.results[0]!.content).toContain('owned by the verifier persona');
  });
});
