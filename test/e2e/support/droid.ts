import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostCli } from '../../helpers/host-cli';
import { ROOT } from '../../helpers/policy';
import { hostEnv } from './copilot';
import { aeatStub } from './host-stubs';
import { runConfined, type ConfinedRun } from './loopback-only';
import { makeProject, type Project, type ProjectOptions } from './project';

/**
 * Factory Droid, headless (`droid exec --auto high`), against the scripted Chat Completions model
 * (a custom model of provider `generic-chat-completion-api` in `~/.factory/settings.json`), with no
 * network but loopback. Hooks: `~/.factory/hooks.json`, keyed by event at the top level (a
 * `{"hooks": …}` wrapper is ignored silently); MCP servers: `~/.factory/mcp.json`.
 */

export const DROID_EVENTS = ['PreToolUse', 'PostToolUse', 'SessionStart'] as const;
export const DROID_MODEL = 'e2e-scripted';

export interface DroidProjectOptions extends Omit<ProjectOptions, 'hookCommand' | 'registerInProject' | 'viaPlugin' | 'agents'> {
  /** A hook command to register by hand; omit to register nothing (`init --host droid` does it). */
  hookCommand?: string;
  /** Where the hand registration goes: the user's ~/.factory/hooks.json (default) or the project's .factory/hooks.json. */
  hookScope?: 'user' | 'project';
  hookEvents?: readonly string[];
  /** The hook entry's timeout, in seconds. */
  hookTimeout?: number;
}

export interface DroidProject extends Project {
  aeatLog: string;
  aeatRan(): string[];
  pathDirs: string[];
}

export function droidHooksFile(command: string, events: readonly string[] = DROID_EVENTS, timeout = 20): string {
  const hooks = [{ type: 'command', command, timeout }];
  return JSON.stringify(
    Object.fromEntries(events.map((e) => [e, e === 'SessionStart' ? [{ hooks }] : [{ matcher: '*', hooks }]])),
    null,
    2,
  );
}

/**
 * Points Droid at the scripted model: written before each run, since the URL's port changes. What
 * else the user settings hold (`init --host droid`'s sandbox) is kept.
 */
export function writeDroidModel(project: Project, modelUrl: string, modelId = 'scripted'): void {
  const factory = join(project.home, '.factory');
  mkdirSync(factory, { recursive: true });
  const path = join(factory, 'settings.json');
  let kept: Record<string, unknown> = {};
  try {
    kept = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // no settings yet
  }
  writeFileSync(
    path,
    JSON.stringify(
      {
        ...kept,
        customModels: [
          {
            model: modelId,
            displayName: DROID_MODEL,
            baseUrl: modelUrl,
            apiKey: 'sk-test-not-a-key',
            provider: 'generic-chat-completion-api',
            maxOutputTokens: 4096,
          },
        ],
        enableTelemetry: false,
      },
      null,
      2,
    ),
  );
}

export function makeDroidProject(opts: DroidProjectOptions = {}): DroidProject {
  const project = makeProject({ ...opts, registerInProject: false });
  const factory = join(project.home, '.factory');
  mkdirSync(factory, { recursive: true });
  writeFileSync(
    join(factory, 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        aeat: {
          type: 'stdio',
          command: process.execPath,
          args: [join(ROOT, 'test', 'e2e', 'support', 'mcp-server.mjs')],
          env: { E2E_MCP_LOG: project.mcpLog },
        },
      },
    }),
  );
  if (opts.hookCommand) {
    const dir = opts.hookScope === 'project' ? join(project.dir, '.factory') : factory;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'hooks.json'), droidHooksFile(opts.hookCommand, opts.hookEvents, opts.hookTimeout));
  }
  const stub = aeatStub(project.dir);
  return { ...project, aeatLog: stub.log, aeatRan: stub.ran, pathDirs: [stub.bin] };
}

export async function runDroid(
  project: DroidProject,
  modelUrl: string,
  opts: { env?: Record<string, string>; extraArgs?: string[]; timeoutMs?: number; prompt?: string; modelId?: string } = {},
): Promise<ConfinedRun> {
  writeDroidModel(project, modelUrl, opts.modelId);
  const port = Number(new URL(modelUrl).port);
  // Air-gapped: Droid talks to no Factory service (else it waits 5 s at exit for a cloud sync it cannot reach).
  const env = hostEnv(project, { NO_COLOR: '1', FACTORY_AIRGAP_ENABLED: 'true', ...opts.env });
  const args = [
    'exec',
    '--auto',
    'high',
    '-m',
    `custom:${DROID_MODEL}-0`,
    ...(opts.extraArgs ?? []),
    opts.prompt ?? 'Do the scripted task.',
  ];
  return runConfined(hostCli('droid'), args, { cwd: project.dir, env, forward: [port], timeoutMs: opts.timeoutMs ?? 120_000 });
}
