import { HELP, options, prefixes, same, type Family, type OptionLine } from '../define';
import { AWKS } from '../readers/awk-program';
import type { CommandSpec, OptionSpec, ProgramSpec } from '../types';

/** Programs that read files and print: level `read_only`. Their operands are only read. */
const PLAIN = [
  'more',
  'head',
  'tail',
  'ls',
  'll',
  'dir',
  'vdir',
  'stat',
  'file',
  'wc',
  'du',
  'df',
  'cmp',
  'comm',
  'jq',
  'cut',
  'tr',
  'column',
  'nl',
  'fold',
  'fmt',
  'paste',
  'join',
  'od',
  'hexdump',
  'strings',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'md5sum',
  'b2sum',
  'cksum',
  'sum',
  'readlink',
  'realpath',
  'locate',
  'whereis',
  'ps',
  'pgrep',
  'pstree',
  'lsof',
  'free',
  'uptime',
  'w',
  'who',
  'zcat',
  'bzcat',
  'xzcat',
  'rev',
  'expand',
  'unexpand',
  'look',
  'pr',
  'tsort',
  'colordiff',
  'getent',
  'lsblk',
  'cal',
  'env',
];

/** PowerShell's cmdlets and aliases that read. */
const POWERSHELL = [
  'get-content',
  'gc',
  'type',
  'cat',
  'select-string',
  'sls',
  'test-path',
  'get-item',
  'gi',
  'get-childitem',
  'gci',
  'ls',
  'dir',
  'resolve-path',
  'rvpa',
  'get-filehash',
  'compare-object',
  'get-process',
  'gps',
  'ps',
  'get-itemproperty',
  'gp',
];

const reader =
  (extra: Partial<ProgramSpec> = {}) =>
  () => ({ summary: 'reads files and prints', level: 'read_only' as const, kind: 'reader' as const, ...extra });
const withOptions = (...opts: OptionSpec[]) => reader({ options: opts });

export const POWERSHELL_READERS: Family = same(POWERSHELL, reader());

/** Each option of sqlite3 also with two dashes (`-safe`, `--safe`). */
const dual = (names: string): string =>
  names
    .split(' ')
    .flatMap((n) => [n, `-${n}`])
    .join(' ');

const FD = withOptions(
  ...options(
    ['-x= --exec=', { role: 'runs', opaque: 'runs_named_program' }],
    ['-X= --exec-batch=', { role: 'runs', opaque: 'runs_named_program' }],
    ['--base-directory=', { role: 'chdir' }],
    '-e= --extension=',
    '-t= --type=',
    '-d= --max-depth=',
    '--min-depth=',
    '--exact-depth=',
    '-E= --exclude=',
    '--ignore-file=',
    '-c= --color=',
    '-j= --threads=',
    '-S= --size=',
    '--changed-within= --change-newer-than= --newer=',
    '--changed-before= --change-older-than= --older=',
    '-o= --owner=',
    '--path-separator=',
    '--search-path=',
    '--max-results=',
    '--format=',
    '--batch-size=',
    '--and=',
    '--max-buffer-time=',
  ),
);

/**
 * GNU grep: its first operand is the pattern unless -e or -f gives the patterns; given no file and
 * no option that reads one (-f, --exclude-from, -r, -R, -d: recursion searches the working
 * directory), it reads only its standard input.
 */
const GREP = reader({
  operands: 'pattern-then-reads',
  stdinAlone: true,
  numeric: true,
  options: [
    ...options(
      ['-e= --regexp=', { mode: 'patterns' }],
      ['-f= --file=', { role: 'reads', mode: 'patterns' }],
      ['--exclude-from=', { role: 'reads' }],
      ['-r --recursive', { role: 'reads' }],
      ['-R --dereference-recursive', { role: 'reads' }],
      ['-d= --directories=', { role: 'reads' }],
      '-E --extended-regexp',
      '-F --fixed-strings',
      '-G --basic-regexp',
      '-P --perl-regexp',
      '-i -y --ignore-case',
      '--no-ignore-case',
      '-w --word-regexp',
      '-x --line-regexp',
      '-z --null-data',
      '-s --no-messages',
      '-v --invert-match',
      '-m= --max-count=',
      '-b --byte-offset',
      '-n --line-number',
      '--line-buffered',
      '-H --with-filename',
      '-h --no-filename',
      '--label=',
      '-o --only-matching',
      '-q --quiet --silent',
      '--binary-files=',
      '-a --text',
      '-I',
      '-D= --devices=',
      '--include=',
      '--exclude=',
      '--exclude-dir=',
      '-L --files-without-match',
      '-l --files-with-matches',
      '-c --count',
      '-T --initial-tab',
      '-Z --null',
      '-A= --after-context=',
      '-B= --before-context=',
      '-C= --context=',
      '--group-separator=',
      '--no-group-separator',
      '--color[=] --colour[=]',
      '-U --binary',
      '-V',
    ),
    ...HELP,
  ],
});

export const READERS: Family = {
  ...same(PLAIN, reader()),
  ...same(['grep', 'egrep', 'fgrep'], GREP),
  // given no file, they read only their standard input
  ...same(['cat', 'tac', 'base32'], reader({ stdinAlone: true })),
  // its operands are numbers: it reads no file
  numfmt: () => ({ summary: 'formats numbers', level: 'none', kind: 'reader' }),
  // a preprocessor or a pager runs a program of the caller's choosing
  rg: withOptions(
    ...options(
      ['--pre=', { role: 'runs', opaque: 'runs_named_program', named: true }],
      // rg starts it with no arguments and reads the host name from its output
      ['--hostname-bin=', { role: 'runs', opaque: 'runs_named_program', named: true, startedWith: [[]] }],
      '-e= --regexp=',
      '-f= --file=',
      '-g= --glob=',
      '--iglob=',
      '-t= --type=',
      '-T= --type-not=',
      '-m= --max-count=',
      '-A= --after-context=',
      '-B= --before-context=',
      '-C= --context=',
      '-j= --threads=',
      '-M= --max-columns=',
      '--max-depth=',
      '-d=',
      '-E= --encoding=',
      '--color=',
      '--colors=',
      '--sort=',
      '--sortr=',
      '-r= --replace=',
      '--type-add=',
      '--ignore-file=',
      '--path-separator=',
      '--engine=',
      '--pre-glob=',
      '--context-separator=',
      '--field-context-separator=',
      '--field-match-separator=',
      '--dfa-size-limit=',
      '--regex-size-limit=',
      '--max-filesize=',
      '--generate=',
    ),
  ),
  ag: withOptions(...options(['--pager=', { role: 'runs', opaque: 'runs_named_program', named: true }])),
  ack: withOptions(...options(['--pager[=]', { role: 'runs', opaque: 'runs_named_program', named: true }])),
  bat: withOptions(...options(['--pager=', { role: 'runs', opaque: 'runs_named_program', named: true }])),
  batcat: withOptions(...options(['--pager=', { role: 'runs', opaque: 'runs_named_program', named: true }])),
  // -o and --log-file copy what less shows into a file; a key file's #env section sets LESSOPEN, which runs a program
  less: withOptions(
    ...options(
      ['-o= --log-file=', { role: 'writes' }],
      ['-O= --LOG-FILE=', { role: 'writes' }],
      ['-k= --lesskey-file=', { role: 'runs', opaque: 'runs_named_program' }],
      ['--lesskey-src=', { role: 'runs', opaque: 'runs_named_program' }],
      '-b= --buffers=',
      '-h= --max-back-scroll=',
      '-j= --jump-target=',
      '-p= --pattern=',
      '-P= --prompt=',
      '-t= --tag=',
      '-T= --tag-file=',
      '-x= --tabs=',
      '-y= --max-forw-scroll=',
      '-z= --window=',
    ),
  ),
  man: withOptions(
    ...options(
      ['-P= --pager=', { role: 'runs', opaque: 'runs_named_program', named: true }],
      ['--html[=]', { role: 'runs', opaque: 'runs_named_program' }],
      '-M= --manpath=',
      '-L= --locale=',
      '-S= -s= --sections=',
      '-m= --systems=',
      '-e= --extension=',
      '-C= --config-file=',
      '-E= --encoding=',
      '-R= --recode=',
      '-p= --preprocessor=',
      '-T[=] --troff-device[=]',
      '-X[=] --gxditview[=]',
    ),
  ),
  zgrep: reader({ runsVariables: ['GREP'] }),
  // --diff-program runs a program; sdiff -o writes the merged file
  diff: withOptions(...options(['--diff-program=', { role: 'runs', opaque: 'runs_named_program', named: true }])),
  diff3: withOptions(...options(['--diff-program=', { role: 'runs', opaque: 'runs_named_program', named: true }])),
  sdiff: withOptions(
    ...options(
      ['--diff-program=', { role: 'runs', opaque: 'runs_named_program', named: true }],
      ['-o= --output=', { role: 'writes' }],
      '-w= --width=',
      '-I= --ignore-matching-lines=',
      '--tabsize=',
    ),
  ),
  // tree's own parser: a short option's value is the next word, never attached (`tree -oa x` writes x)
  tree: reader({
    valuesFollow: true,
    reader: 'tree',
    options: options(
      ['-o=', { role: 'writes' }],
      ['-R', { mode: 'rerun' }],
      '-L=',
      '-P=',
      '-I=',
      '--charset=',
      '--filelimit=',
      '--timefmt=',
      '-H=',
      '-T=',
      '--sort=',
      '--gitfile=',
      '--infofile=',
      '--fromfile',
    ),
  }),
  // a modern ls: it lists, and writes and runs nothing (its --git reads the repository through libgit2); exa, its predecessor
  ...same(
    ['eza', 'exa'],
    withOptions(
      ...options(
        '-L= --level=',
        '-w= --width=',
        '-s= --sort=',
        '-I= --ignore-glob=',
        '-t= --time=',
        '--time-style=',
        '--color-scale-mode=',
        '-F[=] --classify[=]',
        '--color[=] --colour[=]',
        '--color-scale[=] --colour-scale[=]',
        '--icons[=]',
        '--hyperlink[=]',
        '--absolute[=]',
      ),
    ),
  ),
  info: withOptions(...options(['-o= --output=', { role: 'writes' }], '-d= --directory=', '-f= --file=', '-n= --node=', '--index-search=')),
  find: reader({ reader: 'find', helpByReader: true }),
  // the program is read for what it runs and writes; a program file, an extension, the debugger, profile and dump files and mawk's -W are opaque (readers/awk.ts)
  ...same(
    [...AWKS],
    reader({
      reader: 'awk',
      options: options(
        '-F= --field-separator=',
        '-v= --assign=',
        '-e= --source=',
        '-f= --file=',
        '-E= --exec=',
        '-i= --include=',
        '-l= --load=',
        '-D[=] --debug[=]',
        '-p[=] --profile[=]',
        '-d[=] --dump-variables[=]',
        '-o[=] --pretty-print[=]',
        '-W=',
        '-b --characters-as-bytes',
        '-c --traditional',
        '-C --copyright',
        '-g --gen-pot',
        '-L[=] --lint[=]',
        '-M --bignum',
        '-N --use-lc-numeric',
        '-n --non-decimal-data',
        '-O --optimize',
        '-P --posix',
        '-r --re-interval',
        '-s --no-optimize',
        '-S --sandbox',
        '-t --lint-old',
      ),
    }),
  ),
  // a binding runs a command through some of its actions (readers/fzf.ts); the preview command is
  // read as a shell line (commands.ts); --with-shell names the shell that runs both; what --listen
  // receives over HTTP may be any action; --history writes the history file; FZF_DEFAULT_COMMAND
  // is run when standard input is a terminal, and the options' variables may hold --bind
  fzf: reader({
    summary: 'picks lines interactively; its bindings and preview can run commands',
    reader: 'fzf',
    runsVariables: ['FZF_DEFAULT_COMMAND', 'FZF_DEFAULT_OPTS', 'FZF_DEFAULT_OPTS_FILE', 'SHELL'],
    options: options(
      ['--bind=', { mode: 'bind' }],
      '--preview=',
      ['--with-shell=', { role: 'runs', opaque: 'runs_named_program' }],
      ['--listen[=] --listen-unsafe[=]', { role: 'runs', opaque: 'runs_named_program' }],
      ['--history=', { role: 'writes' }],
      '--height=',
      '--min-height=',
      '--layout=',
      '--prompt=',
      '--pointer=',
      '--marker=',
      '-q= --query=',
      '-f= --filter=',
      '-d= --delimiter=',
      '-n= --nth=',
      '--with-nth=',
      '--header=',
      '--header-lines=',
      '--color=',
      '--preview-window=',
      '--border[=]',
      '--margin=',
      '--padding=',
      '--info=',
      '--tiebreak=',
      '--scheme=',
      '--walker=',
      '--walker-root=',
      '--walker-skip=',
      '--expect=',
      '--tabstop=',
      '--ellipsis=',
      '--history-size=',
      '--jump-labels=',
      '--separator=',
      '--scrollbar=',
      '--border-label=',
      '--preview-label=',
    ),
  }),
  // -x and -X run a command for the results; --base-directory is where it searches (fdfind: Debian's name)
  ...same(['fd', 'fdfind'], FD),
  ifconfig: () => ({
    summary: 'shows network interfaces, or changes one',
    level: 'read_only',
    kind: 'reader',
    reader: 'interface-config',
    options: options('-a', '-s', '-v', '-l', '-u', '-d', '-L', '-m', '-r'),
  }),
  // ss -K closes the sockets it lists
  ss: withOptions(
    ...options(
      ['-K --kill', { level: 'process_exec' }],
      ['-F= --filter=', { role: 'reads' }],
      ['-D= --diag=', { role: 'writes' }],
      '-f= --family=',
      '-A= --query= --socket=',
      '-N= --net=',
      '-h --help -V --version -H --no-header -O --oneline -n --numeric -r --resolve -a --all -l --listening',
      '-o --options -e --extended -m --memory -p --processes -T --threads -i --info --tos --cgroup -s --summary',
      '-E --events -Z --context -z --contexts -b --bpf -4 --ipv4 -6 --ipv6 -0 --packet -t --tcp -M --mptcp',
      '-S --sctp -u --udp -d --dccp -w --raw -x --unix --tipc --vsock --xdp --inet-sockets',
    ),
  ),
  netstat: withOptions(
    ...options(
      '-a --all -l --listening -n --numeric -p --program -t --tcp -u --udp -w --raw -x --unix -r --route -i --interfaces',
      '-s --statistics -c --continuous -e --extend -o --timers -v --verbose -W --wide -g --groups -M --masquerade -N --symbolic',
      '-4 -6 --numeric-hosts --numeric-ports --numeric-users -C -F -Z --context',
      '-A= --protocol=',
    ),
  ),
  // clearing the ring buffer or setting the console changes the system
  dmesg: withOptions(
    ...options(
      ['-c --read-clear -C --clear -D --console-off -E --console-on', { level: 'process_exec' }],
      ['-n= --console-level=', { level: 'process_exec' }],
      '-f= --facility=',
      '-l= --level=',
      '-F= --file=',
      '-s= --buffer-size=',
      '--time-format=',
      '--since=',
      '--until=',
    ),
  ),
  // rotating, flushing and vacuuming change the journal
  journalctl: withOptions(
    ...options(
      ['--rotate --flush --sync --relinquish-var --smart-relinquish-var --setup-keys --update-catalog', { level: 'process_exec' }],
      ['--vacuum-time= --vacuum-size= --vacuum-files=', { level: 'process_exec' }],
      '-u= --unit=',
      '--user-unit=',
      '-p= --priority=',
      '-n= --lines=',
      '-S= --since=',
      '-U= --until=',
      '-o= --output=',
      '--output-fields=',
      '-t= --identifier=',
      '-T= --exclude-identifier=',
      '-b[=] --boot[=]',
      '-D= --directory=',
      '--file=',
      '-M= --machine=',
      '-g= --grep=',
      '--cursor=',
      '--after-cursor=',
      '--cursor-file=',
      '--facility=',
      '-i= --file=',
      '--root=',
      '--image=',
      '--namespace=',
      '-F= --field=',
    ),
  ),
  // ip: what shows reads; what adds, changes or deletes, and netns exec, is opaque
  // ip takes any prefix of an object's or a verb's name (`ip ad`, `ip li sh`), the first in its
  // own table order that the prefix begins: so `ip a` is address, and `ip a a` is address add
  ip: () => {
    const OBJECTS = [
      'address',
      'addrlabel',
      'maddress',
      'route',
      'rule',
      'neighbor',
      'neighbour',
      'ntable',
      'ntbl',
      'link',
      'l2tp',
      'fou',
      'ila',
      'macsec',
      'tunnel',
      'tuntap',
      'tap',
      'token',
      'tcpmetrics',
      'tcp_metrics',
      'monitor',
      'xfrm',
      'mroute',
      'mrule',
      'netns',
      'netconf',
      'vrf',
      'sr',
      'nexthop',
      'mptcp',
      'ioam',
      'stats',
      'help',
    ];
    // The verbs that only show. Each object checks its verbs in its own order, those that change
    // first: `s` is `show` for address, route, rule and neighbor, but `set` for link and netns.
    const SHOW = [...prefixes('show', 2), ...prefixes('list', 1), 'lst', 'get', 'help'];
    const SHORT_SHOW = new Set(['address', 'route', 'rule', 'neighbor', 'neighbour']);
    const reader = { level: 'read_only' as const, kind: 'reader' as const };
    const obj = (short: boolean) => () => ({
      ...reader,
      subcommands: Object.fromEntries([...SHOW, ...(short ? ['s'] : [])].map((n) => [n, reader])),
      unknownSubcommand: { level: 'process_exec' as const, opaque: 'unknown_subcommand' },
    });
    const subcommands: Record<string, CommandSpec | (() => CommandSpec)> = {};
    for (const name of OBJECTS)
      for (const prefix of prefixes(name, 1))
        subcommands[prefix] ??= name === 'monitor' || name === 'help' ? reader : obj(SHORT_SHOW.has(name));
    return {
      summary: 'shows or changes network interfaces, addresses and routes',
      level: 'read_only',
      kind: 'reader',
      options: options(
        ['-b= -batch=', { role: 'runs', opaque: 'reads_options_from_file' }],
        '-n= -netns=',
        '-f= -family=',
        '-l= -loops=',
        '-rc= -rcvbuf=',
        '-c[=] -color[=]',
        '-4',
        '-6',
        '-0',
        '-s -stats -statistics',
        '-d -details',
        '-j -json',
        '-p -pretty',
        '-br -brief',
        '-o -oneline',
        '-t -timestamp',
        '-h -human',
        '-a -all',
        '-force',
        '-N -Numeric',
        '-r -resolve',
      ),
      subcommands,
      unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
    };
  },
  // BSD base64 writes its result to -o FILE
  base64: reader({
    stdinAlone: true,
    options: options(
      ['-o= --output=', { role: 'writes' }],
      ['-i= --input=', { role: 'reads' }],
      '-w= --wrap= -b= --break=',
      '-d -D --decode',
      '--ignore-garbage',
    ),
  }),
  // ruff check keeps a cache in .ruff_cache, as a compiler its build directory: not counted as a write;
  // what format and check --fix rewrite is read by code (readers.ts: ruff)
  ruff: () => {
    const common: OptionLine[] = [
      ['--isolated', { mode: 'isolated' }],
      '--config=',
      '--cache-dir=',
      '--target-version=',
      '--line-length=',
      '--exclude=',
      '--extend-exclude=',
      '--stdin-filename=',
      '--range=',
    ];
    const lint = (): Omit<ProgramSpec, 'name'> => ({
      summary: 'reports lint findings',
      level: 'read_only',
      kind: 'reader',
      options: options(
        ...common,
        ...'--select= --ignore= --extend-select= --extend-ignore= --per-file-ignores= --extend-per-file-ignores= --fixable= --unfixable= --output-format='.split(
          ' ',
        ),
        ['--fix --fix-only --add-noqa', { level: 'workspace_write', mode: 'fix' }],
        // --diff prints the fixes and writes none
        ['--diff', { mode: 'check' }],
        ['-o= --output-file=', { role: 'writes' }],
      ),
      operands: 'reads',
      reader: 'ruff',
    });
    return {
      summary: 'a Python linter and formatter',
      level: 'read_only',
      kind: 'reader',
      options: options(['-h', { help: true }], ['-V', { help: true }]),
      subcommands: {
        check: lint,
        lint: 'check',
        format: () => ({
          summary: 'rewrites the files in the canonical style',
          level: 'read_only',
          kind: 'reader',
          reader: 'ruff',
          options: options(...common, ['--check', { mode: 'check' }], ['--diff', { mode: 'check' }]),
        }),
        rule: () => ({ level: 'read_only', kind: 'reader', options: options('--output-format=') }),
        linter: () => ({ level: 'read_only', kind: 'reader', options: options('--output-format=') }),
        config: () => ({ level: 'read_only', kind: 'reader', options: options('--output-format=') }),
        version: () => ({ level: 'read_only', kind: 'reader', options: options('--output-format=') }),
        help: () => ({ level: 'read_only', kind: 'reader' }),
      },
      unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
    };
  },
  // openssl: what it makes goes to standard output unless -out names a file; an engine or a provider is a library it loads
  openssl: () => {
    const tool = (level: 'read_only' | 'network' = 'read_only'): Omit<ProgramSpec, 'name'> => ({
      level,
      kind: level === 'network' ? 'network' : 'reader',
      singleDashLong: true,
      options: options(
        ...(
          '-inform= -outform= -keyform= -CAform= -passin= -passout= -pass= -key= -newkey= -subj= -days= -name= ' +
          '-algorithm= -pkeyopt= -sign= -verify= -signature= -prverify= -inkey= -certfile= -set_serial= -extfile= ' +
          '-extensions= -digest= -nameopt= -certopt= -checkend= -addext= -sigopt= -cipher= -md= -K= -iv= -S= -iter= ' +
          '-kdf= -kdfopt= -mac= -macopt= -hmac= -signkey= -CA= -CAkey= -CAserial= -config= -section= -rand= -connect= ' +
          '-servername= -starttls= -verify_hostname= -CAfile= -CApath= -cert= -host= -port= -proxy= -alpn= -sess_in= ' +
          '-partial_chain -untrusted= -purpose= -verify_depth= -ciphersuites= -curves= -groups= -sigalgs= -keylogfile= -sess_out='
        ).split(' '),
        ['-in=', { role: 'reads' }],
        ['-out= -keyout= -writerand=', { role: 'writes' }],
        ['-engine= -provider= -provider-path=', { role: 'runs', opaque: 'runs_named_program' }],
      ),
      operands: 'reads',
    });
    const tools: Record<string, () => Omit<ProgramSpec, 'name'>> = {};
    for (const t of 'x509 req crl dgst sha1 sha256 sha384 sha512 md5 rsa ec pkey pkcs8 pkcs12 enc genrsa genpkey ecparam rand verify asn1parse base64 pkeyutl crl2pkcs7 pkcs7 dhparam speed prime errstr'.split(
      ' ',
    ))
      tools[t] = () => tool();
    for (const t of ['s_client', 's_time', 'ocsp']) tools[t] = () => tool('network');
    return {
      summary: 'makes and reads keys, certificates and digests; s_client connects to a server',
      level: 'read_only',
      kind: 'reader',
      subcommands: {
        ...tools,
        version: () => ({ level: 'read_only', kind: 'reader', options: options('-a -v -b -o -f -p -d -c -e -m -r') }),
        help: () => ({ level: 'read_only', kind: 'reader' }),
        list: () => ({ level: 'read_only', kind: 'reader', singleDashLong: true }),
      },
      unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
    };
  },
  // duckdb: its SQL can write the database and, through COPY, EXPORT and ATTACH, any file, and
  // install extensions; .shell and .system run programs. Schema commands read; queries read under
  // -safe and reach the network otherwise (readers.ts: duckdb)
  duckdb: () => ({
    summary: 'runs SQL on a DuckDB database',
    level: 'process_exec',
    kind: 'exec',
    reader: 'duckdb',
    singleDashLong: true,
    options: options(
      [dual('-help -version'), { help: true }],
      [dual('-cmd='), { mode: 'sql' }],
      // runs the command and exits
      [dual('-c= -s='), { mode: 'run' }],
      [dual('-safe'), { mode: 'safe' }],
      [dual('-init= -f= -interactive -unsigned -unredacted'), { mode: 'script' }],
      dual('-separator= -newline= -nullvalue= -storage-version='),
      dual('-readonly -bail -batch -echo -header -noheader -stats -no-stdin'),
      dual('-ascii -box -column -csv -html -json -line -list -markdown -quote -table -tabs -jsonlines -duckbox'),
    ),
  }),
  // sqlite3: its SQL can write the database and, through ATTACH, VACUUM INTO and writefile(), any file;
  // load_extension(), edit() (which a view of the database can call) and its dot commands (.shell,
  // .system) run programs. Its schema commands, informational pragmas and, under -safe, queries read
  // (readers.ts: sqlite).
  sqlite3: () => ({
    summary: 'runs SQL on a database file',
    level: 'process_exec',
    kind: 'exec',
    reader: 'sqlite',
    singleDashLong: true,
    options: options(
      [dual('-help -version'), { help: true }],
      [dual('-cmd='), { mode: 'sql' }],
      [dual('-safe'), { mode: 'safe' }],
      // a file of commands, the archive mode's own commands, or the terminal after the commands given
      [dual('-init= -A -archive -interactive -unsafe-testing'), { mode: 'script' }],
      dual('-separator= -newline= -nullvalue= -vfs= -mmap= -pagecache= -lookaside= -maxsize= -escape= -nonce='),
      dual('-readonly -bail -batch -echo -header -noheader -stats -nofollow -deserialize -append -zip -memtrace -pcachetrace'),
      dual('-ascii -box -column -csv -html -json -line -list -markdown -quote -table -tabs'),
    ),
  }),
};
