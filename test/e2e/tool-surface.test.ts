import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { cleanEnv, runCli } from '../helpers/cli';
import { stateReceipts } from '../helpers/log-lines';
import { describeConfined, runConfined } from './support/loopback-only';
import { startModel, toolResults, type ScriptedModel, type ToolUse } from './support/model-server';
import { claudeArgs, claudeEnv, HOOK, makeProject, runClaude, type Project } from './support/project';
import { offeredChatTools, offeredTools } from './support/offered-tools';
import { chatToolResults, startChatModel } from './support/chat-model';
import { hostEnv, makeCopilotProject } from './support/copilot';
import { DROID_MODEL, makeDroidProject, writeDroidModel } from './support/droid';
import { initHost } from './support/host-stubs';
import { makeQwenProject, runQwen } from './support/qwen';
import { makeGeminiProject, runGemini } from './support/gemini';
import { offeredTools as geminiOffered, geminiToolResults } from './support/gemini-model';
import { testCacheRoot } from '../helpers/host-cli';

// The pinned Claude Code CLI, installed into the test cache on first use (a download the first time).
beforeAll(() => {
  hostCli('claude-code');
}, 900_000);

/**
 * SPEC §13 in the real hosts: the tools the scripted model is offered (the request's `tools`, and
 * those deferred behind ToolSearch) when the session is started by `persona-gate launch`, and, in
 * Claude Code, for a subagent whose definition `persona-gate agents` wrote. Each test logs the
 * figures: how many tools the model is offered without launch and with it.
 */

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

const call = (name: string, input: Record<string, unknown> = {}): ToolUse[] => [{ name, input }];
const MARKER = 'E2E-ROLE:verifier';

async function setUp(scripts: Record<string, ToolUse[][]>): Promise<{ project: Project; model: ScriptedModel }> {
  const model = await startModel({ main: [], ...scripts }, { verifier: MARKER });
  const project = makeProject();
  cleanup.push(
    () => model.close(),
    () => rmSync(project.dir, { recursive: true, force: true }),
  );
  return { project, model };
}

/** Claude Code started by `persona-gate launch`, confined to loopback like every host the tests run. */
async function launch(project: Project, model: ScriptedModel, launchArgs: string[]) {
  const env = claudeEnv(project, model.url);
  const args = [
    HOOK,
    'launch',
    ...launchArgs,
    '--program',
    hostCli('claude-code'),
    '--',
    ...claudeArgs(project, ['mcp__aeat__*', 'Read', 'Agent']),
  ];
  const run = await runConfined(process.execPath, args, {
    cwd: project.dir,
    env,
    forward: [Number(new URL(model.url).port)],
    timeoutMs: 90_000,
  });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

const offered = (model: ScriptedModel, role: string) => offeredTools(model.requests.find((r) => r.role === role)!.body);

/** The verifier's definition as a user wrote it: their keys and prompt, no tools key yet. */
function userVerifier(project: Project): string {
  const path = join(project.dir, '.claude', 'agents', 'verifier.md');
  mkdirSync(join(project.dir, '.claude', 'agents'), { recursive: true });
  writeFileSync(
    path,
    `---\nname: verifier\ndescription: Checks and files modelos.\nmodel: inherit\ncolor: green\n---\n${MARKER}. You verify modelos before filing.\n`,
  );
  return path;
}

describeConfined('the tools each persona is offered, in the real Claude Code', () => {
  it('launch takes the tools a persona may never use off its list; the host refuses one called anyway, the hook what an offered tool reaches', async () => {
    const turns = [call('mcp__aeat__whoami'), call('mcp__aeat__ledger_list'), call('mcp__aeat__execute', { command: 'ledger.list' })];
    // The same persona without launch, for the figure before.
    const before = await setUp({ main: turns });
    const plain = await runClaude(before.project, before.model.url, { env: { PERSONA_GATE_PERSONA: 'verifier' } });
    expect(plain.code, plain.stderr).toBe(0);
    const all = offered(before.model, 'main');

    const { project, model } = await setUp({ main: turns });
    await launch(project, model, ['--persona', 'verifier']);
    const tools = offered(model, 'main');
    console.log(`main session: ${all.length} tools offered without launch: ${all.join(' ')}`);
    console.log(`verifier, launched: ${tools.length} tools: ${tools.join(' ')}`);
    for (const hidden of ['Bash', 'Write', 'Edit', 'WebFetch', 'WebSearch', 'Agent', 'NotebookEdit', 'mcp__aeat__ledger_list']) {
      expect(all, hidden).toContain(hidden);
      expect(tools, hidden).not.toContain(hidden);
    }
    for (const kept of [
      'Read',
      'Glob',
      'Grep',
      'mcp__aeat__whoami',
      'mcp__aeat__modelo_list',
      'mcp__aeat__modelo_export',
      'mcp__aeat__execute',
    ])
      expect(tools, kept).toContain(kept);
    const results = toolResults(model.requests);
    // The hidden tool, called anyway: Claude Code refuses it itself, before any hook.
    expect(results[1]).toMatchObject({ name: 'mcp__aeat__ledger_list', isError: true });
    expect(results[1]!.content).toContain('No such tool available: mcp__aeat__ledger_list');
    // The same command through the meta tool, which stays offered: the hook refuses it, as ever.
    expect(results[2]!.content).toContain('the verifier persona may not run ledger.list');
    const receipts = stateReceipts(project.stateDir).filter((r) => r.hook_event === 'PreToolUse');
    expect(receipts.map((r) => [r.persona, r.command_key, r.verdict])).toEqual([
      ['verifier', 'config.profile.status', 'abstain'],
      ['verifier', 'ledger.list', 'deny'],
    ]);
    expect(project.executed().map((e) => e.tool)).toEqual(['whoami']);
  });

  it("a subagent defined by persona-gate agents is offered its persona's tools, and its delegating session keeps what the subagent needs", async () => {
    const { project, model } = await setUp({
      main: [
        call('mcp__aeat__modelo_work_create', { modelo: '303' }),
        call('Agent', { subagent_type: 'verifier', description: 'verify', prompt: 'Verify modelo 303.' }),
      ],
      verifier: [
        call('mcp__aeat__whoami'),
        call('mcp__aeat__ledger_list'),
        call('mcp__aeat__execute', { command: 'ledger.list' }),
        call('mcp__aeat__modelo_list'),
      ],
    });
    const path = userVerifier(project);
    const wrote = runCli(['agents'], { cwd: project.dir, env: cleanEnv({ HOME: project.home }) });
    expect(wrote.code, wrote.stderr).toBe(0);
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^---\nname: verifier\ndescription: Checks and files modelos\.\nmodel: inherit\ncolor: green\ntools: Read, /);
    expect(text.endsWith(`---\n${MARKER}. You verify modelos before filing.\n`)).toBe(true);

    await launch(project, model, ['--persona', 'coordinator']);
    const sub = offered(model, 'verifier');
    const main = offered(model, 'main');
    console.log(`verifier subagent (its definition from persona-gate agents): ${sub.length} tools: ${sub.join(' ')}`);
    console.log(`coordinator, launched without --as-agent: ${main.length} tools: ${main.join(' ')}`);
    for (const hidden of ['Bash', 'Write', 'Edit', 'Agent', 'WebFetch', 'mcp__aeat__ledger_list'])
      expect(sub, hidden).not.toContain(hidden);
    for (const kept of ['Read', 'mcp__aeat__whoami', 'mcp__aeat__modelo_list', 'mcp__aeat__modelo_export'])
      expect(sub, kept).toContain(kept);
    // The coordinator's session drops what no persona it delegates to may use, and keeps the rest for them.
    for (const hidden of ['Bash', 'Write', 'Edit', 'WebFetch', 'WebSearch']) expect(main, hidden).not.toContain(hidden);
    for (const kept of ['Agent', 'Read', 'mcp__aeat__whoami', 'mcp__aeat__modelo_export']) expect(main, kept).toContain(kept);
    // What the session keeps for a delegate is still the hook's to refuse to the coordinator itself.
    expect(toolResults(model.requests)[0]!.content).toContain('the coordinator persona may not run modelo.work.create');
    // The subagent's hidden tool, called anyway, is refused by Claude Code; the command through the meta tool, by the hook as its persona.
    const subResults = toolResults(model.requests, 'verifier');
    expect(subResults[1]!.content).toContain('No such tool available: mcp__aeat__ledger_list');
    expect(subResults[2]!.content).toContain('the verifier persona may not run ledger.list');
    const refused = stateReceipts(project.stateDir).filter((r) => r.hook_event === 'PreToolUse' && r.verdict === 'deny');
    expect(refused.map((r) => [r.agent_type ?? null, r.persona, r.command_key])).toEqual([
      [null, 'coordinator', 'modelo.work.create'],
      ['verifier', 'verifier', 'ledger.list'],
    ]);
    expect(project.executed().map((e) => e.tool)).toEqual(['whoami', 'modelo_list']);
  });

  it("launch --as-agent offers the main session exactly its persona's tools, while its subagents keep theirs", async () => {
    const { project, model } = await setUp({
      main: [
        call('mcp__aeat__modelo_work_create', { modelo: '303' }),
        call('Agent', { subagent_type: 'verifier', description: 'verify', prompt: 'Verify modelo 303.' }),
      ],
      verifier: [call('mcp__aeat__modelo_list')],
    });
    userVerifier(project);
    expect(runCli(['agents'], { cwd: project.dir, env: cleanEnv({ HOME: project.home }) }).code).toBe(0);
    await launch(project, model, ['--persona', 'coordinator', '--as-agent']);
    const main = offered(model, 'main');
    const sub = offered(model, 'verifier');
    console.log(`coordinator, launched --as-agent: ${main.length} tools: ${main.join(' ')}`);
    console.log(`its verifier subagent: ${sub.length} tools: ${sub.join(' ')}`);
    for (const hidden of [
      'Bash',
      'Write',
      'Edit',
      'WebFetch',
      'mcp__aeat__modelo_work_create',
      'mcp__aeat__modelo_export',
      'mcp__aeat__profile_switch',
    ])
      expect(main, hidden).not.toContain(hidden);
    for (const kept of ['Agent', 'Read', 'mcp__aeat__whoami', 'mcp__aeat__modelo_list', 'mcp__aeat__ledger_list'])
      expect(main, kept).toContain(kept);
    for (const kept of ['mcp__aeat__modelo_export', 'mcp__aeat__modelo_work_create']) expect(sub, kept).toContain(kept);
    // The hidden tool, called anyway, is refused by Claude Code before any hook; the main session runs as the coordinator's agent type.
    expect(toolResults(model.requests)[0]!.content).toContain('No such tool available: mcp__aeat__modelo_work_create');
    const pre = stateReceipts(project.stateDir).filter((r) => r.hook_event === 'PreToolUse');
    expect(pre.map((r) => [r.agent_type, r.persona, r.command_key, r.verdict])).toEqual([
      ['coordinator', 'coordinator', 'Agent', 'abstain'],
      ['verifier', 'verifier', 'modelo.list', 'abstain'],
    ]);
    expect(project.executed().map((e) => e.tool)).toEqual(['modelo_list']);
  });
});

describeConfined('the tools each persona is offered, in the real Copilot CLI, Droid, Gemini CLI and Qwen Code', () => {
  beforeAll(() => {
    hostCli('copilot');
    hostCli('droid');
    hostCli('qwen');
    hostCli('gemini');
  }, 900_000);

  /** `persona-gate launch --host H` for a host that speaks Chat Completions, confined like the others. */
  async function launchChat(
    host: 'copilot' | 'droid',
    project: Project & { pathDirs: string[] },
    url: string,
    env: Record<string, string>,
    hostArgs: string[],
    launchArgs: string[] = [],
  ) {
    const args = [HOOK, 'launch', '--host', host, ...launchArgs, '--program', hostCli(host), '--', ...hostArgs];
    const run = await runConfined(process.execPath, args, {
      cwd: project.dir,
      env: hostEnv(project, env),
      forward: [Number(new URL(url).port)],
      timeoutMs: 120_000,
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  }

  it("Copilot: launch --host copilot offers the model only the persona's tools, by Copilot's names", async () => {
    const turns = [
      [{ name: 'aeat-whoami', input: {} }],
      [{ name: 'aeat-ledger_list', input: {} }],
      [{ name: 'aeat-execute', input: { command: 'ledger.list' } }],
    ];
    const copilotEnv = (url: string) => ({
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: url,
      COPILOT_PROVIDER_API_KEY: 'sk-test-not-a-key',
      COPILOT_MODEL: 'gpt-4.1',
      COPILOT_AUTO_UPDATE: 'false',
      NO_COLOR: '1',
      XDG_CACHE_HOME: join(testCacheRoot(), 'copilot-xdg-cache'),
    });
    const args = ['-p', 'Do the scripted task.', '--allow-all-tools', '--no-auto-update', '--no-ask-user', '--disable-builtin-mcps'];
    const plainModel = await startChatModel([]);
    const plain = makeCopilotProject({ trustFolder: true });
    cleanup.push(
      () => plainModel.close(),
      () => rmSync(plain.dir, { recursive: true, force: true }),
    );
    const ran = await runConfined(hostCli('copilot'), args, {
      cwd: plain.dir,
      env: hostEnv(plain, copilotEnv(plainModel.url)),
      forward: [Number(new URL(plainModel.url).port)],
      timeoutMs: 120_000,
    });
    expect(ran.code, ran.stderr).toBe(0);
    const all = offeredChatTools(plainModel.requests[0]!.body);

    const model = await startChatModel(turns);
    const project = makeCopilotProject({ trustFolder: false });
    cleanup.push(
      () => model.close(),
      () => rmSync(project.dir, { recursive: true, force: true }),
    );
    initHost('copilot', project);
    await launchChat('copilot', project, model.url, copilotEnv(model.url), args, ['--persona', 'verifier']);
    const tools = offeredChatTools(model.requests[0]!.body);
    console.log(`Copilot: ${all.length} tools offered without launch: ${all.join(' ')}`);
    console.log(`Copilot, verifier launched: ${tools.length} tools: ${tools.join(' ')}`);
    for (const hidden of ['bash', 'create', 'edit', 'task', 'sql', 'aeat-ledger_list']) {
      expect(all, hidden).toContain(hidden);
      expect(tools, hidden).not.toContain(hidden);
    }
    for (const kept of ['view', 'grep', 'glob', 'aeat-whoami', 'aeat-modelo_export', 'aeat-execute']) expect(tools, kept).toContain(kept);
    const results = chatToolResults(model.requests);
    console.log(`Copilot, a hidden tool called anyway: ${JSON.stringify(results[1])}`);
    // Measured: Copilot still runs a tool its model was not offered, if the model names it; the hook refuses it.
    expect(results[1]!.content).toContain('Denied by preToolUse hook: persona-gate: the verifier persona may not run ledger.list');
    expect(results[2]!.content).toContain('the verifier persona may not run ledger.list');
    expect(project.executed().map((e) => e.tool)).toEqual(['whoami']);
  }, 240_000);

  it("Droid: launch --host droid offers droid exec only the persona's tools, its MCP tools by selector", async () => {
    const turns = [
      [{ name: 'aeat___whoami', input: {} }],
      [{ name: 'aeat___ledger_list', input: {} }],
      [{ name: 'aeat___execute', input: { command: 'ledger.list' } }],
    ];
    const args = (model: string) => ['exec', '--auto', 'high', '-m', `custom:${model}-0`, 'Do the scripted task.'];
    const env = { NO_COLOR: '1', FACTORY_AIRGAP_ENABLED: 'true' };
    const plainModel = await startChatModel([]);
    const plain = makeDroidProject({});
    cleanup.push(
      () => plainModel.close(),
      () => rmSync(plain.dir, { recursive: true, force: true }),
    );
    writeDroidModel(plain, plainModel.url);
    const ran = await runConfined(hostCli('droid'), args(DROID_MODEL), {
      cwd: plain.dir,
      env: hostEnv(plain, env),
      forward: [Number(new URL(plainModel.url).port)],
      timeoutMs: 120_000,
    });
    expect(ran.code, ran.stderr).toBe(0);
    const all = offeredChatTools(plainModel.requests[0]!.body);

    const model = await startChatModel(turns);
    const project = makeDroidProject({});
    cleanup.push(
      () => model.close(),
      () => rmSync(project.dir, { recursive: true, force: true }),
    );
    writeDroidModel(project, model.url);
    initHost('droid', project);
    await launchChat('droid', project, model.url, env, args(DROID_MODEL), ['--persona', 'verifier']);
    const tools = offeredChatTools(model.requests[0]!.body);
    console.log(`Droid: ${all.length} tools offered without launch: ${all.join(' ')}`);
    console.log(`Droid, verifier launched: ${tools.length} tools: ${tools.join(' ')}`);
    for (const hidden of ['Execute', 'Create', 'Edit', 'Task']) {
      expect(all, hidden).toContain(hidden);
      expect(tools, hidden).not.toContain(hidden);
    }
    expect(tools).not.toContain('aeat___ledger_list');
    for (const kept of ['Read', 'Grep', 'Glob', 'aeat___whoami', 'aeat___modelo_export', 'aeat___execute'])
      expect(tools, kept).toContain(kept);
    const results = chatToolResults(model.requests);
    console.log(`Droid, a hidden tool called anyway: ${JSON.stringify(results[1])}`);
    // Measured: so does Droid; the hook refuses it.
    expect(results[1]!.content).toContain('the verifier persona may not run ledger.list');
    expect(results[2]!.content).toContain('the verifier persona may not run ledger.list');
    expect(project.executed().map((e) => e.tool)).toEqual(['whoami']);
  }, 240_000);

  it("Qwen Code: launch --host qwen offers the model only the persona's core tools; its MCP tools stay (no flag takes them off)", async () => {
    const runs: string[][] = [];
    for (const launchArgs of [undefined, ['--persona', 'verifier']]) {
      const model = await startChatModel([]);
      const project = makeQwenProject({});
      cleanup.push(
        () => model.close(),
        () => project.cleanup(),
      );
      const run = await runQwen(project, model.url, launchArgs ? { launch: launchArgs } : {});
      expect(run.code, run.stderr).toBe(0);
      const body = model.requests[0]!.body;
      runs.push([...offeredChatTools(body), ...new Set<string>(JSON.stringify(body.messages).match(/mcp__aeat__[a-z_]+/g) ?? [])]);
    }
    const [all, tools] = runs as [string[], string[]];
    console.log(`Qwen Code: ${all.length} tools offered without launch (MCP ones behind tool_search): ${all.join(' ')}`);
    console.log(`Qwen Code, verifier launched: ${tools.length} tools: ${tools.join(' ')}`);
    for (const hidden of ['run_shell_command', 'write_file', 'edit', 'notebook_edit']) {
      expect(all, hidden).toContain(hidden);
      expect(tools, hidden).not.toContain(hidden);
    }
    for (const kept of ['read_file', 'glob', 'grep_search', 'mcp__aeat__whoami']) expect(tools, kept).toContain(kept);
    // Measured: Qwen Code 0.24.4 has no flag that takes an MCP tool off the list; the hook refuses it.
    expect(tools).toContain('mcp__aeat__ledger_list');
  }, 240_000);

  it("Gemini CLI: launch --host gemini takes the persona's out-of-scope tools off through a policy file", async () => {
    const before = makeGeminiProject({});
    cleanup.push(() => rmSync(before.root, { recursive: true, force: true }));
    const plain = await runGemini(before, []);
    expect(plain.code, plain.stderr).toBe(0);
    const all = geminiOffered(plain.model.requests);
    const project = makeGeminiProject({});
    cleanup.push(() => rmSync(project.root, { recursive: true, force: true }));
    const run = await runGemini(project, [[{ name: 'mcp_aeat_whoami', input: {} }], [{ name: 'mcp_aeat_ledger_list', input: {} }]], {
      launch: ['--persona', 'verifier'],
    });
    expect(run.code, run.stderr).toBe(0);
    const tools = geminiOffered(run.model.requests);
    console.log(`Gemini CLI: ${all.length} tools offered without launch: ${all.join(' ')}`);
    console.log(`Gemini CLI, verifier launched: ${tools.length} tools: ${tools.join(' ')}`);
    for (const hidden of ['run_shell_command', 'write_file', 'replace', 'web_fetch', 'google_web_search', 'mcp_aeat_ledger_list']) {
      expect(all, hidden).toContain(hidden);
      expect(tools, hidden).not.toContain(hidden);
    }
    for (const kept of ['read_file', 'glob', 'grep_search', 'mcp_aeat_whoami', 'mcp_aeat_modelo_export', 'mcp_aeat_execute'])
      expect(tools, kept).toContain(kept);
    const results = geminiToolResults(run.model.requests);
    console.log(`Gemini CLI, a hidden tool called anyway: ${JSON.stringify(results[1])}`);
    // Gemini CLI refuses a tool it did not offer itself, before any hook.
    expect(results[1]!.text).toContain('Tool "mcp_aeat_ledger_list" not found');
  }, 240_000);
});
