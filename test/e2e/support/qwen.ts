import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../helpers/policy';
import { hostCli } from '../../helpers/host-cli';
import { jsonLines, logLines } from '../../helpers/log-lines';
import { runConfined, type ConfinedRun } from './loopback-only';

/**
 * Qwen Code (`@qwen-code/qwen-code`), headless, against a scripted Chat Completions model: a
 * temporary HOME and project, the host's settings (the model endpoint, the stand-in MCP server as
 * `aeat`, the hook registration), a recording `aeat` program on PATH, and a run with no network
 * but loopback (loopback-only.ts).
 */

export const HOOK = join(ROOT, 'dist', 'persona-gate.cjs');
const MCP_SERVER = join(ROOT, 'test', 'e2e', 'support', 'mcp-server.mjs');

/** The hook events Qwen Code fires around a tool call and at the start of a session. */
export type QwenHookEvent = 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure' | 'SessionStart';

export interface QwenHookRegistration {
  command: string;
  events?: QwenHookEvent[];
  /** Written as is: Qwen Code reads values under 1000 as seconds, 1000 and more as milliseconds. */
  timeout?: number;
  /** Where the registration goes: the user's settings (default) or the project's `.qwen/settings.json`. */
  scope?: 'user' | 'project';
}

export interface QwenProjectOptions {
  /** The policy object; defaults to examples/tax-filing.json. */
  policy?: unknown;
  /** Raw policy text, for a broken policy. */
  policyText?: string;
  /**
   * How the hook is registered: `'init'`, by `persona-gate init --host qwen` in the project, as a user
   * would (the policy it writes is replaced by this one); an entry written by hand; or none.
   */
  hook?: 'init' | QwenHookRegistration;
  /** Extra top-level keys merged into the user's settings.json. */
  settings?: Record<string, unknown>;
  /** The project's own `.qwen/settings.json` (besides a project-scope hook registration). */
  projectSettings?: Record<string, unknown>;
  /** Record the project as trusted in ~/.qwen/trustedFolders.json (read only when folder trust is enabled). */
  trustProject?: boolean;
}

export interface QwenProject {
  root: string;
  /** The project: the host's working directory; holds `.claude/persona-gate.json`. */
  dir: string;
  home: string;
  stateDir: string;
  mcpLog: string;
  /** Where the `aeat` program on PATH appends each invocation's arguments. */
  aeatLog: string;
  binDir: string;
  userSettings: string;
  /** The MCP tools that really ran, in order. */
  executed(): { tool: string; args: Record<string, unknown> }[];
  /** The argument lines of every `aeat` program run, in order. */
  aeatRuns(): string[];
  cleanup(): void;
}

function hookBlock(hook: QwenHookRegistration): Record<string, unknown> {
  const entry = { type: 'command', command: hook.command, ...(hook.timeout !== undefined ? { timeout: hook.timeout } : {}) };
  const events = hook.events ?? ['PreToolUse', 'PostToolUse', 'SessionStart'];
  return Object.fromEntries(events.map((event) => [event, [{ matcher: event === 'SessionStart' ? '' : '*', hooks: [entry] }]]));
}

export function makeQwenProject(opts: QwenProjectOptions = {}): QwenProject {
  const root = mkdtempSync(join(tmpdir(), 'pg-qwen-'));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  const stateDir = join(root, 'state');
  const binDir = join(root, 'bin');
  for (const d of [join(dir, '.claude'), join(home, '.qwen'), binDir]) mkdirSync(d, { recursive: true });
  const policy =
    opts.policyText ?? JSON.stringify(opts.policy ?? JSON.parse(readFileSync(join(ROOT, 'examples', 'tax-filing.json'), 'utf8')), null, 2);
  writeFileSync(join(dir, '.claude', 'persona-gate.json'), policy);

  const aeatLog = join(root, 'aeat.log');
  const aeat = join(binDir, 'aeat');
  writeFileSync(aeat, `#!/bin/sh\nprintf '%s\\n' "$*" >> ${JSON.stringify(aeatLog)}\necho "aeat $*: done"\n`);
  chmodSync(aeat, 0o755);

  const mcpLog = join(root, 'mcp.log');
  const userSettings = join(home, '.qwen', 'settings.json');
  const settings: Record<string, any> = {
    security: { auth: { selectedType: 'openai' } },
    model: { name: 'scripted' },
    mcpServers: { aeat: { command: process.execPath, args: [MCP_SERVER], env: { E2E_MCP_LOG: mcpLog }, trust: true } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true },
    ...opts.settings,
  };
  const byHand = opts.hook !== undefined && opts.hook !== 'init' ? opts.hook : undefined;
  if (byHand && (byHand.scope ?? 'user') === 'user') settings.hooks = hookBlock(byHand);
  writeFileSync(userSettings, JSON.stringify(settings, null, 2));
  if (opts.trustProject) writeFileSync(join(home, '.qwen', 'trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }, null, 2));
  const projectFile = join(dir, '.qwen', 'settings.json');
  if (opts.hook === 'init') {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('PERSONA_GATE_') && !k.startsWith('CLAUDE') && !k.startsWith('QWEN')),
    );
    const init = spawnSync(
      process.execPath,
      [HOOK, 'init', '--host', 'qwen', '--dir', dir, '--command', `node ${JSON.stringify(HOOK)} hook`],
      { env: { ...env, HOME: home }, encoding: 'utf8', timeout: 60_000 },
    );
    if (init.status !== 0) throw new Error(`persona-gate init --host qwen failed: ${init.stderr}`);
    writeFileSync(join(dir, '.claude', 'persona-gate.json'), policy);
  }
  if (byHand?.scope === 'project' || opts.projectSettings) {
    mkdirSync(join(dir, '.qwen'), { recursive: true });
    const existing = existsSync(projectFile) ? (JSON.parse(readFileSync(projectFile, 'utf8')) as Record<string, unknown>) : {};
    const project = { ...existing, ...opts.projectSettings, ...(byHand?.scope === 'project' ? { hooks: hookBlock(byHand) } : {}) };
    writeFileSync(projectFile, JSON.stringify(project, null, 2));
  }
  return {
    root,
    dir,
    home,
    stateDir,
    mcpLog,
    aeatLog,
    binDir,
    userSettings,
    executed: () => jsonLines(mcpLog),
    aeatRuns: () => logLines(aeatLog),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface QwenRunOptions {
  env?: Record<string, string>;
  prompt?: string;
  timeoutMs?: number;
  extraArgs?: string[];
  /** Start Qwen Code through `persona-gate launch --host qwen` with these options (`--persona NAME`, …). */
  launch?: string[];
}

/**
 * Runs `qwen -p PROMPT --yolo` in the project against the model at `modelUrl` (http://127.0.0.1:PORT/v1),
 * confined to loopback (loopback-only.ts), the model's port relayed into the namespace.
 */
export async function runQwen(project: QwenProject, modelUrl: string, opts: QwenRunOptions = {}): Promise<ConfinedRun> {
  const url = new URL(modelUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`the model must listen on 127.0.0.1, not ${url.hostname}`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v === undefined ||
      k.startsWith('PERSONA_GATE_') ||
      k.startsWith('CLAUDE') ||
      k.startsWith('OPENAI') ||
      k.startsWith('QWEN') ||
      k.startsWith('GEMINI')
    )
      continue;
    env[k] = v;
  }
  Object.assign(env, {
    HOME: project.home,
    PATH: `${project.binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    OPENAI_BASE_URL: modelUrl,
    OPENAI_API_KEY: 'sk-test-not-a-key',
    OPENAI_MODEL: 'scripted',
    PERSONA_GATE_STATE_DIR: project.stateDir,
    NO_COLOR: '1',
    CI: '1',
    ...opts.env,
  });
  const hostArgs = ['-p', opts.prompt ?? 'Do the scripted task.', '--yolo', ...(opts.extraArgs ?? [])];
  // Through `persona-gate launch --host qwen`, when asked: it starts the same program with the same arguments, narrowed.
  const args = opts.launch
    ? [HOOK, 'launch', '--host', 'qwen', ...opts.launch, '--program', hostCli('qwen'), '--', ...hostArgs]
    : [hostCli('qwen'), ...hostArgs];
  return runConfined(process.execPath, args, { cwd: project.dir, env, forward: [Number(url.port)], timeoutMs: opts.timeoutMs ?? 120_000 });
}
