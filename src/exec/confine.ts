import { isAbsolute, relative, sep } from 'node:path';

/**
 * The confinement a launched program runs in (SPEC §9.3): it runs outside the agent's sandbox, so
 * it must not be able to write what the sandbox protects. Everything is read-only but the project;
 * inside the project, persona-gate's guarded paths and what the agent host reads as configuration
 * or code stay read-only too. The domain's own state directory (where `identity.profile_state`
 * names its active profile) stays writable: the program changes its profile there, judged. The
 * other launched programs and the tickets' secrets are hidden, as the sandbox hides them, so that
 * what the program starts (a build's scripts) cannot start them unchecked. The program keeps the
 * network (its effect is the point) and its stdin, stdout, stderr and exit status.
 */

/** What a project holds that the host, git or a shell reads as settings or code (Claude Code's own sandbox keeps these read-only). */
export const PROJECT_CONFIGURATION = [
  '.claude',
  '.git',
  '.mcp.json',
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
  '.vscode',
  '.idea',
] as const;

function within(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export interface Confinement {
  project: string;
  cwd: string;
  /** Guarded paths (absolute); those inside the project are bound read-only. */
  readOnly: readonly string[];
  /** A temporary directory the program may write, when it holds no guarded path. */
  tmpdir: string | null;
  /** Directories outside the project the program writes (its own state), when they hold no guarded path. */
  writable?: readonly string[];
  /** What the program and everything it starts must not find: a directory emptied, a file made /dev/null. */
  hidden?: readonly { path: string; tree: boolean }[];
  program: string;
  args: readonly string[];
  exists: (path: string) => boolean;
}

/** bubblewrap's arguments; the project must be an absolute directory other than `/`. */
export function bwrapArgs(c: Confinement): string[] {
  // a process namespace of its own: the host's processes, and their /proc/PID/root (the unconfined
  // root), are out of its sight
  // and no capability, even started by root: none to unmount what hides or keeps read-only
  const args = [
    '--unshare-pid',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--bind',
    c.project,
    c.project,
  ];
  const free = (dir: string) => !within(dir, c.project) && !c.readOnly.some((p) => within(p, dir) || within(dir, p)) && c.exists(dir);
  for (const dir of c.writable ?? []) if (free(dir)) args.push('--bind', dir, dir);
  const guarded = [...c.readOnly, ...PROJECT_CONFIGURATION.map((p) => `${c.project}${sep}${p}`)];
  const bound = new Set<string>();
  for (const path of guarded) {
    if (bound.has(path) || !within(path, c.project) || path === c.project || !c.exists(path)) continue;
    bound.add(path);
    args.push('--ro-bind', path, path);
  }
  if (c.tmpdir !== null && free(c.tmpdir)) args.push('--bind', c.tmpdir, c.tmpdir);
  // never the program's own installation; a project or working directory inside a hidden one is
  // hidden with it (the start then fails: nothing in it is to be reached from here)
  for (const h of c.hidden ?? []) {
    if (!c.exists(h.path) || within(c.program, h.path)) continue;
    args.push(...(h.tree ? ['--tmpfs', h.path] : ['--ro-bind', '/dev/null', h.path]));
  }
  args.push('--die-with-parent', '--chdir', c.cwd, '--', c.program, ...c.args);
  return args;
}

/** Why a directory cannot be the one the program writes, or null. */
export function projectProblem(project: string): string | null {
  if (!isAbsolute(project)) return `the project directory ${project} is not absolute`;
  if (relative('/', project) === '') return 'the project directory is /';
  return null;
}
