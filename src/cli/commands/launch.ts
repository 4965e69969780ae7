import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import type { Env } from '../../core/decide';
import type { HostName } from '../../hosts/host';
import { quoteWord } from '../../hosts/translate';
import { CliError, type CommandResult } from '../errors';
import { cliMessages, type CliMessages } from '../messages';
import { policyForCli } from '../context';
import { launchSettingsPath } from './hardened';
import { hostOption } from './hosts';
import { agentDefinitions, toolDrift } from './agents';
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

/**
 * The hosts `launch` can start, and what each offers for narrowing the tools its model is offered.
 * Only Claude Code's flags are measured on its pinned version; for another host launch refuses,
 * saying what it lacks, rather than start it with every tool offered as if narrowed.
 */
const LAUNCHABLE: Partial<Record<HostName, { program: string }>> = {
  'claude-code': { program: 'claude' },
};

/** Claude Code: the persona in the hook's environment, and its out-of-scope tools off the model's list. */
export function launchPlan(env: Env, opts: LaunchOptions, hostArgs: readonly string[], t: CliMessages): LaunchPlan {
  const host = hostOption(opts.host, t);
  if (LAUNCHABLE[host] === undefined) throw new CliError(t.launchHostUnsupported(host));
  if (opts.persona === undefined) throw new CliError(t.launchNoPersona());
  const index = policyForCli(env, opts.config);
  const persona = index.persona(opts.persona);
  if (!persona) throw new CliError(t.launchUnknownPersona(opts.persona, index.personaNames()));
  if (opts.stage !== undefined && !persona.stages.some((s) => s.name === opts.stage)) {
    throw new CliError(t.launchUnknownStage(opts.persona, opts.stage, persona.stages.map((s) => s.name)));
  }
  const locked = lockTools(index.path);
  const surface = toolSurface(index, opts.persona, opts.stage, env, locked);
  const delegates = delegateClosure(index, opts.persona).map((d) => toolSurface(index, d, undefined, env, locked));
  const hidden = sessionHidden(surface, delegates, locked);
  // `--tools` sets the built-in tools of the session and of every subagent it launches: what the
  // persona or a delegate may use. It also drops the host's tools no catalog knows (refused under a persona).
  const builtins = [...new Set([surface, ...delegates].flatMap((s) => s.builtinsOffered))];
  const args = ['--tools', builtins.join(','), ...(hidden.builtins.length + hidden.tools.length > 0 ? ['--disallowedTools', [...hidden.builtins, ...hidden.tools].join(',')] : [])];
  if (opts.asAgent) {
    const agentType = persona.agent_types?.[0];
    if (agentType === undefined) throw new CliError(t.launchNoAgentType(opts.persona));
    const def = agentDefinitions(index, env, resolve(opts.dir ?? process.cwd())).find((d) => d.agentType === agentType)!;
    if (def.current === null) throw new CliError(t.launchNoDefinition(def.path, opts.persona));
    if (toolDrift(def) !== null) throw new CliError(t.launchDefinitionDrift(def.path, opts.persona));
    args.push('--agent', agentType);
  }
  const settings = launchSettingsPath(env);
  if (existsSync(settings)) args.push('--settings', settings);
  const vars: Record<string, string> = { [index.settings.persona_env]: opts.persona };
  if (opts.stage !== undefined) vars[index.settings.stage_env] = opts.stage;
  if (opts.config !== undefined) vars.PERSONA_GATE_CONFIG = resolve(opts.config);
  return { program: opts.program ?? LAUNCHABLE[host]!.program, args: [...args, ...hostArgs], env: vars };
}

export function printedPlan(plan: LaunchPlan): string {
  return [...Object.entries(plan.env).map(([k, v]) => `${k}=${quoteWord(v)}`), quoteWord(plan.program), ...plan.args.map(quoteWord)].join(' ');
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
      const number = signal ? constants.signals[signal] ?? 0 : 0;
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
