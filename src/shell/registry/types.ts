import type { Level } from '../../core/levels';
import type { Arity } from '../getopt';

/**
 * A program's shell grammar as data (SPEC §2 `catalog.programs`, §9.5): its options and what each
 * one does, its operands, its subcommands and their levels. One engine (read/classify.ts) reads
 * every invocation through its program's spec with the one option parser (getopt.ts); code is
 * written only where data cannot say it, as a named reader given the parsed arguments.
 */

/** What a program does with an option's value or an operand. */
export type Role =
  /** a file it writes */
  | 'writes'
  /** a path it removes, replaces, moves away or changes the mode of, with what it holds */
  | 'destroys'
  /** a directory that receives files of names it does not know */
  | 'into'
  /** a directory it works in (`-C DIR`) */
  | 'chdir'
  /** a program or a command it runs, or a file that names one: the invocation is opaque */
  | 'runs'
  /** a shell command line it runs: read again as shell code (`su -c CMD`) */
  | 'command'
  /** it hands its command to a shell as text, which expands its words again (`sudo -s`): opaque */
  | 'shell'
  /** the destination directory of its operands (`cp -t DIR`) */
  | 'target'
  /** a file it reads */
  | 'reads';

export type Kind = 'builtin' | 'reader' | 'writer' | 'network' | 'exec';

export interface OptionSpec {
  /** `-o`, `--output`, `-cols` (one dash, matched whole). */
  names: string[];
  arg?: Arity;
  role?: Role;
  /** Using the option raises the invocation to this level (`sed -i`: workspace_write). */
  level?: Level;
  /** Using the option makes the invocation opaque, for this reason id. */
  opaque?: string;
  /** …and raises its level, unless its value is written out whole in the line and matches this (`git -c user.name=x`). */
  plainValues?: RegExp;
  /** …nor when its value is a setting this matches whose value (the first group) is one program that only reads (`git -c core.pager=cat`). */
  commandSettings?: RegExp;
  /**
   * Its value is a program the invocation runs, handed a path or a value (`rg --pre=cat`): one
   * name, of a program that only reads what it is handed, is read as that start instead of opaque.
   */
  named?: true;
  /**
   * …and the program is always started with these words after its name, one list per start
   * (`sort --compress-program=gzip` runs `gzip` and `gzip -d`): any one program written out is
   * read as those starts, as the registry reads them.
   */
  startedWith?: readonly (readonly string[])[];
  /** A mode the named reader reads (`tar -x`: 'x'), or the wrapper engine (WrapperSpec). */
  mode?: string;
  /** The option prints help or the version and exits (`--help`): the invocation only reads. */
  help?: boolean;
}

/** What the operands are, when a named reader does not say. */
export type OperandRule =
  /** every operand is read (the default) */
  | 'reads'
  /** it takes none: one given makes the invocation opaque (`unexpected_operand`), as the program may read it as another command */
  | 'none'
  /** every operand is written */
  | 'writes'
  /** every operand is removed or changed with what it holds */
  | 'destroys'
  /** the first operand is a mode, an owner or a pattern; the rest are changed */
  | 'first-then-destroys'
  /** the second operand is written (`uniq IN OUT`) */
  | 'second-writes'
  /** the first operand is read; the rest are written (`ddrescue IN OUT MAP`) */
  | 'first-then-writes'
  /** the first operand is a pattern unless an option of mode `patterns` gives them (`grep -e`); the rest are read */
  | 'pattern-then-reads';

export interface CommandSpec {
  /** A short description, for `persona-gate programs`. */
  summary?: string;
  level: Level;
  kind?: Kind;
  options?: OptionSpec[];
  operands?: OperandRule;
  /** With no operand it reads only its standard input (`cat`, `base64`): level none (a redirection from a file is read as a read). */
  stdinAlone?: true;
  /** Options end at the first operand (and always before a subcommand). */
  stopAtOperand?: boolean;
  /** `-NUM` is an option (`head -5`). */
  numeric?: boolean;
  /** A word this matches whole is an option of its own, `-WORD` (`kill -HUP`, `kill -SIGTERM`). */
  wordOptions?: RegExp;
  /** Long options also with one dash. */
  singleDashLong?: boolean;
  /** A short option's value is always a word of its own after the cluster, one per option in order (tree: `-oa x` writes x). */
  valuesFollow?: boolean;
  /**
   * Every option it takes is listed: one the spec does not list (here or on the way to this
   * subcommand) makes the invocation opaque (`unknown_option`). For programs whose options are
   * their commands (`networksetup -setdnsservers`), where an option not read may change the system.
   */
  strict?: boolean;
  /** The invocation is opaque whatever its arguments, for this reason id. */
  opaque?: string;
  /** Code for what data cannot say, by name (registry/readers.ts), given the parsed arguments. */
  reader?: string;
  /** Its reader tells a help option from an argument that spells one (find's `-fprintf --help FMT`): `--help` is not read as help here. */
  helpByReader?: true;
  /**
   * No word handed to it at run time (what xargs appends) makes it write or run code: none of its
   * options does, and its operands are only read (git status). Such words are then read, not opaque.
   */
  readsWhatItIsHanded?: true;
  /** Subcommands by name, each made when a line reaches it; an alias is a string naming another. */
  subcommands?: Record<string, SubcommandEntry>;
  /** A subcommand given this option and nothing else prints its usage (git's `-h`), unless it lists the option itself. */
  usageOption?: string;
  /** Its options stand after its subcommands too (cobra's persistent flags): the default; git's do not. */
  persistent?: boolean;
  /** An unknown subcommand: its level and why it is opaque (an alias, a plugin). */
  unknownSubcommand?: {
    level: Level;
    opaque?: string;
    /** It is one of the program's own (a built-in not listed, a plugin), which takes `--help` right after it as help. */
    help?: boolean;
  };
}

export type SubcommandEntry = CommandSpec | string | (() => CommandSpec);

export interface ProgramSpec extends CommandSpec {
  name: string;
  aliases?: string[];
  /** A wrapper: what follows its options (and `positional` leading operands) is a command it runs (see WrapperSpec). */
  wrapper?: WrapperSpec;
  /** Environment variables whose value it runs as a command (zgrep's GREP): set for it, the call is opaque. */
  runsVariables?: string[];
}

/**
 * A program that runs another command (`sudo`, `env`, `timeout`, `xargs` …): its options are read
 * by the one option parser, each with its role, and what follows them — after `positional` leading
 * operands — is the command it runs, judged as a command of its own (src/shell/commands.ts). Any
 * option its spec does not list, and any long option not written whole, makes the call opaque: it
 * could take the next word as its value, and the command read would not be the one that runs.
 * Options it takes with a value are listed with their role: `writes` (a file it writes itself),
 * `chdir` (the directory the command runs in), `runs` (a program or a file naming one: opaque),
 * `command` (a shell command line, read again), `shell` (it hands the command to a shell: opaque);
 * and with a mode the wrapper engine reads: `replace` (xargs -I: the token is replaced at run
 * time), `split` (env -S: a string split into the command), `exec` (watch -x: not joined into
 * `sh -c`), `lookup` (command -v: only looks the name up), `keep-cwd` (pkexec --keep-cwd).
 */
export interface WrapperSpec {
  /** Operands before the command (`timeout 10 cmd`: 1). */
  positional?: number;
  /** What those operands are: files it writes (`flock FILE`, `script FILE`), or a root directory the command is found and run in (`chroot DIR`: opaque). */
  positionalRole?: 'writes' | 'root';
  /**
   * What the operands after them are: a command it runs (the default); a user and arguments for
   * that user's shell (`su USER …`: opaque); or none it runs (`script`: its shell, or -c's command).
   */
  rest?: 'command' | 'user-shell' | 'none';
  /** Words that, right after the positional operands, give the shell command line in the next word (`flock FILE -c CMD`, `sg GROUP -c CMD`). */
  commandAfter?: string[];
  /** The command's words are joined and run by `sh -c` (`watch`, `sg`). */
  joinsIntoShell?: boolean;
  /** Without a command it starts a shell reading stdin: always (`su`), or when an option of role `shell` is given (`sudo -s`). */
  shellWithoutCommand?: 'always' | 'shell-option';
  /** Arguments are appended to the command at run time (`xargs`); without a command it runs `echo`. */
  completes?: boolean;
  /** A `-` before the command is one of its options (`env -`, `su -`). */
  dashOption?: boolean;
  /** It runs the command in the target user's home directory unless an option of mode `keep-cwd` is given (`pkexec`). */
  runsInHome?: boolean;
  /** Where it also takes options from, which the gate does not read (files, variables): the call is opaque whatever its options. */
  optionsFrom?: string;
  /** The file names of its write options expand `%p`, `%q{VAR}` …: each is checked as a pattern. */
  writeNamesExpand?: boolean;
  /**
   * GNU parallel's grammar: the command's words are joined and run by a shell, once for each
   * combination of the argument lists after `:::` (words of the line) and `::::` (files), each
   * argument appended or put where a replacement string (`{}`, `{.}` …) stands; without a list it
   * reads them from stdin (read/parallel.ts).
   */
  argumentLists?: boolean;
}
