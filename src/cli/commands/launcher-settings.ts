import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { Env } from '../../core/decide';
import { bashPrograms, buildPolicyIndex } from '../../core/policy-index';
import { execMapFile, hiddenPaths, PLAIN_WORD, quoteWord, readExecMap, type ExecMap } from '../../exec/map';
import type { BrokerPaths } from '../../exec/brokered';
import { ticketsDir } from '../../exec/tickets';
import { validatePolicy } from '../../policy/validate';
import { profileFilePath } from '../../io/profile-state';
import type { CliMessages } from '../messages';
import { packageRoot } from './starter';
import {
  arrayAt,
  editRule,
  firstOnPath,
  isObject,
  objectAt,
  readJsonQuiet,
  within,
  type Finding,
  type Guarded,
  type Json,
} from './hardened';
import { writePrivateJson, type InstallRecord } from './install-record';

/**
 * The excluded launcher in Claude Code's settings (SPEC §9.3): each catalogued program the policy's
 * `bash` prefixes name starts only through persona-gate's launcher, which Claude Code lets out of
 * its sandbox as exactly `<node> <launcher> <real program> *` (one absolute entry per program, all
 * three files read-only for the agent), while the program's installation is hidden from the sandboxed shell
 * (`sandbox.filesystem.denyRead`) and from the Read tool (`permissions.deny` `Read(//…)`). The map
 * of launched programs goes to the state directory, where the hook and the launcher read it.
 *
 * Not launched: a program not on PATH, one found inside the project (it could be planted), a
 * system program other programs run (`/usr/bin/git`: hiding it breaks them), and a path a settings
 * pattern cannot hold. The launcher and its Node must lie outside the project too.
 */

/** Directories whose programs belong to the system's packages. */
const SYSTEM_DIRS = new Set(['/bin', '/usr/bin', '/sbin', '/usr/sbin']);

export function launcherPath(): string {
  return join(packageRoot(), 'dist', 'persona-gate-exec.cjs');
}

/** Where the broker and the shims of launched programs live: the state directory, which the sandbox write-denies. */
export function brokerPaths(stateDir: string): BrokerPaths {
  return {
    broker: join(packageRoot(), 'dist', 'persona-gate-broker.cjs'),
    shims: join(stateDir, 'shims'),
    requests: join(stateDir, 'broker', 'requests'),
  };
}

/** A launched program's shim: the shim bundle, by an absolute Node, told the broker's FIFO and the program's name. */
export function shimScript(runtime: string, paths: BrokerPaths, name: string): string {
  const shim = join(dirname(paths.broker), 'persona-gate-shim.cjs');
  return `#!/bin/sh\nexec ${[runtime, shim, paths.requests, name].map(quoteWord).join(' ')} "$@"\n`;
}

/** Writes the shims of `names` (each whole or not at all). */
function writeShims(runtime: string, paths: BrokerPaths, names: readonly string[]): void {
  mkdirSync(paths.shims, { recursive: true, mode: 0o755 });
  for (const name of names) {
    const file = join(paths.shims, name);
    writeFileSync(`${file}.new`, shimScript(runtime, paths, name), { mode: 0o755 });
    chmodSync(`${file}.new`, 0o755);
    renameSync(`${file}.new`, file);
  }
}

/**
 * After uninstall changed the map: the shims of programs it no longer launches go, and with the
 * last of them the shims' directory and the broker's FIFO. Returns the paths removed.
 */
export function pruneShims(stateDir: string): string[] {
  let map: ExecMap | null = null;
  try {
    map = readExecMap(stateDir);
  } catch {
    map = null;
  }
  const paths = brokerPaths(stateDir);
  const keep = new Set(Object.keys(map?.programs ?? {}));
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(paths.shims);
  } catch {
    names = [];
  }
  for (const name of names) {
    if (keep.has(name)) continue;
    rmSync(join(paths.shims, name), { force: true });
    removed.push(join(paths.shims, name));
  }
  if (keep.size === 0) {
    for (const path of [paths.shims, paths.requests, dirname(paths.requests)])
      if (existsSync(path)) {
        rmSync(path, { recursive: true, force: true });
        removed.push(path);
      }
  }
  return removed;
}

/** The excluded command of a launched program: the launcher run by an absolute Node, never one found on PATH. */
export function excludedEntry(runtime: string, launcher: string, program: string): string {
  return `${runtime} ${launcher} ${program} *`;
}

function readRule(h: { path: string; tree: boolean }): string {
  return `Read(/${h.path.split(sep).join('/')}${h.tree ? '/**' : ''})`;
}

/** The programs a policy's `bash` prefixes name, or null when it does not validate. */
export function cataloguedPrograms(policyPath: string): string[] | null {
  return readCatalogue(policyPath, {})?.names ?? null;
}

/** The programs, and the directory of the domain's profile state file (`~` is the home), which the launched program writes. */
function readCatalogue(
  policyPath: string,
  env: Env,
): { names: string[]; closed: Set<string>; writable: string[]; profile: string | null } | null {
  try {
    const result = validatePolicy(JSON.parse(readFileSync(policyPath, 'utf8')), 'en', policyPath);
    if (!result.ok) return null;
    const names = [...bashPrograms(buildPolicyIndex(result.policy, '', policyPath))].sort();
    const declared = result.policy.catalog.programs ?? {};
    const closed = new Set(names.filter((n) => declared[n]?.closed === true));
    const state = result.policy.identity?.profile_state;
    const file = state !== undefined && 'file' in state && typeof state.file === 'string' ? state.file : null;
    // where the hook reads it (io/profile-state.ts); a home-relative one with no home is nowhere
    const path = file === null || ((file === '~' || file.startsWith('~/')) && !env.HOME) ? null : profileFilePath(file, policyPath, env);
    return { names, closed, writable: path === null ? [] : [dirname(path)], profile: path };
  } catch {
    return null;
  }
}

/** The name errors give the launcher's entries, made in memory before they join a file. */
const LAUNCHER_ENTRIES = '(launcher entries)';

function pushNew(list: unknown[], value: string): number {
  if (list.includes(value)) return 0;
  list.push(value);
  return 1;
}

/**
 * Adds every list entry of `fragment` (launcher entries as `mergeLaunchers` made them) to the same
 * list of `settings`, the file at `path`, in place; returns how many were new. A member of another
 * shape where a list or an object goes is an error, never replaced.
 */
export function mergeLists(settings: Json, fragment: Json, path: string, t: CliMessages, field = ''): number {
  let added = 0;
  for (const [key, value] of Object.entries(fragment)) {
    const name = field === '' ? key : `${field}.${key}`;
    if (Array.isArray(value)) {
      for (const v of value) added += typeof v === 'string' ? pushNew(arrayAt(settings, key, path, name, t), v) : 0;
    } else if (isObject(value)) added += mergeLists(objectAt(settings, key, path, name, t), value, path, t, name);
  }
  return added;
}

/**
 * Adds the launcher's entries to `settings` (in place), writes the map of launched programs, and
 * says what it did in `lines`. Returns how many settings entries it added.
 *
 * `closedOnly` (the default deployment): only the programs the policy declares closed are
 * launched. Every invocation of such a program is catalogued, so hiding it from the sandboxed
 * shell takes nothing ordinary away; an open program (npm, gh) stays where other programs find it.
 *
 * The map is one per state directory, shared by every project of this user: what it launched for
 * another project stays in it.
 */
export function mergeLaunchers(
  settings: Json,
  opts: {
    env: Env;
    dir: string;
    policyPath: string;
    stateDir: string;
    guarded: readonly Guarded[];
    closedOnly?: boolean;
    prepareState?: () => void;
    /** Where what is added to the map (and the tickets' directory, when made) is recorded for uninstall. */
    recorded?: { record: InstallRecord; owner: string };
  },
  lines: string[],
  t: CliMessages,
): number {
  const catalogue = readCatalogue(opts.policyPath, opts.env);
  if (catalogue === null) {
    lines.push(t.launchNoPolicy(opts.policyPath));
    return 0;
  }
  const names = opts.closedOnly === true ? catalogue.names.filter((n) => catalogue.closed.has(n)) : catalogue.names;
  const launcher = launcherPath();
  const runtime = realpathSync(process.execPath);
  const programs: Record<string, string> = {};
  let added = 0;
  for (const name of names) {
    const found = firstOnPath(name, opts.env, true);
    if (found === null) {
      lines.push(t.initNotLaunched(name, t.launcherNotOnPath()));
      continue;
    }
    const real = realpathSync(found);
    if (within(resolve(found), opts.dir) || within(real, opts.dir)) lines.push(t.initNotLaunched(name, t.launchInProject(found)));
    else if (SYSTEM_DIRS.has(dirname(real))) lines.push(t.initNotLaunched(name, t.launchSystem(real)));
    else if (within(runtime, opts.dir) || within(launcher, opts.dir))
      lines.push(t.initNotLaunched(name, t.launchInProject(within(runtime, opts.dir) ? runtime : launcher)));
    else if (![real, launcher, runtime].every((p) => PLAIN_WORD.test(p)))
      lines.push(t.initNotLaunched(name, t.launchOddPath([real, launcher, runtime].find((p) => !PLAIN_WORD.test(p))!)));
    else {
      programs[name] = real;
      const hidden = hiddenPaths(real, name);
      added += mergeLists(
        settings,
        {
          sandbox: {
            excludedCommands: [excludedEntry(runtime, launcher, real)],
            filesystem: { denyRead: hidden.map((h) => h.path), denyWrite: hidden.map((h) => h.path) },
          },
          permissions: { deny: hidden.map((h) => readRule(h)) },
        },
        LAUNCHER_ENTRIES,
        t,
      );
      lines.push(t.initLaunched(name, real));
    }
  }
  // The tickets' secrets stay outside the sandbox: the hook writes each into the call it rewrites.
  if (Object.keys(programs).length > 0) {
    opts.prepareState?.();
    const tickets = ticketsDir(opts.stateDir);
    opts.recorded?.record.noteDirs(opts.recorded.owner, [tickets]);
    mkdirSync(tickets, { recursive: true, mode: 0o700 });
    added += mergeLists(
      settings,
      { sandbox: { filesystem: { denyRead: [tickets] } }, permissions: { deny: [readRule({ path: tickets, tree: true })] } },
      LAUNCHER_ENTRIES,
      t,
    );
  }
  // The domain's active profile changes only through the launched program, judged (SPEC §9.4): not
  // from the sandboxed shell, and not by Claude Code's edit tools, which run outside the sandbox.
  if (Object.keys(programs).length > 0 && catalogue.profile !== null) {
    const profile = catalogue.profile;
    added += mergeLists(
      settings,
      { sandbox: { filesystem: { denyWrite: [profile] } }, permissions: { deny: [editRule({ path: profile, tree: false })] } },
      LAUNCHER_ENTRIES,
      t,
    );
    lines.push(t.initProfileGuarded(profile));
  }
  let before: ExecMap | null = null;
  try {
    before = readExecMap(opts.stateDir);
  } catch {
    before = null; // not a map: replaced
  }
  // Another project's launched programs stay, unless this runtime or launcher replaced theirs.
  const kept = before !== null && before.runtime === runtime && before.launcher === launcher ? before : null;
  if (Object.keys(programs).length === 0 && kept === null && before === null && opts.closedOnly === true) return added;
  const launched = { ...(kept?.programs ?? {}), ...programs };
  // Other programs (a script, make) start a launched program through its shim and the broker.
  const broker = brokerPaths(opts.stateDir);
  if (Object.keys(launched).length > 0) {
    opts.recorded?.record.noteDirs(opts.recorded.owner, [broker.shims]);
    writeShims(runtime, broker, Object.keys(launched));
  }
  const map: ExecMap = {
    v: 1,
    runtime,
    launcher,
    programs: launched,
    readOnly: [...new Set([...(kept?.readOnly ?? []), ...opts.guarded.map((g) => g.path)])],
    writable: [...new Set([...(kept?.writable ?? []), ...catalogue.writable])],
    ...(Object.keys(launched).length > 0 ? { broker } : {}),
  };
  const file = execMapFile(opts.stateDir);
  if (opts.recorded) {
    const fragment: Json = {
      v: 1,
      runtime,
      launcher,
      programs,
      readOnly: opts.guarded.map((g) => g.path),
      writable: catalogue.writable,
      ...(map.broker !== undefined ? { broker: { ...map.broker } } : {}),
    };
    const text = kept === null ? null : readFileSync(file, 'utf8');
    opts.recorded.record.note(file, opts.recorded.owner, kept === null ? {} : (kept as unknown as Json), text, fragment);
  }
  writePrivateJson(file, map);
  return added;
}

/** doctor --hardened: each catalogued program launched, excluded and hidden, in user or managed settings. */
export function launcherFindings(opts: {
  env: Env;
  dir: string;
  stateDir: string;
  policyPath: string | null;
  userPath: string;
  managedPath: string;
  t: CliMessages;
  missing: 'warn' | 'fail';
}): Finding[] {
  const { t, missing } = opts;
  let map: ExecMap | null = null;
  try {
    map = readExecMap(opts.stateDir);
  } catch {
    map = null;
  }
  const names = opts.policyPath ? (cataloguedPrograms(opts.policyPath) ?? []) : [];
  // No map: init --hardened has not run. A map without programs: init said why each was not launched.
  if (map === null) return names.length > 0 ? [{ level: missing, text: t.hardNoLaunchMap(names.join(', ')), fix: t.fixHardened() }] : [];
  if (Object.keys(map.programs).length === 0) return [];
  const layers = [readJsonQuiet(opts.userPath), readJsonQuiet(opts.managedPath)].filter((s): s is Json => s !== null);
  const listed = (get: (s: Json) => unknown, value: string) =>
    layers.some((s) => {
      const list = get(s);
      return Array.isArray(list) && list.includes(value);
    });
  const sandboxOf = (s: Json): Json => (isObject(s.sandbox) ? s.sandbox : {});
  const findings: Finding[] = [];
  let launcherOk = false;
  try {
    accessSync(map.launcher, constants.X_OK);
    launcherOk = existsSync(map.launcher);
  } catch {
    launcherOk = false;
  }
  if (!launcherOk) findings.push({ level: missing, text: t.hardNoLauncher(map.launcher), fix: t.fixHardened() });
  for (const [name, program] of Object.entries(map.programs)) {
    const entry = excludedEntry(map.runtime, map.launcher, program);
    const excluded = listed((s) => sandboxOf(s).excludedCommands, entry);
    const hidden = hiddenPaths(program, name).every(
      (h) =>
        listed((s) => (isObject(sandboxOf(s).filesystem) ? (sandboxOf(s).filesystem as Json).denyRead : undefined), h.path) &&
        listed((s) => (isObject(s.permissions) ? s.permissions.deny : undefined), readRule(h)),
    );
    if (!excluded) findings.push({ level: missing, text: t.hardNotExcluded(name, entry), fix: t.fixHardened() });
    if (!hidden) findings.push({ level: missing, text: t.hardNotHidden(name, program), fix: t.fixHardened() });
    if (excluded && hidden) findings.push({ level: 'ok', text: t.hardLaunched(name, program) });
  }
  // the domain's active profile, which only the launched program, judged, may switch (SPEC §9.4)
  const profile = opts.policyPath ? (readCatalogue(opts.policyPath, opts.env)?.profile ?? null) : null;
  if (profile !== null) {
    const guarded =
      listed((s) => (isObject(sandboxOf(s).filesystem) ? (sandboxOf(s).filesystem as Json).denyWrite : undefined), profile) &&
      listed((s) => (isObject(s.permissions) ? s.permissions.deny : undefined), editRule({ path: profile, tree: false }));
    findings.push(
      guarded
        ? { level: 'ok', text: t.hardProfileGuarded(profile) }
        : { level: missing, text: t.hardProfileOpen(profile), fix: t.fixHardened() },
    );
  }
  // A project's own exclusions run outside the sandbox, where the launched programs are not hidden
  // (Claude Code honours them unless managed settings or a --settings file say allowUnsandboxedCommands: false).
  const managed = readJsonQuiet(opts.managedPath);
  if (!(managed && sandboxOf(managed).allowUnsandboxedCommands === false)) {
    for (const file of [join(opts.dir, '.claude', 'settings.json'), join(opts.dir, '.claude', 'settings.local.json')]) {
      const project = readJsonQuiet(file);
      const entries = project ? sandboxOf(project).excludedCommands : undefined;
      if (Array.isArray(entries) && entries.length > 0)
        findings.push({
          level: missing,
          text: t.hardProjectExcluded(file, entries.map(String).join(', ')),
          fix: t.fixProjectExcluded(opts.managedPath),
        });
    }
  }
  return findings;
}
