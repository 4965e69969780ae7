import type { Env } from '../../core/decide';
import type { MemoryPolicyIndex } from '../../core/policy-index';
import { describeProgram, type ProgramDescription } from '../../shell/registry/describe';
import { programNames } from '../../shell/registry';
import { isClosed, programFor } from '../../shell/registry/policy-programs';
import { CliError, type CommandResult } from '../errors';
import { locateForCli, policyForCli } from '../context';
import { cliMessages, type CliMessages } from '../messages';
import { nearest } from '../../core/nearest';

/**
 * `persona-gate programs [NAME]`: what the shell reader knows of a program — its level, the
 * options that write, remove or run something, each subcommand's level — with what the policy
 * found here adds (its own programs, which are closed, the commands it catalogues).
 */
export function programsCommand(env: Env, opts: { config?: string; json?: boolean }, name?: string): CommandResult {
  const t = cliMessages(env);
  // the policy is optional: without one, the registry alone
  let index: MemoryPolicyIndex | null = null;
  if (opts.config !== undefined || locateForCli(env).path !== null) index = policyForCli(env, opts.config);
  const declared = index ? Object.keys(index.settings.programs) : [];
  if (name === undefined) {
    const names = [...new Set([...programNames(), ...declared])].sort();
    const rows = names.map((n) => ({ name: n, ...summaryOf(index, n) }));
    if (opts.json) return { stdout: `${JSON.stringify(rows, null, 2)}\n`, exitCode: 0 };
    const width = Math.max(...rows.map((r) => r.name.length));
    return {
      stdout: `${t.programsHeader(rows.length)}\n${rows.map((r) => `  ${r.name.padEnd(width)}  ${r.level.padEnd(15)} ${r.summary}${r.declared ? ` ${t.programsDeclared(r.closed)}` : ''}`).join('\n')}\n`,
      exitCode: 0,
    };
  }
  const spec = index ? programFor(index, name) : null;
  const d = describeProgram(name, spec ?? undefined);
  if (!d) {
    const near = nearest(name, [...programNames(), ...declared]);
    throw new CliError(t.programsUnknown(name, near));
  }
  const prefixes = index ? index.bashPrefixes().filter((p) => p.words[0] === name || p.words[0]!.endsWith(`/${name}`)) : [];
  const closed = index ? isClosed(index, name) : false;
  if (opts.json)
    return {
      stdout: `${JSON.stringify({ ...d, closed, catalogued: prefixes.map((p) => ({ bash: p.words.join(' '), key: p.key })) }, null, 2)}\n`,
      exitCode: 0,
    };
  return { stdout: `${render(d, t, closed, prefixes, index !== null && declared.includes(name)).join('\n')}\n`, exitCode: 0 };
}

function summaryOf(index: MemoryPolicyIndex | null, name: string): { level: string; summary: string; declared: boolean; closed: boolean } {
  const spec = index ? programFor(index, name) : null;
  const d = describeProgram(name, spec ?? undefined);
  const declared = index !== null && Object.prototype.hasOwnProperty.call(index.settings.programs, name);
  return { level: d?.level ?? '', summary: d?.summary ?? '', declared, closed: index !== null && isClosed(index, name) };
}

function render(
  d: ProgramDescription,
  t: CliMessages,
  closed: boolean,
  prefixes: { words: string[]; key: string }[],
  declared: boolean,
): string[] {
  const level =
    d.wrapper && d.wrapper.length > 0 ? t.programsWrapperLevel() : t.programsLevel(d.level, d.opaque ?? null, d.subcommands.length > 0);
  const lines = [`${d.name}: ${d.summary || t.programsNoSummary()}`, level];
  if (declared) lines.push(t.programsFromPolicy(closed));
  for (const o of d.options) lines.push(`  ${o.names.join(', ')}: ${o.does}`);
  if (d.wrapper && d.wrapper.length > 0) lines.push(t.programsWrapper(), ...d.wrapper.map((n) => `  ${n}`));
  if (d.subcommands.length > 0) {
    // options most subcommands share are said once
    const key = (o: { names: string[]; does: string }) => `${o.names.join(', ')}: ${o.does}`;
    const counts = new Map<string, number>();
    for (const s of d.subcommands) for (const k of new Set(s.options.map(key))) counts.set(k, (counts.get(k) ?? 0) + 1);
    const common = new Set(d.subcommands.length > 2 ? [...counts].filter(([, n]) => n * 2 >= d.subcommands.length).map(([k]) => k) : []);
    if (common.size > 0) lines.push(t.programsEverySubcommand(), ...[...common].map((k) => `  ${k}`));
    lines.push(t.programsSubcommands());
    const width = Math.max(...d.subcommands.map((s) => s.path.length));
    for (const s of d.subcommands) {
      lines.push(`  ${s.path.padEnd(width)}  ${s.level.padEnd(15)} ${s.summary}${s.opaque ? ` (${t.programsOpaque(s.opaque)})` : ''}`);
      for (const o of s.options) if (!common.has(key(o))) lines.push(`  ${' '.repeat(width)}    ${key(o)}`);
    }
    if (d.unknownSubcommand) lines.push(t.programsUnknownSubcommand(d.unknownSubcommand.level, d.unknownSubcommand.opaque !== undefined));
  }
  if (d.strict) lines.push(t.programsStrict());
  if (d.reader) lines.push(t.programsReader(d.reader));
  if (prefixes.length > 0) {
    lines.push(t.programsCatalogued());
    for (const p of prefixes) lines.push(`  ${p.words.join(' ')} → ${p.key}`);
  }
  return lines;
}
