import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostCli } from '../../helpers/host-cli';
import { ROOT } from '../../helpers/policy';
import { runConfined, type ConfinedRun } from './loopback-only';
import { jsonLines, logLines } from '../../helpers/log-lines';

/**
 * A harness for the real OpenAI Codex CLI (`codex exec`): a temporary HOME with its own
 * CODEX_HOME, a project holding the policy, the stand-in MCP server registered as `aeat`, a
 * recording `aeat` program on the shell's PATH, and a custom model provider pointed at a scripted
 * Responses API model. Codex runs with no network but loopback (loopback-only.ts), the model's
 * port relayed into its namespace.
 */

export const HOOK = join(ROOT, 'dist', 'persona-gate.cjs');
const MCP_SERVER = join(ROOT, 'test', 'e2e', 'support', 'mcp-server.mjs');

export interface CodexProject {
  /** Programs the test puts on Codex's PATH (and, through ~/.bash_profile, on its shell's). */
  bin: string;
  /** The project directory: Codex's working root, trusted in config.toml. */
  dir: string;
  /** The temporary HOME; CODEX_HOME is `<home>/.codex`. */
  home: string;
  codexHome: string;
  stateDir: string;
  mcpLog: string;
  /** Every invocation of the `aeat` stub, one line of arguments each. */
  aeatLog: string;
  /** Every event the recording hook saw, one JSON line each (when the recording hook is registered). */
  hookLog: string;
  /** The command of the recording hook, to register by hand. */
  recordingHook: string;
  executed(): { tool: string; args: Record<string, unknown> }[];
  aeatRuns(): string[];
  hookEvents(): { event: any; env: Record<string, string | null>; cwd: string }[];
}

export interface CodexProjectOptions {
  policy?: unknown;
  /** Raw policy text, for a broken policy. */
  policyText?: string;
  /** Extra TOML appended to config.toml. */
  extraConfig?: string;
  /** The model slug Codex asks for (decides which tools Codex offers). */
  model?: string;
  /** Leave Codex's sandbox to the config (`init` writes it) instead of `sandbox_mode = "danger-full-access"`. */
  sandboxed?: boolean;
}

const toml = (s: string) => JSON.stringify(s);

/** A temporary Codex home and project. */
export function makeCodexProject(opts: CodexProjectOptions = {}): CodexProject {
  const root = mkdtempSync(join(tmpdir(), 'pg-codex-'));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  const stateDir = join(root, 'state');
  const bin = join(root, 'bin');
  for (const d of [join(dir, '.claude'), codexHome, bin]) mkdirSync(d, { recursive: true });
  const policy =
    opts.policyText ?? JSON.stringify(opts.policy ?? JSON.parse(readFileSync(join(ROOT, 'examples', 'tax-filing.json'), 'utf8')));
  writeFileSync(join(dir, '.claude', 'persona-gate.json'), policy);

  const mcpLog = join(root, 'mcp.log');
  const aeatLog = join(root, 'aeat.log');
  const hookLog = join(root, 'hook-events.jsonl');

  // The recording `aeat` program, on PATH through ~/.bash_profile: Codex runs its shell tool as
  // `bash -lc`, and the login shell's /etc/profile resets PATH.
  const aeat = join(bin, 'aeat');
  writeFileSync(aeat, `#!/bin/sh\nprintf '%s\\n' "$*" >> ${JSON.stringify(aeatLog)}\necho "aeat $*: ok"\n`);
  chmodSync(aeat, 0o755);
  writeFileSync(join(home, '.bash_profile'), `export PATH=${JSON.stringify(bin)}:"$PATH"\n`);

  // `persona-gate` on PATH, as an installed package puts it: the command `init --host codex` registers.
  const shim = join(bin, 'persona-gate');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(HOOK)} "$@"\n`);
  chmodSync(shim, 0o755);

  // A hook that records what it is given and decides nothing.
  const recorder = join(bin, 'record-hook.cjs');
  writeFileSync(
    recorder,
    [
      "const fs = require('node:fs');",
      'let raw = "";',
      "process.stdin.on('data', (d) => (raw += d));",
      "process.stdin.on('end', () => {",
      '  let event; try { event = JSON.parse(raw); } catch { event = { unparsed: raw }; }',
      "  const keys = ['CLAUDE_PROJECT_DIR', 'PERSONA_GATE_PERSONA', 'CODEX_HOME', 'HOME', 'PWD', 'CODEX_THREAD_ID', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED'];",
      '  const env = Object.fromEntries(keys.map((k) => [k, process.env[k] ?? null]));',
      '  const codexVars = Object.keys(process.env).filter((k) => k.startsWith("CODEX") || k.startsWith("CLAUDE"));',
      `  fs.appendFileSync(${JSON.stringify(hookLog)}, JSON.stringify({ event, env, codexVars, cwd: process.cwd() }) + '\\n');`,
      '});',
      '',
    ].join('\n'),
  );

  const config = [
    `model = ${toml(opts.model ?? 'gpt-5.5')}`,
    'model_provider = "scripted"',
    'approval_policy = "never"',
    ...(opts.sandboxed ? [] : ['sandbox_mode = "danger-full-access"']),
    'check_for_update_on_startup = false',
    '',
    // Codex would otherwise wait seconds at exit to send its analytics, which cannot leave the namespace.
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    // Codex would otherwise try to sync its curated plugins from the network at startup.
    'plugins = false',
    '',
    '[model_providers.scripted]',
    'name = "scripted"',
    'base_url = "MODEL_URL"',
    'wire_api = "responses"',
    'env_key = "SCRIPTED_MODEL_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    `[projects.${toml(dir)}]`,
    'trust_level = "trusted"',
    '',
    '[mcp_servers.aeat]',
    `command = ${toml(process.execPath)}`,
    `args = [${toml(MCP_SERVER)}]`,
    `env = { E2E_MCP_LOG = ${toml(mcpLog)} }`,
    // Codex starts the first turn without an optional server still starting (a loaded machine):
    // required, it waits for the server to answer, and fails the run if it never does.
    'required = true',
    'startup_timeout_sec = 60',
    '',
    opts.extraConfig ?? '',
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), config);

  return {
    bin,
    dir,
    home,
    codexHome,
    stateDir,
    mcpLog,
    aeatLog,
    hookLog,
    recordingHook: `node ${JSON.stringify(recorder)}`,
    executed: () => jsonLines(mcpLog),
    aeatRuns: () => logLines(aeatLog),
    hookEvents: () => jsonLines(hookLog),
  };
}

/** A hooks.json registering one command for the given events, every tool matched. */
export function hooksJson(command: string, events: string[] = ['PreToolUse', 'PostToolUse', 'SessionStart'], timeout = 20): HooksFile {
  return { hooks: Object.fromEntries(events.map((e) => [e, [{ matcher: '*', hooks: [{ type: 'command', command, timeout }] }]])) };
}

export interface HooksFile {
  hooks: Record<
    string,
    { matcher?: string; hooks: { type: string; command: string; timeout?: number; async?: boolean; statusMessage?: string }[] }[]
  >;
}

/** Events Codex fires with no tool or source to match: it drops their matcher, and so does the hash. */
const MATCHERLESS = new Set(['UserPromptSubmit', 'Stop']);
const snake = (event: string) => event.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toLowerCase();
const sortedKeys = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortedKeys)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortedKeys((v as Record<string, unknown>)[k])]),
        )
      : v;

/**
 * Codex runs a hook from hooks.json only once the user has trusted it: config.toml's
 * `[hooks.state."<hooks.json path>:<event in snake case>:<group index>:<handler index>"]` holds
 * `trusted_hash`, the sha256 of the handler's normalised identity — `{event_name, matcher (when
 * set, and not for UserPromptSubmit or Stop, which take none), hooks: [{type: "command", command,
 * timeout (600 when unset), async (false when unset), statusMessage (when set)}]}` — as JSON with
 * every object's keys sorted and no whitespace.
 * (Measured on Codex 0.171.0 against its own `hooks/list`.) Returns the TOML tables to append.
 */
export function codexTrustToml(hooksPath: string, file: HooksFile): string {
  const tables: string[] = [];
  for (const [event, groups] of Object.entries(file.hooks)) {
    groups.forEach((group, g) => {
      group.hooks.forEach((handler, h) => {
        const normalised: Record<string, unknown> = {
          type: 'command',
          command: handler.command,
          timeout: Math.max(1, handler.timeout ?? 600),
          async: handler.async ?? false,
        };
        if (handler.statusMessage !== undefined) normalised.statusMessage = handler.statusMessage;
        const identity: Record<string, unknown> = { event_name: snake(event), hooks: [normalised] };
        if (group.matcher !== undefined && !MATCHERLESS.has(event)) identity.matcher = group.matcher;
        const hash = `sha256:${createHash('sha256')
          .update(JSON.stringify(sortedKeys(identity)))
          .digest('hex')}`;
        tables.push(`[hooks.state.${toml(`${hooksPath}:${snake(event)}:${g}:${h}`)}]\ntrusted_hash = ${toml(hash)}\n`);
      });
    });
  }
  return tables.join('\n');
}

/** The environment persona-gate's own commands run in for this project: its HOME and CODEX_HOME. */
export function personaGateEnv(project: CodexProject): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('PERSONA_GATE_') && !k.startsWith('CODEX') && !k.startsWith('CLAUDE') && !k.startsWith('XDG_'))
      env[k] = v;
  return {
    ...env,
    HOME: project.home,
    CODEX_HOME: project.codexHome,
    PATH: `${project.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    PERSONA_GATE_STATE_DIR: project.stateDir,
  };
}

/**
 * Records the user's trust in every hook of the project's $CODEX_HOME/hooks.json, as Codex's own
 * review of a hook does (config.toml `[hooks.state]`), for a registration written by another hand.
 */
export function trustCodexHooks(project: CodexProject): void {
  const hooksPath = join(project.codexHome, 'hooks.json');
  const configPath = join(project.codexHome, 'config.toml');
  const file = JSON.parse(readFileSync(hooksPath, 'utf8')) as HooksFile;
  writeFileSync(configPath, `${readFileSync(configPath, 'utf8')}\n${codexTrustToml(hooksPath, file)}`);
}

/** Runs `codex exec` headless in the project against the scripted model, confined to loopback. */
export async function runCodex(
  project: CodexProject,
  modelUrl: string,
  opts: { env?: Record<string, string>; extraArgs?: string[]; timeoutMs?: number; prompt?: string } = {},
): Promise<ConfinedRun> {
  const url = new URL(modelUrl);
  const configPath = join(project.codexHome, 'config.toml');
  writeFileSync(configPath, readFileSync(configPath, 'utf8').replace(/base_url = "[^"]*"/, `base_url = ${toml(modelUrl)}`));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !k.startsWith('PERSONA_GATE_') &&
      !k.startsWith('CODEX') &&
      !k.startsWith('OPENAI') &&
      !k.startsWith('CLAUDE') &&
      !k.startsWith('XDG_')
    )
      env[k] = v;
  }
  Object.assign(env, {
    HOME: project.home,
    CODEX_HOME: project.codexHome,
    SCRIPTED_MODEL_KEY: 'sk-test-not-a-key',
    PERSONA_GATE_STATE_DIR: project.stateDir,
    PATH: `${project.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    RUST_LOG: 'warn',
    NO_COLOR: '1',
    ...opts.env,
  });
  const codexArgs = [
    'exec',
    '--skip-git-repo-check',
    '--color',
    'never',
    '--json',
    '-C',
    project.dir,
    ...(opts.extraArgs ?? []),
    opts.prompt ?? 'Do the scripted task.',
  ];
  return runConfined(hostCli('codex'), codexArgs, {
    cwd: project.dir,
    env,
    forward: [Number(url.port)],
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
}
