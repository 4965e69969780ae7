import type { Policy, PersonaDef, CommandDef } from '../policy/schema';
import { BUILTIN_CATALOGS, type BuiltinTool } from './catalog/claude-code';
import type { Level, Tier } from './levels';
import { own } from './own';

export interface FamilyGlob {
  family: string;
  pattern: string;
  regex: RegExp;
}

/** A validated policy with the lookups the decision needs, built once per load. */
export interface PolicyIndex {
  policy: Policy;
  sha256: string;
  /** Where the policy was read from, for self-protection and messages. */
  path: string;
  familyLevels: Map<string, Level>;
  toolToCommand: Map<string, string>;
  familyGlobs: FamilyGlob[];
  builtinTools: Map<string, BuiltinTool>;
  agentTypeToPersona: Map<string, string>;
  /** Leaf-less command keys: the command declared under each `bash` prefix, used by the shell resolver. */
  bashPrefixes: { words: string[]; key: string }[];
}

export function globToRegExp(glob: string): RegExp {
  const escaped = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}

export function familyOfKey(key: string): string {
  const dot = key.indexOf('.');
  return dot === -1 ? key : key.slice(0, dot);
}

export function leafOfKey(key: string): string {
  const dot = key.lastIndexOf('.');
  return dot === -1 ? key : key.slice(dot + 1);
}

export function buildPolicyIndex(policy: Policy, sha256: string, path: string): PolicyIndex {
  const familyLevels = new Map<string, Level>();
  const builtinTools = new Map<string, BuiltinTool>();
  for (const name of policy.catalog.include) {
    const catalog = BUILTIN_CATALOGS[name];
    if (!catalog) continue;
    for (const [family, level] of Object.entries(catalog.families)) familyLevels.set(family, level);
    for (const [tool, entry] of Object.entries(catalog.tools)) builtinTools.set(tool, entry);
  }
  const familyGlobs: FamilyGlob[] = [];
  for (const [family, def] of Object.entries(policy.catalog.families)) {
    familyLevels.set(family, def.level);
    for (const pattern of def.tools) familyGlobs.push({ family, pattern, regex: globToRegExp(pattern) });
  }
  const toolToCommand = new Map<string, string>();
  const bashPrefixes: { words: string[]; key: string }[] = [];
  for (const [key, def] of Object.entries(policy.catalog.commands)) {
    for (const tool of def.tools) if (!toolToCommand.has(tool)) toolToCommand.set(tool, key);
    for (const prefix of def.bash) {
      const words = prefix.trim().split(/\s+/).filter(Boolean);
      if (words.length > 0) bashPrefixes.push({ words, key });
    }
  }
  bashPrefixes.sort((a, b) => b.words.length - a.words.length);
  const agentTypeToPersona = new Map<string, string>();
  for (const [persona, def] of Object.entries(policy.personas)) {
    for (const agentType of def.agent_types) {
      if (!agentTypeToPersona.has(agentType)) agentTypeToPersona.set(agentType, persona);
    }
  }
  return {
    policy,
    sha256,
    path,
    familyLevels,
    toolToCommand,
    familyGlobs,
    builtinTools,
    agentTypeToPersona,
    bashPrefixes,
  };
}

export function commandLevel(index: PolicyIndex, key: string, def: CommandDef): Level {
  return def.level ?? index.familyLevels.get(familyOfKey(key)) ?? 'network';
}

export function defaultTier(index: PolicyIndex, level: Level): Tier {
  return index.policy.defaults.confirm[level] ?? 'auto';
}

export function personaNames(index: PolicyIndex): string[] {
  return Object.keys(index.policy.personas).sort();
}

export function getPersona(index: PolicyIndex, name: string): PersonaDef | undefined {
  return own(index.policy.personas, name);
}
