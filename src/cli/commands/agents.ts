import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { buildPolicyIndex, type MemoryPolicyIndex } from '../../core/policy-index';
import { locatePolicy } from '../../io/policy-source';
import { readPreferences } from '../../io/prefs';
import { sha256Hex } from '../../io/hash';
import { validatePolicy } from '../../policy/validate';
import type { Finding } from './hardened';
import { CliError, type CommandResult } from '../errors';
import { cliMessages, type CliMessages } from '../messages';
import { policyForCli } from '../context';
import { listValue, parseAgentFile, renderAgentFile, scalarValue, withList, type AgentFile } from './agent-file';
import { allowlist, lockTools, toolSurface } from './surface';

export interface AgentsOptions {
  config?: string;
  dir?: string;
  check?: boolean;
}

/** One bound agent type's definition, as the policy would have it and as it is on disk. */
export interface AgentDefinition {
  agentType: string;
  persona: string;
  path: string;
  /** The tools the policy gives it, in order. */
  tools: string[];
  /** The file as it is, or null when there is none. */
  current: AgentFile | null;
}

/** The definition file that declares `name:` this agent type, else `<type>.md`. */
function definitionPath(agentsDir: string, agentType: string): string {
  const named = join(agentsDir, `${agentType}.md`);
  if (existsSync(named)) return named;
  let files: string[] = [];
  try {
    files = readdirSync(agentsDir).filter((f) => f.endsWith('.md'));
  } catch {
    return named;
  }
  for (const f of files) {
    const path = join(agentsDir, f);
    try {
      if (scalarValue(parseAgentFile(readFileSync(path, 'utf8')), 'name') === agentType) return path;
    } catch {
      // unreadable: not the one
    }
  }
  return named;
}

/** Every agent type a persona of the policy is bound to, with the tool list the policy derives for it. */
export function agentDefinitions(index: MemoryPolicyIndex, env: Env, dir: string): AgentDefinition[] {
  const agentsDir = join(dir, '.claude', 'agents');
  const locked = lockTools(index.path);
  const out: AgentDefinition[] = [];
  for (const persona of index.personaNames()) {
    const types = index.persona(persona)!.agent_types ?? [];
    if (types.length === 0) continue;
    const tools = allowlist(toolSurface(index, persona, undefined, env, locked));
    for (const agentType of types) {
      const path = definitionPath(agentsDir, agentType);
      const current = existsSync(path) ? parseAgentFile(readFileSync(path, 'utf8')) : null;
      out.push({ agentType, persona, path, tools, current });
    }
  }
  return out;
}

/** What differs between a definition's `tools` and the policy's: the names it offers that it should not, and the ones it lacks. */
export function toolDrift(def: AgentDefinition): { extra: string[]; missing: string[]; absent: boolean } | null {
  if (def.current === null) return { extra: [], missing: def.tools, absent: true };
  const listed = listValue(def.current, 'tools');
  if (listed === null) return { extra: ['*'], missing: def.tools, absent: false };
  const extra = listed.filter((t) => !def.tools.includes(t));
  const missing = def.tools.filter((t) => !listed.includes(t));
  return extra.length === 0 && missing.length === 0 ? null : { extra, missing, absent: false };
}

function newDefinition(def: AgentDefinition, index: MemoryPolicyIndex, t: CliMessages): string {
  const persona = index.persona(def.persona)!;
  const description = (persona.description ?? t.agentsDescription(def.persona)).replace(/\s+/g, ' ');
  return [
    '---',
    `name: ${def.agentType}`,
    `description: ${JSON.stringify(description)}`,
    `tools: ${def.tools.length > 0 ? def.tools.join(', ') : '[]'}`,
    '---',
    t.agentsBody(def.persona),
    '',
  ].join('\n');
}

/** The project a policy belongs to: the folder holding its `.claude/`, else the working directory. */
export function projectOf(policyPath: string | null): string {
  if (policyPath !== null && basename(dirname(resolve(policyPath))) === '.claude') return dirname(dirname(resolve(policyPath)));
  return process.cwd();
}

/** For validate: each subagent definition there is whose tools differ from what its persona may use. */
export function definitionWarnings(index: MemoryPolicyIndex, env: Env, t: CliMessages): string[] {
  return agentDefinitions(index, env, projectOf(index.path)).flatMap((def) => {
    const drift = def.current === null ? null : toolDrift(def);
    return drift === null
      ? []
      : [`${t.warningPrefix()}${t.agentsDrift(def.path, def.persona, drift.extra, drift.missing)} (${t.agentsFix()})`];
  });
}

/** For doctor: each subagent definition in `dir` whose tools differ from the policy found from there (none when no valid policy is found). */
export function definitionFindings(env: Env, dir: string, t: CliMessages): Finding[] {
  const location = locatePolicy({
    env: { ...env, CLAUDE_PROJECT_DIR: env.CLAUDE_PROJECT_DIR ?? dir },
    userDefault: readPreferences(env).policy,
    cwd: dir,
  });
  if (location.path === null) return [];
  let index: MemoryPolicyIndex;
  try {
    const text = readFileSync(location.path, 'utf8');
    const result = validatePolicy(JSON.parse(text), 'en', location.path);
    if (!result.ok) return [];
    index = buildPolicyIndex(result.policy, sha256Hex(Buffer.from(text, 'utf8')), location.path);
  } catch {
    return [];
  }
  return agentDefinitions(index, env, dir).flatMap((def) => {
    const drift = def.current === null ? null : toolDrift(def);
    return drift === null
      ? []
      : [{ level: 'warn' as const, text: t.agentsDrift(def.path, def.persona, drift.extra, drift.missing), fix: t.agentsFix() }];
  });
}

export function agentsCommand(env: Env, opts: AgentsOptions): CommandResult {
  const index = policyForCli(env, opts.config);
  const t = cliMessages(env, index);
  const dir = resolve(opts.dir ?? projectOf(index.path));
  const defs = agentDefinitions(index, env, dir);
  const shown = (p: string) => relative(process.cwd(), p) || p;
  if (defs.length === 0) throw new CliError(t.agentsNone(index.path ?? ''));
  const lines: string[] = [];
  if (opts.check) {
    let drifted = 0;
    for (const def of defs) {
      const drift = toolDrift(def);
      if (drift === null) continue;
      drifted++;
      lines.push(
        drift.absent
          ? t.agentsMissing(shown(def.path), def.persona)
          : t.agentsDrift(shown(def.path), def.persona, drift.extra, drift.missing),
      );
    }
    if (drifted === 0) return { stdout: `${t.agentsInSync(defs.length)}\n`, exitCode: 0 };
    return { stdout: '', stderr: `${lines.join('\n')}\n${t.agentsFix()}\n`, exitCode: 1 };
  }
  for (const def of defs) {
    const drift = toolDrift(def);
    if (drift === null) {
      lines.push(t.agentsUnchanged(shown(def.path), def.persona));
      continue;
    }
    mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
    if (def.current === null) {
      writeFileSync(def.path, newDefinition(def, index, t));
      lines.push(t.agentsWrote(shown(def.path), def.persona, def.tools.length));
    } else {
      writeFileSync(def.path, renderAgentFile(withList(def.current, 'tools', def.tools, def.agentType)));
      lines.push(t.agentsUpdated(shown(def.path), def.persona, drift.missing, drift.extra));
    }
  }
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}
