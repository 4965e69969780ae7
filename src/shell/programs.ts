import type { Level } from '../core/levels';

/**
 * What persona-gate knows about the programs a command line may run (SPEC §9.1), as data: the
 * README lists these tables. A program in none of them — an interpreter, a build tool, a test
 * runner, anything unknown — is `process_exec` and opaque: the gate cannot read what it will run.
 */

// The tables of names below are prototype-less dictionaries (`__proto__: null`; TypeScript types
// it as a member, hence `as never`): no program is found in one by an inherited name (`toString`,
// `constructor` …), and V8 makes each in one step where a literal of many members costs the hook a
// new shape per member.

/** Shell builtins and programs that change no file and reach no network: level `none`. */
export const BUILTINS: readonly string[] = [
  ':', 'true', 'false', 'echo', 'printf', 'test', '[', 'cd', 'pushd', 'popd', 'dirs', 'pwd', 'export', 'unset',
  'set', 'shift', 'read', 'local', 'declare', 'typeset', 'readonly', 'let', 'wait', 'jobs', 'exit', 'return',
  'break', 'continue', 'type', 'hash', 'umask', 'ulimit', 'shopt', 'getopts', 'times', 'help', 'sleep', 'which',
  'basename', 'dirname', 'seq', 'date', 'whoami', 'id', 'uname', 'hostname', 'nproc', 'printenv', 'tty',
  'logname', 'groups', 'arch', 'expr', 'clear', 'tput', 'cal', 'factor', 'true', 'disown', 'unalias',
  // PowerShell
  'write-output', 'write-host', 'get-date', 'get-location', 'gl', 'pwd', 'set-location', 'sl', 'push-location',
  'pop-location', 'join-path', 'split-path', 'out-null', 'out-string', 'get-command', 'gcm', 'get-help',
  'measure-object', 'measure', 'select-object', 'select', 'sort-object', 'sort', 'format-table', 'ft', 'format-list',
  'fl', 'convertto-json', 'convertfrom-json', 'group-object', 'get-member', 'gm', 'write-error', 'write-verbose',
  'write-warning', 'start-sleep', 'get-variable', 'set-variable', 'new-variable', 'get-host',
];

/**
 * The programs `xargs` may run with arguments it reads at run time (without -I): they only read
 * and print, whatever options and operands they are handed. Any other program under `xargs` runs
 * code the gate cannot read (SPEC §9.3 has `xargs` among the runners): options handed at run time
 * can make a reader write (`sort -o`, `find -delete`), and a writer's targets are not in the line.
 */
export const READS_WHATEVER_ARGUMENTS: readonly string[] = [
  'echo', 'printf', 'true', 'false', 'test', '[', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'ls', 'stat', 'du',
  'basename', 'dirname', 'realpath', 'readlink', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'cksum', 'cut', 'nl', 'od',
  'strings', 'cmp', 'comm',
];

/** Programs that read files and print: level `read_only`. Their arguments are never run. */
export const READERS: readonly string[] = [
  'cat', 'tac', 'less', 'more', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'ls', 'll', 'dir',
  'vdir', 'tree', 'stat', 'file', 'wc', 'du', 'df', 'diff', 'cmp', 'comm', 'jq', 'cut', 'tr', 'column', 'nl',
  'fold', 'fmt', 'paste', 'join', 'od', 'hexdump', 'strings', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum',
  'sha512sum', 'md5sum', 'b2sum', 'cksum', 'sum', 'base64', 'base32', 'readlink', 'realpath', 'locate',
  'whereis', 'ps', 'pgrep', 'pstree', 'lsof', 'free', 'uptime', 'w', 'who', 'zcat', 'zgrep', 'bzcat', 'xzcat',
  'man', 'info', 'rev', 'expand', 'unexpand', 'numfmt', 'look', 'pr', 'tsort', 'diff3', 'colordiff', 'bat',
  'batcat', 'env', 'getent', 'lsblk', 'cal', 'stat', 'wc', 'uniq', 'sort', 'xxd', 'iconv', 'shuf', 'sdiff', 'find',
  // PowerShell
  'get-content', 'gc', 'type', 'select-string', 'sls', 'test-path', 'get-item', 'gi', 'get-childitem', 'gci',
  'resolve-path', 'rvpa', 'get-filehash', 'compare-object', 'get-process', 'gps', 'get-itemproperty', 'gp',
];

/**
 * How a writer's arguments are its targets:
 * - `remove`: every operand is removed (or its mode or owner changed) — with what it holds;
 * - `write`: every operand is written;
 * - `copy`/`move`/`link`: the last operand (or `-t DIR`) receives the others; a move also removes its sources;
 * - `mode`: the first operand is a mode or owner, the rest are changed;
 * - `sed`: `-i` edits the operands after the script;
 * - `dd`: `of=FILE`; `sort`: `-o FILE`; `second`: the second operand is written (`uniq IN OUT`);
 * - `extract`: unpacks files of names it does not know into the current directory (or `-C`/`-d DIR`);
 * - `pack`: compresses or splits files next to themselves, removing the original.
 */
export type WriterRule = 'remove' | 'write' | 'copy' | 'move' | 'link' | 'mode' | 'sed' | 'dd' | 'sort' | 'second' | 'extract' | 'pack';

/** Programs that change files in the workspace: level `workspace_write`. */
export const WRITERS: Readonly<Record<string, WriterRule>> = {
  __proto__: null as never,
  tee: 'write',
  touch: 'write',
  truncate: 'write',
  mkdir: 'write',
  mkfifo: 'write',
  mktemp: 'write',
  rm: 'remove',
  rmdir: 'remove',
  unlink: 'remove',
  shred: 'remove',
  cp: 'copy',
  install: 'copy',
  mv: 'move',
  ln: 'link',
  link: 'link',
  chmod: 'mode',
  chown: 'mode',
  chgrp: 'mode',
  chattr: 'mode',
  setfacl: 'mode',
  sed: 'sed',
  dd: 'dd',
  sort: 'sort',
  shuf: 'sort',
  iconv: 'sort',
  uniq: 'second',
  xxd: 'second',
  tar: 'extract',
  unzip: 'extract',
  '7z': 'extract',
  gzip: 'pack',
  gunzip: 'pack',
  bzip2: 'pack',
  bunzip2: 'pack',
  xz: 'pack',
  unxz: 'pack',
  zstd: 'pack',
  split: 'pack',
  csplit: 'pack',
  patch: 'extract',
  // PowerShell
  'set-content': 'remove',
  'add-content': 'remove',
  'out-file': 'remove',
  'remove-item': 'remove',
  'move-item': 'move',
  'copy-item': 'copy',
  'new-item': 'remove',
  'rename-item': 'remove',
  'clear-content': 'remove',
  'set-acl': 'remove',
  'set-itemproperty': 'remove',
  'new-itemproperty': 'remove',
  ri: 'remove',
  rni: 'remove',
  del: 'remove',
  erase: 'remove',
  rd: 'remove',
  sc: 'remove',
  ac: 'remove',
  ni: 'remove',
  md: 'remove',
  mi: 'move',
  move: 'move',
  cpi: 'copy',
  copy: 'copy',
};

/** Network programs: level `network`. Those marked opaque also run code the gate cannot read. */
export const NETWORK: Readonly<Record<string, { opaque?: string }>> = {
  __proto__: null as never,
  curl: {},
  wget: {},
  scp: {},
  sftp: {},
  rsync: {},
  ftp: {},
  telnet: {},
  dig: {},
  nslookup: {},
  host: {},
  ping: {},
  traceroute: {},
  http: {},
  https: {},
  aria2c: {},
  ssh: { opaque: 'a command run on another host' },
  nc: { opaque: 'netcat can run a program for each connection' },
  ncat: { opaque: 'netcat can run a program for each connection' },
  netcat: { opaque: 'netcat can run a program for each connection' },
  socat: { opaque: 'socat can run a program (EXEC:, SYSTEM:)' },
  'invoke-webrequest': {},
  iwr: {},
  'invoke-restmethod': {},
  irm: {},
};

/** git subcommands by what they do (global options such as `-C DIR` skipped). Any other subcommand may be an alias: opaque. */
export const GIT_READ = [
  'status', 'diff', 'log', 'show', 'blame', 'ls-files', 'ls-tree', 'rev-parse', 'rev-list', 'describe', 'shortlog',
  'grep', 'cat-file', 'reflog', 'whatchanged', 'name-rev', 'merge-base', 'show-ref', 'for-each-ref', 'count-objects',
  'check-ignore', 'var', 'version', 'help', 'diff-tree', 'diff-files', 'diff-index', 'cherry', 'range-diff',
];
export const GIT_WRITE = [
  'add', 'commit', 'checkout', 'switch', 'restore', 'reset', 'stash', 'merge', 'rebase', 'cherry-pick', 'revert',
  'rm', 'mv', 'apply', 'am', 'clean', 'init', 'worktree', 'notes', 'gc', 'prune', 'update-index', 'config',
  'branch', 'tag', 'remote', 'sparse-checkout', 'read-tree', 'checkout-index', 'update-ref', 'symbolic-ref',
  'format-patch', 'bundle', 'archive', 'maintenance', 'repack', 'fsck',
];
export const GIT_NETWORK = ['push', 'fetch', 'pull', 'clone', 'ls-remote', 'submodule', 'send-email', 'request-pull'];
/** git subcommands that may put another commit's version of every tracked file in the work tree. */
export const GIT_REWRITES_TRACKED = ['checkout', 'switch', 'reset', 'merge', 'pull', 'rebase', 'revert', 'cherry-pick', 'stash', 'am', 'read-tree', 'checkout-index', 'restore'];

/** Package managers: these subcommands reach the network (and run the packages' install scripts). */
export const PACKAGE_MANAGERS: Readonly<Record<string, readonly string[]>> = {
  __proto__: null as never,
  npm: ['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'publish', 'unpublish', 'login', 'adduser', 'outdated', 'view', 'info', 'search', 'audit', 'dist-tag', 'deprecate', 'owner', 'pack'],
  pnpm: ['install', 'i', 'add', 'update', 'up', 'publish', 'outdated', 'view', 'info', 'audit'],
  yarn: ['install', 'add', 'upgrade', 'up', 'publish', 'info', 'outdated', 'npm'],
  bun: ['install', 'i', 'add', 'update', 'publish', 'pm'],
  pip: ['install', 'download', 'index'],
  pip3: ['install', 'download', 'index'],
  pipx: ['install', 'run', 'upgrade'],
  gem: ['install', 'update', 'push', 'fetch'],
  cargo: ['install', 'publish', 'fetch', 'update', 'add', 'search'],
  go: ['get', 'install', 'mod'],
  docker: ['pull', 'push', 'login', 'build', 'run', 'compose'],
  podman: ['pull', 'push', 'login', 'build', 'run'],
  'apt-get': ['install', 'update', 'upgrade', 'download', 'source'],
  apt: ['install', 'update', 'upgrade'],
  brew: ['install', 'update', 'upgrade', 'fetch'],
};

/** Shells: `-c STRING` is read; without it they run a script file or read commands from stdin (opaque). */
export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash', 'pwsh', 'powershell', 'powershell.exe', 'pwsh.exe']);

/** Options of a shell that take a value. */
export const SHELL_VALUE_OPTIONS = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file', '-ExecutionPolicy', '-File', '-WorkingDirectory']);

/** Wrappers: the command they run starts after their options (`valueOptions` take a value) and `positional` leading operands. */
export interface WrapperSpec {
  valueOptions: readonly string[];
  positional?: number;
  /** An option whose value is a shell command line (`su -c CMD`, `flock -c CMD`). */
  commandOption?: readonly string[];
  /** Without a command, it starts an interactive shell reading stdin. */
  shellWithoutCommand?: boolean;
  /** Arguments are appended to the command at run time. */
  completes?: boolean;
  /** The remaining words are joined and run by `sh -c`. */
  joinsIntoShell?: boolean;
  /** Options that make the command run in another directory. */
  chdirOptions?: readonly string[];
  /** Options whose value is a file the wrapper itself writes (`time -o FILE`, `strace -o FILE`). */
  writeOptions?: readonly string[];
  /** Its operands (not the command) are files it writes (`script FILE -c CMD`, the typescript). */
  writesOperands?: boolean;
  /** Options whose value is a program it runs, or a file that names one: the call is opaque. */
  runsOptions?: readonly string[];
  /** Options that hand the command to a shell as text (`sudo -s CMD`), which expands its words again: the call is opaque. */
  shellOptions?: readonly string[];
  /** Why the call is opaque whatever its options (options read from files the gate does not read). */
  opaque?: string;
  /** The file names of its write options expand `%p`, `%q{VAR}` …: each is checked as a pattern. */
  writeNamesExpand?: boolean;
  /**
   * The options it takes without a value. Any option that is neither one of these nor a value
   * option written out (`-u X`, `-uX`, `--user=X`) — a cluster, an abbreviation, one the table
   * does not list — makes the call opaque: it could take the next word as its value, and the
   * command read would not be the one that runs.
   */
  flags?: readonly string[];
}

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  __proto__: null as never,
  sudo: { valueOptions: ['-u', '-g', '-C', '-h', '-p', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--chdir', '--prompt', '--host', '--role', '--type', '--other-user', '--close-from', '--command-timeout'], shellWithoutCommand: true, chdirOptions: ['-D', '--chdir'], shellOptions: ['-s', '-i', '--shell', '--login'] , flags: ['-E', '-H', '-n', '-k', '-K', '-S', '-b', '-P', '-i', '-s', '-l', '-v', '-A', '-B', '--preserve-env', '--set-home', '--non-interactive', '--reset-timestamp', '--remove-timestamp', '--stdin', '--background', '--login', '--shell', '--list', '--validate', '--askpass', '--bell'] },
  doas: { valueOptions: ['-u', '-C'], shellWithoutCommand: true , flags: ['-n', '-s', '-L'] },
  pkexec: { valueOptions: ['--user'] , flags: ['--disable-internal-agent', '--keep-cwd'] },
  env: { valueOptions: ['-u', '-C', '--unset', '--chdir', '-a', '--argv0'], chdirOptions: ['-C', '--chdir'] , flags: ['-i', '-0', '-v', '--ignore-environment', '--null', '--debug', '-'] },
  nohup: { valueOptions: [] , flags: [] },
  time: { valueOptions: ['-f', '-o', '--format', '--output'], writeOptions: ['-o', '--output'] , flags: ['-p', '-v', '-a', '-q', '--portability', '--verbose', '--append', '--quiet'] },
  nice: { valueOptions: ['-n', '--adjustment'] , flags: [] },
  ionice: { valueOptions: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata', '--pid', '--pgid', '--uid'] , flags: ['-t', '--ignore'] },
  chrt: { valueOptions: [], positional: 1 , flags: ['-a', '-b', '-d', '-e', '-f', '-i', '-o', '-r', '-R', '-v', '-m', '--all-tasks', '--batch', '--deadline', '--fifo', '--idle', '--other', '--rr', '--reset-on-fork', '--verbose'] },
  taskset: { valueOptions: [], positional: 1 , flags: ['-a', '-c', '--all-tasks', '--cpu-list'] },
  timeout: { valueOptions: ['-s', '-k', '--signal', '--kill-after'], positional: 1 , flags: ['-v', '--preserve-status', '--foreground', '--verbose'] },
  // -i, -l, -e, --replace, --max-lines and --eof take their value only attached (`-l2`, `--eof=x`)
  xargs: { valueOptions: ['-I', '-n', '-P', '-L', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-chars', '--process-slot-var'], completes: true },
  exec: { valueOptions: ['-a'] , flags: ['-c', '-l'] },
  command: { valueOptions: [] , flags: ['-p', '-v', '-V'] },
  builtin: { valueOptions: [] , flags: [] },
  stdbuf: { valueOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] , flags: [] },
  setsid: { valueOptions: [] , flags: ['-c', '-f', '-w', '--ctty', '--fork', '--wait'] },
  chronic: { valueOptions: [] , flags: ['-e', '-v'] },
  unbuffer: { valueOptions: [] , flags: ['-p'] },
  caffeinate: { valueOptions: ['-t', '-w'] , flags: ['-d', '-i', '-m', '-s', '-u'] },
  fakeroot: { valueOptions: ['-l', '-s', '-i', '--lib', '--faked'], writeOptions: ['-s'] , flags: ['-u', '--unknown-is-real'] , runsOptions: ['-s', '-l', '-i', '-f', '--lib', '--faked']},
  // --verbose takes a value (`--verbose=SET`, or the next word); --quiet's is optional, so only joined
  strace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-S', '-P', '-X', '--verbose'], writeOptions: ['-o', '--output'] , flags: ['-f', '-ff', '-q', '-qq', '-c', '-C', '-t', '-tt', '-ttt', '-T', '-v', '-x', '-xx', '-y', '-yy', '-k', '-w', '-z', '-Z', '-d', '-D', '-r', '-F', '-i', '-h', '-V', '--follow-forks', '--summary-only', '--summary', '--no-abbrev', '--quiet'] , runsOptions: ['-E', '--env']},
  ltrace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-a', '-n'], writeOptions: ['-o', '--output'] , flags: ['-f', '-c', '-C', '-i', '-L', '-r', '-S', '-t', '-tt', '-ttt', '-T', '--demangle'] },
  valgrind: { opaque: 'valgrind also takes options from ./.valgrindrc, ~/.valgrindrc and $VALGRIND_OPTS, which the gate does not read', writeNamesExpand: true, valueOptions: [], writeOptions: ['--log-file', '--xml-file', '--massif-out-file', '--cachegrind-out-file', '--callgrind-out-file', '--dhat-out-file', '--xtree-memory-file', '--xtree-leak-file'], runsOptions: ['--db-command'] , flags: ['-q', '-v', '--quiet', '--verbose', '--version', '--help'] },
  unshare: { valueOptions: ['-S', '-G', '-R', '-w', '--setuid', '--setgid', '--root', '--wd', '--map-user', '--map-group', '--propagation'], chdirOptions: ['-w', '--wd', '-R', '--root'] , flags: ['-m', '-u', '-i', '-n', '-p', '-U', '-C', '-T', '-f', '-r', '-c', '--fork', '--mount-proc', '--map-root-user', '--map-current-user', '--kill-child', '--keep-caps'] },
  // -r, -w, --root and --wd take their value only joined (`-w/dir`, `--wd=/dir`)
  nsenter: { valueOptions: ['-t', '-S', '-G', '--target', '--setuid', '--setgid'], chdirOptions: ['-w', '--wd', '-r', '--root'] , flags: ['-a', '-m', '-u', '-i', '-n', '-p', '-U', '-C', '-T', '-F', '-e', '--all', '--preserve-credentials', '--no-fork'] },
  chroot: { valueOptions: ['--userspec', '--groups'], positional: 1 , flags: ['--skip-chdir'] },
  prlimit: { valueOptions: ['-p', '--pid'] , flags: ['--noheadings', '--raw', '--verbose'] },
  flock: { valueOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'], positional: 1, commandOption: ['-c', '--command'], writesOperands: true , flags: ['-s', '-x', '-e', '-n', '-u', '-o', '-F', '--shared', '--exclusive', '--nonblock', '--nb', '--unlock', '--close', '--no-fork', '--verbose'] },
  su: { valueOptions: ['-s', '-g', '-G', '--shell', '--group', '--supp-group', '-w', '--whitelist-environment'], commandOption: ['-c', '--command', '--session-command'], shellWithoutCommand: true , flags: ['-l', '-m', '-p', '-P', '-', '--login', '--preserve-environment', '--pty'] , runsOptions: ['-s', '--shell']},
  runuser: { valueOptions: ['-s', '-g', '-G', '-u', '--shell', '--group', '--supp-group', '--user', '-w'], commandOption: ['-c', '--command', '--session-command'], shellWithoutCommand: true , flags: ['-l', '-m', '-p', '-P', '-', '--login', '--preserve-environment', '--pty'] , runsOptions: ['-s', '--shell']},
  sg: { valueOptions: [], positional: 1, commandOption: ['-c'], joinsIntoShell: true , flags: [] },
  // -t and --timing take their file only joined (`-tFILE`, `--timing=FILE`)
  script: { valueOptions: ['-E', '-o', '-T', '-I', '-O', '-B', '-m', '--echo', '--output-limit', '--log-timing', '--log-in', '--log-out', '--log-io', '--logging-format'], commandOption: ['-c', '--command'], shellWithoutCommand: true, writeOptions: ['-T', '-I', '-O', '-B', '-t', '--log-timing', '--log-in', '--log-out', '--log-io', '--timing'], writesOperands: true , flags: ['-t', '--timing', '-a', '-e', '-f', '-q', '--append', '--return', '--flush', '--quiet'] },
  // -d and --differences take their value only joined (`-d=permanent`)
  watch: { valueOptions: ['-n', '--interval', '-q', '--equexit'], joinsIntoShell: true , flags: ['-d', '--differences', '-b', '-e', '-g', '-c', '-t', '-p', '-r', '-w', '-x', '-C', '--beep', '--errexit', '--chgexit', '--color', '--no-color', '--no-title', '--precise', '--no-rerun', '--no-wrap', '--exec'] },
  'xvfb-run': { valueOptions: ['-n', '-s', '-f', '-e', '-p', '--server-num', '--server-args', '--auth-file', '--error-file'], writeOptions: ['-f', '-e', '--auth-file', '--error-file'] , flags: ['-a', '--auto-servernum'] },
  'dbus-run-session': { valueOptions: ['--config-file', '--dbus-daemon'], runsOptions: ['--dbus-daemon', '--config-file'] , flags: [] },
  catchsegv: { valueOptions: [] , flags: [] },
  npx: { valueOptions: ['-p', '--package', '--cache', '--registry'], commandOption: ['-c', '--call'] },
  bunx: { valueOptions: ['-p', '--package'] },
  pnpx: { valueOptions: [] },
  'then-run': { valueOptions: [] },
};

/**
 * Wrappers that run a program from the project's own node_modules/.bin before the one on PATH: what
 * they run may be a program the project planted, so they are opaque, like the runner subcommands.
 */
export const PROJECT_RUNNERS: readonly string[] = ['npx', 'bunx', 'pnpx'];

/**
 * `npm exec CMD`, `uv run CMD`, …: subcommands that run the program named after them, looked up in the
 * project's own programs first (node_modules/.bin, a virtualenv, binstubs, an .envrc's PATH): opaque.
 */
export const RUNNER_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  __proto__: null as never,
  npm: ['exec', 'x'],
  pnpm: ['exec', 'dlx'],
  yarn: ['exec', 'dlx'],
  bun: ['x', 'run'],
  uv: ['run'],
  poetry: ['run'],
  pipenv: ['run'],
  bundle: ['exec'],
  direnv: ['exec'],
  conda: ['run'],
  mise: ['exec', 'x'],
  asdf: ['exec'],
};

/** Programs that run the code of their arguments in this shell: `source FILE`, `. FILE`. */
export const SOURCES = new Set(['source', '.']);

/** Environment variables that change which program runs or what a shell reads first. */
export const RUNTIME_VARIABLES = new Set([
  'PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS4', 'SHELLOPTS',
  'BASHOPTS', 'IFS', 'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PERL5OPT', 'PERL5LIB',
  'RUBYOPT', 'RUBYLIB', 'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_PAGER', 'GIT_EDITOR', 'GIT_EXEC_PATH',
  'GIT_CONFIG', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'EDITOR', 'VISUAL', 'PAGER', 'MANPAGER',
  'LESSOPEN', 'LESSCLOSE', 'SHELL', 'HISTFILE', 'TERMINFO', 'GCONV_PATH', 'LOCPATH', 'HOSTALIASES', 'RSYNC_RSH',
  'CDPATH', 'npm_config_script_shell', 'NPM_CONFIG_SCRIPT_SHELL', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS',
]);

/** Where the known programs of the tables live; a program run by another path is not taken for them. */
const SYSTEM_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin', '/usr/local/sbin', '/opt/homebrew/bin', '/usr/games']);

/** Whether a program word names a program of the tables: a plain name, or a path in one of SYSTEM_DIRS (`./env` may be anything). */
export function inSystemDirectory(program: string): boolean {
  const slash = program.lastIndexOf('/');
  return slash === -1 || SYSTEM_DIRS.has(program.slice(0, slash) || '/');
}

/** The system's program directories, with two more on PATH whose programs the tables do not trust. */
const PROGRAM_DIRS = [...SYSTEM_DIRS, '/usr/local/games', '/snap/bin'];

/** Whether `path` is one of the system's program directories or lies in one (in any case: macOS's disks ignore it). */
export function inProgramDirectory(path: string): boolean {
  const lower = path.toLowerCase();
  return PROGRAM_DIRS.some((dir) => lower === dir || lower.startsWith(`${dir}/`));
}

/** A cluster of set's or bash's options with `-k` (assignments leave the arguments) or `-H` (history expansion). */
export const READING_OPTION_CLUSTER = /^-[a-zA-Z]*[kH]/;

/** shopt options that leave the words of a line as the reader reads them (dotglob is taken into account). */
export const SHOPT_KEEPS_READING: ReadonlySet<string> = new Set(['extglob', 'globstar', 'lastpipe', 'inherit_errexit', 'checkwinsize', 'histappend', 'dotglob', 'failglob', 'nocasematch', 'xpg_echo', 'pipefail']);
