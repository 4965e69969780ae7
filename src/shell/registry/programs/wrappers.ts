import { options, type Family } from '../define';
import type { ProgramSpec } from '../types';

/**
 * The programs that run another command (SPEC §9.1): privilege and user switchers, environment and
 * scheduling wrappers, tracers, lock and session runners, `xargs`. Each is a spec read by the one
 * option parser: its options as the program's own --help lists them, with the role of each, and a
 * `wrapper` that says where the command it runs starts (registry/types.ts, WrapperSpec). The
 * command is then judged as a command of its own; what the wrapper itself writes (`time -o`,
 * `strace -o`) is an effect of the line. Any option a spec does not list makes the call opaque.
 *
 * A wrapper's own level is `process_exec`: it is read only through the wrapper engine
 * (src/shell/commands.ts), which never hands its arguments to the classifier except for --help.
 */

type Spec = Omit<ProgramSpec, 'name'>;

/** -h and -V: help and version, as util-linux programs take them. */
const UTIL_HELP = options(['-h', { help: true }], ['-V', { help: true }]);

const wrapper = (summary: string, spec: Omit<Spec, 'summary' | 'level' | 'kind'>): Spec => ({
  summary,
  level: 'process_exec',
  kind: 'exec',
  stopAtOperand: true,
  ...spec,
});

/** su and runuser: a user's shell, or the command of -c. */
const userShell = (summary: string, own: ReturnType<typeof options>): Spec =>
  wrapper(summary, {
    stopAtOperand: false,
    options: [
      ...options(
        ['-c= --command=', { role: 'command' }],
        ['--session-command=', { role: 'command' }],
        ['-s= --shell=', { role: 'runs' }],
        '-m -p --preserve-environment',
        '-w= --whitelist-environment=',
        '-g= --group=',
        '-G= --supp-group=',
        '-l --login',
        '-f --fast',
        '-P --pty',
      ),
      ...own,
      ...UTIL_HELP,
    ],
    wrapper: { dashOption: true, rest: 'user-shell', shellWithoutCommand: 'always' },
  });

export const WRAPPERS: Family = {
  sudo: () =>
    wrapper('runs a command as another user', {
      options: [
        ...options(
          '-A --askpass',
          '-b --background',
          '-B --bell',
          '-C= --close-from=',
          ['-D= --chdir=', { role: 'chdir' }],
          '-E',
          '--preserve-env[=]',
          ['-e --edit', { role: 'runs' }],
          '-g= --group=',
          '-H --set-home',
          // -h alone is help; -hHOST and --host=HOST name a host
          '-h[=]',
          '--host=',
          ['-i --login', { role: 'shell' }],
          '-K --remove-timestamp',
          '-k --reset-timestamp',
          '-l --list',
          '-N --no-update',
          '-n --non-interactive',
          '-P --preserve-groups',
          '-p= --prompt=',
          ['-R= --chroot=', { opaque: 'wrapper_other_root' }],
          '-r= --role=',
          '-S --stdin',
          ['-s --shell', { role: 'shell' }],
          '-t= --type=',
          '-T= --command-timeout=',
          '-U= --other-user=',
          '-u= --user=',
          ['-V', { help: true }],
          '-v --validate',
        ),
      ],
      wrapper: { shellWithoutCommand: 'shell-option' },
    }),
  doas: () =>
    wrapper('runs a command as another user', {
      options: options('-C=', '-L', '-n', ['-s', { role: 'shell' }], '-u='),
      wrapper: { shellWithoutCommand: 'shell-option' },
    }),
  pkexec: () =>
    wrapper("runs a command as another user, in that user's home directory", {
      options: options('--user=', '--disable-internal-agent', ['--keep-cwd', { mode: 'keep-cwd' }]),
      wrapper: { runsInHome: true, shellWithoutCommand: 'always' },
    }),
  env: () =>
    wrapper('runs a command in a changed environment', {
      options: options(
        '-i --ignore-environment',
        '-0 --null',
        '-u= --unset=',
        ['-C= --chdir=', { role: 'chdir' }],
        ['-S= --split-string=', { mode: 'split' }],
        '--block-signal[=]',
        '--default-signal[=]',
        '--ignore-signal[=]',
        '--list-signal-handling',
        '-v --debug',
        '-a= --argv0=',
      ),
      wrapper: { dashOption: true },
    }),
  nohup: () => wrapper('runs a command that outlives the terminal', { wrapper: {} }),
  // busybox APPLET ARGS runs its applet as the program of that name would run; --install puts
  // links named after the applets into a program directory (the system's without one)
  busybox: () =>
    wrapper('a multi-call binary: runs the applet its first word names', {
      options: options(
        ['--list --list-full', { help: true }],
        ['--show=', { help: true }],
        ['--install', { opaque: 'installs_program_links' }],
        '-s',
      ),
      wrapper: {},
    }),
  time: () =>
    wrapper('runs a command and reports the time it took', {
      options: [
        ...options('-a --append', '-f= --format=', ['-o= --output=', { role: 'writes' }], '-p --portability', '-q --quiet', '-v --verbose'),
        ...UTIL_HELP,
      ],
      wrapper: {},
    }),
  nice: () =>
    wrapper('runs a command at another scheduling priority', {
      numeric: true,
      options: options('-n= --adjustment='),
      wrapper: {},
    }),
  ionice: () =>
    wrapper('runs a command at another I/O priority', {
      options: [...options('-c= --class=', '-n= --classdata=', '-p= --pid=', '-P= --pgid=', '-u= --uid=', '-t --ignore'), ...UTIL_HELP],
      wrapper: {},
    }),
  chrt: () =>
    wrapper('runs a command under a scheduling policy (after its priority)', {
      options: [
        ...options(
          '-a --all-tasks',
          '-b --batch',
          '-d --deadline',
          '-e --ext',
          '-f --fifo',
          '-i --idle',
          '-o --other',
          '-r --rr',
          '-R --reset-on-fork',
          '-T= --sched-runtime=',
          '-P= --sched-period=',
          '-D= --sched-deadline=',
          '-m --max',
          '-v --verbose',
        ),
        ...UTIL_HELP,
      ],
      wrapper: { positional: 1 },
    }),
  taskset: () =>
    wrapper('runs a command on some CPUs (after its mask)', {
      options: [...options('-a --all-tasks', '-c --cpu-list'), ...UTIL_HELP],
      wrapper: { positional: 1 },
    }),
  timeout: () =>
    wrapper('runs a command with a time limit (after its duration)', {
      options: options('-k= --kill-after=', '-s= --signal=', '-v --verbose', '--preserve-status', '--foreground'),
      wrapper: { positional: 1 },
    }),
  xargs: () =>
    wrapper('runs a command with arguments it reads from its input', {
      options: options(
        '-0 --null',
        '-a= --arg-file=',
        '-d= --delimiter=',
        '-E=',
        '-e[=] --eof[=]',
        ['-I=', { mode: 'replace' }],
        ['-i[=] --replace[=]', { mode: 'replace' }],
        '-L= --max-lines=',
        '-l[=]',
        '-n= --max-args=',
        '-o --open-tty',
        '-P= --max-procs=',
        '-p --interactive',
        '--process-slot-var=',
        '-r --no-run-if-empty',
        '-s= --max-chars=',
        '--show-limits',
        '-t --verbose',
        '-x --exit',
        // BSD's (macOS): -J puts the input at the first occurrence of its value, -R and -S bound -I's replacements
        ['-J=', { mode: 'replace' }],
        '-R=',
        '-S=',
      ),
      wrapper: { completes: true },
    }),
  // GNU parallel (read/parallel.ts); moreutils' parallel takes `CMD -- ARGS` or `-- CMDS`, read
  // there too. Its options also come from ~/.parallel/config (a file named config: writing one is
  // process_exec) and $PARALLEL (set by the line: opaque).
  parallel: () =>
    wrapper('runs a command for each argument of its lists (:::), files (::::) or input, through a shell', {
      reader: 'parallel',
      options: [
        ...options(
          ['--dry-run --shellquote --number-of-cpus --number-of-cores --number-of-sockets --number-of-threads', { mode: 'prints' }],
          '--max-line-length-allowed',
          '-j= --jobs= -P= --max-procs=',
          '-k --keep-order',
          ['-q --quote', { mode: 'quote' }],
          ['-I=', { mode: 'replace' }],
          ['-i[=] --replace[=]', { mode: 'replace' }],
          ['-n= --max-args= -N= --max-replace-args= -L= --max-lines= -C= --colsep=', { mode: 'grouping' }],
          ['-l[=]', { mode: 'grouping' }],
          ['-m -X --xargs', { mode: 'grouping' }],
          ['-a= --arg-file=', { mode: 'arg-file' }],
          ['--pipe --spreadstdin', { mode: 'pipe' }],
          '--block= --block-size= --recstart= --recend=',
          '--regexp --round-robin --round',
          '-0 --null',
          '-d= --delimiter=',
          '-E=',
          '-e[=] --eof[=]',
          '-r --no-run-if-empty',
          '-s= --max-chars=',
          '--link --xapply',
          '-u --ungroup --group --line-buffer --lb',
          '-v --verbose -t --tag --bar --progress --eta --no-notice --will-cite --plus --shuf',
          '--delay= --timeout= --retries= --halt= --halt-on-error= --load= --memfree= --nice= --termseq=',
          ['--joblog=', { role: 'writes' }],
          ['--results= --res=', { opaque: 'writes_unnamed_files' }],
          ['--ssh= --rpl= --tagstring= --compress-program= --decompress-program= --limit= --filter=', { role: 'runs' }],
          ['--tmux --tmuxpane --semaphore --shebang --shebang-wrap --retry-failed', { role: 'runs' }],
          ['-J= --profile=', { opaque: 'reads_options_from_file' }],
          ['-S= --sshlogin= --slf= --sshloginfile=', { level: 'network', opaque: 'runs_on_another_host' }],
          ['--onall --nonall', { level: 'network', opaque: 'runs_on_another_host' }],
        ),
        ...UTIL_HELP,
      ],
      wrapper: { argumentLists: true },
    }),
  exec: () =>
    wrapper('the shell builtin: replaces the shell with a command', {
      options: options('-a=', '-c', '-l'),
      wrapper: {},
    }),
  command: () =>
    wrapper('the shell builtin: runs a command, not a function of its name; -v and -V only look it up', {
      options: options('-p', ['-v', { mode: 'lookup' }], ['-V', { mode: 'lookup' }]),
      wrapper: {},
    }),
  builtin: () => wrapper('the shell builtin: runs a builtin, not a function of its name', { wrapper: {} }),
  stdbuf: () =>
    wrapper("runs a command with its streams' buffering changed", {
      options: options('-i= --input=', '-o= --output=', '-e= --error='),
      wrapper: {},
    }),
  setsid: () =>
    wrapper('runs a command in a new session', {
      options: [...options('-c --ctty', '-f --fork', '-w --wait'), ...UTIL_HELP],
      wrapper: {},
    }),
  chronic: () => wrapper('runs a command, printing its output only when it fails', { options: options('-e', '-v'), wrapper: {} }),
  unbuffer: () => wrapper('runs a command at a pseudo-terminal', { options: options('-p'), wrapper: {} }),
  caffeinate: () =>
    wrapper('runs a command keeping the machine awake (macOS)', {
      options: options('-d', '-i', '-m', '-s', '-u', '-t=', '-w='),
      wrapper: {},
    }),
  fakeroot: () =>
    wrapper('runs a command that sees itself as root', {
      options: options(
        ['-l= --lib=', { role: 'runs' }],
        ['-f= --faked=', { role: 'runs' }],
        ['-i=', { role: 'reads' }],
        ['-s=', { role: 'writes' }],
        '-u --unknown-is-real',
        '-b= --fd-base=',
        ['-h', { help: true }],
        ['-v', { help: true }],
      ),
      wrapper: {},
    }),
  strace: () =>
    wrapper("runs a command and traces its system calls (-o: where it writes the trace; '|cmd' runs one)", {
      options: [
        ...options(
          '-a= --columns=',
          '-A --output-append-mode',
          '-b= --detach-on=',
          '-c --summary-only',
          '-C --summary',
          '-d --debug',
          '-D',
          '--daemonize[=]',
          '-e=',
          ['-E= --env=', { role: 'runs' }],
          '-f --follow-forks',
          '-F',
          '-i --instruction-pointer',
          '-I= --interruptible=',
          '-k --stack-traces',
          '-n --syscall-number',
          ['-o= --output=', { role: 'writes' }],
          '-O= --summary-syscall-overhead=',
          '--output-separately',
          '-p= --attach=',
          '-P= --trace-path=',
          '-q',
          '--quiet[=]',
          '-r',
          '--relative-timestamps[=]',
          '-s= --string-limit=',
          '-S= --summary-sort-by=',
          '-t',
          '--absolute-timestamps[=]',
          '-T',
          '--syscall-times[=]',
          '-u= --user=',
          '-U= --summary-columns=',
          '-v --no-abbrev',
          '-w --summary-wall-clock',
          '-x',
          '--strings-in-hex[=]',
          '-X= --const-print-style=',
          '-y',
          '--decode-fds[=]',
          '-Y',
          '--decode-pids=',
          '-z --successful-only',
          '-Z --failed-only',
          '--trace=',
          '--signal=',
          '--status=',
          '--abbrev=',
          '--verbose=',
          '--raw=',
          '--read=',
          '--write=',
          '--kvm=',
          '--inject=',
          '--fault=',
          '--seccomp-bpf',
          '--tips[=]',
        ),
        ...UTIL_HELP,
      ],
      wrapper: {},
    }),
  ltrace: () =>
    wrapper('runs a command and traces its library calls', {
      options: [
        ...options(
          '-a= --align=',
          '-A=',
          '-b --no-signals',
          '-c',
          '-C --demangle',
          '-D= --debug=',
          '-e=',
          '-f',
          '-F=',
          '-i',
          '-l= --library=',
          '-L',
          '-n= --indent=',
          ['-o= --output=', { role: 'writes' }],
          '-p=',
          '-r',
          '-s=',
          '-S',
          '-t',
          '-T',
          '-u=',
          '-w= --where=',
          '-x=',
        ),
        ...UTIL_HELP,
      ],
      wrapper: {},
    }),
  valgrind: () =>
    wrapper('runs a program under an instrumentation tool', {
      options: options(
        '-q --quiet',
        '-v --verbose',
        ['-h', { help: true }],
        '--tool=',
        ['--log-file=', { role: 'writes' }],
        ['--xml-file=', { role: 'writes' }],
        ['--massif-out-file=', { role: 'writes' }],
        ['--cachegrind-out-file=', { role: 'writes' }],
        ['--callgrind-out-file=', { role: 'writes' }],
        ['--dhat-out-file=', { role: 'writes' }],
        ['--xtree-memory-file=', { role: 'writes' }],
        ['--xtree-leak-file=', { role: 'writes' }],
        ['--db-command=', { role: 'runs' }],
      ),
      wrapper: { optionsFrom: './.valgrindrc, ~/.valgrindrc and $VALGRIND_OPTS', writeNamesExpand: true },
    }),
  unshare: () =>
    wrapper('runs a command in new namespaces', {
      options: [
        ...options(
          '-m',
          '--mount[=]',
          '-u',
          '--uts[=]',
          '-i',
          '--ipc[=]',
          '-n',
          '--net[=]',
          '-p',
          '--pid[=]',
          '-U',
          '--user[=]',
          '-C',
          '--cgroup[=]',
          '-T',
          '--time[=]',
          '-f --fork',
          '--map-user=',
          '--map-group=',
          '-r --map-root-user',
          '-c --map-current-user',
          '--map-auto',
          '--map-users=',
          '--map-groups=',
          '--kill-child[=]',
          '--mount-proc[=]',
          '--propagation=',
          '--setgroups=',
          '--keep-caps',
          ['-R= --root=', { opaque: 'wrapper_other_root' }],
          ['-w= --wd=', { role: 'chdir' }],
          '-S= --setuid=',
          '-G= --setgid=',
          '--monotonic=',
          '--boottime=',
        ),
        ...UTIL_HELP,
      ],
      wrapper: {},
    }),
  nsenter: () =>
    wrapper("runs a command in another process's namespaces", {
      options: [
        ...options(
          '-a --all',
          '-t= --target=',
          '-m[=] --mount[=]',
          '-u[=] --uts[=]',
          '-i[=] --ipc[=]',
          '-n[=] --net[=]',
          '-p[=] --pid[=]',
          '-C[=] --cgroup[=]',
          '-U[=] --user[=]',
          '-T[=] --time[=]',
          '-S= --setuid=',
          '-G= --setgid=',
          '--preserve-credentials',
          ['-r[=] --root[=]', { opaque: 'wrapper_other_root' }],
          ['-w[=] --wd[=]', { role: 'chdir' }],
          ['-W= --wdns=', { role: 'chdir' }],
          '-e --env',
          '-F --no-fork',
          '-Z --follow-context',
        ),
        ...UTIL_HELP,
      ],
      wrapper: {},
    }),
  chroot: () =>
    wrapper('runs a command found and run under another root directory', {
      options: options('--userspec=', '--groups=', '--skip-chdir'),
      wrapper: { positional: 1, positionalRole: 'root' },
    }),
  prlimit: () =>
    wrapper("runs a command with resource limits; -p changes another process's", {
      options: [
        ...options(
          '-p= --pid=',
          '-o= --output=',
          '--noheadings',
          '--raw',
          '--verbose',
          '-c[=] --core[=]',
          '-d[=] --data[=]',
          '-e[=] --nice[=]',
          '-f[=] --fsize[=]',
          '-i[=] --sigpending[=]',
          '-l[=] --memlock[=]',
          '-m[=] --rss[=]',
          '-n[=] --nofile[=]',
          '-q[=] --msgqueue[=]',
          '-r[=] --rtprio[=]',
          '-s[=] --stack[=]',
          '-t[=] --cpu[=]',
          '-u[=] --nproc[=]',
          '-v[=] --as[=]',
          '-x[=] --locks[=]',
          '-y[=] --rttime[=]',
        ),
        ...UTIL_HELP,
      ],
      wrapper: {},
    }),
  flock: () =>
    wrapper('runs a command holding a lock on a file (which it creates)', {
      options: [
        ...options(
          '-s --shared',
          '-x -e --exclusive',
          '-u --unlock',
          '-n --nonblock --nb',
          '-w= --timeout=',
          '-E= --conflict-exit-code=',
          '-o --close',
          '-F --no-fork',
          '--verbose',
        ),
        ...UTIL_HELP,
      ],
      wrapper: { positional: 1, positionalRole: 'writes', commandAfter: ['-c', '--command'] },
    }),
  su: () => userShell("starts another user's shell, or runs -c's command line as that user", []),
  runuser: () => userShell("starts another user's shell, or runs -c's command line as that user", options('-u= --user=')),
  sg: () =>
    wrapper('runs a command line with another group (after the group); without one, a shell', {
      wrapper: { dashOption: true, positional: 1, commandAfter: ['-c'], joinsIntoShell: true, shellWithoutCommand: 'always' },
    }),
  script: () =>
    wrapper("records a terminal session into its file: a shell, or -c's command line", {
      stopAtOperand: false,
      options: [
        ...options(
          ['-c= --command=', { role: 'command' }],
          ['-I= --log-in=', { role: 'writes' }],
          ['-O= --log-out=', { role: 'writes' }],
          ['-B= --log-io=', { role: 'writes' }],
          ['-T= --log-timing=', { role: 'writes' }],
          ['-t[=] --timing[=]', { role: 'writes' }],
          '-m= --logging-format=',
          '-a --append',
          '-e --return',
          '-f --flush',
          '--force',
          '-E= --echo=',
          '-o= --output-limit=',
          '-q --quiet',
        ),
        ...UTIL_HELP,
      ],
      wrapper: { positional: 1, positionalRole: 'writes', rest: 'none', shellWithoutCommand: 'always' },
    }),
  watch: () =>
    wrapper('runs a command line again and again (through sh -c, unless -x)', {
      options: options(
        '-b --beep',
        '-c --color',
        '-C --no-color',
        '-d[=] --differences[=]',
        '-e --errexit',
        '-g --chgexit',
        '-q= --equexit=',
        '-n= --interval=',
        '-p --precise',
        '-r --no-rerun',
        '-t --no-title',
        '-w --no-wrap',
        ['-x --exec', { mode: 'exec' }],
        ['-h', { help: true }],
        ['-v', { help: true }],
      ),
      wrapper: { joinsIntoShell: true },
    }),
  'xvfb-run': () =>
    wrapper('runs a command with a virtual X server', {
      options: options(
        '-a --auto-servernum',
        '-d --auto-display',
        ['-e= --error-file=', { role: 'writes' }],
        ['-f= --auth-file=', { role: 'writes' }],
        '-l --listen-tcp',
        '-n= --server-num=',
        '-p= --xauth-protocol=',
        '-s= --server-args=',
        '-w= --wait=',
        ['-h', { help: true }],
      ),
      wrapper: {},
    }),
  'dbus-run-session': () =>
    wrapper('runs a command with a session bus of its own', {
      options: options(['--config-file=', { role: 'runs' }], ['--dbus-daemon=', { role: 'runs' }]),
      wrapper: {},
    }),
  catchsegv: () => wrapper('runs a command, printing a backtrace when it crashes', { wrapper: {} }),
  'then-run': () => wrapper('runs a command', { wrapper: {} }),
  npx: () => projectRunner("runs a package binary, the project's own (node_modules/.bin) first"),
  bunx: () => projectRunner("runs a package binary, the project's own (node_modules/.bin) first"),
  pnpx: () => projectRunner("runs a package binary, the project's own (node_modules/.bin) first"),
};

/**
 * npx, bunx and pnpx run a program from the project's own node_modules/.bin before the one on
 * PATH: what they run may be a program the project planted, so any call is opaque.
 */
function projectRunner(summary: string): Spec {
  return { summary, level: 'process_exec', kind: 'exec', opaque: 'runs_project_bin', wrapper: {} };
}
