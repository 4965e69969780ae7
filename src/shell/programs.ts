/**
 * What persona-gate knows about the programs a command line may run besides the registry
 * (SPEC §9.1), as data: shells, runners and the variables that change what runs (docs/shell.md
 * describes them; the wrappers — sudo, env, timeout, xargs … — are registry specs,
 * registry/programs/wrappers.ts). A program in none of them — an interpreter, a build tool, a test
 * runner, anything unknown — is `process_exec` and opaque: the gate cannot read what it will run.
 */

import { SYSTEM_DIRS } from '../core/runs-later';

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

/**
 * The programs `xargs` may run with arguments it reads at run time that only remove what they are
 * handed: no option of theirs runs code or writes anything else. Under the OS sandbox, which
 * refuses a guarded target, they keep their own level, their targets known only at run time;
 * elsewhere they are as opaque as any other program under `xargs`.
 */
export const REMOVES_WHATEVER_ARGUMENTS: readonly string[] = ['rm', 'rmdir', 'unlink'];

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

/** Of those, the ones that first bring the project's environment up to date, which downloads (`uv run` locks and syncs): network. */
export const SYNCING_RUNNERS = new Set(['uv run']);

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

/** Whether a program word names a program of the tables: a plain name, or a path in one of SYSTEM_DIRS (`./env` may be anything). */
export function inSystemDirectory(program: string): boolean {
  const slash = program.lastIndexOf('/');
  return slash === -1 || SYSTEM_DIRS.has(program.slice(0, slash) || '/');
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

/**
 * Programs that, given a terminal, take commands from it: shell escapes (`!cmd` in a pager or an
 * editor), debuggers, database shells, terminal multiplexers, `script`, `expect`, `parallel`.
 */
export const TAKES_COMMANDS: ReadonlySet<string> = new Set([
  'script',
  'expect',
  'gdb',
  'lldb',
  'vim',
  'vi',
  'nvim',
  'ex',
  'view',
  'vimdiff',
  'ed',
  'red',
  'emacs',
  'nano',
  'less',
  'more',
  'most',
  'pg',
  'man',
  'parallel',
  'ftp',
  'sqlite3',
  'mysql',
  'mariadb',
  'psql',
  'mongosh',
  'mongo',
  'tmux',
  'screen',
]);

/**
 * Programs that no argument makes write a file or run another program: whatever a pager, an
 * editor or a preprocessor setting hands them (options, modes, names beginning with `-`), they
 * read and print, or do nothing (`true`, `false`).
 */
export const ONLY_READ_WHATEVER_THEY_ARE_HANDED: ReadonlySet<string> = new Set([
  'cat',
  'zcat',
  'bzcat',
  'xzcat',
  'zstdcat',
  'lz4cat',
  'head',
  'tail',
  'wc',
  'true',
  'false',
]);
