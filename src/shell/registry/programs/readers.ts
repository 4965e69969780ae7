import { options, same, type Family } from '../define';
import type { OptionSpec, ProgramSpec } from '../types';

/** Programs that read files and print: level `read_only`. Their operands are only read. */
const PLAIN = [
  'cat', 'tac', 'more', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'ls', 'll', 'dir', 'vdir', 'stat', 'file', 'wc',
  'du', 'df', 'cmp', 'comm', 'jq', 'cut', 'tr', 'column', 'nl', 'fold', 'fmt', 'paste', 'join', 'od', 'hexdump',
  'strings', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'md5sum', 'b2sum', 'cksum', 'sum',
  'base32', 'readlink', 'realpath', 'locate', 'whereis', 'ps', 'pgrep', 'pstree', 'lsof', 'free', 'uptime',
  'w', 'who', 'zcat', 'bzcat', 'xzcat', 'rev', 'expand', 'unexpand', 'numfmt', 'look', 'pr', 'tsort', 'colordiff',
  'getent', 'lsblk', 'cal', 'env',
];

/** PowerShell's cmdlets and aliases that read. */
const POWERSHELL = [
  'get-content', 'gc', 'type', 'cat', 'select-string', 'sls', 'test-path', 'get-item', 'gi', 'get-childitem', 'gci', 'ls', 'dir',
  'resolve-path', 'rvpa', 'get-filehash', 'compare-object', 'get-process', 'gps', 'ps', 'get-itemproperty', 'gp',
];

const reader = (extra: Partial<ProgramSpec> = {}) => () => ({ summary: 'reads files and prints', level: 'read_only' as const, kind: 'reader' as const, ...extra });
const withOptions = (...opts: OptionSpec[]) => reader({ options: opts });

export const POWERSHELL_READERS: Family = same(POWERSHELL, reader());

export const READERS: Family = {
  ...same(PLAIN, reader()),
  // a preprocessor or a pager runs a program of the caller's choosing
  rg: withOptions(...options(['--pre=', { role: 'runs', opaque: 'runs_named_program' }], ['--hostname-bin=', { role: 'runs', opaque: 'runs_named_program' }], '-e= --regexp=', '-f= --file=', '-g= --glob=', '--iglob=', '-t= --type=', '-T= --type-not=', '-m= --max-count=', '-A= --after-context=', '-B= --before-context=', '-C= --context=', '-j= --threads=', '-M= --max-columns=', '--max-depth=', '-d=', '-E= --encoding=', '--color=', '--colors=', '--sort=', '--sortr=', '-r= --replace=', '--type-add=', '--ignore-file=', '--path-separator=', '--engine=', '--pre-glob=', '--context-separator=', '--field-context-separator=', '--field-match-separator=', '--dfa-size-limit=', '--regex-size-limit=', '--max-filesize=', '--generate=')),
  ag: withOptions(...options(['--pager=', { role: 'runs', opaque: 'runs_named_program' }])),
  ack: withOptions(...options(['--pager[=]', { role: 'runs', opaque: 'runs_named_program' }])),
  bat: withOptions(...options(['--pager=', { role: 'runs', opaque: 'runs_named_program' }])),
  batcat: withOptions(...options(['--pager=', { role: 'runs', opaque: 'runs_named_program' }])),
  // -o and --log-file copy what less shows into a file; a key file's #env section sets LESSOPEN, which runs a program
  less: withOptions(
    ...options(['-o= --log-file=', { role: 'writes' }], ['-O= --LOG-FILE=', { role: 'writes' }], ['-k= --lesskey-file=', { role: 'runs', opaque: 'runs_named_program' }], ['--lesskey-src=', { role: 'runs', opaque: 'runs_named_program' }], '-b= --buffers=', '-h= --max-back-scroll=', '-j= --jump-target=', '-p= --pattern=', '-P= --prompt=', '-t= --tag=', '-T= --tag-file=', '-x= --tabs=', '-y= --max-forw-scroll=', '-z= --window='),
  ),
  man: withOptions(...options(['-P= --pager=', { role: 'runs', opaque: 'runs_named_program' }], ['--html[=]', { role: 'runs', opaque: 'runs_named_program' }], '-M= --manpath=', '-L= --locale=', '-S= -s= --sections=', '-m= --systems=', '-e= --extension=', '-C= --config-file=', '-E= --encoding=', '-R= --recode=', '-p= --preprocessor=', '-T[=] --troff-device[=]', '-X[=] --gxditview[=]')),
  zgrep: reader({ runsVariables: ['GREP'] }),
  // --diff-program runs a program; sdiff -o writes the merged file
  diff: withOptions(...options(['--diff-program=', { role: 'runs', opaque: 'runs_named_program' }])),
  diff3: withOptions(...options(['--diff-program=', { role: 'runs', opaque: 'runs_named_program' }])),
  sdiff: withOptions(...options(['--diff-program=', { role: 'runs', opaque: 'runs_named_program' }], ['-o= --output=', { role: 'writes' }], '-w= --width=', '-I= --ignore-matching-lines=', '--tabsize=')),
  tree: withOptions(...options(['-o=', { role: 'writes' }], '-L=', '-P=', '-I=', '--charset=', '--filelimit=', '--timefmt=', '-H=', '-T=', '--sort=', '--gitfile=', '--infofile=', '--fromfile')),
  info: withOptions(...options(['-o= --output=', { role: 'writes' }], '-d= --directory=', '-f= --file=', '-n= --node=', '--index-search=')),
  find: reader({ reader: 'find' }),
  // the program is read for what it runs and writes; a program file, an extension, the debugger, profile and dump files and mawk's -W are opaque (readers/awk.ts)
  ...same(['awk', 'gawk', 'mawk', 'nawk'], reader({
    reader: 'awk',
    options: options(
      '-F= --field-separator=', '-v= --assign=', '-e= --source=', '-f= --file=', '-E= --exec=', '-i= --include=', '-l= --load=', '-D[=] --debug[=]', '-p[=] --profile[=]', '-d[=] --dump-variables[=]', '-o[=] --pretty-print[=]', '-W=',
      '-b --characters-as-bytes', '-c --traditional', '-C --copyright', '-g --gen-pot', '-L[=] --lint[=]', '-M --bignum', '-N --use-lc-numeric', '-n --non-decimal-data', '-O --optimize', '-P --posix', '-r --re-interval', '-s --no-optimize', '-S --sandbox', '-t --lint-old',
    ),
  })),
  // key bindings and the preview run shell commands; --history writes the history file
  fzf: withOptions(...options(
    ['--bind=', { role: 'runs', opaque: 'runs_named_program' }], ['--preview=', { role: 'runs', opaque: 'runs_named_program' }], ['--with-shell=', { role: 'runs', opaque: 'runs_named_program' }],
    ['--listen-unsafe[=]', { role: 'runs', opaque: 'runs_named_program' }], ['--history=', { role: 'writes' }],
    '--height=', '--min-height=', '--layout=', '--prompt=', '--pointer=', '--marker=', '-q= --query=', '-f= --filter=', '-d= --delimiter=', '-n= --nth=', '--with-nth=', '--header=', '--header-lines=', '--color=',
    '--preview-window=', '--border[=]', '--margin=', '--padding=', '--info=', '--tiebreak=', '--scheme=', '--walker=', '--walker-root=', '--walker-skip=', '--expect=', '--listen[=]', '--tabstop=', '--ellipsis=', '--history-size=', '--jump-labels=', '--separator=', '--scrollbar=', '--border-label=', '--preview-label=',
  )),
  // -x and -X run a command for the results; --base-directory is where it searches
  fd: withOptions(...options(
    ['-x= --exec=', { role: 'runs', opaque: 'runs_named_program' }], ['-X= --exec-batch=', { role: 'runs', opaque: 'runs_named_program' }], ['--base-directory=', { role: 'chdir' }],
    '-e= --extension=', '-t= --type=', '-d= --max-depth=', '--min-depth=', '--exact-depth=', '-E= --exclude=', '--ignore-file=', '-c= --color=', '-j= --threads=', '-S= --size=', '--changed-within= --change-newer-than= --newer=', '--changed-before= --change-older-than= --older=',
    '-o= --owner=', '--path-separator=', '--search-path=', '--max-results=', '--format=', '--batch-size=', '--and=', '--max-buffer-time=',
  )),
  fdfind: withOptions(...options(['-x= --exec=', { role: 'runs', opaque: 'runs_named_program' }], ['-X= --exec-batch=', { role: 'runs', opaque: 'runs_named_program' }], ['--base-directory=', { role: 'chdir' }], '-e= --extension=', '-t= --type=', '-d= --max-depth=', '-E= --exclude=', '-c= --color=', '-j= --threads=', '-S= --size=', '-o= --owner=', '--format=')),
  // clearing the ring buffer or setting the console changes the system
  dmesg: withOptions(...options(['-c --read-clear -C --clear -D --console-off -E --console-on', { level: 'process_exec' }], ['-n= --console-level=', { level: 'process_exec' }], '-f= --facility=', '-l= --level=', '-F= --file=', '-s= --buffer-size=', '--time-format=', '--since=', '--until=')),
  // rotating, flushing and vacuuming change the journal
  journalctl: withOptions(...options(
    ['--rotate --flush --sync --relinquish-var --smart-relinquish-var --setup-keys --update-catalog', { level: 'process_exec' }], ['--vacuum-time= --vacuum-size= --vacuum-files=', { level: 'process_exec' }],
    '-u= --unit=', '--user-unit=', '-p= --priority=', '-n= --lines=', '-S= --since=', '-U= --until=', '-o= --output=', '--output-fields=', '-t= --identifier=', '-T= --exclude-identifier=', '-b[=] --boot[=]', '-D= --directory=', '--file=', '-M= --machine=', '-g= --grep=',
    '--cursor=', '--after-cursor=', '--cursor-file=', '--facility=', '-i= --file=', '--root=', '--image=', '--namespace=', '-F= --field=',
  )),
  // ip: what shows reads; what adds, changes or deletes, and netns exec, is opaque
  ip: () => {
    const SHOW = ['show', 'list', 'ls', 'lst', 's', 'sh', 'sho', 'get', 'help'];
    const obj = () => ({ level: 'read_only' as const, kind: 'reader' as const, subcommands: Object.fromEntries(SHOW.map((n) => [n, { level: 'read_only' as const, kind: 'reader' as const }])), unknownSubcommand: { level: 'process_exec' as const, opaque: 'unknown_subcommand' } });
    const OBJECTS = ['address', 'addr', 'a', 'link', 'l', 'route', 'r', 'ro', 'rule', 'ru', 'neighbour', 'neighbor', 'neigh', 'n', 'netns', 'tunnel', 'maddress', 'maddr', 'm', 'mroute', 'xfrm', 'tcp_metrics', 'token', 'ntable', 'l2tp', 'fou', 'macsec', 'vrf', 'mptcp', 'nexthop', 'stats', 'tuntap', 'netconf', 'sr', 'ila'];
    return {
      summary: 'shows or changes network interfaces, addresses and routes',
      level: 'read_only',
      kind: 'reader',
      options: options(['-b= -batch=', { role: 'runs', opaque: 'reads_options_from_file' }], '-n= -netns=', '-f= -family=', '-l= -loops=', '-rc= -rcvbuf=', '-c[=] -color[=]', '-4', '-6', '-0', '-s -stats -statistics', '-d -details', '-j -json', '-p -pretty', '-br -brief', '-o -oneline', '-t -timestamp', '-h -human', '-a -all', '-force', '-N -Numeric', '-r -resolve'),
      subcommands: { ...Object.fromEntries(OBJECTS.map((o) => [o, obj])), monitor: { level: 'read_only', kind: 'reader' }, help: { level: 'read_only', kind: 'reader' } },
      unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
    };
  },
  // BSD base64 writes its result to -o FILE
  base64: withOptions(...options(['-o= --output=', { role: 'writes' }], ['-i= --input=', { role: 'reads' }], '-w= --wrap= -b= --break=', '-d -D --decode', '--ignore-garbage')),
};
