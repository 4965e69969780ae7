import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import type { HostName } from '../../hosts/host';
import { quoteWord, type HostEventShape } from '../../hosts/translate';
import { SHAPE as COPILOT_SHAPE } from '../../hosts/copilot';
import { SHAPE as DROID_SHAPE } from '../../hosts/droid';
import { SHAPE as QWEN_SHAPE } from '../../hosts/qwen';
import { SHAPE as GEMINI_SHAPE } from '../../hosts/gemini';
import { sha256Hex } from '../../io/hash';
import { globToRegExp, type MemoryPolicyIndex } from '../../core/policy-index';
import { CliError, type CommandResult } from '../errors';
import { cliMessages, type CliMessages } from '../messages';
import { policyForCli, stateDirFor } from '../context';
import { launchSettingsPath } from './hardened';
import { hostOption } from './hosts';
import { agentDefinitions, projectOf, toolDrift } from './agents';
import { delegateClosure, lockTools, sessionHidden, toolSurface } from './surface';

export interface LaunchOptions {
  persona?: string;
  stage?: string;
  host?: string;
  print?: boolean;
  config?: string;
  program?: string;
  asAgent?: boolean;
  dir?: string;
}

/** What persona-gate starts: the program, its arguments, and the variables it adds to the environment. */
export interface LaunchPlan {
  program: string;
  args: string[];
  env: Record<string, string>;
}

/** The tools a launched session may be offered (the persona's and its delegates'), and those it may never use. */
export interface Narrowing {
  /** Built-in tools (Claude Code's names) the persona or a delegate may use. */
  builtins: string[];
  /** MCP tool names and family globs (`mcp__server__*`) the persona or a delegate may use. */
  tools: string[];
  /** What no one in the session may use: built-in tools, and MCP tool names or globs. */
  hidden: { builtins: string[]; tools: string[] };
  /** The MCP lock's tools, to expand a glob with where a host takes exact names only. */
  locked: string[];
}

interface HostLauncher {
  program: string;
  /** The host's arguments that narrow the session (placed before the user's), or a refusal. */
  narrow(
    n: Narrowing,
    ctx: { hostArgs: readonly string[]; t: CliMessages; program: string; env: Env; persona: string },
  ): { before: string[]; after?: string[] };
  /** Whether the launch settings file applies (Claude Code's `--settings`). */
  settings: boolean;
}

/** `mcp__server__tool` → [server, tool]; null for another name. */
function mcpParts(name: string): [string, string] | null {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? [m[1]!, m[2]!] : null;
}

/** The host's own names for Claude Code's tools, from its adapter's table; a name the table does not map is the host's too. */
function hostNames(shape: HostEventShape, claudeTools: readonly string[]): string[] {
  const names = claudeTools.flatMap((tool) => [
    tool,
    ...Object.entries(shape.tools)
      .filter(([, m]) => m.tool === tool)
      .map(([name]) => name),
  ]);
  return [...new Set(names)];
}

/** A glob a host cannot take: the lock's tools it matches, by name. */
function expandGlobs(tools: readonly string[], locked: readonly string[]): string[] {
  return [...new Set(tools.flatMap((t) => (t.includes('*') ? locked.filter((l) => globToRegExp(t).test(l)) : [t])))];
}

/**
 * The hosts `launch` can start, and how each narrows the tools its model is offered (each measured
 * on its pinned version by test/e2e/tool-surface.test.ts). Every one applies its list to the
 * subagents a session starts too, so the list keeps what a delegate's persona may use.
 */
const LAUNCHERS: Partial<Record<HostName, HostLauncher>> = {
  // Claude Code 2.1.332: `--tools` sets the built-in tools (and drops those no catalog knows);
  // `--disallowedTools` takes the rest off, MCP tools deferred behind ToolSearch included, globs too.
  'claude-code': {
    program: 'claude',
    settings: true,
    narrow: (n) => {
      const off = [...n.hidden.builtins, ...n.hidden.tools];
      return { before: ['--tools', n.builtins.join(','), ...(off.length > 0 ? ['--disallowedTools', off.join(',')] : [])] };
    },
  },
  // Copilot CLI 1.0.102: `--available-tools` is the whole list the model sees, its own tools by
  // their names (bash, view, …) and an MCP tool as `server-tool`; exact names only.
  copilot: {
    program: 'copilot',
    settings: false,
    narrow: (n) => {
      const mcp = expandGlobs(n.tools, n.locked).flatMap((t) => {
        const parts = mcpParts(t);
        return parts ? [`${parts[0]}-${parts[1]}`] : [];
      });
      const names = [...hostNames(COPILOT_SHAPE, n.builtins), ...mcp];
      return { before: [`--available-tools=${names.length > 0 ? names.join(',') : 'none'}`] };
    },
  },
  // Gemini CLI 0.61.0: no flag takes a tool off, but a deny rule of a policy file given with
  // `--policy` does: its own tools by name, an MCP tool by `mcpName` and `toolName` (measured; the
  // `mcp_server_tool` spelling works as well, `server__tool` does not). The file is written into
  // persona-gate's private state directory, named by its content.
  gemini: {
    program: 'gemini',
    settings: false,
    narrow: (n, ctx) => {
      const rules: string[] = [];
      const rule = (fields: Record<string, string>) =>
        rules.push(
          [
            '[[rule]]',
            ...Object.entries(fields).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
            'decision = "deny"',
            'priority = 900',
            '',
          ].join('\n'),
        );
      for (const name of hostNames(GEMINI_SHAPE, n.hidden.builtins).filter((name) => Object.hasOwn(GEMINI_SHAPE.tools, name)))
        rule({ toolName: name });
      for (const tool of n.hidden.tools) {
        const server = /^mcp__(.+?)__\*$/.exec(tool);
        if (server) {
          rule({ mcpName: server[1]! });
          continue;
        }
        for (const parts of expandGlobs([tool], n.locked).map(mcpParts)) if (parts) rule({ mcpName: parts[0], toolName: parts[1] });
      }
      if (rules.length === 0) return { before: [] };
      const text = `# persona-gate launch: what the ${ctx.persona} persona may never use\n\n${rules.join('\n')}`;
      const dir = join(stateDirFor(ctx.env), 'launch');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `gemini-${sha256Hex(Buffer.from(text)).slice(0, 16)}.toml`);
      if (!existsSync(file)) writeFileSync(file, text, { mode: 0o600 });
      return { before: ['--policy', file] };
    },
  },
  // Qwen Code 0.24.4: `--core-tools` is the list of its core tools the model sees (run_shell_command,
  // write_file, …); its other tools (agent, skill, tool_search, …) stay. It has no flag that takes an
  // MCP tool off: those stay offered (behind tool_search), and the hook still refuses them.
  qwen: {
    program: 'qwen',
    settings: false,
    narrow: (n) => {
      const names = hostNames(QWEN_SHAPE, n.builtins).filter((name) => Object.hasOwn(QWEN_SHAPE.tools, name));
      return { before: [`--core-tools=${names.length > 0 ? names.join(',') : 'none'}`] };
    },
  },
  // Droid 0.225.2 (`droid exec`): `--only-tools` takes its tool ids and `MCP:server/tool` selectors,
  // and refuses the whole run for one it does not have; so Droid is asked first what it has
  // (`droid exec --list-tools --output-format json`, for the model the run names).
  droid: {
    program: 'droid',
    settings: false,
    narrow: (n, ctx) => {
      if (ctx.hostArgs[0] !== 'exec') throw new CliError(ctx.t.launchDroidExec());
      const names = droidTools(ctx).flatMap((llmId) => {
        const mcp = DROID_SHAPE.mcpName?.(llmId, {}) ?? null;
        if (mcp !== null) return reached(mcp, n.tools) ? selector(mcp) : [];
        const claude = DROID_SHAPE.tools[llmId]?.tool ?? llmId;
        return n.builtins.includes(claude) ? [llmId] : [];
      });
      return { before: [], after: ['--only-tools', names.length > 0 ? names.join(',') : 'none'] };
    },
  },
};

/** Whether a tool name is one of `names`, or matched by a glob among them. */
function reached(tool: string, names: readonly string[]): boolean {
  return names.some((n) => n === tool || (n.includes('*') && globToRegExp(n).test(tool)));
}

/** The tools Droid would offer this run's model, by the names the model sees. */
function droidTools(ctx: { hostArgs: readonly string[]; t: CliMessages; program: string; env: Env }): string[] {
  const model: string[] = [];
  ctx.hostArgs.forEach((arg, i) => {
    if ((arg === '-m' || arg === '--model') && ctx.hostArgs[i + 1] !== undefined) model.push(arg, ctx.hostArgs[i + 1]!);
    else if (arg.startsWith('--model=')) model.push(arg);
  });
  const r = spawnSync(ctx.program, ['exec', '--list-tools', '--output-format', 'json', ...model], {
    env: { ...ctx.env },
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const failed = (detail: string): never => {
    throw new CliError(
      ctx.t.launchCannotList(ctx.program, detail),
      r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 127 : 1,
    );
  };
  if (r.error) failed((r.error as NodeJS.ErrnoException).code === 'ENOENT' ? ctx.t.launchNotFound() : r.error.message);
  if (r.status !== 0) failed((r.stderr || r.stdout).trim() || `exit ${r.status}`);
  try {
    const listed: unknown = JSON.parse(r.stdout);
    if (!Array.isArray(listed)) return failed('not a JSON array');
    return listed.flatMap((t) => (typeof t?.llmId === 'string' ? [t.llmId as string] : []));
  } catch (err) {
    return failed((err as Error).message);
  }
}

function selector(tool: string): string[] {
  const parts = mcpParts(tool);
  return parts ? [`MCP:${encodeURIComponent(parts[0])}/${encodeURIComponent(parts[1])}`] : [];
}

/** The variables the host (and so its hook) gets: the persona, the stage, the policy named on the command line. */
function vars(index: MemoryPolicyIndex, opts: LaunchOptions): Record<string, string> {
  const out: Record<string, string> = { [index.settings.persona_env]: opts.persona! };
  if (opts.stage !== undefined) out[index.settings.stage_env] = opts.stage;
  if (opts.config !== undefined) out.PERSONA_GATE_CONFIG = resolve(opts.config);
  return out;
}

/** The persona in the hook's environment, and its out-of-scope tools off what the host's model is offered. */
export function launchPlan(env: Env, opts: LaunchOptions, hostArgs: readonly string[], t: CliMessages): LaunchPlan {
  const host = hostOption(opts.host, t);
  const launcher = LAUNCHERS[host];
  if (launcher === undefined) throw new CliError(t.launchHostUnsupported(host));
  if (opts.persona === undefined) throw new CliError(t.launchNoPersona());
  const index = policyForCli(env, opts.config);
  const persona = index.persona(opts.persona);
  if (!persona) throw new CliError(t.launchUnknownPersona(opts.persona, index.personaNames()));
  if (opts.stage !== undefined && !persona.stages.some((s) => s.name === opts.stage)) {
    throw new CliError(
      t.launchUnknownStage(
        opts.persona,
        opts.stage,
        persona.stages.map((s) => s.name),
      ),
    );
  }
  if (opts.asAgent && host !== 'claude-code') throw new CliError(t.launchAsAgentClaudeOnly());
  const locked = lockTools(index.path);
  const surface = toolSurface(index, opts.persona, opts.stage, env, locked);
  const delegates = delegateClosure(index, opts.persona).map((d) => toolSurface(index, d, undefined, env, locked));
  const everyone = [surface, ...delegates];
  const narrowing: Narrowing = {
    builtins: [...new Set(everyone.flatMap((s) => s.builtinsOffered))],
    tools: [...new Set(everyone.flatMap((s) => s.mcpOffered))].sort(),
    hidden: sessionHidden(surface, delegates, locked),
    locked,
  };
  const program = opts.program ?? launcher.program;
  const narrowed = launcher.narrow(narrowing, { hostArgs, t, program, env: { ...env, ...vars(index, opts) }, persona: opts.persona });
  const args = [...narrowed.before];
  if (opts.asAgent) {
    const agentType = persona.agent_types?.[0];
    if (agentType === undefined) throw new CliError(t.launchNoAgentType(opts.persona));
    const def = agentDefinitions(index, env, resolve(opts.dir ?? projectOf(index.path))).find((d) => d.agentType === agentType)!;
    if (def.current === null) throw new CliError(t.launchNoDefinition(def.path, opts.persona));
    if (toolDrift(def) !== null) throw new CliError(t.launchDefinitionDrift(def.path, opts.persona));
    args.push('--agent', agentType);
  }
  const settings = launchSettingsPath(env);
  if (launcher.settings && existsSync(settings)) args.push('--settings', settings);
  const all = narrowed.after ? [hostArgs[0]!, ...narrowed.after, ...args, ...hostArgs.slice(1)] : [...args, ...hostArgs];
  return { program, args: all, env: vars(index, opts) };
}

export function printedPlan(plan: LaunchPlan): string {
  return [...Object.entries(plan.env).map(([k, v]) => `${k}=${quoteWord(v)}`), quoteWord(plan.program), ...plan.args.map(quoteWord)].join(
    ' ',
  );
}

const FORWARDED: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGINT'];

/**
 * Runs the plan with this process's stdin, stdout and stderr, and ends with its exit code (128 + the
 * signal's number when a signal ended it). Signals sent to persona-gate go on to the host; an
 * interrupt typed at a terminal already reaches the host's whole process group, so it is not sent twice.
 */
function run(plan: LaunchPlan, env: Env, t: CliMessages): Promise<CommandResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(plan.program, plan.args, { stdio: 'inherit', env: { ...env, ...plan.env } });
    const handlers = FORWARDED.map((signal) => {
      const handler = () => {
        if (signal === 'SIGINT' && process.stdin.isTTY) return;
        child.kill(signal);
      };
      process.on(signal, handler);
      return [signal, handler] as const;
    });
    const done = () => handlers.forEach(([signal, handler]) => process.off(signal, handler));
    child.on('error', (err: NodeJS.ErrnoException) => {
      done();
      reject(new CliError(t.launchCannotStart(plan.program, err.code === 'ENOENT' ? t.launchNotFound() : err.message), 127));
    });
    child.on('exit', (code, signal) => {
      done();
      const number = signal ? (constants.signals[signal] ?? 0) : 0;
      resolvePromise({ stdout: '', exitCode: code ?? 128 + number });
    });
  });
}

export function launchCommand(env: Env, opts: LaunchOptions, hostArgs: readonly string[]): CommandResult | Promise<CommandResult> {
  const t = cliMessages(env);
  const plan = launchPlan(env, opts, hostArgs, t);
  if (opts.print) return { stdout: `${printedPlan(plan)}\n`, exitCode: 0 };
  return run(plan, env, t);
}
