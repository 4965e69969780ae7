import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../helpers/policy';
import { hostCli } from '../../helpers/host-cli';
import { runConfined, type ConfinedRun } from './loopback-only';
import { jsonLines } from '../../helpers/log-lines';

export const HOOK = join(ROOT, 'dist', 'persona-gate.cjs');

export interface Project {
  dir: string;
  home: string;
  stateDir: string;
  mcpLog: string;
  mcpConfig: string;
  executed(): { tool: string; args: Record<string, unknown> }[];
}

export interface ProjectOptions {
  policy?: unknown;
  /** Raw policy text, for a broken policy. */
  policyText?: string;
  agents?: Record<string, { description: string; prompt: string; tools?: string[] }>;
  /** The hook command; defaults to the built bundle. */
  hookCommand?: string;
  /** Register the hooks through the plugin in hooks/ instead of settings.json. */
  viaPlugin?: boolean;
  /** false: write no project-level registration (the test registers the hook elsewhere). */
  registerInProject?: boolean;
}

function hookEntry(command: string) {
  return [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 20, onFailure: 'block' }] }];
}

/** A temporary project: the policy, the hook registration, subagents, and the stand-in MCP server. */
export function makeProject(opts: ProjectOptions = {}): Project {
  const dir = mkdtempSync(join(tmpdir(), 'pg-e2e-'));
  const home = join(dir, 'home');
  const stateDir = join(dir, 'state');
  mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
  mkdirSync(home);
  const policy =
    opts.policyText ?? JSON.stringify(opts.policy ?? JSON.parse(readFileSync(join(ROOT, 'examples', 'tax-filing.json'), 'utf8')));
  writeFileSync(join(dir, '.claude', 'persona-gate.json'), policy);
  const command = opts.hookCommand ?? `node ${JSON.stringify(HOOK)} hook`;
  if (!opts.viaPlugin && opts.registerInProject !== false) {
    writeFileSync(
      join(dir, '.claude', 'settings.json'),
      JSON.stringify(
        {
          hooks: {
            PreToolUse: hookEntry(command),
            PostToolUse: hookEntry(command),
            SessionStart: [{ hooks: hookEntry(command)[0]!.hooks }],
          },
        },
        null,
        2,
      ),
    );
  }
  for (const [name, agent] of Object.entries(opts.agents ?? {})) {
    const tools = agent.tools ? `tools: ${agent.tools.join(', ')}\n` : '';
    writeFileSync(
      join(dir, '.claude', 'agents', `${name}.md`),
      `---\nname: ${name}\ndescription: ${agent.description}\n${tools}---\n${agent.prompt}\n`,
    );
  }
  const mcpLog = join(dir, 'mcp.log');
  const mcpConfig = join(dir, 'mcp.json');
  writeFileSync(
    mcpConfig,
    JSON.stringify({
      mcpServers: {
        aeat: {
          type: 'stdio',
          command: process.execPath,
          args: [join(ROOT, 'test', 'e2e', 'support', 'mcp-server.mjs')],
          env: { E2E_MCP_LOG: mcpLog },
        },
      },
    }),
  );
  return {
    dir,
    home,
    stateDir,
    mcpLog,
    mcpConfig,
    executed: () => jsonLines(mcpLog),
  };
}

/** The environment the real Claude Code runs in: the project's home, the scripted model, nothing of the caller's persona-gate, Claude or Anthropic settings. */
export function claudeEnv(project: Project, modelUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('PERSONA_GATE_') && !k.startsWith('CLAUDE') && !k.startsWith('ANTHROPIC')) env[k] = v;
  return Object.assign(env, {
    HOME: project.home,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    PERSONA_GATE_STATE_DIR: project.stateDir,
    ...extra,
  });
}

/** The arguments of a non-interactive Claude Code run against the scripted model, with the project's MCP servers only. */
export function claudeArgs(
  project: Project,
  allowedTools: string[] = ['mcp__aeat__*', 'Bash', 'Read', 'Write', 'Edit', 'Agent', 'Task'],
): string[] {
  return [
    '-p',
    'Do the scripted task.',
    '--mcp-config',
    project.mcpConfig,
    '--strict-mcp-config',
    '--output-format',
    'json',
    '--model',
    'claude-sonnet-4-5',
    '--allowedTools',
    allowedTools.join(','),
  ];
}

/** Runs the real Claude Code CLI, non-interactively, against the scripted model, confined to loopback (loopback-only.ts). */
export function runClaude(
  project: Project,
  modelUrl: string,
  opts: { env?: Record<string, string>; allowedTools?: string[]; extraArgs?: string[]; timeoutMs?: number } = {},
): Promise<ConfinedRun> {
  const env = claudeEnv(project, modelUrl, opts.env);
  const args = [...claudeArgs(project, opts.allowedTools), ...(opts.extraArgs ?? [])];
  return runConfined(hostCli('claude-code'), args, {
    cwd: project.dir,
    env,
    forward: [Number(new URL(modelUrl).port)],
    timeoutMs: opts.timeoutMs ?? 90_000,
  });
}
