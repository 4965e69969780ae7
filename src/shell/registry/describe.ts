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
  wrapper?: boolean;
  /** An option it does not list is opaque. */
  strict?: boolean;
}

function optionDoes(o: OptionSpec): string | null {
  if (o.help) return null;
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
      return 'runs its value';
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

function telling(options: readonly OptionSpec[] | undefined): { names: string[]; does: string }[] {
  return (options ?? []).flatMap((o) => {
    const does = optionDoes(o);
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
      summary: sub.summary ?? '',
      ...(sub.opaque ? { opaque: sub.opaque } : {}),
      options: telling(sub.options),
    });
    walk(sub, path, out);
  }
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
    options: telling(spec.options),
    subcommands,
    ...(spec.unknownSubcommand ? { unknownSubcommand: spec.unknownSubcommand } : {}),
    ...(spec.reader ? { reader: spec.reader } : {}),
    ...(spec.wrapper ? { wrapper: true } : {}),
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
    for (const o of d.options) notes.push(`\`${o.names.join('`/`')}\` ${o.does}`);
    const byLevel = new Map<string, string[]>();
    for (const s of d.subcommands) if (!s.path.includes(' ')) byLevel.set(s.level, [...(byLevel.get(s.level) ?? []), s.path]);
    for (const [level, subs] of byLevel) notes.push(`${level}: ${subs.map((s) => `\`${s}\``).join(', ')}`);
    if (d.unknownSubcommand)
      notes.push(`any other subcommand: ${d.unknownSubcommand.level}${d.unknownSubcommand.opaque ? ', opaque' : ''}`);
    if (d.strict) notes.push('any option it does not list: opaque');
    if (d.reader) notes.push(`read further by code (\`${d.reader}\`)`);
    rows.push(`| \`${name}\` | \`${d.level}\` | ${d.summary.replace(/\|/g, '\\|')} | ${notes.join('; ').replace(/\|/g, '\\|')} |`);
  }
  return rows.join('\n');
}
