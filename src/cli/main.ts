import { Command, CommanderError, Help } from 'commander';
import type { Env } from '../core/decide';
import { CliError, type CommandResult } from './errors';
import { explainCommand } from './commands/explain';
import { listCommand } from './commands/list';
import { validateCommand } from './commands/validate';
import { schemaCommand } from './commands/schema';
import { programsCommand } from './commands/programs';
import { agentsCommand } from './commands/agents';
import { launchCommand } from './commands/launch';
import { sessionPersona, sessionReset, sessionShow } from './commands/session';
import { stageEnter, stageExit } from './commands/stage';
import { followLog, logCommand } from './commands/log';
import { StateError } from '../io/state-store';
import { configCommand } from './commands/config';
import { initCommand } from './commands/init';
import { doctorCommand } from './commands/doctor';
import { testCommand } from './commands/test';
import { replayCommand } from './commands/replay';
import { pinCommand } from './commands/pin';
import { statusCommand, statuslineCommand, uninstallCommand } from './commands/status';
import { resolveSession } from './sessions';
import { stateDirFor } from './context';
import { readFileSync } from 'node:fs';
import { HELP_MESSAGES, type HelpMessages } from './help-messages';
import { cliLocale, cliMessages } from './messages';
import { doctorHost, hostOption, initHost, uninstallHost } from './commands/hosts';
import { viewFor } from './decision-view';

/** For scripts/demo.mjs: the decisions as `log` shows them. */
export { renderDecisions, viewFor } from './decision-view';
export { cliMessages } from './messages';

const VERSION = '0.1.0';

/** Help text and usage errors in the reader's language; set on the program before any subcommand, which inherits it. */
function localize(program: Command, h: HelpMessages): Command {
  const replaceTokens = (text: string) => text.replace(/\[(?:options|command)\]/g, (token) => h.usageTokens[token] ?? token);
  const defaultHelp = new Help();
  program
    .helpOption('-h, --help', h.helpOption)
    .helpCommand(`help [${h.helpCommandArg}]`, h.helpCommand)
    .version(VERSION, '-V, --version', h.versionOption)
    .configureHelp({
      styleTitle: (title) => h.headings[title] ?? title,
      commandUsage: (cmd) => replaceTokens(defaultHelp.commandUsage(cmd)),
      subcommandTerm: (cmd) => replaceTokens(defaultHelp.subcommandTerm(cmd)),
      optionDescription: (option) => defaultHelp.optionDescription(option).replace(/\(default: /, `(${h.defaultLabel}: `),
    })
    .configureOutput({
      outputError: (text, write) => write(h.usageError ? h.usageError(text.replace(/\n$/, '')) + '\n' : text),
    });
  return program;
}

export function buildProgram(
  env: Env,
  done: (result: CommandResult | Promise<CommandResult>) => void,
  progress?: (text: string) => void,
): Command {
  const h = HELP_MESSAGES[cliLocale(env)];
  const c = h.commands;
  const o = h.options;
  const p = h.placeholders;
  const program = localize(new Command('persona-gate'), h).description(h.program).exitOverride().showHelpAfterError();
  /** A `--session` value: the session itself, or a unique prefix of one (as `log` shows it). */
  const session = (id: string, mustExist: boolean) => resolveSession(env, stateDirFor(env), id, mustExist);

  program
    .command('hook')
    .description(c.hook)
    .option(`--config <${p.path}>`, o.config)
    .option('--confirm-on <pre|post>', o.confirmOn)
    .option(`--allowed-tools <${p.list}>`, o.allowedTools)
    .option(`--side-effect-level <${p.level}>`, o.sideEffectLevel);

  program
    .command('explain')
    .description(c.explain)
    .argument(`[${p.tool}]`, h.args.tool)
    .argument(`[${p.inputJson}]`, h.args.inputJson)
    .option(`--config <${p.path}>`, o.config)
    .option(`--persona <${p.name}>`, o.persona)
    .option(`--stage <${p.name}>`, o.stage)
    .option(`--session <${p.id}>`, o.sessionReadOnly)
    .option(`--event <${p.file}>`, o.event)
    .option('--confirm-on <pre|post>', o.confirmOn)
    .option(`--allowed-tools <${p.list}>`, o.allowedTools)
    .option(`--side-effect-level <${p.level}>`, o.sideEffectLevel)
    .option('--json', o.explainJson)
    .action((tool, inputJson, opts) => done(explainCommand(env, opts, tool, inputJson)));

  program
    .command('list')
    .description(c.list)
    .option(`--persona <${p.name}>`, o.listPersona)
    .option(`--stage <${p.name}>`, o.listStage)
    .option(`--config <${p.path}>`, o.config)
    .option(`--format <${p.format}>`, o.format, 'text')
    .action((opts) => done(listCommand(env, opts)));

  program
    .command('validate')
    .description(c.validate)
    .option(`--config <${p.path}>`, o.config)
    .option('--json', o.validateJson)
    .action((opts) => done(validateCommand(env, opts)));

  program
    .command('programs')
    .description(c.programs)
    .argument(`[${p.name}]`, h.args.program)
    .option(`--config <${p.path}>`, o.config)
    .option('--json', o.programsJson)
    .action((name: string | undefined, opts) => done(programsCommand(env, opts, name)));

  program
    .command('agents')
    .description(c.agents)
    .option(`--config <${p.path}>`, o.config)
    .option(`--dir <${p.dir}>`, o.agentsDir)
    .option('--check', o.agentsCheck)
    .action((opts) => done(agentsCommand(env, opts)));

  program
    .command('launch')
    .description(c.launch)
    .argument(`[${p.args}...]`, h.args.hostArgs)
    .option(`--persona <${p.name}>`, o.launchPersona)
    .option(`--stage <${p.name}>`, o.launchStage)
    .option(`--host <${p.host}>`, o.launchHost)
    .option('--print', o.launchPrint)
    .option('--as-agent', o.launchAsAgent)
    .option(`--program <${p.path}>`, o.launchProgram)
    .option(`--config <${p.path}>`, o.config)
    .option(`--dir <${p.dir}>`, o.agentsDir)
    .action((hostArgs: string[], opts) => done(launchCommand(env, opts, hostArgs)));

  program
    .command('schema')
    .description(c.schema)
    .option('--test', o.schemaTest)
    .action((opts) => done(schemaCommand(opts)));

  program
    .command('test')
    .description(c.test)
    .argument(`[${p.file}...]`, h.args.testFiles)
    .option(`--config <${p.path}>`, o.testConfig)
    .option('--json', o.testJson)
    .action((files: string[], opts) => done(testCommand(env, files, opts)));

  program
    .command('replay')
    .description(c.replay)
    .argument(`<${p.transcript}>`, h.args.transcript)
    .option(`--config <${p.path}>`, o.config)
    .option(`--persona <${p.name}>`, o.replayPersona)
    .option(`--stage <${p.name}>`, o.replayStage)
    .option('--refused', o.replayRefused)
    .option('--json', o.replayJson)
    .action((target: string, opts) => done(replayCommand(env, target, opts, progress)));

  const sessionCmd = program.command('session').description(c.session);
  sessionCmd
    .command('show')
    .description(c.sessionShow)
    .requiredOption(`--session <${p.id}>`, o.session)
    .action((opts) => done(sessionShow(env, session(opts.session, true))));
  sessionCmd
    .command('reset')
    .description(c.sessionReset)
    .requiredOption(`--session <${p.id}>`, o.session)
    .action((opts) => done(sessionReset(env, session(opts.session, true))));
  sessionCmd
    .command('persona')
    .description(c.sessionPersona)
    .argument(`[${p.name}]`, h.args.persona)
    .requiredOption(`--session <${p.id}>`, o.session)
    .option('--clear', o.clearPersona)
    .option(`--config <${p.path}>`, o.config)
    .action((name, opts) => done(sessionPersona(env, session(opts.session, false), name, opts)));

  const stage = program.command('stage').description(c.stage);
  stage
    .command('enter')
    .description(c.stageEnter)
    .argument(`<${p.name}>`, h.args.stage)
    .requiredOption(`--session <${p.id}>`, o.session)
    .option(`--config <${p.path}>`, o.config)
    .action((name, opts) => done(stageEnter(env, session(opts.session, false), name, opts)));
  stage
    .command('exit')
    .description(c.stageExit)
    .requiredOption(`--session <${p.id}>`, o.session)
    .option(`--outcome <${p.outcome}>`, o.outcome, 'complete')
    .option(`--config <${p.path}>`, o.config)
    .action((opts) => done(stageExit(env, session(opts.session, false), opts)));

  program
    .command('init')
    .description(c.init)
    .option(`--dir <${p.dir}>`, o.dir, process.cwd())
    .option(`--example <${p.name}>`, o.example, 'tax-filing')
    .option('--force', o.force)
    .option(`--command <${p.command}>`, o.command)
    .option('--hardened', o.hardened)
    .option('--no-sandbox', o.noSandbox)
    .option('--locale <en|es>', o.initLocale)
    .option(`--host <${p.host}>`, o.host)
    .action((options, cmd: Command) => {
      const opts = { ...options, exampleGiven: cmd.getOptionValueSource('example') === 'cli' };
      const host = hostOption(opts.host, cliMessages(env));
      if (host !== 'claude-code' && opts.hardened) throw new CliError(cliMessages(env).hardenedClaudeOnly());
      done(host === 'claude-code' ? initCommand(env, opts) : initHost(env, host, opts));
    });

  program
    .command('doctor')
    .description(c.doctor)
    .option(`--dir <${p.dir}>`, o.dir)
    .option('--hardened', o.doctorHardened)
    .option('--json', o.doctorJson)
    .option(`--host <${p.host}>`, o.host)
    .action((opts) => {
      const host = hostOption(opts.host, cliMessages(env));
      if (host !== 'claude-code' && opts.hardened) throw new CliError(cliMessages(env).hardenedClaudeOnly());
      done(host === 'claude-code' ? doctorCommand(env, opts) : doctorHost(env, host, opts));
    });

  program
    .command('config')
    .description(c.config)
    .argument(`<${p.action}>`, h.args.configAction)
    .argument(`[${p.key}]`, h.args.configKey)
    .argument(`[${p.value}]`, h.args.configValue)
    .action((action, key, value) => done(configCommand(env, action, key, value)));

  program
    .command('log')
    .description(c.log)
    .option(`--session <${p.id}>`, o.logSession)
    .option(`--persona <${p.name}>`, o.logPersona)
    .option(`--status <${p.status}>`, o.logStatus)
    .option('--would', o.logWould)
    .option(`--limit <${p.count}>`, o.logLimit)
    .option(`--since <${p.when}>`, o.logSince)
    .option('--json', o.logJson)
    .option('--follow', o.follow)
    .action((opts) => {
      const resolved = opts.session === undefined ? opts : { ...opts, session: session(opts.session, !opts.follow) };
      const view = viewFor(process.stdout, env);
      if (opts.follow) followLog(env, resolved, (s) => process.stdout.write(s), view);
      else done(logCommand(env, resolved, view));
    });

  program
    .command('status')
    .description(c.status)
    .option(`--session <${p.id}>`, o.statusSession)
    .option(`--config <${p.path}>`, o.config)
    .option(`--dir <${p.dir}>`, o.dir)
    .option('--json', o.statusJson)
    .action((opts) => done(statusCommand(env, opts)));

  program
    .command('statusline')
    .description(c.statusline)
    .action(() => done(statuslineCommand(env, readInput())));

  program
    .command('uninstall')
    .description(c.uninstall)
    .option(`--dir <${p.dir}>`, o.dir)
    .option('--purge', o.purge)
    .option(`--host <${p.host}>`, o.host)
    .action((opts) => {
      const host = hostOption(opts.host, cliMessages(env));
      done(host === 'claude-code' ? uninstallCommand(env, opts) : uninstallHost(env, host, opts));
    });

  program
    .command('pin')
    .description(c.pin)
    .option(`--server <${p.name}>`, o.pinServer)
    .option('--check', o.pinCheck)
    .option(`--dir <${p.dir}>`, o.dir)
    .option(`--timeout <${p.ms}>`, o.pinTimeout, '30000')
    .action((opts) => done(pinCommand(env, opts)));

  return program;
}

/** All of stdin, or nothing on a terminal. */
function readInput(): string {
  if (process.stdin.isTTY) return '';
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/** Every non-hook subcommand; the only place their results and errors become output and exit codes. */
export function cliMain(argv: readonly string[], env: Env = process.env): void {
  let result: CommandResult | Promise<CommandResult> | null = null;
  // A progress bar only where a person watches: stderr on a terminal.
  const progress = process.stderr.isTTY ? (text: string) => void process.stderr.write(text) : undefined;
  const program = buildProgram(
    env,
    (r) => {
      result = r;
    },
    progress,
  );
  try {
    program.parse(['node', 'persona-gate', ...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 1;
      return;
    }
    reportError(err);
    return;
  }
  const r = result as CommandResult | Promise<CommandResult> | null;
  if (r instanceof Promise) {
    // `pin` talks to servers; once it has answered nothing else is waited for (a server that will not exit included).
    r.then(write, reportError).finally(() => process.exit());
  } else if (r) write(r);
}

function write(r: CommandResult): void {
  // a reader that stopped reading (`persona-gate programs | head`) is not an error
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(r.exitCode);
    throw err;
  });
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(r.stderr);
  process.exitCode = r.exitCode;
}

function reportError(err: unknown): void {
  if (err instanceof CliError) {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = err.exitCode;
  } else if (err instanceof StateError) {
    process.stderr.write(`persona-gate: session state: ${err.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`persona-gate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
