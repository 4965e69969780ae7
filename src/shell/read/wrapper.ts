import { getopt, type GetoptSpec, type UsedOption } from '../getopt';
import type { Reason } from '../reasons';
import { getoptSpec } from './classify';
import { peelParallel } from './parallel';
import type { OptionSpec, ProgramSpec } from '../registry/types';
import { literalWord, type Word } from '../syntax/word';

/**
 * One layer of a command line's wrappers, read through the wrapper's registry spec: its options
 * parsed by the one option parser (getopt.ts) with the roles the spec gives them, and the command
 * it runs found where the spec says (registry/types.ts, WrapperSpec). src/shell/commands.ts peels
 * the layers one by one and judges what finally runs.
 */

export type Peeled =
  | { kind: 'run'; words: Word[]; completed?: boolean; opaque?: Reason; via?: string; chdir?: (string | null)[]; writes?: Word[] }
  | {
      kind: 'reparse';
      source: string;
      dynamic: boolean;
      via: string;
      writes?: Word[];
      /** Words after the source are the script's positional parameters, never code (`sh -c CODE _ ARGS`). */
      positional?: boolean;
      /** The shell whose standard input the source is (`sh <<'EOF'`): opaque after all when the source moves that input. */
      stdinOf?: Word[];
    }
  | { kind: 'reparse-many'; sources: { source: string; dynamic: boolean }[]; via: string; writes?: Word[] }
  /** Several commands it runs, each read as a command of its own (GNU parallel's jobs). */
  | { kind: 'run-many'; runs: Word[][]; via: string; writes?: Word[] }
  | { kind: 'lookup' };

const tables = new WeakMap<ProgramSpec, GetoptSpec<OptionSpec>>();

/** A wrapper's getopt table: its options and --help/--version, long options only written whole. */
export function tableOf(spec: ProgramSpec): GetoptSpec<OptionSpec> {
  let t = tables.get(spec);
  if (!t) tables.set(spec, (t = { ...getoptSpec(spec, []), exactLong: true }));
  return t;
}

const joined = (words: readonly Word[]) => ({ source: words.map((x) => x.text).join(' '), dynamic: words.some((x) => x.dynamic) });

/** valgrind's `--log-file=out.%p` names a file per process: any text may stand where a % is. */
function expandedName(w: Word): Word {
  return w.text.includes('%') ? { ...w, text: w.text.replace(/%(q\{[^}]*\}|.)?/g, '*'), pattern: true } : w;
}

/**
 * The words `env -S` splits and runs: its value and every word after it (env goes on reading
 * options and the command from the split words).
 */
function splitWords(rest: readonly Word[], u: UsedOption<OptionSpec>): Word[] {
  const value = u.value ?? literalWord('');
  const next = value === rest[u.at + 1] ? u.at + 2 : u.at + 1;
  return [value, ...rest.slice(next)];
}

/** Reads one wrapper's words (`rest[0]` names it) through its spec. */
export function peelWrapper(spec: ProgramSpec, rest: Word[]): Peeled {
  const name = spec.name;
  const wrapper = spec.wrapper ?? {};
  // npx, bunx, pnpx: whatever they are given runs a program the project may have planted
  if (spec.opaque)
    return rest.length > 1
      ? { kind: 'run', words: rest, opaque: { id: spec.opaque as Reason['id'], subject: name }, via: name }
      : { kind: 'run', words: [], via: name };
  if (wrapper.argumentLists) return peelParallel(spec, rest, tableOf(spec));
  const parsed = getopt<OptionSpec>(rest, tableOf(spec), 1);
  const writes: Word[] = [];
  const chdir: (string | null)[] = [];
  let opaque: Reason | undefined;
  let shellOption: string | undefined;
  let command: Word | undefined;
  let replace: string | undefined;
  let split: UsedOption<OptionSpec> | undefined;
  let exec = false;
  let lookup = false;
  let keepCwd = false;
  let help = false;
  for (const u of parsed.used) {
    const o = u.option.data;
    if (!o) continue;
    if (o.help) help = true;
    if (o.opaque) opaque ??= { id: o.opaque as Reason['id'], subject: name, detail: u.name };
    switch (o.role) {
      case 'writes':
        if (u.value) writes.push(wrapper.writeNamesExpand ? expandedName(u.value) : u.value);
        break;
      case 'chdir':
        chdir.push(u.value && !u.value.dynamic ? u.value.text : null);
        break;
      case 'runs':
        opaque ??= { id: 'wrapper_runs_program', subject: name, detail: u.name };
        break;
      case 'command':
        command ??= u.value ?? literalWord('');
        break;
      case 'shell':
        shellOption ??= u.name;
        break;
      default:
        break;
    }
    if (o.mode === 'replace') replace = u.value?.text ?? '{}';
    else if (o.mode === 'split') split ??= u;
    else if (o.mode === 'exec') exec = true;
    else if (o.mode === 'lookup') lookup = true;
    else if (o.mode === 'keep-cwd') keepCwd = true;
  }
  // `command -v NAME` only looks a name up
  if (lookup) return { kind: 'lookup' };
  let operands = parsed.operands;
  if (wrapper.dashOption && operands[0]?.text === '-') operands = operands.slice(1);
  const positional = wrapper.positional ?? 0;
  const leading = operands.slice(0, positional);
  let after = operands.slice(positional);
  let extra: Word[] = [];
  if (command === undefined && after[0] !== undefined && wrapper.commandAfter?.includes(after[0].text)) {
    command = after[1] ?? literalWord('');
    extra = after.slice(2);
    after = [];
  }
  // an option the spec does not list could take the next word as its value: the command read would not be the one that runs
  const unknown = parsed.unknown[0];
  if (unknown !== undefined)
    return { kind: 'run', words: rest, opaque: { id: 'wrapper_option_unknown', subject: name, detail: unknown.text }, writes };
  // --help, --version: it only prints (the registry's reading of the call says so)
  if (help) return { kind: 'run', words: rest };
  if (wrapper.positionalRole === 'writes') writes.push(...leading);
  // the command is found and run under the root directory: the system's own only under `/`
  const root = wrapper.positionalRole === 'root' ? leading[0] : undefined;
  if (root && !root.dynamic && root.text.replace(/\/+$/, '') === '') chdir.push('/');
  else if (root) opaque ??= { id: 'wrapper_other_root', subject: name, detail: root.text };
  if (split) {
    const parts = splitWords(rest, split);
    const source = joined(parts);
    // env -S decodes escapes of its own (`\_` is a space) and runs in the -C directory: not read as shell code
    if (source.source.includes('\\') || rest.some((w) => /^-[a-zA-Z0-9]*C|^--c/.test(w.text)))
      return { kind: 'run', words: rest, opaque: { id: 'env_split_escapes', subject: 'env -S' } };
    return { kind: 'reparse', ...source, via: 'env -S' };
  }
  // strace -o '|cmd' / '!cmd' pipes its output into a command
  if (writes.some((w) => w.text.startsWith('|') || w.text.startsWith('!')))
    return { kind: 'run', words: rest, opaque: { id: 'wrapper_writes_into_command', subject: name } };
  if (wrapper.optionsFrom)
    return { kind: 'run', words: rest, opaque: { id: 'wrapper_opaque', subject: name, detail: wrapper.optionsFrom }, writes };
  if (opaque) return { kind: 'run', words: rest, opaque, writes };
  if (command !== undefined) {
    const parts = [command, ...(wrapper.joinsIntoShell ? extra : [])];
    return { kind: 'reparse', ...joined(parts), via: `${name} -c`, writes };
  }
  const inner = wrapper.rest === 'none' ? [] : after;
  if (inner.length === 0) {
    if (wrapper.shellWithoutCommand === 'always' || (wrapper.shellWithoutCommand === 'shell-option' && shellOption !== undefined))
      return { kind: 'run', words: rest, opaque: { id: 'starts_shell', subject: name }, writes };
    if (wrapper.completes) return { kind: 'run', words: [literalWord('echo')], completed: true, via: name };
    return { kind: 'run', words: [], via: name, writes };
  }
  if (wrapper.rest === 'user-shell') return { kind: 'run', words: rest, opaque: { id: 'starts_shell_other_user', subject: name } };
  if (shellOption !== undefined)
    return { kind: 'run', words: rest, opaque: { id: 'wrapper_shell', subject: name, detail: shellOption }, writes };
  if (wrapper.joinsIntoShell && !exec) return { kind: 'reparse', ...joined(inner), via: name, writes };
  if (replace !== undefined) {
    const token = replace;
    return {
      kind: 'run',
      words: inner.map((w) => (token !== '' && w.text.includes(token) ? { ...w, dynamic: true } : w)),
      completed: false,
      via: name,
    };
  }
  // pkexec runs the command in the target user's home directory unless told to stay
  if (wrapper.runsInHome && !keepCwd) chdir.push(null);
  return { kind: 'run', words: inner, completed: wrapper.completes === true, via: name, chdir, writes };
}
