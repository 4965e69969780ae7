import { opaqueReach } from '../../core/residue';
import { SUBJECT_GATES, effectiveScope, localeFor, type Env } from '../../core/decide';
import { messagesFor } from '../../core/messages';
import type { MemoryPolicyIndex } from '../../core/policy-index';
import { resolveTool, subjectForCommand, type Subject } from '../../core/resolve';
import { emptyState } from '../../core/state';
import type { GateContext, Ruling } from '../../core/types';
import type { Level } from '../../core/levels';
import { SHELL_TOOLS } from '../../core/catalog/claude-code';
import { defaultTier } from '../../core/policy-index';
import { CliError, type CommandResult } from '../errors';
import { cliMessages } from '../messages';
import { policyForCli } from '../context';

export interface ListOptions {
  config?: string;
  persona?: string;
  stage?: string;
  format?: string;
}

export interface ListEntry {
  key: string;
  family: string | null;
  level: string | null;
  tier: string;
  tools: string[];
  allowed: boolean;
  status: string;
  gate: string;
  identity: boolean;
  /** A shell tool judged line by line: the persona may run lines at this level and below (null: the tool as a whole). */
  lines_up_to: Level | null;
  /** The shell prefixes that are this command. */
  bash: string[];
}

/**
 * A shell tool is judged by what each line runs (SPEC §3 step 3), not at its family's level: a
 * persona with the shell family may run the lines at its ceiling and below, whatever that ceiling.
 * Null when the tool is not line-judged, or when something other than the level refused it.
 */
function shellLines(subject: Subject, ceiling: Level | null, ruling: { gate: string; rule: string } | null): Level | null {
  if (subject.via !== 'builtin' || !SHELL_TOOLS.has(subject.key) || ceiling === null || ceiling === 'network') return null;
  if (ruling === null) return ceiling;
  const byLevel =
    (ruling.gate === 'scope' && ruling.rule === 'ceiling') || (ruling.gate === 'stage' && ruling.rule === 'side_effect_level');
  return byLevel ? ceiling : null;
}

/**
 * Every operation of the catalog as this persona (and stage) would see it, the identity gate aside;
 * `extraTools` adds tool names the catalog may not list itself (an MCP lock's), each judged as the hook would.
 */
export function listEntries(
  index: MemoryPolicyIndex,
  personaName: string,
  stageName: string | undefined,
  env: Env,
  extraTools: readonly string[] = [],
): ListEntry[] {
  const persona = index.persona(personaName);
  if (!persona) throw new CliError(messagesFor(localeFor(index, env)).unknownPersona(personaName, index.personaNames()));
  const stage = stageName === undefined ? null : (persona.stages.find((s) => s.name === stageName) ?? null);
  if (stageName !== undefined && !stage) {
    throw new CliError(
      messagesFor(localeFor(index, env)).unknownStage(
        personaName,
        stageName,
        persona.stages.map((s) => s.name),
      ),
    );
  }
  const options = { confirmOn: 'post' as const };
  const scope = effectiveScope(personaName, persona, stage, options);
  const subjects: { subject: Subject; tools: string[]; bash?: string[] }[] = [];
  for (const [key, def] of Object.entries(index.policy.catalog.commands)) {
    const subject = subjectForCommand(index, key, 'tool');
    if (subject) subjects.push({ subject, tools: [...def.tools], bash: [...def.bash] });
  }
  for (const glob of index.familyGlobs) {
    const level = index.familyLevels.get(glob.family) ?? 'network';
    subjects.push({
      subject: {
        key: glob.pattern,
        family: glob.family,
        level,
        tier: index.settings.defaults.confirm[level] ?? 'auto',
        owner: null,
        via: 'family_glob',
      },
      tools: [glob.pattern],
    });
  }
  for (const tool of index.builtinTools.keys()) subjects.push({ subject: resolveTool(index, tool, {}), tools: [tool] });
  for (const tool of extraTools) subjects.push({ subject: resolveTool(index, tool, {}), tools: [tool] });
  const gates = SUBJECT_GATES.filter((g) => g.name !== 'identity' && g.name !== 'unknown_tool');
  const identity = index.settings.identity;
  return subjects.map(({ subject, tools, bash }) => {
    const ctx: GateContext = {
      index,
      event: { hook_event_name: 'PreToolUse', session_id: 'list', tool_name: tools[0] ?? subject.key, tool_input: {} },
      subject,
      personaName,
      persona,
      stage,
      scope,
      state: emptyState(),
      messages: messagesFor(localeFor(index, env)),
      env,
      options,
    };
    let status = 'ok';
    let gate = 'pass';
    let allowed = true;
    let ruling: Ruling | null = null;
    for (const g of gates) {
      const outcome = g.check(ctx);
      if ('ruling' in outcome) {
        ruling = outcome.ruling;
        status = outcome.ruling.status;
        gate = outcome.ruling.gate;
        allowed = outcome.ruling.verdict !== 'deny';
        break;
      }
    }
    const lines = shellLines(subject, scope.ceiling, ruling);
    if (lines !== null && !allowed) [status, gate, allowed] = ['ok', 'pass', true];
    const needsIdentity =
      identity !== undefined &&
      !identity.reads.includes(subject.key) &&
      !identity.switches.includes(subject.key) &&
      subject.level !== null &&
      subject.level !== 'none' &&
      subject.level !== 'read_only';
    const tier = lines !== null ? defaultTier(index, lines) : subject.tier;
    return {
      key: subject.key,
      family: subject.family,
      level: subject.level,
      tier,
      tools,
      allowed,
      status,
      gate,
      identity: needsIdentity,
      lines_up_to: lines,
      bash: bash ?? [],
    };
  });
}

export function listCommand(env: Env, opts: ListOptions): CommandResult {
  const format = opts.format ?? 'text';
  const index = policyForCli(env, opts.config);
  const t = cliMessages(env, index);
  if (!['text', 'json', 'claude-permissions'].includes(format)) throw new CliError(t.badFormat(format));
  if (opts.persona === undefined) return listPersonas(index, format, t);
  const personaName = opts.persona;
  const entries = listEntries(index, personaName, opts.stage, env);
  if (format === 'json') {
    const reach = index.policy ? opaqueReach(index.policy, personaName) : null;
    return {
      stdout: `${JSON.stringify({ persona: personaName, stage: opts.stage ?? null, entries, reachable_through_opaque_code: reach?.commands ?? [] }, null, 2)}\n`,
      exitCode: 0,
    };
  }
  if (format === 'claude-permissions') {
    const deny = [...new Set(entries.filter((e) => !e.allowed).flatMap((e) => e.tools))].sort();
    return { stdout: `${JSON.stringify({ permissions: { deny } }, null, 2)}\n`, exitCode: 0 };
  }
  const persona = index.persona(personaName)!;
  const scope = effectiveScope(personaName, persona, persona.stages.find((s) => s.name === opts.stage) ?? null, { confirmOn: 'post' });
  const [may, tier, level, command, why] = t.listColumns();
  const lines = [
    t.listHeader(personaName, opts.stage ?? null, scope.ceiling, persona.families.join(', '), scope.allowed_tools?.join(', ') ?? null),
    '',
    `${may!.padEnd(6)}${tier!.padEnd(9)}${level!.padEnd(17)}${command!.padEnd(34)}${why}`,
  ];
  const sorted = [...entries].sort((a, b) => Number(b.allowed) - Number(a.allowed) || a.key.localeCompare(b.key));
  for (const e of sorted) {
    const names = e.tools.length > 0 ? e.tools.join(' ') : e.bash.join(', ');
    const reason =
      e.lines_up_to !== null
        ? t.shellLines(e.key, e.lines_up_to)
        : e.allowed
          ? `${names}${e.identity ? ` ${t.afterIdentity()}` : ''}`
          : `${e.status} (${e.gate})`;
    const may = e.lines_up_to !== null ? t.someLines() : e.allowed ? t.yes() : t.no();
    const level = e.lines_up_to !== null ? `≤ ${e.lines_up_to}` : (e.level ?? '?');
    lines.push(`${may.padEnd(6)}${(e.allowed ? e.tier : '-').padEnd(9)}${level.padEnd(17)}${e.key.padEnd(34)}${reason}`);
  }
  const reach = index.policy ? opaqueReach(index.policy, personaName) : null;
  if (reach) lines.push('', t.residueLine(reach.commands.map((c) => `${c.bash} (${c.key})`)));
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}

/** Without --persona: the policy's personas, each with its ceiling, families and stages. */
function listPersonas(index: MemoryPolicyIndex, format: string, t: ReturnType<typeof cliMessages>): CommandResult {
  const personas = index.personaNames().map((name) => {
    const p = index.persona(name)!;
    return {
      name,
      description: p.description ?? null,
      ceiling: p.ceiling,
      families: [...p.families],
      stages: p.stages.map((s) => s.name),
      agent_types: [...(p.agent_types ?? [])],
    };
  });
  if (format === 'json') return { stdout: `${JSON.stringify({ personas }, null, 2)}\n`, exitCode: 0 };
  if (format !== 'text') throw new CliError(t.badFormat(format));
  const lines = [
    t.listPersonasHeader(index.path ?? ''),
    ...personas.map((p) => t.listPersonaLine(p.name, p.ceiling, p.families.join(', '), p.stages.join(', '), p.description)),
  ];
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}
