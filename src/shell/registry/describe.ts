import type { Level } from '../../core/levels';
import { programNames, programSpec } from './index';
import { subcommandOf } from '../read/classify';
import type { CommandSpec, OptionSpec, ProgramSpec } from './types';

/**
 * What the registry knows of a program, for people: `persona-gate programs [NAME]` and the
 * generated table in docs/programs.md. Made from the specs alone.
 */

export interface ProgramDescription {
  name: string;
  summary: string;
  level: Level;
  kind: string;
  /** Why every call is opaque, when it is. */
  opaque?: string;
  /** Options that write, remove, run, change directory or raise the level. */
  options: { names: string[]; does: string }[];
  /** Subcommands and their levels (`remote add` …), depth first. */
  subcommands: { path: string; level: Level; summary: string; opaque?: string; options: { names: string[]; does: string }[] }[];
  unknownSubcommand?: { level: Level; opaque?: string };
  /** Code of its own reads it further (readers.ts). */
  reader?: string;
  /** For a program that runs another command: where that command starts and how it runs. */
  wrapper?: string[];
  /** An option it does not list is opaque. */
  strict?: boolean;
}

/** What the wrapper engine does with an option of each mode (registry/types.ts, WrapperSpec). */
const MODES: Readonly<Record<string, string>> = {
  __proto__: null as never,
  replace: 'its value stands in the command for each name read at run time',
  split: 'its value is split into the command it runs',
  exec: 'runs the command itself, not through sh -c',
  lookup: 'only looks the command up',
  'keep-cwd': 'runs the command in the current directory',
};

function optionDoes(o: OptionSpec, wrapper = false): string | null {
  if (o.help) return null;
  if (wrapper && o.mode !== undefined && MODES[o.mode]) return MODES[o.mode]!;
  if (o.opaque) return `runs code (${o.opaque})`;
  switch (o.role) {
    case 'writes':
      return 'writes its value';
    case 'destroys':
      return 'removes or replaces its value';
    case 'into':
      return 'writes files into its value';
    case 'chdir':
      return 'works in its value';
    case 'runs':
      return o.arg === 'none' ? 'runs a program the gate does not read' : 'runs its value';
    case 'command':
      return 'runs its value as a shell command line';
    case 'shell':
      return 'hands the command to a shell';
    case 'target':
      return 'its value receives the operands';
    default:
      break;
  }
  if (o.level) return `raises the level to ${o.level}`;
  return null;
}

function telling(options: readonly OptionSpec[] | undefined, wrapper = false): { names: string[]; does: string }[] {
  return (options ?? []).flatMap((o) => {
    const does = optionDoes(o, wrapper);
    return does === null ? [] : [{ names: o.names, does }];
  });
}

function walk(spec: CommandSpec, prefix: string, out: ProgramDescription['subcommands']): void {
  for (const [name, entry] of Object.entries(spec.subcommands ?? {})) {
    const path = prefix ? `${prefix} ${name}` : name;
    const sub = subcommandOf(spec, name);
    if (sub === null) continue;
    if (typeof entry === 'string') {
      out.push({ path, level: sub.level, summary: `the same as ${entry}`, options: [] });
      continue;
    }
    out.push({
      path,
      level: sub.level,
      summary: [sub.summary, sub.operands === 'none' ? 'takes no operands' : ''].filter(Boolean).join('; '),
      ...(sub.opaque ? { opaque: sub.opaque } : {}),
      options: telling(sub.options),
    });
    walk(sub, path, out);
  }
}

/** Where a wrapper's command starts and how it runs, in words. */
function wrapperNotes(spec: ProgramSpec): string[] {
  const w = spec.wrapper!;
  if (spec.opaque) return [];
  const notes: string[] = [];
  const n = w.positional ?? 0;
  const after = n > 0 ? `its options and ${n === 1 ? 'one operand' : `${n} operands`}` : 'its options';
  if (w.rest === 'none') notes.push(`runs no command of its operands`);
  else if (w.rest === 'user-shell') notes.push(`its operands after ${after} are a user and that user's shell's arguments: opaque`);
  else notes.push(`runs the command after ${after}${w.completes ? ', with arguments it reads at run time appended' : ''}`);
  if (w.positionalRole === 'writes') notes.push(n === 1 ? 'writes its operand' : 'writes its operands');
  if (w.positionalRole === 'root') notes.push('finds and runs the command under the root its operand names: opaque unless `/`');
  if (w.commandAfter) notes.push(`\`${w.commandAfter.join('`/`')}\` after that runs its value as a shell command line`);
  if (w.joinsIntoShell) notes.push("joins the command's words and runs them with sh -c");
  if (w.dashOption) notes.push('`-` before the command is one of its options');
  if (w.runsInHome) notes.push("runs the command in the target user's home directory");
  if (w.shellWithoutCommand === 'always') notes.push('without a command, starts a shell that reads stdin: opaque');
  if (w.shellWithoutCommand === 'shell-option') notes.push('with its shell option and no command, starts a shell that reads stdin: opaque');
  if (w.optionsFrom) notes.push(`always opaque: it also takes options from ${w.optionsFrom}`);
  if (w.writeNamesExpand) notes.push('the names its write options give expand `%p` …: checked as patterns');
  notes.push('any option not listed, or a long option not written whole: opaque');
  return notes;
}

export function describeProgram(name: string, spec: ProgramSpec | null = programSpec(name)): ProgramDescription | null {
  if (!spec) return null;
  const subcommands: ProgramDescription['subcommands'] = [];
  walk(spec, '', subcommands);
  return {
    name,
    summary: spec.summary ?? '',
    level: spec.level,
    kind: spec.kind ?? '',
    ...(spec.opaque ? { opaque: spec.opaque } : {}),
    options: telling(spec.options, spec.wrapper !== undefined),
    subcommands,
    ...(spec.unknownSubcommand ? { unknownSubcommand: spec.unknownSubcommand } : {}),
    ...(spec.reader ? { reader: spec.reader } : {}),
    ...(spec.wrapper ? { wrapper: wrapperNotes(spec) } : {}),
    ...(spec.strict ? { strict: true } : {}),
  };
}

/** The registry as a Markdown table: one row a program. */
export function programsMarkdown(): string {
  const rows = ['| program | level | what it does | options and subcommands that change its level or effects |', '|---|---|---|---|'];
  for (const name of programNames()) {
    const d = describeProgram(name)!;
    const notes: string[] = [];
    if (d.opaque)
      notes.push(d.subcommands.length > 0 ? `without a subcommand: opaque (\`${d.opaque}\`)` : `always opaque (\`${d.opaque}\`)`);
    notes.push(...(d.wrapper ?? []).slice(0, -1));
    for (const o of d.options) notes.push(`\`${o.names.join('`/`')}\` ${o.does}`);
    const byLevel = new Map<string, string[]>();
    for (const s of d.subcommands) if (!s.path.includes(' ')) byLevel.set(s.level, [...(byLevel.get(s.level) ?? []), s.path]);
    for (const [level, subs] of byLevel) notes.push(`${level}: ${subs.map((s) => `\`${s}\``).join(', ')}`);
    if (d.unknownSubcommand)
      notes.push(`any other subcommand: ${d.unknownSubcommand.level}${d.unknownSubcommand.opaque ? ', opaque' : ''}`);
    if (d.strict) notes.push('any option it does not list: opaque');
    if (d.reader) notes.push(`read further by code (\`${d.reader}\`)`);
    const level = d.wrapper && d.wrapper.length > 0 ? "its command's" : `\`${d.level}\``;
    rows.push(`| \`${name}\` | ${level} | ${d.summary.replace(/\|/g, '\\|')} | ${notes.join('; ').replace(/\|/g, '\\|')} |`);
  }
  return rows.join('\n');
}
