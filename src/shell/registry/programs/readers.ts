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
  // BSD base64 writes its result to -o FILE
  base64: withOptions(...options(['-o= --output=', { role: 'writes' }], ['-i= --input=', { role: 'reads' }], '-w= --wrap= -b= --break=', '-d -D --decode', '--ignore-garbage')),
};
