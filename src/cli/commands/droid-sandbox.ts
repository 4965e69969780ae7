import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { home } from '../../hosts/registration';
import type { CliMessages } from '../messages';
import { arrayAt, isObject, objectAt, readJsonQuiet, readSettings, within, type Finding, type Guarded, type Json } from './hardened';
import { stateDirFor } from '../context';
import { madeDirs, openStateDir, projectGuards, stateDirs } from './init';
import { sandboxMissing } from './sandbox-settings';
import { fragmentOf, InstallRecord, recordOwner } from './install-record';

/**
 * Droid's OS sandbox in the default deployment (SPEC §9.2), measured on Droid 0.225.2, Linux:
 * - `sandbox.enabled` in the user's `~/.factory/settings.json` wraps every Execute command in
 *   bubblewrap (seccomp, a filtering proxy through socat), `droid exec` included. Only the working
 *   directory and Droid's temp directory (`~/.factory/temp`) are writable; `sandbox.filesystem.denyWrite`
 *   makes a path read-only even inside them. Droid's own Create, Edit and ApplyPatch check the same
 *   lists and answer "Sandbox: write denied to …". Hooks and MCP servers run outside it.
 * - Droid merges the levels so that any level can turn the sandbox on and none can turn it off
 *   or drop a denyWrite entry: a project's `.factory/settings.json` with `enabled: false`, an
 *   empty `denyWrite` or `allowWrite: ["/"]` changed nothing.
 * - A denied file's directory can still be renamed from the shell (`mv .claude c2` worked while
 *   `.claude/persona-gate.json` was denied), after which a new file takes the old path. So the
 *   directories that hold persona-gate's files in the project (`.claude`, where the policy is, and
 *   `.factory`, where the registration is) are denied whole: a denied directory is a mount point,
 *   and renaming it fails (`Device or resource busy`).
 * - Droid always write-protects `.claude/commands` and `.claude/agents`, and makes each one that
 *   does not exist as an empty mount point; under a read-only `.claude` it cannot, and then every
 *   command fails (`bwrap: Can't create file at …/.claude/commands`). init creates both.
 * - Droid runs hook commands inside the same sandbox as Execute (there is no setting that takes
 *   them out). The hook must write its state directory, so that directory cannot be denied: it
 *   goes in `sandbox.filesystem.allowWrite` instead (made first: Droid skips a write path that does
 *   not exist), and the agent's shell can write it as well. The hook therefore keeps refusing
 *   every line that may touch it, as without a sandbox.
 * - A denied path that does not exist inside a writable directory is made as an empty placeholder
 *   file while a command (or a hook) runs.
 */

/** The user's Droid settings: the level a project cannot override, and this machine's paths stay out of the project. */
export function droidSettingsPath(env: Env): string {
  return join(home(env), '.factory', 'settings.json');
}

/** The directories Droid needs to exist under a read-only `.claude`. */
export function droidPlaceholders(dir: string): string[] {
  return [join(dir, '.claude', 'commands'), join(dir, '.claude', 'agents')];
}

/**
 * What `init --host droid` write-denies: the default deployment's guarded paths but the state
 * directory (the hook, sandboxed too, writes it), and the project directories that hold
 * persona-gate's files.
 */
export function droidGuards(env: Env, dir: string, policyPath: string): Guarded[] {
  const factory = join(home(env), '.factory');
  const list: Guarded[] = [
    ...projectGuards(env, dir, policyPath).filter((g) => g.what !== 'state'),
    { path: resolve(dirname(policyPath)), tree: true, what: 'policy' },
    { path: join(dir, '.factory'), tree: true, what: 'settings' },
    { path: join(factory, 'settings.json'), tree: false, what: 'settings' },
    { path: join(factory, 'hooks.json'), tree: false, what: 'settings' },
    { path: join(factory, 'mcp.json'), tree: false, what: 'settings' },
  ];
  // A path under a denied directory is not named again: Droid makes a denied file that does not
  // exist (the MCP lock, before a pin) as an empty placeholder, and the hook, sandboxed too, would
  // read that.
  const trees = list.filter((g) => g.tree);
  return list.filter(
    (g, i) => list.findIndex((o) => o.path === g.path) === i && !trees.some((d) => d.path !== g.path && within(g.path, d.path)),
  );
}

/** Turns Droid's sandbox on, write-denies each guarded path and lets the hook write its state directory, keeping every other setting. */
export function mergeDroidSandbox(
  settings: Json,
  guarded: Guarded[],
  stateDir: string,
  path: string,
  t: CliMessages,
): { settings: Json; sandbox: string[]; guarded: number } {
  const next = structuredClone(settings);
  const sandbox = objectAt(next, 'sandbox', path, 'sandbox', t);
  const changed: string[] = [];
  if (sandbox.enabled !== true) {
    sandbox.enabled = true;
    changed.push('sandbox.enabled: true');
  }
  const fs = objectAt(sandbox, 'filesystem', path, 'sandbox.filesystem', t);
  const denyWrite = arrayAt(fs, 'denyWrite', path, 'sandbox.filesystem.denyWrite', t);
  let added = 0;
  for (const g of guarded) {
    if (denyWrite.includes(g.path)) continue;
    denyWrite.push(g.path);
    added++;
  }
  const allowWrite = arrayAt(fs, 'allowWrite', path, 'sandbox.filesystem.allowWrite', t);
  const state = resolve(stateDir);
  if (!allowWrite.includes(state)) {
    allowWrite.push(state);
    changed.push(`sandbox.filesystem.allowWrite: ${state}`);
  }
  return { settings: next, sandbox: changed, guarded: added };
}

/**
 * init's sandbox step for Droid: on where the machine can have it, unless `--no-sandbox`. Planned
 * before anything is written (a settings file that cannot be merged changes nothing); `write`
 * then writes it and returns the lines init prints.
 */
export function planDroidSandbox(
  env: Env,
  dir: string,
  policyPath: string,
  wanted: boolean,
  t: CliMessages,
  platform: NodeJS.Platform = process.platform,
): { write(): string[] } {
  if (!wanted) return { write: () => [t.droidSandboxOptedOut()] };
  const missing = platform === 'linux' ? sandboxMissing(env, platform) : null;
  if (missing === null) return { write: () => [t.droidSandboxNoPlatform(platform)] };
  if (missing.length > 0) return { write: () => [t.initSandboxMissing(missing.join(', '))] };
  const path = droidSettingsPath(env);
  const { settings, original } = readSettings(path, t);
  const stateDir = stateDirFor(env);
  const guards = droidGuards(env, dir, policyPath);
  const merged = mergeDroidSandbox(settings, guards, stateDir, path, t);
  // What is added is recorded, so that uninstall takes back exactly that.
  const record = InstallRecord.open(stateDir, t);
  const owner = recordOwner('droid', dir);
  const made = madeDirs([join(dir, '.claude'), ...droidPlaceholders(dir), join(dir, '.factory'), dirname(path), ...stateDirs(env)]);
  return {
    write() {
      openStateDir(stateDir, t);
      record.noteDirs(owner, made.dirs, made.absent);
      if (merged.sandbox.length > 0 || merged.guarded > 0 || original === null) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, `${JSON.stringify(merged.settings, null, 2)}\n`);
      }
      for (const p of droidPlaceholders(dir)) mkdirSync(p, { recursive: true });
      record.note(
        path,
        owner,
        settings,
        original,
        fragmentOf((empty) => mergeDroidSandbox(empty, guards, stateDir, path, t).settings),
      );
      record.save();
      return [
        merged.sandbox.some((k) => k.startsWith('sandbox.enabled')) ? t.droidSandbox(path) : t.droidSandboxKept(path),
        merged.guarded > 0 ? t.droidGuarded(path, merged.guarded) : t.initGuardedKept(path),
        t.droidReadOnlyDirs(join(dir, '.claude'), join(dir, '.factory')),
        t.droidStateWritable(stateDir),
      ];
    },
  };
}

/** doctor --host droid: whether Droid's sandbox is on at user level and holds persona-gate's files. */
export function droidSandboxFindings(env: Env, dir: string, policyPath: string | null, stateDir: string, t: CliMessages): Finding[] {
  const path = droidSettingsPath(env);
  const settings = readJsonQuiet(path);
  const sandbox = settings && isObject(settings.sandbox) ? settings.sandbox : {};
  if (sandbox.enabled !== true) return [{ level: 'warn', text: t.droidSandboxOff(path), fix: t.fixRegisterHost('droid') }];
  const findings: Finding[] = [{ level: 'ok', text: t.droidSandboxOn(path) }];
  const missing = sandboxMissing(env) ?? [];
  if (missing.length > 0) findings.push({ level: 'fail', text: t.hardNoSandboxDeps(missing.join(', ')), fix: t.fixSandboxDeps() });
  const fs = isObject(sandbox.filesystem) ? sandbox.filesystem : {};
  const denied = (Array.isArray(fs.denyWrite) ? fs.denyWrite : []).filter((p): p is string => typeof p === 'string').map((p) => resolve(p));
  const covered = (p: string) => denied.some((d) => within(resolve(p), d));
  const allowed = (Array.isArray(fs.allowWrite) ? fs.allowWrite : [])
    .filter((p): p is string => typeof p === 'string')
    .map((p) => resolve(p));
  if (covered(stateDir)) findings.push({ level: 'fail', text: t.droidStateDenied(stateDir), fix: t.fixRegisterHost('droid') });
  else if (!allowed.includes(resolve(stateDir)))
    findings.push({ level: 'fail', text: t.droidStateNotAllowed(stateDir), fix: t.fixRegisterHost('droid') });
  else findings.push({ level: 'warn', text: t.droidStateWritable(stateDir) });
  const checks: [string, string][] = [
    ...(policyPath ? ([[policyPath, t.hardWhatPolicy()]] as [string, string][]) : []),
    [path, t.hardWhatSettings()],
  ];
  for (const [p, what] of checks)
    findings.push(
      covered(p)
        ? { level: 'ok', text: t.hardGuarded(what, p) }
        : { level: 'warn', text: t.hardNotGuarded(what, p), fix: t.fixRegisterHost('droid') },
    );
  for (const d of [join(dir, '.claude'), join(dir, '.factory')]) {
    if (!denied.includes(resolve(d))) findings.push({ level: 'warn', text: t.droidDirNotDenied(d), fix: t.fixRegisterHost('droid') });
  }
  if (denied.includes(resolve(dir, '.claude'))) {
    for (const p of droidPlaceholders(dir))
      if (!existsSync(p)) findings.push({ level: 'fail', text: t.droidPlaceholderMissing(p), fix: t.fixRegisterHost('droid') });
  }
  return findings;
}
