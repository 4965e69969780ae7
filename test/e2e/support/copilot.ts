import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostCli, testCacheRoot } from '../../helpers/host-cli';
import { ROOT } from '../../helpers/policy';
import { runConfined, type ConfinedRun } from './loopback-only';
import { makeProject, type Project, type ProjectOptions } from './project';
import { aeatStub } from './host-stubs';

/**
 * The GitHub Copilot CLI, headless (`copilot -p … --allow-all-tools`), in offline mode against the
 * scripted Chat Completions model, with no network but loopback. Its configuration lives in the
 * temporary HOME: `~/.copilot/hooks/<file>.json` for the hooks (or `.github/hooks/` in the
 * project), `~/.copilot/mcp-config.json` for the stand-in `aeat` MCP server.
 */

export const COPILOT_EVENTS = ['PreToolUse', 'PostToolUse', 'SessionStart'] as const;

export interface CopilotProjectOptions extends Omit<ProjectOptions, 'hookCommand' | 'registerInProject' | 'viaPlugin' | 'agents'> {
  /** A hook command to register by hand (PascalCase events, Claude-style entries); omit to register nothing (`init --host copilot` does it). */
  hookCommand?: string;
  /** Where the hand registration goes: the user's ~/.copilot/hooks (default) or the project's .github/hooks. */
  hookScope?: 'user' | 'project';
  /** The events the hand registration covers (default: PreToolUse, PostToolUse, SessionStart). */
  hookEvents?: readonly string[];
  /** The hook entry's timeout, in seconds. */
  hookTimeout?: number;
  /** Record the project as trusted in ~/.copilot/config.json (as accepting Copilot's trust prompt does): Copilot reads a project's hooks only then. */
  trustFolder?: boolean;
}

export interface CopilotProject extends Project {
  aeatLog: string;
  aeatRan(): string[];
  pathDirs: string[];
}

export function copilotHooksFile(command: string, events: readonly string[] = COPILOT_EVENTS, timeout = 20): string {
  const entry = [{ matcher: '*', hooks: [{ type: 'command', command, timeout }] }];
  return JSON.stringify(
    { version: 1, hooks: Object.fromEntries(events.map((e) => [e, e === 'SessionStart' ? [{ hooks: entry[0]!.hooks }] : entry])) },
    null,
    2,
  );
}

export function makeCopilotProject(opts: CopilotProjectOptions = {}): CopilotProject {
  const project = makeProject({ ...opts, registerInProject: false });
  const copilotHome = join(project.home, '.copilot');
  mkdirSync(join(copilotHome, 'hooks'), { recursive: true });
  writeFileSync(
    join(copilotHome, 'mcp-config.json'),
    JSON.stringify({
      mcpServers: {
        aeat: {
          type: 'local',
          command: process.execPath,
          args: [join(ROOT, 'test', 'e2e', 'support', 'mcp-server.mjs')],
          env: { E2E_MCP_LOG: project.mcpLog },
          tools: ['*'],
        },
      },
    }),
  );
  if (opts.hookCommand) {
    const dir = opts.hookScope === 'project' ? join(project.dir, '.github', 'hooks') : join(copilotHome, 'hooks');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'e2e.json'), copilotHooksFile(opts.hookCommand, opts.hookEvents, opts.hookTimeout));
  }
  if (opts.trustFolder) writeFileSync(join(copilotHome, 'config.json'), JSON.stringify({ trustedFolders: [project.dir] }));
  const stub = aeatStub(project.dir);
  return { ...project, aeatLog: stub.log, aeatRan: stub.ran, pathDirs: [stub.bin] };
}

/** The environment Copilot runs in: nothing of this process's persona-gate, Claude or Copilot settings, HOME the project's. */
export function hostEnv(project: Project & { pathDirs: string[] }, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(PERSONA_GATE_|CLAUDE|ANTHROPIC|COPILOT_|GH_|GITHUB_|FACTORY|DROID|OPENAI)/.test(k)) continue;
    env[k] = v;
  }
  env.HOME = project.home;
  env.PATH = [...project.pathDirs, env.PATH ?? '/usr/bin:/bin'].join(':');
  env.PERSONA_GATE_STATE_DIR = project.stateDir;
  env.XDG_CONFIG_HOME = join(project.home, '.config');
  env.XDG_STATE_HOME = join(project.home, '.local', 'state');
  env.XDG_CACHE_HOME = join(project.home, '.cache');
  return Object.assign(env, extra);
}

export async function runCopilot(
  project: CopilotProject,
  modelUrl: string,
  opts: { env?: Record<string, string>; extraArgs?: string[]; timeoutMs?: number; prompt?: string } = {},
): Promise<ConfinedRun> {
  const port = Number(new URL(modelUrl).port);
  const env = hostEnv(project, {
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: modelUrl,
    COPILOT_PROVIDER_API_KEY: 'sk-test-not-a-key',
    COPILOT_MODEL: 'gpt-4.1',
    COPILOT_AUTO_UPDATE: 'false',
    NO_COLOR: '1',
    // Copilot unpacks its 235 MB runtime under $XDG_CACHE_HOME/copilot on first start: once for all tests.
    XDG_CACHE_HOME: join(testCacheRoot(), 'copilot-xdg-cache'),
    ...opts.env,
  });
  const args = [
    '-p',
    opts.prompt ?? 'Do the scripted task.',
    '--allow-all-tools',
    '--no-auto-update',
    '--no-ask-user',
    '--disable-builtin-mcps',
    ...(opts.extraArgs ?? []),
  ];
  return runConfined(hostCli('copilot'), args, { cwd: project.dir, env, forward: [port], timeoutMs: opts.timeoutMs ?? 120_000 });
}
