import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { StateStore } from '../../io/state-store';
import { stateDirFor } from '../context';
import { CliError, type CommandResult } from '../errors';
import { cliMessages, type CliMessages } from '../messages';
import { CLAUDE_LAYOUT, type HookLayout } from '../../hosts/registration';
export { HOOK_TIMEOUT_SECONDS } from '../../hosts/registration';
import { cliInvocation, packageRoot, writeStarter, type StarterRequest } from './starter';
import { mergeLaunchers, mergeLists } from './launcher-settings';
import {
  guardedPaths,
  isObject,
  launchSettingsPath,
  managedSettingsPath,
  mergeHardened,
  onPath,
  readSettings,
  userSettingsPath,
  within,
  writableByMe,
  type Guarded,
  type Json,
} from './hardened';
import { sandboxMissing, writeLaunchSettings } from './sandbox-settings';
import { fragmentOf, InstallRecord, recordOwner } from './install-record';

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'SessionStart'] as const;
/** Claude Code's event for a call that failed; init registers it too (a brokered call's record ends there). */
export const FAILURE_EVENT = 'PostToolUseFailure';
export const EXAMPLES = ['tax-filing', 'software-team', 'merge-captain'] as const;

export { packageRoot };

/** The absolute command of this installation: machine-specific, for a user-level registration (`init --hardened`). */
export function defaultHookCommand(): string {
  return `node ${JSON.stringify(join(packageRoot(), 'dist', 'persona-gate.cjs'))} hook`;
}

/** A project install, reached through the project directory Claude Code gives every hook: the same on every clone and in CI. */
export const PROJECT_HOOK_COMMAND = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/persona-gate hook';
/** A global (user-level) install: the `persona-gate` on PATH. */
export const GLOBAL_HOOK_COMMAND = 'persona-gate hook';

/** Whether the project installs persona-gate itself: in its node_modules, or declared in its package.json. */
export function installedInProject(dir: string): boolean {
  if (existsSync(join(dir, 'node_modules', 'persona-gate', 'package.json'))) return true;
  if (within(packageRoot(), join(dir, 'node_modules'))) return true;
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Json;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => isObject(pkg[k]) && 'persona-gate' in (pkg[k] as Json));
  } catch {
    return false;
  }
}

/** The registration init writes: no path of this machine in it, so the committed settings work on any clone. */
export function portableHookCommand(dir: string): { command: string; install: 'project' | 'global' } {
  return installedInProject(dir)
    ? { command: PROJECT_HOOK_COMMAND, install: 'project' }
    : { command: GLOBAL_HOOK_COMMAND, install: 'global' };
}

/** A hook entry runs persona-gate's hook subcommand, however it is spelled. */
export function isGateHook(command: unknown): command is string {
  return typeof command === 'string' && /persona-gate/.test(command) && /\shook(\s|$)/.test(command);
}

/** The words of a command line, quotes removed, `$CLAUDE_PROJECT_DIR` kept as written. */
function words(command: string): string[] {
  return (command.match(/(?:"[^"]*"|'[^']*'|[^\s"']+)+/g) ?? []).map((w) => w.replace(/["']/g, ''));
}

/** The absolute path of this machine a command names (outside `$CLAUDE_PROJECT_DIR`), if any. */
export function machineSpecificPath(command: string): string | null {
  for (const w of words(command)) {
    if (w === '/usr/bin/env') continue;
    if (w.startsWith('/') || w.startsWith('~/') || /^[A-Za-z]:[\\/]/.test(w)) return w;
  }
  return null;
}

/** The flags after `hook` in a registered command (`--confirm-on pre`, …), kept when the command is replaced. */
function hookFlags(command: string): string {
  const m = /\shook(\s.*)?$/.exec(command);
  return m?.[1]?.trim() ?? '';
}

/** The object of a settings file that holds the event arrays (created when `create`), or null. */
function hooksObject(settings: Json, layout: HookLayout, path: string, t: CliMessages, create: boolean): Json | null {
  let at: Json = settings;
  const keys: string[] = [];
  for (const key of layout.hooksPath) {
    keys.push(key);
    if (at[key] === undefined) {
      if (!create) return null;
      at[key] = {};
    }
    const next = at[key];
    if (!isObject(next)) {
      if (!create) return null;
      throw new CliError(t.initNotObject(path, keys.join('.')));
    }
    at = next;
  }
  return at;
}

/**
 * Adds (or completes) persona-gate's entry for each event of the host's layout, keeping every
 * other setting and hook. `replace` says which existing persona-gate commands are replaced by
 * `command` (their flags kept).
 */
export function mergeHooks(
  settings: Json,
  command: string,
  path: string,
  t: ReturnType<typeof cliMessages>,
  replace: (existing: string) => boolean = () => false,
  layout: HookLayout = CLAUDE_LAYOUT,
): { settings: Json; changed: string[]; replaced: string[] } {
  const next = structuredClone(settings);
  for (const [key, value] of Object.entries(layout.fileFields ?? {})) if (next[key] === undefined) next[key] = value;
  const hooks = hooksObject(next, layout, path, t, true)!;
  const prefix = layout.hooksPath.length > 0 ? `${layout.hooksPath.join('.')}.` : '';
  const changed: string[] = [];
  const replaced: string[] = [];
  for (const { name: event, matcher } of layout.events) {
    if (hooks[event] === undefined) hooks[event] = [];
    const groups = hooks[event];
    if (!Array.isArray(groups)) throw new CliError(t.initNotObject(path, `${prefix}${event}`));
    let found = false;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const hook of group.hooks) {
        if (!isObject(hook) || !isGateHook(hook.command)) continue;
        found = true;
        const before = JSON.stringify(hook);
        if (hook.command !== command && replace(hook.command)) {
          const flags = hookFlags(hook.command);
          if (!replaced.includes(hook.command)) replaced.push(hook.command);
          hook.command = flags ? `${command} ${flags}` : command;
        }
        Object.assign(hook, layout.enforced);
        if (typeof hook.timeout !== 'number') hook.timeout = layout.timeout;
        if (JSON.stringify(hook) !== before) changed.push(event);
      }
    }
    if (!found) {
      const entry = { type: 'command', command, timeout: layout.timeout, ...layout.enforced };
      groups.push(matcher === null ? { hooks: [entry] } : { matcher, hooks: [entry] });
      changed.push(event);
    }
  }
  return { settings: next, changed: [...new Set(changed)], replaced };
}

/** Removes persona-gate's entries (and the groups and keys left empty), keeping everything else. */
export function removeHooks(settings: Json, layout: HookLayout = CLAUDE_LAYOUT): { settings: Json; removed: string[] } {
  const next = structuredClone(settings);
  const removed: string[] = [];
  const hooks = hooksObject(next, layout, '', cliMessages({}), false);
  if (hooks === null) return { settings: next, removed };
  const events = layout.hooksPath.length > 0 ? Object.keys(hooks) : layout.events.map((e) => e.name);
  for (const event of events) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    const kept: unknown[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const rest = group.hooks.filter((h) => !(isObject(h) && isGateHook(h.command)));
      if (rest.length !== group.hooks.length && !removed.includes(event)) removed.push(event);
      if (rest.length > 0) kept.push({ ...group, hooks: rest });
      else if (rest.length === group.hooks.length) kept.push(group);
    }
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (layout.hooksPath.length > 0 && Object.keys(hooks).length === 0) {
    let parent: Json = next;
    for (const key of layout.hooksPath.slice(0, -1)) parent = parent[key] as Json;
    delete parent[layout.hooksPath[layout.hooksPath.length - 1]!];
  }
  return { settings: next, removed };
}

export interface InitOptions {
  dir?: string;
  example?: string;
  /** `--example` was given, not defaulted. */
  exampleGiven?: boolean;
  force?: boolean;
  command?: string;
  hardened?: boolean;
  /** false with `--no-sandbox`: Claude Code's sandbox is left as it is, and the hook keeps its caution. */
  sandbox?: boolean;
  locale?: string;
}

export function initCommand(env: Env, opts: InitOptions): CommandResult {
  const t = cliMessages(env);
  const dir = resolve(opts.dir ?? process.cwd());
  const example = opts.example ?? 'tax-filing';
  if (!(EXAMPLES as readonly string[]).includes(example)) throw new CliError(t.initBadExample(example, EXAMPLES.join(', ')));
  if (opts.locale !== undefined && opts.locale !== 'en' && opts.locale !== 'es') throw new CliError(t.initBadLocale(opts.locale));
  const locale = opts.locale as 'en' | 'es' | undefined;
  const starter = { example, asked: opts.exampleGiven === true, force: opts.force === true, ...(locale !== undefined ? { locale } : {}) };
  if (opts.hardened) return initHardened(env, dir, starter, opts.command, t);
  const claudeDir = join(dir, '.claude');
  const settingsPath = join(claudeDir, 'settings.json');
  const policyPath = join(claudeDir, 'persona-gate.json');

  // Read and merge the settings first: a settings file we cannot parse changes nothing at all.
  const { settings, original } = readSettings(settingsPath, t);
  const portable = portableHookCommand(dir);
  const command = opts.command ?? portable.command;
  // An explicit --command replaces persona-gate's entries; otherwise only those that name a path
  // of some machine (an older init's, or a moved checkout's) or a program that is not there.
  const replace = opts.command !== undefined ? () => true : (existing: string) => machineSpecificPath(existing) !== null;
  const merged = mergeHooks(settings, command, settingsPath, t, replace);
  const localPath = join(claudeDir, 'settings.local.json');
  const local = readSettings(localPath, t);
  const sandbox = sandboxPlan(env, dir, policyPath, local.settings, localPath, opts.sandbox !== false, t);

  // What the sandbox step adds is recorded, so that uninstall takes back exactly that.
  const record = sandbox.launch !== null ? InstallRecord.open(stateDirFor(env), t) : null;
  const owner = recordOwner('claude-code', dir);
  const made = madeDirs([dirname(launchSettingsPath(env)), ...stateDirs(env)]);

  const cli = cliInvocation(portable.install, env);
  mkdirSync(claudeDir, { recursive: true });
  const lines: string[] = writeStarter(policyPath, starter, t, cli);
  if (merged.changed.length > 0 || original === null) {
    writeFileSync(settingsPath, `${JSON.stringify(merged.settings, null, 2)}\n`);
    for (const old of merged.replaced) lines.push(t.initReplaced(old));
    lines.push(t.initRegistered(settingsPath, (merged.changed.length > 0 ? merged.changed : HOOK_EVENTS).join(', ')));
  } else {
    lines.push(t.initUnchanged(settingsPath));
  }
  lines.push(...sandbox.lines);
  const launched: Json = {};
  if (sandbox.launch !== null) {
    // A closed program (the domain's CLI) starts only through the launcher, checked on its real
    // argv; read from the policy as written, with the state directory there for its map.
    const stateDir = stateDirFor(env);
    const prepareState = () => openStateDir(stateDir, t);
    const recorded = record === null ? undefined : { record, owner };
    mergeLaunchers(
      launched,
      { env, dir, policyPath, stateDir, guarded: sandbox.guarded, closedOnly: true, prepareState, recorded },
      lines,
      t,
    );
    if (mergeLists(sandbox.settings, launched, localPath, t) > 0) sandbox.changed = true;
  }
  if (sandbox.changed) writeFileSync(localPath, `${JSON.stringify(sandbox.settings, null, 2)}\n`);
  if (record !== null) {
    const fragment = fragmentOf((empty) => mergeHardened(empty, sandbox.guarded, localPath, t).settings, launched);
    record.note(localPath, owner, local.settings, local.original, fragment);
    const written = writeLaunchSettings(env, sandbox.guarded, t, launched);
    record.note(written.path, owner, written.before, written.original, fragment);
    record.noteDirs(owner, made.dirs, made.absent);
    openStateDir(stateDirFor(env), t);
    record.save();
    lines.push(t.initLaunchSettings(written.path));
  }
  if (opts.command === undefined) {
    if (portable.install === 'project') lines.push(t.initProjectCommand(PROJECT_HOOK_COMMAND));
    else {
      lines.push(t.initGlobalCommand(GLOBAL_HOOK_COMMAND));
      if (!onPath('persona-gate', env)) lines.push(t.initNotOnPath());
    }
  }
  lines.push(t.initNext(cli));
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}

/**
 * The sandbox part of the default deployment (SPEC §9.2): on where the machine can have it, every
 * guarded path write-denied for the shell and the edit tools, in the project's local settings
 * (`.claude/settings.local.json`: this machine's paths, never committed; the sandbox itself
 * write-protects it). The hook reads those settings to know the sandbox holds. Otherwise the hook
 * keeps its caution, and init says what is missing or lost.
 */
function sandboxPlan(env: Env, dir: string, policyPath: string, settings: Json, settingsPath: string, wanted: boolean, t: CliMessages) {
  const missing = wanted ? sandboxMissing(env) : null;
  const on = wanted && missing !== null && missing.length === 0;
  const guarded = projectGuards(env, dir, policyPath);
  const lines: string[] = [];
  let next = settings;
  let changed = false;
  if (on) {
    const hardened = mergeHardened(settings, guarded, settingsPath, t);
    next = hardened.settings;
    changed = hardened.sandbox.length > 0 || hardened.guarded > 0;
    lines.push(hardened.sandbox.length > 0 ? t.initSandbox(settingsPath, hardened.sandbox.join(', ')) : t.initSandboxKept(settingsPath));
    lines.push(hardened.guarded > 0 ? t.initGuarded(settingsPath, hardened.guarded) : t.initGuardedKept(settingsPath));
    const root = packageRoot();
    if (within(root, dir) && !within(dir, root)) lines.push(t.initSandboxInstallInside(root));
  } else if (!wanted) lines.push(t.initSandboxOptedOut());
  else lines.push(missing === null ? t.initSandboxNoPlatform(process.platform) : t.initSandboxMissing(missing.join(', ')));
  return { settings: next, changed, lines, guarded, launch: on ? guarded : null };
}

/** The state directory and the one directory in it that init makes (`openStateDir`). */
export function stateDirs(env: Env): string[] {
  const stateDir = stateDirFor(env);
  return [stateDir, join(stateDir, 'sessions')];
}

/** Directories init is about to make, and which of them are not there yet: for the install record. */
export function madeDirs(dirs: string[]): { dirs: string[]; absent: (dir: string) => boolean } {
  const absent = new Set(dirs.filter((d) => !existsSync(d)));
  return { dirs, absent: (d) => absent.has(d) };
}

/** Makes the state directory, private, before the sandbox starts, so that a deny rule has a directory to hold. */
export function openStateDir(stateDir: string, t: CliMessages): void {
  try {
    new StateStore(stateDir).open();
  } catch (err) {
    throw new CliError(t.stateDirProblem(err instanceof Error ? err.message : String(err)));
  }
}

/** What the default deployment write-denies for a project: persona-gate's files, its installation, the runtime the hook starts. */
export function projectGuards(env: Env, dir: string, policyPath: string): Guarded[] {
  const root = packageRoot();
  // persona-gate's own checkout (developing it): guarding it would deny every write of the project
  const installRoot = within(dir, root) ? null : root;
  return [...guardedPaths({ env, dir, stateDir: stateDirFor(env), policyPath, installRoot }), ...runtimeGuards()];
}

/** The runtime the registered hook starts (SPEC §9.2): replacing it would answer every call with nothing. */
function runtimeGuards(): Guarded[] {
  try {
    return [{ path: realpathSync(process.execPath), tree: false, what: 'install' }];
  } catch {
    return [];
  }
}

/**
 * The deployment the agent cannot switch off, as far as this user can make it: the hook at user
 * level, pointing at this installation, Claude Code's sandbox on with no way out, and
 * persona-gate's files out of reach of the sandboxed shell and the edit tools. What needs an
 * administrator is printed, never done: managed settings apply to every user of the machine,
 * so init leaves them to a person even when it runs as root.
 */
function initHardened(env: Env, dir: string, starter: StarterRequest, command: string | undefined, t: CliMessages): CommandResult {
  const userPath = userSettingsPath(env);
  const policyPath = join(dir, '.claude', 'persona-gate.json');
  const stateDir = stateDirFor(env);
  const root = packageRoot();
  const guarded = guardedPaths({ env, dir, stateDir, policyPath, installRoot: root });

  // Merge everything first: a settings file we cannot parse changes nothing at all.
  const { settings, original } = readSettings(userPath, t);
  const hooks = mergeHooks(settings, command ?? defaultHookCommand(), userPath, t);
  const hardened = mergeHardened(hooks.settings, guarded, userPath, t);
  const record = InstallRecord.open(stateDir, t);
  const owner = recordOwner('claude-code', dir);
  const made = madeDirs([dirname(userPath), ...stateDirs(env)]);

  const lines: string[] = [];
  if (within(root, dir)) lines.push(t.initInstallInside(root));
  const cli = cliInvocation('global', env);
  mkdirSync(dirname(policyPath), { recursive: true });
  lines.push(...writeStarter(policyPath, starter, t, cli));
  // The state directory exists before the sandbox starts, private, so the deny rule has a directory to hold.
  openStateDir(stateDir, t);
  const launched: Json = {};
  mergeLaunchers(launched, { env, dir, policyPath, stateDir, guarded, recorded: { record, owner } }, lines, t);
  hardened.guarded += mergeLists(hardened.settings, launched, userPath, t);
  // the hook, the sandbox and the launcher's entries, recorded for uninstall
  const hadHook = removeHooks(settings).removed.length > 0;
  const fragment = fragmentOf((empty) => mergeHardened(empty, guarded, userPath, t).settings, launched);
  record.note(userPath, owner, settings, original, fragment, hadHook ? 'present' : 'added');
  record.noteDirs(owner, made.dirs, made.absent);
  record.save();
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
  const missing = sandboxMissing(env) ?? [];
  if (missing.length > 0) lines.push(t.initAdminDeps(missing.join(', ')));
  lines.push('', t.initHardenedNext(cli));
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}
