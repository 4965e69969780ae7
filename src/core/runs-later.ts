/**
 * Files whose writing makes later calls run commands, whichever tool writes them: the shell reader
 * raises a line that writes one to process_exec, and so does a file tool (SPEC §9.1).
 */

/** Where the known programs of the tables live; a program run by another path is not taken for them. */
export const SYSTEM_DIRS: ReadonlySet<string> = new Set([
  '/bin',
  '/usr/bin',
  '/usr/local/bin',
  '/sbin',
  '/usr/sbin',
  '/usr/local/sbin',
  '/opt/homebrew/bin',
  '/usr/games',
]);

/** The system's program directories, with two more on PATH whose programs the tables do not trust. */
const PROGRAM_DIRS = [...SYSTEM_DIRS, '/usr/local/games', '/snap/bin'];

/** Whether `path` is one of the system's program directories or lies in one (in any case: macOS's disks ignore it). */
function inProgramDirectory(path: string): boolean {
  const lower = path.toLowerCase();
  return PROGRAM_DIRS.some((dir) => lower === dir || lower.startsWith(`${dir}/`));
}

/**
 * Files that make later calls run commands: git's configuration and hooks (`git status` runs
 * core.fsmonitor, `git commit` a hook) — the system's `/etc/gitconfig`, a `~/.gitconfig.local` an
 * include names, `.git/config.worktree` — and ssh's configuration (`git fetch` runs a
 * ProxyCommand: anything under `~/.ssh`, `/etc/ssh/ssh_config.d/`), and the directories that
 * hold them; any file named `config` (a bare repository's, or one made by hand, has it at its
 * top); a file named as a git hook wherever it is (`core.hooksPath` may name any directory:
 * `.husky/pre-commit`, `.githooks/commit-msg`), `update` in a `hooks` directory; curl's and wget's, which name files they write (`output = …` in
 * ~/.curlrc); the toolchain files that choose which program runs for every later call (rustup's
 * `rust-toolchain.toml` with a `path`, which runs its own `cargo` even for `cargo --version`;
 * cargo's `.cargo/config.toml`, whose `rustc-wrapper` `cargo metadata` runs; yarn's `.yarnrc.yml`,
 * whose `yarnPath` every yarn call runs); and the system's program directories, whose programs the
 * reader takes for the known ones, with the usual ones of the home that come first on PATH
 * (`~/.local/bin`); the system's own files (`/etc/ld.so.preload`, `/etc/cron.d`, libraries under
 * `/usr` and `/lib`) and what starts programs for the user (`~/.config/systemd/user`,
 * `~/.config/autostart`, `~/Library/LaunchAgents`, crontabs).
 */
const RUNS_COMMANDS_LATER =
  /(^|\/)(\.git(\/(.+\/)?(config[^/]*|hooks(\/.*)?))?|\.gitconfig([.-][^/]*)?|gitconfig|\.config\/git(\/config)?|\.ssh(\/.*)?|ssh_config(\.d(\/.*)?)?|\.curlrc|\.wgetrc|config|rust-toolchain(\.toml)?|\.cargo\/config(\.toml)?|\.yarnrc(\.yml)?|hooks\/update|applypatch-msg|pre-applypatch|post-applypatch|pre-commit|pre-merge-commit|prepare-commit-msg|commit-msg|post-commit|pre-rebase|post-checkout|post-merge|pre-push|pre-receive|proc-receive|post-receive|post-update|reference-transaction|push-to-checkout|pre-auto-gc|post-rewrite|sendemail-validate|fsmonitor-watchman|post-index-change|p4-[a-z-]+)$|(^|\/)(\.local\/bin|\.cargo\/bin|\.bun\/bin|\.deno\/bin|\.npm-global\/bin|\.pyenv\/shims)(\/|$)|^~\/(bin|go\/bin)(\/|$)|^~\/(\.config\/(systemd|environment\.d|autostart)|Library\/LaunchAgents)(\/|$)|^\/(etc|usr|lib|lib32|lib64|libx32|opt|boot|System|Library)(\/|$)|^\/var\/spool\/cron(\/|$)/i;

/** The names a glob segment must be able to match for a pattern to reach those files. */
export const RUNS_COMMANDS_DIRS: readonly string[] = [
  '.git',
  '.gitconfig',
  '.config',
  '.ssh',
  '.curlrc',
  '.wgetrc',
  'rust-toolchain',
  'rust-toolchain.toml',
  '.cargo',
  '.yarnrc',
  '.yarnrc.yml',
];

/** `path` with `.` segments dropped and each `..` taking the segment before it, as written. */
export function collapseDots(path: string): string {
  const segments: string[] = [];
  for (const segment of path.replace(/\/+/g, '/').split('/')) {
    if (segment === '.') continue;
    if (segment === '..' && segments.length > 0 && segments[segments.length - 1] !== '..' && segments[segments.length - 1] !== '')
      segments.pop();
    else segments.push(segment);
  }
  return segments.join('/').replace(/(.)\/$/, '$1');
}

/** Whether writing `text` (a path as collapseDots leaves it, the home spelled `~`) may make later calls run commands. */
export function runsCommandsLater(text: string): boolean {
  return RUNS_COMMANDS_LATER.test(text) || inProgramDirectory(text);
}

/** Whether writing the file at `path` (literal; `home` the user's home, to spell `~`) may make later calls run commands. */
export function writeRunsCommandsLater(path: string, home: string | undefined): boolean {
  let text = collapseDots(path);
  if (home && home !== '/' && (text === home || text.startsWith(`${home}/`))) text = `~${text.slice(home.length)}`;
  return runsCommandsLater(text);
}
