import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { StateStore } from '../../io/state-store';
import { stateDirFor } from '../context';
import { CliError, type CommandResult } from '../errors';
import { cliMessages, type CliMessages } from '../messages';
import { guardedPaths, isObject, managedSettingsPath, mergeHardened, onPath, readSettings, userSettingsPath, within, writableByMe, type Json } from './hardened';

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'SessionStart'] as const;
export const EXAMPLES = ['tax-filing', 'merge-captain'] as const;
export const HOOK_TIMEOUT_SECONDS = 10;

/** The installed package: dist/ holds the bundles, examples/ and schema.json sit beside it. */
export function packageRoot(): string {
  return resolve(__dirname, '..');
}

export function defaultHookCommand(): string {
  return `node ${JSON.stringify(join(packageRoot(), 'dist', 'persona-gate.js'))} hook`;
}

/** A hook entry runs persona-gate's hook subcommand, however it is spelled. */
export function isGateHook(command: unknown): command is string {
  return typeof command === 'string' && /persona-gate/.test(command) && /\shook(\s|$)/.test(command);
}

/** Adds (or completes) persona-gate's entry for each event, keeping every other setting and hook. */
export function mergeHooks(settings: Json, command: string, path: string, t: ReturnType<typeof cliMessages>): { settings: Json; changed: string[] } {
  const next = structuredClone(settings);
  if (next.hooks === undefined) next.hooks = {};
  if (!isObject(next.hooks)) throw new CliError(t.initNotObject(path, 'hooks'));
  const hooks = next.hooks;
  const changed: string[] = [];
  for (const event of HOOK_EVENTS) {
    if (hooks[event] === undefined) hooks[event] = [];
    const groups = hooks[event];
    if (!Array.isArray(groups)) throw new CliError(t.initNotObject(path, `hooks.${event}`));
    let found = false;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const hook of group.hooks) {
        if (!isObject(hook) || !isGateHook(hook.command)) continue;
        found = true;
        const before = JSON.stringify(hook);
        hook.onFailure = 'block';
        if (typeof hook.timeout !== 'number') hook.timeout = HOOK_TIMEOUT_SECONDS;
        if (JSON.stringify(hook) !== before) changed.push(event);
      }
    }
    if (!found) {
      const entry = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS, onFailure: 'block' };
      groups.push(event === 'SessionStart' ? { hooks: [entry] } : { matcher: '*', hooks: [entry] });
      changed.push(event);
    }
  }
  return { settings: next, changed: [...new Set(changed)] };
}

/** Writes the starter policy unless one is there; returns the line to print. */
function writeStarterPolicy(policyPath: string, example: string, t: CliMessages): string {
  mkdirSync(dirname(policyPath), { recursive: true });
  if (existsSync(policyPath)) return t.initKeptPolicy(policyPath);
  const policy = JSON.parse(readFileSync(join(packageRoot(), 'examples', `${example}.json`), 'utf8')) as Json;
  policy.$schema = relative(dirname(policyPath), join(packageRoot(), 'schema.json'));
  writeFileSync(policyPath, `${JSON.stringify(policy, null, 2)}\n`);
  return t.initWrotePolicy(policyPath, example);
}

export function initCommand(env: Env, opts: { dir?: string; example?: string; command?: string; hardened?: boolean }): CommandResult {
  const t = cliMessages(env);
  const dir = resolve(opts.dir ?? process.cwd());
  const example = opts.example ?? 'tax-filing';
  if (!(EXAMPLES as readonly string[]).includes(example)) throw new CliError(t.initBadExample(example, EXAMPLES.join(', ')));
  if (opts.hardened) return initHardened(env, dir, example, opts.command, t);
  const claudeDir = join(dir, '.claude');
  const settingsPath = join(claudeDir, 'settings.json');
  const policyPath = join(claudeDir, 'persona-gate.json');

  // Read and merge the settings first: a settings file we cannot parse changes nothing at all.
  const { settings, original } = readSettings(settingsPath, t);
  const merged = mergeHooks(settings, opts.command ?? defaultHookCommand(), settingsPath, t);

  const lines: string[] = [writeStarterPolicy(policyPath, example, t)];
  if (merged.changed.length > 0 || original === null) {
    writeFileSync(settingsPath, `${JSON.stringify(merged.settings, null, 2)}\n`);
    lines.push(t.initRegistered(settingsPath, (merged.changed.length > 0 ? merged.changed : HOOK_EVENTS).join(', ')));
  } else {
    lines.push(t.initUnchanged(settingsPath));
  }
  lines.push(t.initNext());
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}

/**
 * The deployment the agent cannot switch off, as far as this user can make it: the hook at user
 * level, pointing at this installation, Claude Code's sandbox on with no way out, and
 * persona-gate's files out of reach of the sandboxed shell and the edit tools. What needs an
 * administrator is printed, never done: managed settings apply to every user of the machine,
 * so init leaves them to a person even when it runs as root.
 */
function initHardened(env: Env, dir: string, example: string, command: string | undefined, t: CliMessages): CommandResult {
  const userPath = userSettingsPath(env);
  const policyPath = join(dir, '.claude', 'persona-gate.json');
  const stateDir = stateDirFor(env);
  const root = packageRoot();
  const guarded = guardedPaths({ env, dir, stateDir, policyPath, installRoot: root });

  // Merge everything first: a settings file we cannot parse changes nothing at all.
  const { settings, original } = readSettings(userPath, t);
  const hooks = mergeHooks(settings, command ?? defaultHookCommand(), userPath, t);
  const hardened = mergeHardened(hooks.settings, guarded, userPath, t);

  const lines: string[] = [];
  if (within(root, dir)) lines.push(t.initInstallInside(root));
  lines.push(writeStarterPolicy(policyPath, example, t));
  // The state directory exists before the sandbox starts, private, so the deny rule has a directory to hold.
  try {
    new StateStore(stateDir).open();
  } catch (err) {
    throw new CliError(t.stateDirProblem(err instanceof Error ? err.message : String(err)));
  }
  if (hooks.changed.length > 0 || hardened.sandbox.length > 0 || hardened.guarded > 0 || original === null) {
    mkdirSync(dirname(userPath), { recursive: true });
    writeFileSync(userPath, `${JSON.stringify(hardened.settings, null, 2)}\n`);
  }
  lines.push(hooks.changed.length > 0 ? t.initRegistered(userPath, hooks.changed.join(', ')) : t.initUnchanged(userPath));
  lines.push(hardened.sandbox.length > 0 ? t.initSandbox(userPath, hardened.sandbox.join(', ')) : t.initSandboxKept(userPath));
  lines.push(hardened.guarded > 0 ? t.initGuarded(userPath, hardened.guarded) : t.initGuardedKept(userPath));

  const managed = managedSettingsPath();
  lines.push('', t.initAdminHeader(), t.initAdminManaged(managed, userPath));
  if (typeof process.getuid === 'function' && process.getuid() === 0) lines.push(t.initAdminRoot(managed));
  if (writableByMe(root)) lines.push(t.initAdminInstall(root));
  const missing = process.platform === 'linux' ? ['bwrap', 'socat'].filter((p) => !onPath(p, env)) : [];
  if (missing.length > 0) lines.push(t.initAdminDeps(missing.join(', ')));
  lines.push('', t.initHardenedNext());
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}
