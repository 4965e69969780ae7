import type { Policy, PersonaDef, CommandDef } from '../policy/schema';
import { BUILTIN_CATALOGS, type BuiltinTool } from './catalog/claude-code';
import type { Level, Tier } from './levels';
import { own } from './own';
import type { McpSettings } from '../mcp/types';

export interface FamilyGlob {
  family: string;
  pattern: string;
  regex: RegExp;
}

export interface BashPrefix {
  words: string[];
  key: string;
}

/** The parts of a policy every decision reads, whatever the policy's size. */
export interface PolicySettings {
  defaults: Policy['defaults'];
  identity: Policy['identity'];
  persona_env: string;
  stage_env: string;
  locale: Policy['locale'];
  meta_tools: Record<string, string>;
  include: Policy['catalog']['include'];
  /** Programs the policy declares (`catalog.programs`): their grammar, and whether each is closed. */
  programs: Policy['catalog']['programs'];
  /** Set when commands were taken from the MCP lock (SPEC §11). */
  mcp?: McpSettings;
}

/**
 * A validated policy as the decision reads it: small tables held in memory, and lookups by name
 * for what can be large (commands, tools, personas, shell prefixes). Built in memory from a
 * policy, or opened over the policy's bytes and the cached positions of its members
 * (io/span-index.ts), which parses only what a call asks for.
 */
export interface PolicyIndex {
  sha256: string;
  /** Where the policy was read from, for self-protection and messages. */
  path: string;
  settings: PolicySettings;
  /** Each family's level, the catalog's over the built-in ones (a Map in memory; a lookup by name over the cache). */
  familyLevels: Pick<ReadonlyMap<string, Level>, 'has' | 'get'>;
  familyGlobs: FamilyGlob[];
  builtinTools: Map<string, BuiltinTool>;
  /** The persona an agent type is bound to (a Map in memory; a lookup by name over the cache). */
  agentTypeToPersona: Pick<ReadonlyMap<string, string>, 'has' | 'get'>;
  command(key: string): CommandDef | undefined;
  commandForTool(tool: string): string | undefined;
  persona(name: string): PersonaDef | undefined;
  personaNames(): string[];
  /** Longest first. */
  bashPrefixes(): BashPrefix[];
  /** The whole policy, when it is in memory (the CLI); null over the cache. */
  policy: Policy | null;
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

export function settingsOf(policy: Policy): PolicySettings {
  return {
    defaults: policy.defaults,
    identity: policy.identity,
    persona_env: policy.persona_env,
    stage_env: policy.stage_env,
    locale: policy.locale,
    meta_tools: policy.catalog.meta_tools,
    include: policy.catalog.include,
    programs: policy.catalog.programs,
    ...(policy.pinned ? { mcp: policy.pinned.settings } : {}),
  };
}

export function builtinToolsOf(include: readonly string[]): { families: Map<string, Level>; tools: Map<string, BuiltinTool> } {
  const families = new Map<string, Level>();
  const tools = new Map<string, BuiltinTool>();
  for (const name of include) {
    const catalog = BUILTIN_CATALOGS[name];
    if (!catalog) continue;
    for (const [family, level] of Object.entries(catalog.families)) families.set(family, level);
    for (const [family, level, names] of catalog.tools) for (const tool of names) tools.set(tool, { family, level });
  }
  return { families, tools };
}

export function familyLevelsOf(policy: Policy): Map<string, Level> {
  const levels = builtinToolsOf(policy.catalog.include).families;
  for (const [family, def] of Object.entries(policy.catalog.families)) levels.set(family, def.level);
  return levels;
}

export function familyGlobsOf(families: Record<string, { tools: string[] }>): FamilyGlob[] {
  return Object.entries(families).flatMap(([family, def]) =>
    def.tools.map((pattern) => ({ family, pattern, regex: globToRegExp(pattern) })),
  );
}

export function toolsToCommands(policy: Policy): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, def] of Object.entries(policy.catalog.commands)) for (const tool of def.tools) if (!map.has(tool)) map.set(tool, key);
  return map;
}

/**
 * The commands' shell prefixes, longest first. Only the commands' `bash` lists are read (a missing
 * one is the default, none), so the parsed JSON of a validated policy will do as well as the policy.
 */
export function bashPrefixesOf(policy: { catalog: { commands: Readonly<Record<string, { bash?: readonly string[] }>> } }): BashPrefix[] {
  // Grouped by length, in the commands' order within a length: what a stable sort on length gives,
  // without a comparison per pair (a large policy has thousands of prefixes).
  const byLength: BashPrefix[][] = [];
  const commands = policy.catalog.commands;
  for (const key of Object.keys(commands)) {
    for (const prefix of commands[key]!.bash ?? []) {
      const words = prefix.trim().split(/\s+/).filter(Boolean);
      if (words.length > 0) (byLength[words.length] ??= []).push({ words, key });
    }
  }
  const prefixes: BashPrefix[] = [];
  // One push per prefix: spreading a bucket of 100,000 arguments overflows the stack.
  for (let n = byLength.length - 1; n > 0; n--) for (const p of byLength[n] ?? []) prefixes.push(p);
  return prefixes;
}

export function agentTypesOf(policy: Policy): Map<string, string> {
  const map = new Map<string, string>();
  for (const [persona, def] of Object.entries(policy.personas)) for (const t of def.agent_types) if (!map.has(t)) map.set(t, persona);
  return map;
}

export type MemoryPolicyIndex = PolicyIndex & { policy: Policy; agentTypeToPersona: Map<string, string>; familyLevels: Map<string, Level> };

/** The in-memory index over a whole validated policy. */
export function buildPolicyIndex(policy: Policy, sha256: string, path: string): MemoryPolicyIndex {
  const builtins = builtinToolsOf(policy.catalog.include);
  let tools: Map<string, string> | null = null;
  let prefixes: BashPrefix[] | null = null;
  return {
    sha256,
    path,
    policy,
    settings: settingsOf(policy),
    familyLevels: familyLevelsOf(policy),
    familyGlobs: familyGlobsOf(policy.catalog.families),
    builtinTools: builtins.tools,
    agentTypeToPersona: agentTypesOf(policy),
    command: (key) => own(policy.catalog.commands, key),
    commandForTool: (tool) => (tools ??= toolsToCommands(policy)).get(tool),
    persona: (name) => own(policy.personas, name),
    personaNames: () => Object.keys(policy.personas).sort(),
    bashPrefixes: () => (prefixes ??= bashPrefixesOf(policy)),
  };
}

/**
 * The programs (base names of the first words) that start the catalog's `bash` prefixes: `aeat`,
 * `gh`; with `keys`, only those of these commands (the programs that own an identity switch).
 */
export function bashPrograms(index: PolicyIndex, keys?: readonly string[]): Set<string> {
  const programs = new Set<string>();
  for (const p of index.bashPrefixes()) {
    if (keys !== undefined && !keys.includes(p.key)) continue;
    const first = p.words[0]!;
    programs.add(first.slice(first.lastIndexOf('/') + 1));
  }
  return programs;
}

export function commandLevel(index: PolicyIndex, key: string, def: CommandDef): Level {
  return def.level ?? index.familyLevels.get(familyOfKey(key)) ?? 'network';
}

export function defaultTier(index: PolicyIndex, level: Level): Tier {
  return index.settings.defaults.confirm[level] ?? 'auto';
}
