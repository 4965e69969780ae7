import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, afterEach, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { rmSync } from 'node:fs';
import { describeConfined } from './support/loopback-only';
import { startModel, toolResults, type ScriptedModel, type ToolUse } from './support/model-server';
import { makeProject, runClaude, type Project } from './support/project';
import { ROOT, taxPolicyWithShell } from '../helpers/policy';
import { cleanEnv, runCli } from '../helpers/cli';
import { stateReceipts } from '../helpers/log-lines';

// The pinned Claude Code CLI, installed into the test cache on first use (a download the first time).
beforeAll(() => {
  hostCli('claude-code');
}, 900_000);

/**
 * The real Claude Code CLI, driven by a scripted model on 127.0.0.1, with persona-gate registered
 * as its hook and a stand-in MCP server that records what actually ran.
 */

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function scenario(opts: {
  turns: ToolUse[][];
  subagents?: Record<string, ToolUse[][]>;
  env?: Record<string, string>;
  project?: Parameters<typeof makeProject>[0];
  extraArgs?: string[];
}): Promise<{ project: Project; model: ScriptedModel; results: ReturnType<typeof toolResults>; ran: string[] }> {
  const markers = Object.fromEntries(Object.keys(opts.subagents ?? {}).map((name) => [name, `E2E-ROLE:${name}`]));
  const model = await startModel({ main: opts.turns, ...(opts.subagents ?? {}) }, markers);
  const project = makeProject(opts.project);
  cleanup.push(
    () => model.close(),
    () => rmSync(project.dir, { recursive: true, force: true }),
  );
  const run = await runClaude(project, model.url, { env: opts.env, extraArgs: opts.extraArgs });
  expect(run.code, run.stderr).toBe(0);
  return { project, model, results: toolResults(model.requests), ran: project.executed().map((e) => e.tool) };
}

const call = (name: string, input: Record<string, unknown> = {}): ToolUse[] => [{ name, input }];
const whoami = call('mcp__aeat__whoami');
const create = call('mcp__aeat__modelo_work_create', { modelo: '303' });
const exportIt = call('mcp__aeat__modelo_export', { modelo: '303' });

describeConfined('persona-gate inside the real Claude Code', () => {
  it("refuses a command outside the persona's scope", async () => {
    const { results, ran } = await scenario({
      turns: [whoami, create, call('mcp__aeat__modelo_list')],
      env: { PERSONA_GATE_PERSONA: 'coordinator' },
    });
    expect(ran).toEqual(['whoami', 'modelo_list']);
    expect(results[1]).toMatchObject({ name: 'mcp__aeat__modelo_work_create', isError: true });
    expect(results[1]!.content).toContain('the coordinator persona may not run modelo.work.create');
  });

  it('refuses the handoff to every persona but its owner, naming the owner', async () => {
    const { results, ran } = await scenario({ turns: [whoami, exportIt, create], env: { PERSONA_GATE_PERSONA: 'modelo-preparer' } });
    expect(ran).toEqual(['whoami', 'modelo_work_create']);
    expect(results[1]!.content).toContain('it is an irreversible handoff owned by the verifier persona');
  });

  it('refuses the first mutation until a whoami has run, and again after a profile switch', async () => {
    const { results, ran } = await scenario({
      turns: [create, whoami, create, call('mcp__aeat__profile_switch', { profile: 'Erik Example' }), create, whoami, create],
      env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
    });
    expect(ran).toEqual(['whoami', 'modelo_work_create', 'profile_switch', 'whoami', 'modelo_work_create']);
    const refusal = 'this session has not yet confirmed which profile is active';
    expect(results.map((r) => r.content.includes(refusal))).toEqual([true, false, false, false, true, false, false]);
  });

  it('asks the human for a confirm-tier command, echoing whose profile it touches', async () => {
    const { results, ran } = await scenario({ turns: [whoami, exportIt], env: { PERSONA_GATE_PERSONA: 'verifier' } });
    expect(ran).toEqual(['whoami']);
    expect(results[1]!.isError).toBe(true);
    // The label came from the whoami's PostToolUse response.
    expect(
      results[1]!.content.startsWith(
        "[Active profile: Erika Example (NIF 00000000T)] persona-gate: modelo.export needs the user's confirmation.",
      ),
    ).toBe(true);
  });

  it('lets a subagent bound to a persona do what its parent may not', async () => {
    const { ran, results } = await scenario({
      turns: [create, call('Agent', { subagent_type: 'modelo-preparer', description: 'prepare', prompt: 'Prepare modelo 303.' })],
      subagents: { 'modelo-preparer': [whoami, create, exportIt] },
      project: {
        agents: { 'modelo-preparer': { description: 'Prepares modelo drafts.', prompt: 'E2E-ROLE:modelo-preparer. You prepare modelos.' } },
      },
      env: { PERSONA_GATE_PERSONA: 'coordinator' },
    });
    expect(results[0]!.content).toContain('the coordinator persona may not run modelo.work.create');
    // The subagent created the draft, and was still refused the filing.
    expect(ran).toEqual(['whoami', 'modelo_work_create']);
  });

  it('refuses a command through the meta tool exactly as the direct call', async () => {
    const { results, ran } = await scenario({
      turns: [
        whoami,
        exportIt,
        call('mcp__aeat__execute', { command: 'modelo.export' }),
        call('mcp__aeat__execute', { command: 'modelo.list' }),
      ],
      env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
    });
    expect(ran).toEqual(['whoami', 'execute:modelo.list']);
    const strip = (s: string) => s.replace(/PreToolUse:\S+/, 'PreToolUse:TOOL').replace(/<system-reminder>[\s\S]*$/, '');
    expect(strip(results[2]!.content)).toBe(strip(results[1]!.content));
  });

  it('catches a Bash bypass of the filing', async () => {
    const policy = taxPolicyWithShell();
    const { results, project } = await scenario({
      turns: [
        whoami,
        call('Bash', { command: 'touch bypass.txt && sudo bash -c "aeat modelo export --modelo 303"' }),
        call('Bash', { command: 'touch allowed.txt' }),
      ],
      env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
      project: { policy },
    });
    expect(results[1]!.content).toContain('owned by the verifier persona');
    expect(existsSync(join(project.dir, 'bypass.txt'))).toBe(false);
    expect(existsSync(join(project.dir, 'allowed.txt'))).toBe(true);
  });

  it('denies every call when the policy is broken, rather than failing open', async () => {
    const { results, ran } = await scenario({
      turns: [whoami, call('mcp__aeat__modelo_list')],
      project: { policyText: '{ "version": 1, "catalog": ' },
    });
    expect(ran).toEqual([]);
    expect(results[0]!.content).toContain('is not valid');
  });

  it('keeps an audit receipt for every decision', async () => {
    const { project } = await scenario({ turns: [whoami, create], env: { PERSONA_GATE_PERSONA: 'coordinator' } });
    const receipts = require('node:fs')
      .readdirSync(join(project.stateDir, 'receipts'))
      .flatMap((f: string) =>
        readFileSync(join(project.stateDir, 'receipts', f), 'utf8')
          .trim()
          .split('\n'),
      )
      .map((l: string) => JSON.parse(l));
    const pre = receipts.filter((r: any) => r.hook_event === 'PreToolUse');
    expect(pre.map((r: any) => [r.command_key, r.verdict, r.status])).toEqual([
      ['config.profile.status', 'abstain', 'ok'],
      ['modelo.work.create', 'deny', 'permission_denied'],
    ]);
    expect(receipts.some((r: any) => r.hook_event === 'PostToolUse' && r.rule === 'post_tool_use')).toBe(true);
  });

  it('replays a recorded session to the verdicts the hook gave, call by call', async () => {
    const { project } = await scenario({
      turns: [
        create,
        whoami,
        create,
        call('Agent', { subagent_type: 'modelo-preparer', description: 'prepare', prompt: 'Prepare modelo 303.' }),
        call('Bash', { command: 'ls' }),
      ],
      subagents: {
        'modelo-preparer': [create, whoami, create, call('mcp__aeat__profile_switch', { profile: 'Erik Example' }), create, exportIt],
      },
      project: {
        agents: { 'modelo-preparer': { description: 'Prepares modelo drafts.', prompt: 'E2E-ROLE:modelo-preparer. You prepare modelos.' } },
      },
      env: { PERSONA_GATE_PERSONA: 'coordinator' },
    });
    const receipts = stateReceipts(project.stateDir);
    const hook = receipts
      .filter((r) => r.hook_event === 'PreToolUse')
      .map((r) => [r.tool_use_id, r.agent_type, r.persona, r.command_key, r.verdict, r.status]);
    // The transcripts Claude Code wrote for this session, its subagent's sidechain among them.
    const transcripts = join(project.home, '.claude', 'projects');
    const replayed = runCli(
      ['replay', transcripts, '--config', join(project.dir, '.claude', 'persona-gate.json'), '--persona', 'coordinator', '--json'],
      {
        env: cleanEnv({ HOME: project.home, PERSONA_GATE_STATE_DIR: project.stateDir }),
      },
    );
    expect(replayed.code, replayed.stderr).toBe(0);
    const report = JSON.parse(replayed.stdout);
    const rows = report.calls.map((r: any) => [r.tool_use_id, r.agent_type, r.persona, r.command_key, r.verdict, r.status]);
    expect(rows.length).toBe(11);
    expect(new Set(rows.map((r: any) => r[5]))).toEqual(new Set(['ok', 'permission_denied', 'identity_required', 'handoff_denied']));
    expect([...rows].sort()).toEqual([...hook].sort());
    expect(report.skipped).toEqual({ not_json: 0, not_object: 0, no_type: 0, bad_message: 0, bad_tool_use: 0, bad_tool_result: 0 });
    // The replay decided in a scratch state: the real receipts are as the session left them.
    expect(stateReceipts(project.stateDir)).toEqual(receipts);
  });

  it('loads as a plugin with --plugin-dir', async () => {
    const { results, ran } = await scenario({
      turns: [whoami, create],
      env: { PERSONA_GATE_PERSONA: 'coordinator' },
      project: { viaPlugin: true },
      extraArgs: ['--plugin-dir', ROOT],
    });
    expect(ran).toEqual(['whoami']);
    expect(results[1]!.content).toContain('the coordinator persona may not run modelo.work.create');
  });

  it('blocks when a hook exits 1 and the entry says onFailure: block (the host behaviour persona-gate relies on)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-exit1-'));
    const broken = join(dir, 'exit-1.cjs');
    writeFileSync(broken, 'process.exit(1);\n');
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const { ran } = await scenario({ turns: [call('mcp__aeat__modelo_list')], project: { hookCommand: `node ${JSON.stringify(broken)}` } });
    expect(ran).toEqual([]);
  });
});
