import { exceeds, higherLevel, type Level } from '../../core/levels';
import type { PathEffect } from '../../core/types';
import { getopt, type GetoptOption, type Parsed } from '../getopt';
import type { Reason } from '../reasons';
import { READERS_BY_NAME, word } from '../registry/readers';
import { HELP } from '../registry/define';
import { ONLY_READ_WHATEVER_THEY_ARE_HANDED } from '../programs';
import type { CommandSpec, Kind, OptionSpec, ProgramSpec } from '../registry/types';
import type { Word } from '../syntax/word';

/**
 * The one engine that reads an invocation through its program's spec (SPEC §9.5): its subcommands
 * found, its options parsed by getopt, what each option and operand does taken from the spec, and
 * a named reader called where data cannot say it. The result is the invocation's level, what it
 * does to paths, and — when it runs code persona-gate cannot read — why.
 */

export interface Effect {
  path: Word;
  effect: PathEffect;
}

export interface Classified {
  level: Level;
  kind: Kind;
  /** Why it runs code persona-gate cannot read, when it does. */
  opaque?: Reason;
  effects: Effect[];
  /** The subcommands read (`remote add`). */
  path: string[];
  /** Directories it works in (`git -C DIR`, `make -C DIR`); null when known only at run time. */
  chdir: (string | null)[];
  /** Why it has this level. */
  reason?: Reason;
  /** It only reads, and would whatever words were appended to it at run time (CommandSpec.readsWhatItIsHanded). */
  readsWhatItIsHanded?: true;
}

/** What a named reader is given: the parsed arguments, never raw words to scan again. */
export interface ReaderContext {
  name: string;
  /** The command spec the subcommands led to. */
  spec: CommandSpec;
  path: string[];
  /** The arguments after the subcommands, parsed with the command's options. */
  parsed: Parsed<OptionSpec>;
  /** Options parsed before each subcommand, outermost first (`git -C dir`). */
  globals: Parsed<OptionSpec>[];
  /** The words after the subcommands, in order, for a program with a grammar of its own (find's expression, tar's old style, dd's operands). */
  words: readonly Word[];
  /** The classification from the data alone, which the reader may change. */
  base: Classified;
}

export type NamedReader = (ctx: ReaderContext) => Classified;

const getoptSpecs = new WeakMap<
  CommandSpec,
  {
    options: GetoptOption<OptionSpec>[];
    stopAtOperand: boolean;
    numeric: boolean;
    wordOptions?: RegExp;
    singleDashLong: boolean;
    valuesFollow: boolean;
    risky: boolean;
  }
>();

/** The getopt table of a command: its own options, its parents' (persistent flags), and --help/--version. */
export function getoptSpec(spec: CommandSpec, parents: readonly CommandSpec[]) {
  let t = getoptSpecs.get(spec);
  if (t) return t;
  const all: OptionSpec[] = [
    ...HELP,
    ...parents.filter((p) => p.persistent !== false).flatMap((p) => p.options ?? []),
    ...(spec.options ?? []),
  ];
  t = {
    options: all.map((o) => ({ names: o.names, arg: o.arg ?? 'none', data: o })),
    stopAtOperand: spec.stopAtOperand === true || spec.subcommands !== undefined,
    numeric: spec.numeric === true,
    ...(spec.wordOptions !== undefined ? { wordOptions: spec.wordOptions } : {}),
    singleDashLong: spec.singleDashLong === true,
    valuesFollow: spec.valuesFollow === true,
    // an option that writes, removes, changes directory, runs code or raises the level
    risky: all.some((o) => (o.role !== undefined && o.role !== 'reads') || o.level !== undefined || o.opaque !== undefined),
  };
  getoptSpecs.set(spec, t);
  return t;
}

const max = higherLevel;

export function opaqueClass(reason: Reason, level: Level = 'process_exec', path: string[] = []): Classified {
  return {
    level: max(level, 'process_exec'),
    kind: level === 'network' ? 'network' : 'exec',
    opaque: reason,
    effects: [],
    path,
    chdir: [],
  };
}

/** Reads `args` (the words after the program's name) through `spec`. */
export function classifyWith(spec: ProgramSpec, args: readonly Word[]): Classified {
  const name = spec.name;
  let command: CommandSpec = spec;
  const parents: CommandSpec[] = [];
  const globals: Parsed<OptionSpec>[] = [];
  const path: string[] = [];
  let words = args;
  for (;;) {
    const t = getoptSpec(command, parents);
    const parsed = getopt<OptionSpec>(words, t);
    if (!command.subcommands || parsed.operands.length === 0 || parsed.used.some((u) => u.option.data?.help === true)) {
      const strict = command.strict === true || parents.some((p) => p.strict === true);
      return finish(name, command, path, parsed, globals, words, t.risky, strict);
    }
    const sub = parsed.operands[0]!;
    if (sub.dynamic || sub.pattern)
      return opaqueClass({ id: 'subcommand_at_run_time', subject: [name, ...path].join(' ') }, reach(command), path);
    const next = subcommandOf(command, sub.text);
    if (next === null) {
      const unknown = command.unknownSubcommand ?? { level: 'process_exec' as Level, opaque: 'unknown_subcommand' };
      if (unknown.help && !anyOpaque([...globals, parsed]) && asksHelp(command, words.slice(parsed.operandAt[0]! + 1)))
        return helpClass(name, [...path, sub.text]);
      if (unknown.opaque)
        return opaqueClass(
          { id: unknown.opaque as Reason['id'], subject: [name, ...path].join(' '), detail: sub.text },
          max(unknown.level, optionsLevel(globals, parsed)),
          [...path, sub.text],
        );
      return { level: unknown.level, kind: kindOf(unknown.level), effects: [], path: [...path, sub.text], chdir: [] };
    }
    globals.push(parsed);
    parents.push(command);
    path.push(sub.text);
    words = words.slice(parsed.operandAt[0]! + 1);
    command = next;
    // `git push -h`: the subcommand's usage, unless the subcommand lists the option as its own
    const usage = spec.usageOption;
    const alone = words.length === 1 && words[0]!.text === usage && !words[0]!.dynamic;
    if (usage && alone && !command.options?.some((o) => o.names.includes(usage)) && !anyOpaque(globals)) return helpClass(name, [...path]);
  }
}

/**
 * The program an option names to run (`rg --pre=cat`, `man -P cat`), when its value is one name
 * known from the line and that program, handed a path known only at run time, only reads: that
 * start is read as such (the walk records it). Any other value is opaque.
 */
function namedProgram(u: Parsed<OptionSpec>['used'][number]): Word[][] | null {
  if (u.option.data?.named !== true || u.value === undefined) return null;
  const v = u.value;
  if (v.dynamic || v.pattern) return null;
  const started = u.option.data.startedWith;
  if (started !== undefined) return started.map((words) => [v, ...words.map((text) => word(text))]);
  return onlyReadsWhatItIsHanded(v.text) ? [[v, RUN_TIME_ARGUMENT]] : null;
}

/** What a program named by an option is handed when the line does not say: a path or a value known only at run time. */
const RUN_TIME_ARGUMENT: Word = { text: '{}', dynamic: true, pattern: false, quoted: false, ansi: false };

/**
 * Whether `name` is one program, found on PATH, that only reads whatever it is handed: what a
 * program that names it hands it is not known from the line and may be an option, a mode or a
 * name beginning with `-` (`rg --pre=tar` runs `tar x` for a file named x; `rg --pre=sort` a
 * `sort -o…` for a file so named), so only a program no argument makes write or run is one.
 */
export function onlyReadsWhatItIsHanded(name: string): boolean {
  return ONLY_READ_WHATEVER_THEY_ARE_HANDED.has(name);
}

/** `git -c core.pager=cat`: a setting whose value is a command, when that command is one program that only reads. */
function plainCommandSetting(o: OptionSpec, value: Word): boolean {
  const m = o.commandSettings?.exec(value.text);
  return m !== null && m !== undefined && onlyReadsWhatItIsHanded(m[1] ?? '');
}

/** Whether a use of an option makes the invocation opaque: an option that does, unless its value is a plain one it lists or a program read as its own start. */
function makesOpaque(u: Parsed<OptionSpec>['used'][number]): boolean {
  const o = u.option.data;
  if (!o?.opaque) return false;
  if (namedProgram(u) !== null) return false;
  if (u.value === undefined || u.value.dynamic || u.value.pattern) return true;
  return !(o.plainValues?.test(u.value.text) === true || plainCommandSetting(o, u.value));
}

/** The starts of the programs an invocation's options name to run (see namedProgram), each with its words, to be read as a start of its own. */
export function namedPrograms(spec: ProgramSpec, args: readonly Word[]): Word[][] {
  return subcommandPath(spec, args).parses.flatMap((p) => p.used.flatMap((u) => namedProgram(u) ?? []));
}

/** The highest level the options used raise an invocation to (`git -c alias.x=… x`: what the alias runs may push). */
function optionsLevel(globals: readonly Parsed<OptionSpec>[], parsed: Parsed<OptionSpec>): Level {
  let level: Level = 'none';
  for (const g of [...globals, parsed])
    for (const u of g.used) {
      const o = u.option.data;
      if (o?.level && (o.plainValues === undefined || makesOpaque(u))) level = max(level, o.level);
    }
  return level;
}

/** Whether an option used in any of these parses makes the invocation opaque. */
const anyOpaque = (parses: readonly Parsed<OptionSpec>[]) => parses.some((g) => g.used.some(makesOpaque));

/** An invocation that prints its help or version and exits: it only reads. */
export const helpClass = (name: string, path: string[]): Classified => ({
  level: 'read_only',
  kind: 'reader',
  effects: [],
  path,
  chdir: [],
  reason: { id: 'help', subject: [name, ...path].join(' ') },
});

/**
 * `--help` (or the command's own `-h`) among the options right after a subcommand the spec does
 * not list (`cargo build --help`). Only before the first word that is not an option, and before
 * `--`: after them it may be an argument the subcommand passes on (`cargo run -- --help`), or the
 * value of an option the reader does not know.
 */
function asksHelp(command: CommandSpec, rest: readonly Word[]): boolean {
  const shortHelp = (command.options ?? []).some((o) => o.help === true && o.names.includes('-h'));
  for (const w of rest) {
    if (w.dynamic || w.pattern || w.text === '--' || !w.text.startsWith('-')) return false;
    if (w.text === '--help' || (shortHelp && w.text === '-h')) return true;
  }
  return false;
}

/**
 * The highest level a command can reach through any of its subcommands (`kubectl $(…)` may be
 * `kubectl delete`): what a subcommand known only at run time is read at. A named reader decides
 * the level from the arguments, so a command that has one may reach the network.
 */
function reach(command: CommandSpec, seen = new Set<CommandSpec>()): Level {
  if (seen.has(command)) return 'none';
  seen.add(command);
  let level: Level = max(command.level ?? 'process_exec', command.unknownSubcommand?.level ?? 'process_exec');
  if (command.reader !== undefined) return 'network';
  for (const name of Object.keys(command.subcommands ?? {})) {
    const sub = subcommandOf(command, name);
    if (sub !== null) level = max(level, reach(sub, seen));
    if (level === 'network') break;
  }
  return level;
}

/** A subcommand's spec, made on first use; an alias followed once; null when the command has no such subcommand. */
export function subcommandOf(command: CommandSpec, name: string): CommandSpec | null {
  const subs = command.subcommands;
  if (!subs || !Object.prototype.hasOwnProperty.call(subs, name)) return null;
  let entry = subs[name]!;
  if (typeof entry === 'string') {
    if (!Object.prototype.hasOwnProperty.call(subs, entry)) return null;
    entry = subs[entry]!;
    if (typeof entry === 'string') return null;
  }
  if (typeof entry === 'function') {
    const made = entry();
    subs[name] = made;
    return made;
  }
  return entry;
}

/**
 * The subcommands an invocation runs (`npm --registry R publish` is `publish`), the words after
 * them in their order, and whether that reading is uncertain: a subcommand known only at run
 * time, or an option the spec does not know before a subcommand (it could take the next word).
 * A program without subcommands gives its operands, its options set aside.
 */
export function subcommandPath(
  spec: ProgramSpec,
  args: readonly Word[],
): { path: string[]; rest: Word[]; uncertain: boolean; parses: Parsed<OptionSpec>[]; leaf: CommandSpec | null } {
  let command: CommandSpec = spec;
  const parents: CommandSpec[] = [];
  const path: string[] = [];
  const parses: Parsed<OptionSpec>[] = [];
  let words = args;
  let uncertain = false;
  for (;;) {
    const parsed = getopt<OptionSpec>(words, getoptSpec(command, parents));
    parses.push(parsed);
    if (!command.subcommands) return { path, rest: path.length > 0 ? [...words] : parsed.operands, uncertain, parses, leaf: command };
    if (parsed.operands.length === 0) return { path, rest: [...words], uncertain, parses, leaf: command };
    const sub = parsed.operands[0]!;
    if (sub.dynamic || sub.pattern) return { path, rest: words.slice(parsed.operandAt[0]!), uncertain: true, parses, leaf: null };
    if (parsed.unknown.some((u) => u.at < parsed.operandAt[0]!) || parsed.ambiguous.length > 0) uncertain = true;
    path.push(sub.text);
    words = words.slice(parsed.operandAt[0]! + 1);
    const next = subcommandOf(command, sub.text);
    if (next === null) return { path, rest: [...words], uncertain, parses, leaf: null };
    parents.push(command);
    command = next;
  }
}

/**
 * The level words appended at run time may reach (xargs's): where they would be the subcommand
 * (`xargs git`, `xargs kubectl`), the highest of any; else null, and the invocation's own reading stands.
 */
export function appendedReach(spec: ProgramSpec, args: readonly Word[]): Level | null {
  const p = subcommandPath(spec, args);
  const last = p.parses[p.parses.length - 1];
  return p.leaf?.subcommands !== undefined && last !== undefined && last.operands.length === 0 ? reach(p.leaf) : null;
}

/** Paths the shell sets that begin with a `/`, never with a `-`. */
const ABSOLUTE_VARIABLE = /^\$(\{(HOME|PWD|OLDPWD|TMPDIR)\}|(HOME|PWD|OLDPWD|TMPDIR)(?![\w]))(\/|$)/;

/**
 * Whether a word may begin with `-` once the shell has expanded it: its first part known only at
 * run time, or a brace expansion one of whose alternatives begins with `-`.
 */
export function mayBecomeOption(w: Word): boolean {
  if (w.startsPlain === true) return false;
  if (w.dynamic && /^[$`]/.test(w.text) && !ABSOLUTE_VARIABLE.test(w.text)) return true;
  return w.pattern && /(^|,)\{?-|\{-/.test(w.text) && w.text.includes('{');
}

/** /dev/null, /dev/stdout and /dev/stderr, named as they are. */
export const isStream = (w: Word): boolean => !w.dynamic && !w.pattern && /^\/dev\/(null|stdout|stderr)$/.test(w.text);

/** The reason an invocation has its level when nothing more particular is said: its kind's. */
const KIND_REASONS = {
  builtin: 'builtin',
  reader: 'reads',
  writer: 'writes',
  network: 'network',
  exec: 'unknown_program',
} as const satisfies Record<Kind, Reason['id']>;
const KIND_REASON_IDS: ReadonlySet<string> = new Set(Object.values(KIND_REASONS));

/** A named reader that changed the kind keeps the reason of the kind it read first (`git remote add` "reads"): give it its new kind's. */
function kindReason(c: Classified): Classified {
  if (!c.reason || !KIND_REASON_IDS.has(c.reason.id) || c.reason.id === KIND_REASONS[c.kind]) return c;
  return { ...c, reason: { id: KIND_REASONS[c.kind], subject: c.reason.subject } };
}

function kindOf(level: Level): Kind {
  if (level === 'none') return 'builtin';
  if (level === 'read_only') return 'reader';
  if (level === 'workspace_write') return 'writer';
  if (level === 'network') return 'network';
  return 'exec';
}

function finish(
  name: string,
  spec: CommandSpec,
  path: string[],
  parsed: Parsed<OptionSpec>,
  globals: Parsed<OptionSpec>[],
  words: readonly Word[],
  risky = false,
  strict = false,
): Classified {
  const subject = [name, ...path].join(' ');
  // An operand that may be an option at run time (`rg "$OPTS" x`, `sort {-o,out} in`) could be one that writes or runs.
  const computed = risky ? parsed.operands.find(mayBecomeOption) : undefined;
  if (computed !== undefined) return opaqueClass({ id: 'options_at_run_time', subject, detail: computed.text }, spec.level, path);
  // help, unless an option before it makes the program run a command anyway (`git -c man.viewer=x log --help`)
  if (!spec.helpByReader && parsed.used.some((u) => u.option.data?.help === true) && !anyOpaque([...globals, parsed]))
    return helpClass(name, path);
  if (spec.opaque) return opaqueClass({ id: spec.opaque as Reason['id'], subject }, spec.level, path);
  if (strict) {
    // an option the spec does not list, or a long one it cannot tell apart, may be one that changes the system
    for (const g of [...globals, parsed]) {
      const odd = g.unknown[0]?.text ?? g.ambiguous[0];
      if (odd !== undefined) return opaqueClass({ id: 'unknown_option', subject, detail: odd }, spec.level, path);
    }
  }
  // a command that takes no operands, given one (`aeat whoami modelo export`): the program may read it as another
  if (spec.operands === 'none' && parsed.operands.length > 0)
    return opaqueClass({ id: 'unexpected_operand', subject, detail: parsed.operands[0]!.text }, spec.level, path);
  let level = max(spec.level, optionsLevel(globals, parsed));
  const effects: Effect[] = [];
  const chdir: (string | null)[] = [];
  let opaque: Reason | undefined;
  for (const g of [...globals, parsed]) {
    for (const u of g.used) {
      const o = u.option.data;
      if (!o) continue;
      if (makesOpaque(u) && !opaque) opaque = { id: o.opaque as Reason['id'], subject: name === subject ? name : subject, detail: u.name };
      if (u.value === undefined) continue;
      switch (o.role) {
        case 'writes':
          effects.push({ path: u.value, effect: 'write' });
          break;
        case 'destroys':
          effects.push({ path: u.value, effect: 'destroy' });
          break;
        case 'into':
          effects.push({ path: u.value, effect: 'into' });
          break;
        case 'chdir':
          chdir.push(u.value.dynamic ? null : u.value.text);
          break;
        default:
          break;
      }
    }
  }
  const ops = parsed.operands;
  switch (spec.operands) {
    case 'writes':
      for (const p of ops) effects.push({ path: p, effect: 'write' });
      break;
    case 'destroys':
      for (const p of ops) effects.push({ path: p, effect: 'destroy' });
      break;
    case 'first-then-destroys':
      for (const p of ops.slice(1)) effects.push({ path: p, effect: 'destroy' });
      break;
    case 'first-then-writes':
      // one word that may become several (`ddrescue /dev/sd* …`): whichever it becomes may be written
      if (ops[0] && (ops[0].pattern || (ops[0].dynamic && !ops[0].quoted))) effects.push({ path: ops[0], effect: 'write' });
      for (const p of ops.slice(1)) effects.push({ path: p, effect: 'write' });
      break;
    case 'second-writes':
      if (ops[1]) effects.push({ path: ops[1], effect: 'write' });
      // one word that may become two (`uniq *`): the second, whichever it is, is written
      else if (ops[0] && (ops[0].pattern || (ops[0].dynamic && !ops[0].quoted))) effects.push({ path: ops[0], effect: 'write' });
      break;
    default:
      break;
  }
  // what goes to /dev/null or a standard stream is written to no file (a redirection of the stream is read as one)
  for (let k = effects.length - 1; k >= 0; k--) if (isStream(effects[k]!.path)) effects.splice(k, 1);
  // a filter given no file reads only what it is given: nothing of the system
  const namesAFile = () =>
    [...globals, parsed].some(
      (g) => g.unknown.length > 0 || g.ambiguous.length > 0 || g.used.some((u) => u.option.data?.role !== undefined),
    );
  // grep's pattern, one word for sure (`grep *` may become a pattern and files)
  const pattern =
    spec.operands === 'pattern-then-reads' && !parsed.used.some((u) => u.option.data?.mode === 'patterns') ? ops[0] : undefined;
  const patterns = pattern && !pattern.pattern && !(pattern.dynamic && !pattern.quoted) ? 1 : 0;
  if (spec.stdinAlone === true && ops.length <= patterns && level === 'read_only' && effects.length === 0 && !opaque && !namesAFile())
    level = 'none';
  let kind: Kind = spec.kind ?? kindOf(level);
  if (effects.length > 0 && !exceeds(level, 'workspace_write')) {
    level = max(level, 'workspace_write');
    if (kind === 'reader' || kind === 'builtin') kind = 'writer';
  }
  let base: Classified = { level, kind, effects, path, chdir, reason: { id: KIND_REASONS[kind], subject } };
  if (opaque) base = { ...base, level: max(level, 'process_exec'), kind: level === 'network' ? 'network' : 'exec', opaque, effects: [] };
  else if (spec.readsWhatItIsHanded === true && !spec.reader && !exceeds(level, 'read_only') && effects.length === 0)
    base = { ...base, readsWhatItIsHanded: true };
  if (spec.reader) {
    const reader = READERS_BY_NAME[spec.reader];
    if (!reader) throw new Error(`registry: no reader ${spec.reader}`);
    if (!base.opaque) return kindReason(reader({ name, spec, path, parsed, globals, words, base }));
  }
  return base;
}
