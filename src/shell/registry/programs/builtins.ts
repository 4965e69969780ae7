import { options, same, type Family } from '../define';

/**
 * Shell builtins and programs that change no file and reach no network: level `none`. What some
 * of them do to the shell itself (set, shopt, cd, export, hash, read …) is read by the line's own
 * checks (read/line.ts), not here.
 */
const NAMES = [
  ':', 'true', 'false', 'echo', 'printf', 'test', '[', 'cd', 'pushd', 'popd', 'dirs', 'pwd', 'export', 'unset',
  'set', 'shift', 'read', 'local', 'declare', 'typeset', 'readonly', 'let', 'wait', 'jobs', 'exit', 'return',
  'break', 'continue', 'type', 'hash', 'umask', 'ulimit', 'shopt', 'getopts', 'times', 'help', 'sleep', 'which',
  'basename', 'dirname', 'seq', 'date', 'whoami', 'id', 'uname', 'hostname', 'nproc', 'printenv', 'tty',
  'logname', 'groups', 'expr', 'clear', 'tput', 'cal', 'factor', 'disown', 'unalias',
];

/** PowerShell's cmdlets and aliases that only print, compute or move around (matched in lower case). */
const POWERSHELL = [
  'write-output', 'write-host', 'get-date', 'get-location', 'gl', 'set-location', 'sl', 'push-location',
  'pop-location', 'join-path', 'split-path', 'out-null', 'out-string', 'get-command', 'gcm', 'get-help',
  'measure-object', 'measure', 'select-object', 'select', 'sort-object', 'format-table', 'ft', 'format-list',
  'fl', 'convertto-json', 'convertfrom-json', 'group-object', 'get-member', 'gm', 'write-error', 'write-verbose',
  'write-warning', 'start-sleep', 'get-variable', 'set-variable', 'new-variable', 'get-host',
];

export const BUILTINS: Family = {
  ...same(NAMES, () => ({ summary: 'prints, computes or changes the shell itself', level: 'none', kind: 'builtin' })),
  // prints the machine's architecture; on macOS, given a command, runs it (`arch -x86_64 make`)
  arch: () => ({ summary: 'prints the architecture; on macOS runs a command under another', level: 'none', kind: 'builtin', reader: 'arch', options: options('-32 -64 -c -x86_64 -x86_64h -arm64 -arm64e -i386 -ppc', '-d= -e= -arch=') }),
};

export const POWERSHELL_BUILTINS: Family = same([...POWERSHELL, 'sort'], () => ({ summary: 'prints, computes or moves around', level: 'none', kind: 'builtin' }));
