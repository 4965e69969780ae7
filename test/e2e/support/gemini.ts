import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostCli } from '../../helpers/host-cli';
import { ROOT } from '../../helpers/policy';
import { startGeminiModel, type GeminiModel } from './gemini-model';
import { jsonLines, logLines } from '../../helpers/log-lines';
import { runConfined, type ConfinedRun } from './loopback-only';
import type { ToolUse } from './model-server';

/**
 * The real Gemini CLI, headless, in a temporary HOME and project: the model endpoint is the scripted
 * Gemini API (gemini-model.ts), the stand-in MCP server is server `aeat`, and the hook command is
 * registered for BeforeTool, AfterTool and SessionStart. The CLI runs with no network but loopback
 * (loopback-only.ts): the namespace's 127.0.0.1:MODEL_PORT is relayed to the model's Unix socket.
 */

export const HOOK = join(ROOT, 'dist', 'persona-gate.cjs');
export const HOOK_COMMAND = `node ${JSON.stringify(HOOK)} hook --host gemini`;

export interface GeminiProject {
  /** The folder holding everything below; removed by the caller. */
  root: string;
  /** The project the CLI runs in (its cwd, trusted). */
  dir: string;
  home: string;
  stateDir: string;
  mcpLog: string;
  /** Every run of the `aeat` program on PATH, one line of arguments each. */
  aeatLog: string;
  /** Where the recording hook (when used) appends every event it gets, one JSON line each. */
  eventLog: string;
  executed(): { tool: string; args: Record<string, unknown> }[];
  aeatRuns(): string[];
  events(): Record<string, any>[];
}

export interface GeminiProjectOptions {
  /** The policy, as `.claude/persona-gate.json` in the project (default: examples/tax-filing.json). */
  policy?: unknown;
  /** Raw policy text, for a broken policy. */
  policyText?: string;
  /** The hook command (default: persona-gate's bundle with `--host gemini`); `'record'` for the recording hook. */
  hookCommand?: string | 'record';
  /**
   * How the hook is registered: by `persona-gate init --host gemini` in the project (default; it also
   * trusts the folder), by hand in the user's settings or the project's, or not at all (null).
   */
  hookScope?: 'init' | 'user' | 'project' | null;
  /** The hook's timeout in Gemini's unit, milliseconds. */
  hookTimeoutMs?: number;
  /** Trust the project in ~/.gemini/trustedFolders.json (default true; headless Gemini refuses an untrusted folder). */
  trusted?: boolean;
  /** Extra keys for the user's settings.json. */
  userSettings?: Record<string, unknown>;
  /** Extra keys for the project's .gemini/settings.json. */
  projectSettings?: Record<string, unknown>;
}

const RECORD_HOOK = `#!/bin/sh
# Appends the event on stdin to $1 as one line; prints nothing; lets everything through.
{ cat; echo; } >> "$1"
exit 0
`;

const AEAT_STUB = `#!/bin/sh
# A stand-in for the aeat program: records how it was run.
echo "$*" >> "$E2E_AEAT_LOG"
echo "aeat $*: ok"
`;

function hookEntries(command: string, timeout: number) {
  const hooks = [{ type: 'command', name: 'persona-gate', command, timeout }];
  return {
    BeforeTool: [{ matcher: '.*', hooks }],
    AfterTool: [{ matcher: '.*', hooks }],
    SessionStart: [{ hooks }],
  };
}

export function makeGeminiProject(opts: GeminiProjectOptions = {}): GeminiProject {
  // realpath: Gemini resolves the folder it trusts and reports its cwd that way.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'pg-gemini-')));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  const stateDir = join(root, 'state');
  const mcpLog = join(root, 'mcp.log');
  const aeatLog = join(root, 'aeat.log');
  const eventLog = join(root, 'events.jsonl');
  for (const d of [join(dir, '.claude'), join(dir, '.gemini'), join(home, '.gemini'), bin]) mkdirSync(d, { recursive: true });

  const scope = opts.hookScope === undefined ? (opts.hookCommand === 'record' ? 'user' : 'init') : opts.hookScope;
  const policy =
    opts.policyText ?? JSON.stringify(opts.policy ?? JSON.parse(readFileSync(join(ROOT, 'examples', 'tax-filing.json'), 'utf8')));
  writeFileSync(join(dir, '.claude', 'persona-gate.json'), policy);
  writeFileSync(join(dir, 'notes.txt'), 'hello world\n');

  writeFileSync(join(bin, 'aeat'), AEAT_STUB);
  chmodSync(join(bin, 'aeat'), 0o755);
  writeFileSync(join(bin, 'record-hook'), RECORD_HOOK);
  chmodSync(join(bin, 'record-hook'), 0o755);

  const command =
    opts.hookCommand === 'record' ? `${join(bin, 'record-hook')} ${JSON.stringify(eventLog)}` : (opts.hookCommand ?? HOOK_COMMAND);
  const hooks = scope === null || scope === 'init' ? undefined : hookEntries(command, opts.hookTimeoutMs ?? 20_000);
  const userSettings: Record<string, unknown> = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    mcpServers: {
      aeat: { command: process.execPath, args: [join(ROOT, 'test', 'e2e', 'support', 'mcp-server.mjs')], env: { E2E_MCP_LOG: mcpLog } },
    },
    ...(scope === 'user' && hooks ? { hooks } : {}),
    ...opts.userSettings,
  };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(userSettings, null, 2));
  const projectSettings = { ...(scope === 'project' && hooks ? { hooks } : {}), ...opts.projectSettings };
  if (Object.keys(projectSettings).length > 0)
    writeFileSync(join(dir, '.gemini', 'settings.json'), JSON.stringify(projectSettings, null, 2));
  if (scope === 'init') {
    // The registration a user gets: persona-gate's own init, which also trusts the folder (the policy it writes is replaced below).
    const init = spawnSync(process.execPath, [HOOK, 'init', '--host', 'gemini', '--dir', dir, '--command', command], {
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERSONA_GATE_'))), HOME: home },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (init.status !== 0) throw new Error(`persona-gate init --host gemini failed: ${init.stderr}`);
    writeFileSync(join(dir, '.claude', 'persona-gate.json'), policy);
  } else if (opts.trusted !== false) {
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }, null, 2));
  }

  return {
    root,
    dir,
    home,
    stateDir,
    mcpLog,
    aeatLog,
    eventLog,
    executed: () => jsonLines(mcpLog),
    aeatRuns: () => logLines(aeatLog),
    events: () => jsonLines(eventLog),
  };
}

/** The port the model is served on inside the host's namespace (which has nothing else: any port is free there). */
const MODEL_PORT = 8088;

export interface GeminiRun extends ConfinedRun {
  /** The JSON the CLI printed (`-o json`), when it printed one. */
  json: any;
  model: GeminiModel;
}

export interface RunGeminiOptions {
  env?: Record<string, string>;
  /** Extra arguments (e.g. `-m gemini-2.5-pro`, which also offers write_todos). */
  args?: string[];
  timeoutMs?: number;
  /** false: skip `--yolo` (Gemini's own approval then refuses most tools headless). */
  yolo?: boolean;
  /** Start Gemini through `persona-gate launch --host gemini` with these options (`--persona NAME`, …). */
  launch?: string[];
}

/** The environment the CLI gets: the caller's, less what would change Gemini's or persona-gate's behaviour. */
function hostEnv(project: GeminiProject, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    // VITEST turns Gemini's folder trust off; GITHUB_SHA / SURFACE make it strip the hook's
    // environment down to a fixed list (the persona variable with it).
    if (
      k.startsWith('PERSONA_GATE_') ||
      k.startsWith('GEMINI_') ||
      k.startsWith('GOOGLE_') ||
      k.startsWith('CLAUDE') ||
      k.startsWith('VITEST')
    )
      continue;
    if (['NODE_ENV', 'GITHUB_SHA', 'SURFACE', 'XDG_STATE_HOME', 'XDG_CONFIG_HOME'].includes(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    HOME: project.home,
    PATH: `${join(project.root, 'bin')}:${env.PATH ?? '/usr/bin:/bin'}`,
    GEMINI_API_KEY: 'dummy',
    NO_COLOR: '1',
    PERSONA_GATE_STATE_DIR: project.stateDir,
    E2E_AEAT_LOG: project.aeatLog,
    ...extra,
  };
}

/** Runs `gemini -p … --yolo -o json` in the project against a scripted model that plays `turns`. */
export async function runGemini(project: GeminiProject, turns: ToolUse[][], opts: RunGeminiOptions = {}): Promise<GeminiRun> {
  const model = await startGeminiModel(join(project.root, 'model.sock'), turns);
  const args = ['-p', 'Do the scripted task.', '-o', 'json', ...(opts.yolo === false ? [] : ['--yolo']), ...(opts.args ?? [])];
  const env = hostEnv(project, { ...opts.env, GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${MODEL_PORT}` });
  try {
    const [command, argv] = opts.launch
      ? [process.execPath, [HOOK, 'launch', '--host', 'gemini', ...opts.launch, '--program', hostCli('gemini'), '--', ...args]]
      : [hostCli('gemini'), args];
    const run = await runConfined(command, argv, {
      cwd: project.dir,
      env,
      forward: [{ port: MODEL_PORT, socket: model.socket }],
      timeoutMs: opts.timeoutMs ?? 90_000,
    });
    let json: any = null;
    try {
      json = JSON.parse(run.stdout.slice(run.stdout.indexOf('{')));
    } catch {
      // not JSON: the caller looks at stdout
    }
    return { ...run, json, model };
  } finally {
    await model.close();
  }
}
