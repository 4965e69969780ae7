/**
 * What persona-gate knows about the programs a command line may run besides the registry
 * (SPEC §9.1), as data: wrappers, shells, runners and the variables that change what runs
 * (docs/shell.md describes them). A program in none of them — an interpreter, a build tool, a test
 * runner, anything unknown — is `process_exec` and opaque: the gate cannot read what it will run.
 */

// The tables of names below are prototype-less dictionaries (`__proto__: null`; TypeScript types
// it as a member, hence `as never`): no program is found in one by an inherited name (`toString`,
// `constructor` …), and V8 makes each in one step where a literal of many members costs the hook a
// new shape per member.

/**
 * The programs `xargs` may run with arguments it reads at run time (without -I): they only read
 * and print, whatever options and operands they are handed. Any other program under `xargs` runs
 * code the gate cannot read (SPEC §9.3 has `xargs` among the runners): options handed at run time
 * can make a reader write (`sort -o`, `find -delete`), and a writer's targets are not in the line.
 */
export const READS_WHATEVER_ARGUMENTS: readonly string[] = [
  'echo',
  'printf',
  'true',
  'false',
  'test',
  '[',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'ls',
  'stat',
  'du',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'cksum',
  'cut',
  'nl',
  'od',
  'strings',
  'cmp',
  'comm',
];

/** Shells: `-c STRING` is read; without it they run a script file or read commands from stdin (opaque). */
export const SHELLS = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'rbash',
  'pwsh',
  'powershell',
  'powershell.exe',
  'pwsh.exe',
]);

/** Options of a shell that take a value. */
export const SHELL_VALUE_OPTIONS = new Set([
  '-o',
  '+o',
  '-O',
  '+O',
  '--rcfile',
  '--init-file',
  '-ExecutionPolicy',
  '-File',
  '-WorkingDirectory',
]);

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
  /** Where it also takes options from, which the gate does not read (files, variables): the call is opaque whatever its options. */
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
  sudo: {
    valueOptions: [
      '-u',
      '-g',
      '-C',
      '-h',
      '-p',
      '-D',
      '-r',
      '-t',
      '-U',
      '-T',
      '--user',
      '--group',
      '--chdir',
      '--prompt',
      '--host',
      '--role',
      '--type',
      '--other-user',
      '--close-from',
      '--command-timeout',
    ],
    shellWithoutCommand: true,
    chdirOptions: ['-D', '--chdir'],
    shellOptions: ['-s', '-i', '--shell', '--login'],
    flags: [
      '-E',
      '-H',
      '-n',
      '-k',
      '-K',
      '-S',
      '-b',
      '-P',
      '-i',
      '-s',
      '-l',
      '-v',
      '-A',
      '-B',
      '--preserve-env',
      '--set-home',
      '--non-interactive',
      '--reset-timestamp',
      '--remove-timestamp',
      '--stdin',
      '--background',
      '--login',
      '--shell',
      '--list',
      '--validate',
      '--askpass',
      '--bell',
    ],
  },
  doas: { valueOptions: ['-u', '-C'], shellWithoutCommand: true, flags: ['-n', '-s', '-L'] },
  pkexec: { valueOptions: ['--user'], flags: ['--disable-internal-agent', '--keep-cwd'] },
  env: {
    valueOptions: ['-u', '-C', '--unset', '--chdir', '-a', '--argv0'],
    chdirOptions: ['-C', '--chdir'],
    flags: ['-i', '-0', '-v', '--ignore-environment', '--null', '--debug', '-'],
  },
  nohup: { valueOptions: [], flags: [] },
  time: {
    valueOptions: ['-f', '-o', '--format', '--output'],
    writeOptions: ['-o', '--output'],
    flags: ['-p', '-v', '-a', '-q', '--portability', '--verbose', '--append', '--quiet'],
  },
  nice: { valueOptions: ['-n', '--adjustment'], flags: [] },
  ionice: { valueOptions: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata', '--pid', '--pgid', '--uid'], flags: ['-t', '--ignore'] },
  chrt: {
    valueOptions: [],
    positional: 1,
    flags: [
      '-a',
      '-b',
      '-d',
      '-e',
      '-f',
      '-i',
      '-o',
      '-r',
      '-R',
      '-v',
      '-m',
      '--all-tasks',
      '--batch',
      '--deadline',
      '--fifo',
      '--idle',
      '--other',
      '--rr',
      '--reset-on-fork',
      '--verbose',
    ],
  },
  taskset: { valueOptions: [], positional: 1, flags: ['-a', '-c', '--all-tasks', '--cpu-list'] },
  timeout: {
    valueOptions: ['-s', '-k', '--signal', '--kill-after'],
    positional: 1,
    flags: ['-v', '--preserve-status', '--foreground', '--verbose'],
  },
  // -i, -l, -e, --replace, --max-lines and --eof take their value only attached (`-l2`, `--eof=x`)
  xargs: {
    valueOptions: [
      '-I',
      '-n',
      '-P',
      '-L',
      '-s',
      '-d',
      '-E',
      '-a',
      '--max-args',
      '--max-procs',
      '--delimiter',
      '--arg-file',
      '--max-chars',
      '--process-slot-var',
    ],
    completes: true,
  },
  exec: { valueOptions: ['-a'], flags: ['-c', '-l'] },
  command: { valueOptions: [], flags: ['-p', '-v', '-V'] },
  builtin: { valueOptions: [], flags: [] },
  stdbuf: { valueOptions: ['-i', '-o', '-e', '--input', '--output', '--error'], flags: [] },
  setsid: { valueOptions: [], flags: ['-c', '-f', '-w', '--ctty', '--fork', '--wait'] },
  chronic: { valueOptions: [], flags: ['-e', '-v'] },
  unbuffer: { valueOptions: [], flags: ['-p'] },
  caffeinate: { valueOptions: ['-t', '-w'], flags: ['-d', '-i', '-m', '-s', '-u'] },
  fakeroot: {
    valueOptions: ['-l', '-s', '-i', '--lib', '--faked'],
    writeOptions: ['-s'],
    flags: ['-u', '--unknown-is-real'],
    runsOptions: ['-s', '-l', '-i', '-f', '--lib', '--faked'],
  },
  // --verbose takes a value (`--verbose=SET`, or the next word); --quiet's is optional, so only joined
  strace: {
    valueOptions: ['-o', '-e', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-S', '-P', '-X', '--verbose'],
    writeOptions: ['-o', '--output'],
    flags: [
      '-f',
      '-ff',
      '-q',
      '-qq',
      '-c',
      '-C',
      '-t',
      '-tt',
      '-ttt',
      '-T',
      '-v',
      '-x',
      '-xx',
      '-y',
      '-yy',
      '-k',
      '-w',
      '-z',
      '-Z',
      '-d',
      '-D',
      '-r',
      '-F',
      '-i',
      '-h',
      '-V',
      '--follow-forks',
      '--summary-only',
      '--summary',
      '--no-abbrev',
      '--quiet',
    ],
    runsOptions: ['-E', '--env'],
  },
  ltrace: {
    valueOptions: ['-o', '-e', '-p', '-s', '-u', '-a', '-n'],
    writeOptions: ['-o', '--output'],
    flags: ['-f', '-c', '-C', '-i', '-L', '-r', '-S', '-t', '-tt', '-ttt', '-T', '--demangle'],
  },
  valgrind: {
    opaque: './.valgrindrc, ~/.valgrindrc and $VALGRIND_OPTS',
    writeNamesExpand: true,
    valueOptions: [],
    writeOptions: [
      '--log-file',
      '--xml-file',
      '--massif-out-file',
      '--cachegrind-out-file',
      '--callgrind-out-file',
      '--dhat-out-file',
      '--xtree-memory-file',
      '--xtree-leak-file',
    ],
    runsOptions: ['--db-command'],
    flags: ['-q', '-v', '--quiet', '--verbose', '--version', '--help'],
  },
  unshare: {
    valueOptions: ['-S', '-G', '-R', '-w', '--setuid', '--setgid', '--root', '--wd', '--map-user', '--map-group', '--propagation'],
    chdirOptions: ['-w', '--wd', '-R', '--root'],
    flags: [
      '-m',
      '-u',
      '-i',
      '-n',
      '-p',
      '-U',
      '-C',
      '-T',
      '-f',
      '-r',
      '-c',
      '--fork',
      '--mount-proc',
      '--map-root-user',
      '--map-current-user',
      '--kill-child',
      '--keep-caps',
    ],
  },
  // -r, -w, --root and --wd take their value only joined (`-w/dir`, `--wd=/dir`)
  nsenter: {
    valueOptions: ['-t', '-S', '-G', '--target', '--setuid', '--setgid'],
    chdirOptions: ['-w', '--wd', '-r', '--root'],
    flags: ['-a', '-m', '-u', '-i', '-n', '-p', '-U', '-C', '-T', '-F', '-e', '--all', '--preserve-credentials', '--no-fork'],
  },
  chroot: { valueOptions: ['--userspec', '--groups'], positional: 1, flags: ['--skip-chdir'] },
  prlimit: { valueOptions: ['-p', '--pid'], flags: ['--noheadings', '--raw', '--verbose'] },
  flock: {
    valueOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'],
    positional: 1,
    commandOption: ['-c', '--command'],
    writesOperands: true,
    flags: [
      '-s',
      '-x',
      '-e',
      '-n',
      '-u',
      '-o',
      '-F',
      '--shared',
      '--exclusive',
      '--nonblock',
      '--nb',
      '--unlock',
      '--close',
      '--no-fork',
      '--verbose',
    ],
  },
  su: {
    valueOptions: ['-s', '-g', '-G', '--shell', '--group', '--supp-group', '-w', '--whitelist-environment'],
    commandOption: ['-c', '--command', '--session-command'],
    shellWithoutCommand: true,
    flags: ['-l', '-m', '-p', '-P', '-', '--login', '--preserve-environment', '--pty'],
    runsOptions: ['-s', '--shell'],
  },
  runuser: {
    valueOptions: ['-s', '-g', '-G', '-u', '--shell', '--group', '--supp-group', '--user', '-w'],
    commandOption: ['-c', '--command', '--session-command'],
    shellWithoutCommand: true,
    flags: ['-l', '-m', '-p', '-P', '-', '--login', '--preserve-environment', '--pty'],
    runsOptions: ['-s', '--shell'],
  },
  sg: { valueOptions: [], positional: 1, commandOption: ['-c'], joinsIntoShell: true, flags: [] },
  // -t and --timing take their file only joined (`-tFILE`, `--timing=FILE`)
  script: {
    valueOptions: [
      '-E',
      '-o',
      '-T',
      '-I',
      '-O',
      '-B',
      '-m',
      '--echo',
      '--output-limit',
      '--log-timing',
      '--log-in',
      '--log-out',
      '--log-io',
      '--logging-format',
    ],
    commandOption: ['-c', '--command'],
    shellWithoutCommand: true,
    writeOptions: ['-T', '-I', '-O', '-B', '-t', '--log-timing', '--log-in', '--log-out', '--log-io', '--timing'],
    writesOperands: true,
    flags: ['-t', '--timing', '-a', '-e', '-f', '-q', '--append', '--return', '--flush', '--quiet'],
  },
  // -d and --differences take their value only joined (`-d=permanent`)
  watch: {
    valueOptions: ['-n', '--interval', '-q', '--equexit'],
    joinsIntoShell: true,
    flags: [
      '-d',
      '--differences',
      '-b',
      '-e',
      '-g',
      '-c',
      '-t',
      '-p',
      '-r',
      '-w',
      '-x',
      '-C',
      '--beep',
      '--errexit',
      '--chgexit',
      '--color',
      '--no-color',
      '--no-title',
      '--precise',
      '--no-rerun',
      '--no-wrap',
      '--exec',
    ],
  },
  'xvfb-run': {
    valueOptions: ['-n', '-s', '-f', '-e', '-p', '--server-num', '--server-args', '--auth-file', '--error-file'],
    writeOptions: ['-f', '-e', '--auth-file', '--error-file'],
    flags: ['-a', '--auto-servernum'],
  },
  'dbus-run-session': { valueOptions: ['--config-file', '--dbus-daemon'], runsOptions: ['--dbus-daemon', '--config-file'], flags: [] },
  catchsegv: { valueOptions: [], flags: [] },
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
  'PATH',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PERL5OPT',
  'PERL5LIB',
  'RUBYOPT',
  'RUBYLIB',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_EXEC_PATH',
  'GIT_CONFIG',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'SHELL',
  'HISTFILE',
  'TERMINFO',
  'GCONV_PATH',
  'LOCPATH',
  'HOSTALIASES',
  'RSYNC_RSH',
  'CDPATH',
  'npm_config_script_shell',
  'NPM_CONFIG_SCRIPT_SHELL',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
]);

/** Where the known programs of the tables live; a program run by another path is not taken for them. */
const SYSTEM_DIRS = new Set([
  '/bin',
  '/usr/bin',
  '/usr/local/bin',
  '/sbin',
  '/usr/sbin',
  '/usr/local/sbin',
  '/opt/homebrew/bin',
  '/usr/games',
]);

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
export const SHOPT_KEEPS_READING: ReadonlySet<string> = new Set([
  'extglob',
  'globstar',
  'lastpipe',
  'inherit_errexit',
  'checkwinsize',
  'histappend',
  'dotglob',
  'failglob',
  'nocasematch',
  'xpg_echo',
  'pipefail',
]);
