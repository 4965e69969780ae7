import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { onlyRootChanges } from '../../io/private-fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Env } from '../../core/decide';
import { prefsFile } from '../../io/prefs';
import { readJsonObject } from '../../io/read-file';
import { managedSettingsFile, MAX_SETTINGS_BYTES } from '../../io/sandbox-state';
import { CliError } from '../errors';
import type { CliMessages } from '../messages';

/**
 * The deployment the agent cannot switch off: the hook registered at user (or managed) level,
 * pointing at an installation outside the workspace, and Claude Code's OS sandbox on, with
 * persona-gate's own files out of the sandboxed shell's reach.
 *
 * The Claude Code settings used (2.1.332):
 * - `sandbox.enabled`: Bash runs under bubblewrap (Linux) or Seatbelt (macOS); writes are
 *   confined to the working directory and the session's temp directory, and the sandbox itself
 *   always write-protects `.claude/settings.json` and `.claude/settings.local.json`.
 * - `sandbox.failIfUnavailable`: without it a missing bubblewrap means commands run unsandboxed.
 * - `sandbox.allowUnsandboxedCommands: false`: the Bash tool's `dangerouslyDisableSandbox`
 *   parameter is ignored; a false in user or managed settings holds over project settings.
 * - `sandbox.filesystem.denyWrite`: absolute paths the sandboxed shell may not write, even inside
 *   the working directory (the state directory and the policy live there in some set-ups).
 * - `permissions.deny` with `Edit(//absolute/path)` rules: Claude Code's own Write/Edit tools
 *   refuse those paths too (the rules also feed the sandbox's write denials).
 * A project's `.claude/settings.json` can still set `sandbox.enabled: false`; only managed
 * settings hold against that.
 */

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`. */
export function userSettingsPath(env: Env): string {
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  return join(configDir ? configDir : join(env.HOME ?? homedir(), '.claude'), 'settings.json');
}

/**
 * The settings a project must not override (the sandbox on, no way out, the guarded paths), as a
 * file `persona-gate launch` passes to Claude Code with `--settings` when managed settings cannot
 * be written. It sits beside the user settings and is itself a guarded path.
 */
export function launchSettingsPath(env: Env): string {
  return join(dirname(userSettingsPath(env)), 'persona-gate-launch.json');
}

/** Where Claude Code reads managed (administrator) settings on this platform. */
export const managedSettingsPath = managedSettingsFile;

export function within(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A path the agent's shell and edit tools must not write; `tree` for a directory. */
export interface Guarded {
  path: string;
  tree: boolean;
  what: 'state' | 'policy' | 'settings' | 'prefs' | 'install';
}

export function guardedPaths(opts: {
  env: Env;
  dir: string;
  stateDir: string;
  policyPath: string | null;
  installRoot: string | null;
}): Guarded[] {
  const list: Guarded[] = [
    { path: resolve(opts.stateDir), tree: true, what: 'state' },
    ...(opts.policyPath ? [{ path: resolve(opts.policyPath), tree: false, what: 'policy' as const }] : []),
    // the MCP lock and the policy tests beside the policy: every .claude/persona-gate*.json (SPEC §9.2)
    ...(opts.policyPath
      ? ['persona-gate.lock.json', 'persona-gate.test.json'].map((name) => ({
          path: join(dirname(resolve(opts.policyPath!)), name),
          tree: false,
          what: 'policy' as const,
        }))
      : []),
    { path: userSettingsPath(opts.env), tree: false, what: 'settings' },
    { path: launchSettingsPath(opts.env), tree: false, what: 'settings' },
    { path: join(opts.dir, '.claude', 'settings.json'), tree: false, what: 'settings' },
    { path: join(opts.dir, '.claude', 'settings.local.json'), tree: false, what: 'settings' },
    { path: prefsFile(opts.env), tree: false, what: 'prefs' },
    ...(opts.installRoot ? [{ path: resolve(opts.installRoot), tree: true, what: 'install' as const }] : []),
  ];
  return list.filter((g, i) => list.findIndex((o) => o.path === g.path) === i);
}

/** The permission rule that keeps Claude Code's Write/Edit tools off a path (`//` marks an absolute path). */
export function editRule(g: Pick<Guarded, 'path' | 'tree'>): string {
  const abs = g.path.split(sep).join('/');
  return `Edit(/${abs}${g.tree ? '/**' : ''})`;
}

/** Reads a settings file: absent is `{}`; unparsable or not an object is an error that changes nothing. */
export function readSettings(path: string, t: CliMessages): { settings: Json; original: string | null } {
  if (!existsSync(path)) return { settings: {}, original: null };
  const original = readFileSync(path, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(original);
  } catch (err) {
    throw new CliError(t.initUnparsable(path, (err as Error).message));
  }
  if (!isObject(parsed)) throw new CliError(t.initNotObject(path, '(root)'));
  return { settings: parsed, original };
}

/** The object at `parent[key]`, made when absent; anything else there is an error naming `field` of `path`. */
export function objectAt(parent: Json, key: string, path: string, field: string, t: CliMessages): Json {
  if (parent[key] === undefined) parent[key] = {};
  const value = parent[key];
  if (!isObject(value)) throw new CliError(t.initNotObject(path, field));
  return value;
}

/** The list at `parent[key]`, made when absent; anything else there is an error naming `field` of `path`. */
export function arrayAt(parent: Json, key: string, path: string, field: string, t: CliMessages): unknown[] {
  if (parent[key] === undefined) parent[key] = [];
  const value = parent[key];
  if (!Array.isArray(value)) throw new CliError(t.initNotObject(path, field));
  return value;
}

/** Turns the sandbox on and guards each path, keeping every other setting. */
export function mergeHardened(
  settings: Json,
  guarded: Guarded[],
  path: string,
  t: CliMessages,
): { settings: Json; sandbox: string[]; guarded: number } {
  const next = structuredClone(settings);
  const sandbox = objectAt(next, 'sandbox', path, 'sandbox', t);
  const changedKeys: string[] = [];
  const want: [string, boolean][] = [
    ['enabled', true],
    ['failIfUnavailable', true],
    ['allowUnsandboxedCommands', false],
  ];
  for (const [key, value] of want) {
    if (sandbox[key] !== value) {
      sandbox[key] = value;
      changedKeys.push(`sandbox.${key}: ${value}`);
    }
  }
  const filesystem = objectAt(sandbox, 'filesystem', path, 'sandbox.filesystem', t);
  const denyWrite = arrayAt(filesystem, 'denyWrite', path, 'sandbox.filesystem.denyWrite', t);
  const permissions = objectAt(next, 'permissions', path, 'permissions', t);
  const deny = arrayAt(permissions, 'deny', path, 'permissions.deny', t);
  let added = 0;
  for (const g of guarded) {
    if (!denyWrite.includes(g.path)) {
      denyWrite.push(g.path);
      added++;
    }
    const rule = editRule(g);
    if (!deny.includes(rule)) {
      deny.push(rule);
      added++;
    }
  }
  return { settings: next, sandbox: changedKeys, guarded: added };
}

/** Takes out what mergeHardened put in for these guarded paths; empty objects and arrays go too. */
export function removeHardened(settings: Json, guarded: Guarded[]): Json {
  const next = structuredClone(settings);
  const sandbox = isObject(next.sandbox) ? next.sandbox : null;
  if (sandbox) {
    if (sandbox.enabled === true) delete sandbox.enabled;
    if (sandbox.failIfUnavailable === true) delete sandbox.failIfUnavailable;
    if (sandbox.allowUnsandboxedCommands === false) delete sandbox.allowUnsandboxedCommands;
    const fs = isObject(sandbox.filesystem) ? sandbox.filesystem : null;
    if (fs && Array.isArray(fs.denyWrite)) {
      fs.denyWrite = fs.denyWrite.filter((p) => !guarded.some((g) => g.path === p));
      if ((fs.denyWrite as unknown[]).length === 0) delete fs.denyWrite;
    }
    if (fs && Object.keys(fs).length === 0) delete sandbox.filesystem;
    if (Object.keys(sandbox).length === 0) delete next.sandbox;
  }
  const permissions = isObject(next.permissions) ? next.permissions : null;
  if (permissions && Array.isArray(permissions.deny)) {
    const rules = new Set(guarded.map(editRule));
    permissions.deny = permissions.deny.filter((r) => !(typeof r === 'string' && rules.has(r)));
    if ((permissions.deny as unknown[]).length === 0) delete permissions.deny;
    if (Object.keys(permissions).length === 0) delete next.permissions;
  }
  return next;
}

/** A JSON object file, or null when it is absent, unreadable, not a regular file, not JSON or not an object. */
export function readJsonQuiet(path: string): Json | null {
  return readJsonObject(path, MAX_SETTINGS_BYTES);
}

/** The absolute paths a settings file keeps the sandboxed shell or the edit tools from writing. */
export function deniedWrites(settings: Json | null, settingsDir: string, home: string): string[] {
  if (!settings) return [];
  const out: string[] = [];
  const expand = (p: string): string | null => {
    if (p.startsWith('~/')) return join(home, p.slice(2));
    if (isAbsolute(p)) return p;
    return resolve(settingsDir, p);
  };
  const sandbox = isObject(settings.sandbox) ? settings.sandbox : {};
  const fs = isObject(sandbox.filesystem) ? sandbox.filesystem : {};
  for (const p of Array.isArray(fs.denyWrite) ? fs.denyWrite : []) if (typeof p === 'string' && !/[*?[{]/.test(p)) out.push(expand(p)!);
  const permissions = isObject(settings.permissions) ? settings.permissions : {};
  for (const rule of Array.isArray(permissions.deny) ? permissions.deny : []) {
    const m = typeof rule === 'string' ? /^Edit\((.+)\)$/.exec(rule) : null;
    if (!m) continue;
    const body = m[1]!.replace(/\/\*\*?$/, '');
    if (/[*?[{]/.test(body)) continue;
    if (body.startsWith('//')) out.push(body.slice(1));
    else if (body.startsWith('~/')) out.push(join(home, body.slice(2)));
  }
  return out;
}

/** Where a program is first found on PATH (no process is started), or null; `absoluteOnly`: skipping relative entries. */
export function firstOnPath(program: string, env: Env, absoluteOnly = false): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || (absoluteOnly && !isAbsolute(dir))) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {
      // next
    }
  }
  return null;
}

/** Whether a program is on PATH (no process is started). */
export function onPath(program: string, env: Env): boolean {
  return firstOnPath(program, env) !== null;
}

/**
 * Claude Code finds the sandbox's programs on PATH and runs them outside the sandbox: the first
 * bwrap or socat there that a user other than root can change is a way out of it.
 */
export function sandboxProgramFindings(env: Env, level: Level, t: CliMessages): Finding[] {
  return ['bwrap', 'socat']
    .map((p) => firstOnPath(p, env))
    .filter((found): found is string => found !== null && !onlyRootChanges(found))
    .map((found) => ({ level, text: t.hardSandboxProgramChangeable(found), fix: t.fixSandboxProgramChangeable() }));
}

export function writableByMe(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The package root of the script a hook command runs (…/dist/persona-gate.cjs → …), when it is one. */
export function installRootOf(target: string): string {
  return /[\\/]dist[\\/][^\\/]+\.c?js$/.test(target) ? dirname(dirname(target)) : dirname(target);
}

type Level = 'ok' | 'warn' | 'fail';
export interface Finding {
  level: Level;
  text: string;
  fix?: string;
}

/**
 * Each part of the hardened deployment, in place or not. A missing part is a warning, or a
 * failure under `strict` (`doctor --hardened`); what needs an administrator stays a warning.
 */
export function hardenedFindings(opts: {
  env: Env;
  dir: string;
  t: CliMessages;
  strict: boolean;
  stateDir: string;
  policyPath: string | null;
  /** The scripts the registered hook commands run. */
  targets: string[];
  /** Whether a settings file registers persona-gate's hook for PreToolUse. */
  registeredIn: (settingsFile: string) => boolean;
  managedPath?: string;
  platform?: NodeJS.Platform;
}): Finding[] {
  const { env, dir, t } = opts;
  const missing: Level = opts.strict ? 'fail' : 'warn';
  const home = env.HOME ?? homedir();
  const userPath = userSettingsPath(env);
  const managedPath = opts.managedPath ?? managedSettingsPath(opts.platform);
  const user = readJsonQuiet(userPath);
  const managed = readJsonQuiet(managedPath);
  const project = readJsonQuiet(join(dir, '.claude', 'settings.json'));
  const local = readJsonQuiet(join(dir, '.claude', 'settings.local.json'));
  const findings: Finding[] = [];

  // The installation.
  for (const target of opts.targets) {
    const root = installRootOf(target);
    if (within(resolve(root), dir)) findings.push({ level: missing, text: t.hardInstallInside(root), fix: t.fixInstallInside() });
    else findings.push({ level: 'ok', text: t.hardInstallOutside(root) });
    if (existsSync(root)) {
      if (writableByMe(root)) findings.push({ level: 'warn', text: t.hardInstallWritable(root), fix: t.fixInstallWritable() });
      else findings.push({ level: 'ok', text: t.hardInstallReadOnly(root) });
    }
  }

  // The registration.
  const registered = (path: string) => opts.registeredIn(path);
  if (registered(managedPath)) findings.push({ level: 'ok', text: t.hardRegisteredManaged(managedPath) });
  else {
    if (registered(userPath)) findings.push({ level: 'ok', text: t.hardRegisteredUser(userPath) });
    else findings.push({ level: missing, text: t.hardRegisteredProjectOnly(userPath), fix: t.fixHardened() });
    findings.push({ level: 'warn', text: t.hardNotManaged(managedPath), fix: t.fixManaged(managedPath) });
  }

  // The sandbox.
  const sandboxOf = (s: Json | null): Json => (s && isObject(s.sandbox) ? s.sandbox : {});
  const layers = [sandboxOf(managed), sandboxOf(local), sandboxOf(project), sandboxOf(user)];
  const enabled = layers.find((s) => typeof s.enabled === 'boolean')?.enabled === true;
  const offIn = [
    ['.claude/settings.local.json', local],
    ['.claude/settings.json', project],
  ]
    .filter(([, s]) => sandboxOf(s as Json | null).enabled === false)
    .map(([name]) => join(dir, name as string));
  if (enabled) findings.push({ level: 'ok', text: t.hardSandboxOn() });
  else if (offIn.length > 0 && sandboxOf(managed).enabled !== true)
    findings.push({ level: missing, text: t.hardSandboxTurnedOff(offIn.join(', ')), fix: t.fixSandboxTurnedOff(managedPath) });
  else findings.push({ level: missing, text: t.hardSandboxOff(), fix: t.fixHardened() });
  if (sandboxOf(managed).allowUnsandboxedCommands === false || sandboxOf(user).allowUnsandboxedCommands === false)
    findings.push({ level: 'ok', text: t.hardNoEscape() });
  else findings.push({ level: missing, text: t.hardEscape(), fix: t.fixHardened() });
  if (sandboxOf(managed).failIfUnavailable === true || sandboxOf(user).failIfUnavailable === true)
    findings.push({ level: 'ok', text: t.hardFailIfUnavailable() });
  else findings.push({ level: missing, text: t.hardNoFailIfUnavailable(), fix: t.fixHardened() });
  if ((opts.platform ?? process.platform) === 'linux') {
    const absent = ['bwrap', 'socat'].filter((p) => !onPath(p, env));
    if (absent.length === 0) findings.push({ level: 'ok', text: t.hardSandboxDeps() });
    else findings.push({ level: missing, text: t.hardNoSandboxDeps(absent.join(', ')), fix: t.fixSandboxDeps() });
    findings.push(...sandboxProgramFindings(env, missing, t));
  }

  // What the sandboxed shell and the edit tools may not write.
  const denied = [...deniedWrites(user, dirname(userPath), home), ...deniedWrites(managed, dirname(managedPath), home)].map((p) =>
    resolve(p),
  );
  const covered = (path: string) => denied.some((d) => within(resolve(path), d));
  const checks: [string, string][] = [
    [opts.stateDir, t.hardWhatState()],
    ...(opts.policyPath ? ([[opts.policyPath, t.hardWhatPolicy()]] as [string, string][]) : []),
    [userPath, t.hardWhatSettings()],
  ];
  for (const [path, what] of checks) {
    if (covered(path)) findings.push({ level: 'ok', text: t.hardGuarded(what, path) });
    else if (path === opts.policyPath && !within(resolve(path), dir)) findings.push({ level: 'ok', text: t.hardPolicyOutside(path) });
    else findings.push({ level: missing, text: t.hardNotGuarded(what, path), fix: t.fixHardened() });
  }
  return findings;
}
