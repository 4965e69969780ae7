import { segmentMatcher } from '../core/glob';
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { readRegularFile } from './read-file';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { PathEffect, ProtectedPathCheck } from '../core/types';
import { guardWordsFor, type GuardWords } from '../core/guard-words';
import type { Locale } from '../core/messages';
import { prefsFile } from './prefs';

type Env = Readonly<Record<string, string | undefined>>;

/** The real path of `p`, resolving symlinks in whatever prefix of it exists. */
export function realPathOf(p: string): string {
  const missing: string[] = [];
  let current = resolve(p);
  for (;;) {
    try {
      const real = realpathSync(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(p);
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Where writing to `p` really lands: symbolic links followed component by component, dangling ones
 * included (a link to a file that does not exist yet is where the write creates it).
 */
export function landingPathOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // a missing component or a dangling link: walk it
  }
  const parts = resolve(p)
    .split(sep)
    .filter((x) => x !== '');
  let current: string = sep;
  let hops = 0;
  while (parts.length > 0) {
    const part = parts.shift()!;
    const next = join(current, part);
    let isLink = false;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      return join(next, ...parts);
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++hops > 40) return join(next, ...parts);
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      return join(next, ...parts);
    }
    const absolute = isAbsolute(target) ? target : join(current, target);
    const rest = resolve(absolute)
      .split(sep)
      .filter((x) => x !== '');
    parts.unshift(...rest);
    current = sep;
  }
  return current;
}

/**
 * landingPathOf for many paths that share directories (the guarded files: most sit in a few
 * directories under the home directory): each path on the way is looked at once (one lstat, and a
 * readlink for a link), where landingPathOf's realpath would look at every directory of every path
 * again. A link whose target has a `..` segment is left to landingPathOf, whose realpath resolves
 * it physically, so that every answer is landingPathOf's.
 */
export function landingResolver(): (p: string) => string {
  const seen = new Map<string, string | false | null>();
  /** The link's target, false for something that is not a link, null for nothing there. */
  const look = (path: string): string | false | null => {
    let v = seen.get(path);
    if (v === undefined) {
      try {
        v = lstatSync(path).isSymbolicLink() ? readlinkSync(path) : false;
      } catch {
        v = null;
      }
      seen.set(path, v);
    }
    return v;
  };
  // The paths are absolute and normalized (resolve), so a component is appended to its
  // directory by concatenation (childOf): path.join on every step costs a hook's short life far more.
  const under = (dir: string, rest: readonly string[]) => (rest.length === 0 ? dir : childOf(dir, rest.join('/')));
  return (p) => {
    if (sep !== '/') return landingPathOf(p);
    const parts = resolve(p)
      .split('/')
      .filter((x) => x !== '');
    let current = '/';
    let hops = 0;
    while (parts.length > 0) {
      const next = childOf(current, parts.shift()!);
      const target = look(next);
      if (target === null) return under(next, parts);
      if (target === false) {
        current = next;
        continue;
      }
      if (++hops > 40) return landingPathOf(p);
      if (target.split('/').includes('..')) return landingPathOf(p);
      parts.unshift(
        ...resolve(current, target)
          .split('/')
          .filter((x) => x !== ''),
      );
      current = '/';
    }
    return current;
  };
}

export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return p;
}

export function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** What a work tree may track that guards the session, as it appears in git's index. */
const TRACKED_GUARDS = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/persona-gate',
  '.codex/hooks.json',
  '.codex/config.toml',
  '.gemini/settings.json',
  '.gemini/trustedFolders.json',
  '.qwen/settings.json',
  '.factory/hooks.json',
  '.factory/settings.json',
  '.github/hooks/',
];
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const MAX_GITDIR_BYTES = 64 * 1024;

/**
 * Whether a git operation that rewrites the work tree at `dir` to another commit could change a
 * guarded file: the repository's index tracks one. An index that cannot be read counts as yes.
 */
function trackedGuard(dir: string, policyPath: string | null, w: GuardWords): string | null {
  for (let d = dir; ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    let gitDir: string | null = null;
    try {
      const st = lstatSync(dotGit);
      if (st.isDirectory()) gitDir = dotGit;
      else if (st.isFile()) {
        const read = readRegularFile(dotGit, MAX_GITDIR_BYTES);
        const m = read.ok ? /^gitdir:\s*(.+)$/m.exec(read.bytes.toString('utf8')) : null;
        if (m) gitDir = resolve(d, m[1]!.trim());
        else return w.trackedUnreadableGitFile();
      }
    } catch {
      // not here
    }
    if (gitDir !== null) {
      // Never waits on a FIFO or reads a device without end (SPEC §9.7): a regular file, bounded.
      const read = readRegularFile(join(gitDir, 'index'), MAX_INDEX_BYTES);
      if (!read.ok) {
        if (read.code === 'ENOENT') return null;
        return read.code === 'too_large' ? w.trackedIndexTooLarge() : w.trackedIndexUnreadable();
      }
      const index = read.bytes;
      const names = [...TRACKED_GUARDS, ...(policyPath && within(policyPath, d) ? [policyPath.slice(d.length + 1)] : [])];
      for (const name of names) if (index.includes(name)) return w.tracked(name);
      return null;
    }
    if (dirname(d) === d) return null;
  }
}

/** Directories where agent hosts keep their hook registrations, by name. */
const HOST_DIRS = ['.claude', '.codex', '.gemini', '.qwen', '.factory', '.copilot'];

/** Registration and policy files by name, anywhere: what each host reads its hooks from. */
function nameRule(path: string, w: GuardWords): string | null {
  const file = basename(path);
  const dir = basename(dirname(path)).toLowerCase();
  if (dir === '.claude') {
    if (/^settings(\.local)?\.json$/i.test(file)) return w.projectRegistration(file);
    if (/^persona-gate.*\.json$/i.test(file)) return w.aPolicy();
  }
  if (dir === '.codex' && /^(hooks\.json|config\.toml)$/i.test(file)) return w.codexRegistration(file);
  if (dir === '.gemini' && /^(settings|trustedfolders)\.json$/i.test(file)) return w.hostRegistration('Gemini', file);
  if (dir === '.qwen' && /^(settings|trustedfolders)\.json$/i.test(file)) return w.hostRegistration('Qwen', file);
  if (dir === '.factory' && /^(hooks|settings(\.local)?)\.json$/i.test(file)) return w.hostRegistration('Droid', file);
  // Copilot: its trusted folders and settings decide whether a project's hooks run at all (disableAllHooks)
  if (dir === '.copilot' && /^(config|settings(\.local)?)\.json$/i.test(file)) return w.copilotSettings(file);
  if (dir === 'copilot' && basename(dirname(dirname(path))).toLowerCase() === '.github' && /^settings(\.local)?\.json$/i.test(file))
    return w.copilotSettings(file);
  if (dir === 'hooks' && /\.json$/i.test(file) && ['.copilot', '.github'].includes(basename(dirname(dirname(path))).toLowerCase()))
    return w.copilotRegistration(file);
  // MCP server configurations: a server defined there answers the identity read, or runs under a catalogued tool's name
  if (/^\.mcp\.json$/i.test(file)) return w.mcpConfig(file);
  if ((dir === '.factory' && /^mcp\.json$/i.test(file)) || (dir === '.copilot' && /^mcp-config\.json$/i.test(file)))
    return w.mcpConfig(file);
  // git runs what these say (hooks, diff.external, core.fsmonitor, aliases): code the gate never sees
  if (dir === '.git' && file === 'config') return w.gitConfig();
  if (dir === 'hooks' && basename(dirname(dirname(path))) === '.git') return w.gitHook(file);
  return null;
}

interface Guard {
  path: string;
  what: string;
  /** Everything under it is guarded too. */
  tree: boolean;
}

export interface ProtectionOptions {
  policyPath: string | null;
  stateDir: string;
  prefsFile: string;
  /** persona-gate's package root. */
  installDir?: string;
  /** Other files of the installation outside it (the `bin` link a global install makes). */
  installFiles?: string[];
  home?: string;
  env?: Env;
  /** The language of the names a refusal gives the guarded paths; English unless given. */
  locale?: Locale;
}

/** Every file a supported host reads hook registrations from, at user level and above (SPEC §9.5, §10). */
function hostRegistrations(home: string, env: Env, w: GuardWords): Guard[] {
  const codexHome = env.CODEX_HOME?.trim() || join(home, '.codex');
  const guards: Guard[] = [
    { path: join(home, '.claude', 'settings.json'), what: w.userRegistration('settings.json'), tree: false },
    { path: join(home, '.claude', 'settings.local.json'), what: w.userRegistration('settings.local.json'), tree: false },
    { path: '/etc/claude-code', what: w.managedSettings(), tree: true },
    { path: '/Library/Application Support/ClaudeCode', what: w.managedSettings(), tree: true },
    { path: join(codexHome, 'hooks.json'), what: w.codexRegistration('hooks.json'), tree: false },
    { path: join(codexHome, 'config.toml'), what: w.codexConfig('config.toml'), tree: false },
    { path: join(home, '.copilot', 'hooks'), what: w.copilotRegistrations(), tree: true },
    { path: join(home, '.gemini', 'settings.json'), what: w.hostSettings('Gemini'), tree: false },
    { path: join(home, '.gemini', 'trustedFolders.json'), what: w.hostTrustedFolders('Gemini'), tree: false },
    { path: '/etc/gemini-cli', what: w.hostSystemSettings('Gemini'), tree: true },
    { path: join(home, '.qwen', 'settings.json'), what: w.hostSettings('Qwen'), tree: false },
    { path: join(home, '.qwen', 'trustedFolders.json'), what: w.hostTrustedFolders('Qwen'), tree: false },
    { path: '/etc/qwen-code', what: w.hostSystemSettings('Qwen'), tree: true },
    { path: join(home, '.factory', 'hooks.json'), what: w.droidRegistration(), tree: false },
    { path: join(home, '.factory', 'settings.json'), what: w.hostSettings('Droid'), tree: false },
  ];
  // Every shell the agent's host starts reads these first: an alias or function written there runs in later calls.
  for (const rc of [
    '.bashrc',
    '.bash_profile',
    '.bash_login',
    '.bash_logout',
    '.bash_aliases',
    '.profile',
    '.zshrc',
    '.zshenv',
    '.zprofile',
    '.zlogin',
    '.inputrc',
  ]) {
    guards.push({ path: join(home, rc), what: w.startupFile(`~/${rc}`), tree: false });
  }
  guards.push(
    { path: '/etc/profile', what: w.startupFile('/etc/profile'), tree: false },
    { path: '/etc/profile.d', what: w.startupDir('/etc/profile.d'), tree: true },
    { path: '/etc/bash.bashrc', what: w.startupFile('/etc/bash.bashrc'), tree: false },
  );
  // Gemini's home, trusted-folders file and system settings can each be moved by a variable.
  const geminiHome = env.GEMINI_CLI_HOME?.trim();
  if (geminiHome) {
    guards.push(
      { path: join(geminiHome, '.gemini', 'settings.json'), what: w.hostSettings('Gemini'), tree: false },
      { path: join(geminiHome, '.gemini', 'trustedFolders.json'), what: w.hostTrustedFolders('Gemini'), tree: false },
    );
  }
  const qwenHome = env.QWEN_HOME?.trim();
  if (qwenHome)
    guards.push(
      { path: join(qwenHome, 'settings.json'), what: w.hostSettings('Qwen'), tree: false },
      { path: join(qwenHome, 'trustedFolders.json'), what: w.hostTrustedFolders('Qwen'), tree: false },
    );
  for (const [name, what] of [
    ['GEMINI_CLI_TRUSTED_FOLDERS_PATH', w.hostTrustedFolders('Gemini')],
    ['GEMINI_CLI_SYSTEM_SETTINGS_PATH', w.hostSystemSettings('Gemini')],
    ['GEMINI_CLI_SYSTEM_DEFAULTS_PATH', w.hostSystemDefaults('Gemini')],
    ['QWEN_CODE_TRUSTED_FOLDERS_PATH', w.hostTrustedFolders('Qwen')],
    ['QWEN_CODE_SYSTEM_SETTINGS_PATH', w.hostSystemSettings('Qwen')],
    ['QWEN_CODE_SYSTEM_DEFAULTS_PATH', w.hostSystemDefaults('Qwen')],
  ] as const) {
    const moved = env[name]?.trim();
    if (moved) guards.push({ path: moved, what, tree: false });
  }
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  if (configDir) {
    guards.push({
      path: join(configDir, 'settings.json'),
      what: w.configDirRegistration('settings.json'),
      tree: false,
    });
    guards.push({
      path: join(configDir, 'settings.local.json'),
      what: w.configDirRegistration('settings.local.json'),
      tree: false,
    });
  }
  return guards;
}

/** The registration and policy files of every project directory at or above `dir`. */
function projectRegistrations(dir: string, w: GuardWords): Guard[] {
  const guards: Guard[] = [];
  for (let d = dir; ; d = parentOf(d)) {
    const claude = childOf(d, '.claude');
    for (const file of ['settings.json', 'settings.local.json'])
      guards.push({ path: childOf(claude, file), what: w.projectRegistration(file), tree: false });
    guards.push({ path: childOf(claude, 'persona-gate.json'), what: w.aPolicy(), tree: false });
    if (parentOf(d) === d) break;
  }
  return guards;
}

// The guarded paths are built and compared by the dozen on a call that names a path; path.join,
// path.resolve and path.dirname cost a hook's short life several microseconds each. For a path
// that is already absolute and normalized (what resolve returns) these give the same answers.
const UNNORMALIZED = /\/\/|\/\.\.?(\/|$)/;

/** path.resolve(p), without the call when p is already absolute and normalized. */
export function absolute(p: string): string {
  return sep === '/' && p.startsWith('/') && (p.length === 1 || !p.endsWith('/')) && !UNNORMALIZED.test(p) ? p : resolve(p);
}

/** path.join(dir, name) for an absolute normalized dir and a name that is one component. */
export function childOf(dir: string, name: string): string {
  if (sep !== '/') return join(dir, name);
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** path.dirname(dir) for an absolute normalized dir. */
export function parentOf(dir: string): string {
  if (sep !== '/') return dirname(dir);
  const slash = dir.lastIndexOf('/');
  return slash <= 0 ? '/' : dir.slice(0, slash);
}

type Segments = string[];
const segmentsOf = (p: string): Segments => p.split(sep).filter((x) => x !== '');

/**
 * How a glob pattern relates to a path: it may name the path itself (`exact`), a directory above
 * it (`above`), or something inside it (`below`).
 */
function globReaches(pattern: Segments, path: Segments): { exact: boolean; above: boolean; below: boolean } {
  const result = { exact: false, above: false, below: false };
  const memo = new Set<string>();
  const walk = (p: number, q: number): void => {
    const key = `${p}:${q}`;
    if (memo.has(key)) return;
    memo.add(key);
    if (p === pattern.length) {
      if (q === path.length) result.exact = true;
      else result.above = true;
      return;
    }
    if (q === path.length) {
      result.below = true;
      return;
    }
    const seg = pattern[p]!;
    if (seg === '**') {
      walk(p + 1, q);
      walk(p, q + 1);
      return;
    }
    if (/[*?[]|[@!+]\(/.test(seg) ? segmentMatcher(seg).test(path[q]!) : seg === path[q]) walk(p + 1, q + 1);
  };
  walk(0, 0);
  return result;
}

/**
 * The guarded-path check of gate 0 (SPEC §9.5). For each effect:
 * - `write`: the path, followed through symbolic links (dangling ones too) and hard links, is a
 *   guarded file or inside a guarded directory;
 * - `destroy` and `link`: as `write`, or the path is a directory above something guarded;
 * - `into`: as `write`, or the path is the directory that holds a guarded file;
 * - `mention`: as `destroy`, except the working directory, the home directory and their parents
 *   (code handed `.` may do anything there; that residue is the persona's shell access).
 * A glob pattern counts when it may expand to such a path.
 */
export function makeProtectedPathCheck(opts: ProtectionOptions): ProtectedPathCheck {
  const env = opts.env ?? process.env;
  const home = opts.home ?? env.HOME ?? homedir();
  const w = guardWordsFor(opts.locale ?? 'en');
  let fixed: Guard[] | null = null;
  let fileIds: Map<string, string> | null = null;
  const byCwd = new Map<string, Guard[]>();
  const baseGuards = (): Guard[] => {
    if (fixed) return fixed;
    const given: Guard[] = [
      ...(opts.policyPath ? [{ path: opts.policyPath, what: w.thePolicy(), tree: false }] : []),
      { path: opts.stateDir, what: w.stateDir(), tree: true },
      { path: opts.prefsFile, what: w.prefs(), tree: false },
      ...(opts.installDir ? [{ path: opts.installDir, what: w.installation(), tree: true }] : []),
      ...(opts.installFiles ?? []).map((path) => ({ path, what: w.installation(), tree: false })),
      ...(env.CLAUDE_PROJECT_DIR?.trim() ? projectRegistrations(resolve(env.CLAUDE_PROJECT_DIR), w) : []),
      ...hostRegistrations(home, env, w),
    ];
    const out: Guard[] = [];
    const landing = landingResolver();
    for (const g of given) {
      const lexical = absolute(expandHome(g.path, home));
      out.push({ ...g, path: lexical });
      const real = landing(lexical);
      if (real !== lexical) out.push({ ...g, path: real });
    }
    return (fixed = out);
  };
  const guardsFor = (cwd: string): Guard[] => {
    let list = byCwd.get(cwd);
    if (!list) {
      const real = realPathOf(cwd);
      list = [...baseGuards(), ...projectRegistrations(cwd, w), ...(real !== cwd ? projectRegistrations(real, w) : [])];
      byCwd.set(cwd, list);
    }
    return list;
  };
  /** dev:ino of the guarded files that exist, to catch a hard link made before. */
  const guardedFileIds = (): Map<string, string> => {
    if (fileIds) return fileIds;
    fileIds = new Map();
    for (const g of baseGuards()) {
      if (g.tree) continue;
      try {
        const st = statSync(g.path, { bigint: true });
        if (st.isFile()) fileIds.set(`${st.dev}:${st.ino}`, g.what);
      } catch {
        // not there
      }
    }
    return fileIds;
  };

  /** A host directory (`.claude`, …) that exists or would be a project's own, or a directory that holds one. */
  const holdsHostDir = (dir: string, cwd: string): string | null => {
    if (HOST_DIRS.includes(basename(dir).toLowerCase()) && (existsSync(dir) || within(cwd, dirname(dir))))
      return w.holdsRegistrations(basename(dir));
    for (const name of HOST_DIRS) if (existsSync(join(dir, name))) return w.holdsRegistrations(join(dir, name));
    return null;
  };

  const checkLiteral = (path: string, effect: PathEffect, guards: Guard[], cwd: string): string | null => {
    const candidates = [path, landingPathOf(path)];
    for (const p of candidates) {
      for (const g of guards) if (g.tree ? within(p, g.path) : p === g.path) return g.what;
      const named = nameRule(p, w);
      if (named) return named;
    }
    if (effect === 'write') {
      try {
        const st = statSync(path, { bigint: true });
        if (st.isFile() && st.nlink > 1n) {
          const what = guardedFileIds().get(`${st.dev}:${st.ino}`);
          if (what) return w.hardLink(what);
        }
      } catch {
        // nothing there yet
      }
      return null;
    }
    if (effect === 'into') {
      for (const p of candidates) {
        for (const g of guards) if (!g.tree && dirname(g.path) === p) return g.what;
        if (
          HOST_DIRS.includes(basename(p).toLowerCase()) ||
          (basename(p).toLowerCase() === 'hooks' && ['.copilot', '.github'].includes(basename(dirname(p)).toLowerCase()))
        ) {
          return w.holdsRegistrations(basename(p));
        }
      }
      return null;
    }
    // destroy, beneath, link, mention: also a directory above something guarded
    const exempt = effect === 'mention' ? (p: string) => within(cwd, p) || within(home, p) || within(realPathOf(cwd), p) : () => false;
    for (const p of candidates) {
      if (exempt(p)) continue;
      for (const g of guards) if (within(g.path, p)) return w.inside(g.what, p);
      const holds = holdsHostDir(p, cwd);
      if (holds) return holds;
    }
    return null;
  };

  const checkPattern = (path: string, effect: PathEffect, guards: Guard[]): string | null => {
    const segments = segmentsOf(path);
    const firstGlob = segments.findIndex((s) => /[*?[]|[@!+]\(/.test(s));
    const literalPrefix = sep + segments.slice(0, firstGlob).join(sep);
    const realPrefix = landingPathOf(literalPrefix);
    const variants = [segments, [...segmentsOf(realPrefix), ...segments.slice(firstGlob)]];
    for (const pattern of variants) {
      for (const g of guards) {
        const reach = globReaches(pattern, segmentsOf(g.path));
        if (reach.exact || (g.tree && reach.below)) return g.what;
        if (effect === 'into' && !g.tree && globReaches(pattern, segmentsOf(dirname(g.path))).exact) return g.what;
        if ((effect === 'destroy' || effect === 'beneath' || effect === 'link' || effect === 'mention') && reach.above) {
          if (effect === 'mention') continue;
          return g.what;
        }
      }
      // a pattern whose last segments could name a host directory or registration file
      const last = pattern[pattern.length - 1] ?? '';
      if (effect !== 'write' && effect !== 'into' && HOST_DIRS.some((d) => segmentMatcher(last).test(d)) && /[*?[]/.test(last)) {
        if (effect === 'mention') continue;
        const parent = sep + pattern.slice(0, -1).join(sep);
        if (!/[*?[]/.test(parent) && HOST_DIRS.some((d) => existsSync(join(parent, d)))) return w.patternHoldsRegistrations(path);
      }
    }
    return null;
  };

  return (path, cwd, effect = 'write', pattern = false) => {
    const base = cwd ?? process.cwd();
    const spelled = expandHome(path, home);
    const kernel = kernelPath(base, spelled);
    // `d/../x` where d does not exist yet: a link the line makes first decides where it lands
    if (kernel === null && effect !== 'mention') return w.dotDotUnknown(path);
    const absolute = kernel ?? resolve(base, spelled);
    const guards = guardsFor(resolve(base));
    if (effect === 'tracked') return trackedGuard(absolute, opts.policyPath ? resolve(opts.policyPath) : null, w);
    // a path through a file descriptor or another process's view (`/dev/fd/3/…` after `exec 3< .claude`) cannot be resolved here
    if (/^\/(dev\/fd|proc\/.+\/(fd|cwd|root|map_files))\/[^/]+\/./.test(absolute) || /^\/proc\/.*\/(cwd|root)(\/|$)/.test(absolute)) {
      return effect === 'mention' ? null : w.throughDescriptor();
    }
    if (/^~[^/]/.test(path) && effect !== 'mention') return w.otherHome();
    // a pattern under /proc may reach a process's cwd, root or descriptors (`/proc/self/cw?/…`)
    if (pattern && effect !== 'mention' && /^\/proc\//.test(absolute)) return w.patternThroughProcess();
    if (pattern && /[*?[]|[@!+*?]\(/.test(path)) return checkPattern(absolute, effect, guards);
    return checkLiteral(absolute, effect, guards, base);
  };
}

/**
 * A path resolved as the kernel resolves it (SPEC §9.1): a symbolic link before the `..` that
 * follows it (`d/../x` with d a link to .claude/agents is .claude/x), where path.resolve drops
 * `d/..` first. Null when a component before a `..` does not exist (or is a dangling link): what
 * it will be when the call runs is not known now.
 */
export function kernelPath(base: string, path: string): string | null {
  const segments = path.split(sep);
  if (!segments.includes('..')) return resolve(base, path);
  let current = isAbsolute(path) ? sep : resolve(base);
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!existsSync(current)) return null;
      current = dirname(landingPathOf(current));
      continue;
    }
    current = join(current, segment);
  }
  return current;
}

/** The package root: the nearest directory above `dir` whose package.json names persona-gate. */
export function packageRoot(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    try {
      const read = readRegularFile(join(d, 'package.json'), 1024 * 1024);
      if (read.ok && /"name"\s*:\s*"persona-gate"/.test(read.bytes.toString('utf8'))) return d;
    } catch {
      // keep looking
    }
    if (dirname(d) === d) return dirname(dir);
  }
}

/**
 * What a running persona-gate guards: its policy, state directory, preferences, its own
 * installation (the package root, `hooks/hooks.json` included, and the `bin` link it was started
 * through) and every host's hook registrations.
 */
export function gateProtections(policyPath: string | null, stateDir: string, env: Env, locale: Locale = 'en'): ProtectedPathCheck {
  let check: ProtectedPathCheck | null = null;
  return (path, cwd, effect, pattern) => {
    if (!check) {
      const root = packageRoot(__dirname);
      const started = process.argv[1];
      const installFiles = started && !within(resolve(started), root) ? [resolve(started)] : [];
      check = makeProtectedPathCheck({ policyPath, stateDir, prefsFile: prefsFile(env), installDir: root, installFiles, env, locale });
    }
    return check(path, cwd, effect, pattern);
  };
}
