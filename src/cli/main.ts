import { Command, CommanderError } from 'commander';
import type { Env } from '../core/decide';
import { CliError, type CommandResult } from './errors';
import { explainCommand } from './commands/explain';
import { listCommand } from './commands/list';
import { validateCommand } from './commands/validate';
import { schemaCommand } from './commands/schema';
import { sessionPersona, sessionReset, sessionShow } from './commands/session';
import { stageEnter, stageExit } from './commands/stage';
import { followLog, logCommand } from './commands/log';
import { StateError } from '../io/state-store';
import { configCommand } from './commands/config';
import { initCommand } from './commands/init';
import { doctorCommand } from './commands/doctor';

const VERSION = '0.1.0';

function buildProgram(env: Env, done: (result: CommandResult) => void): Command {
  const program = new Command('persona-gate')
    .description('Decides, before an AI agent runs a tool, whether this persona, in this stage, for this profile, may run it.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError();

  program
    .command('hook')
    .description('the Claude Code hook: reads a PreToolUse, PostToolUse or SessionStart event on stdin')
    .option('--config <path>')
    .option('--confirm-on <pre|post>')
    .option('--allowed-tools <list>')
    .option('--side-effect-level <level>');

  program
    .command('explain')
    .description('dry run: the verdict and every gate\'s finding; changes no state')
    .argument('[tool]', 'tool name')
    .argument('[input_json]', 'tool input as JSON')
    .option('--config <path>', 'policy file')
    .option('--persona <name>', 'judge as this persona')
    .option('--stage <name>', 'judge in this stage')
    .option('--session <id>', 'use this session\'s state (read only)')
    .option('--event <file>', 'a PreToolUse event file')
    .option('--confirm-on <pre|post>')
    .option('--allowed-tools <list>')
    .option('--side-effect-level <level>')
    .option('--json', 'print the receipt')
    .action((tool, inputJson, opts) => done(explainCommand(env, opts, tool, inputJson)));

  program
    .command('list')
    .description('what a persona may call, with each tier')
    .requiredOption('--persona <name>')
    .option('--stage <name>')
    .option('--config <path>')
    .option('--format <format>', 'text, json or claude-permissions', 'text')
    .action((opts) => done(listCommand(env, opts)));

  program
    .command('validate')
    .description('validate the policy; every problem with its JSON path')
    .option('--config <path>')
    .action((opts) => done(validateCommand(env, opts)));

  program
    .command('schema')
    .description('print the policy JSON Schema')
    .action(() => done(schemaCommand()));

  const session = program.command('session').description('inspect or change a session\'s state');
  session
    .command('show')
    .requiredOption('--session <id>')
    .action((opts) => done(sessionShow(env, opts.session)));
  session
    .command('reset')
    .requiredOption('--session <id>')
    .action((opts) => done(sessionReset(env, opts.session)));
  session
    .command('persona')
    .argument('[name]')
    .requiredOption('--session <id>')
    .option('--clear', 'remove the session persona')
    .option('--config <path>')
    .action((name, opts) => done(sessionPersona(env, opts.session, name, opts)));

  const stage = program.command('stage').description('move a session between stages');
  stage
    .command('enter')
    .argument('<name>')
    .requiredOption('--session <id>')
    .option('--config <path>')
    .action((name, opts) => done(stageEnter(env, opts.session, name, opts)));
  stage
    .command('exit')
    .requiredOption('--session <id>')
    .option('--outcome <outcome>', 'complete or failure', 'complete')
    .option('--config <path>')
    .action((opts) => done(stageExit(env, opts.session, opts)));

  program
    .command('init')
    .description('write a starter policy and register the hooks in .claude/settings.json')
    .option('--dir <dir>', 'project directory', process.cwd())
    .option('--example <name>', 'tax-filing or merge-captain', 'tax-filing')
    .option('--command <command>', 'the hook command to register')
    .action((opts) => done(initCommand(env, opts)));

  program
    .command('doctor')
    .description('check the registration, the policy, the state directory and the host version')
    .option('--dir <dir>', 'project directory')
    .action((opts) => done(doctorCommand(env, opts)));

  program
    .command('config')
    .description('user preferences: locale, policy (the default policy path), stateDir')
    .argument('<action>', 'get, set, unset or list')
    .argument('[key]')
    .argument('[value]')
    .action((action, key, value) => done(configCommand(env, action, key, value)));

  program
    .command('log')
    .description('read the receipts')
    .option('--session <id>')
    .option('--persona <name>')
    .option('--status <status>')
    .option('--json')
    .option('--follow')
    .action((opts) => {
      if (opts.follow) followLog(env, opts, (s) => process.stdout.write(s));
      else done(logCommand(env, opts));
    });

  return program;
}

/** Every non-hook subcommand; the only place their results and errors become output and exit codes. */
export function cliMain(argv: readonly string[], env: Env = process.env): void {
  let result: CommandResult | null = null;
  const program = buildProgram(env, (r) => {
    result = r;
  });
  try {
    program.parse(['node', 'persona-gate', ...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 1;
      return;
    }
    if (err instanceof CliError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof StateError) {
      process.stderr.write(`persona-gate: session state: ${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`persona-gate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
    return;
  }
  const r = result as CommandResult | null;
  if (r) {
    if (r.stdout) process.stdout.write(r.stdout);
    if (r.stderr) process.stderr.write(r.stderr);
    process.exitCode = r.exitCode;
  }
}
