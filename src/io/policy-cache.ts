import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentTypesOf, builtinToolsOf, bashPrefixesOf, familyGlobsOf, settingsOf, type BashPrefix, type PolicyIndex, type PolicySettings } from '../core/policy-index';
import type { CommandDef, PersonaDef, Policy } from '../policy/schema';
import type { Level } from '../core/levels';
import { hash128 } from './hash';

/**
 * A validated policy, cached as small files so that a call reads only what it needs, however
 * large the policy: `core.json` (settings, family levels, globs, agent types, persona names) and
 * 256 buckets each of commands, tools and personas, plus `bash.json` for shell calls. A bucket
 * entry carries its own name, so a lookup never trusts the hash alone. The directory is written
 * under a temporary name and renamed into place, so a reader sees a whole cache or none.
 */

const FORMAT = 2;

interface Core {
  format: number;
  key: string;
  sha256: string;
  settings: PolicySettings;
  familyLevels: Record<string, Level>;
  globFamilies: Record<string, { tools: string[] }>;
  agentTypes: Record<string, string>;
  personaNames: string[];
}

const bucketOf = (name: string) => hash128(name).slice(0, 2);

function group<T>(entries: [string, T][]): Map<string, [string, T][]> {
  const buckets = new Map<string, [string, T][]>();
  for (const entry of entries) {
    const b = bucketOf(entry[0]);
    const list = buckets.get(b);
    if (list) list.push(entry);
    else buckets.set(b, [entry]);
  }
  return buckets;
}

export function writePolicyCache(cacheDir: string, key: string, sha256: string, policy: Policy): void {
  const target = join(cacheDir, key);
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(join(tmp, 'commands'), { recursive: true, mode: 0o700 });
    mkdirSync(join(tmp, 'tools'), { mode: 0o700 });
    mkdirSync(join(tmp, 'personas'), { mode: 0o700 });
    const write = (file: string, value: unknown) => writeFileSync(join(tmp, file), JSON.stringify(value), { mode: 0o600 });
    for (const [b, entries] of group(Object.entries(policy.catalog.commands))) write(`commands/${b}.json`, entries);
    const tools = new Map<string, string>();
    for (const [k, def] of Object.entries(policy.catalog.commands)) for (const tool of def.tools) if (!tools.has(tool)) tools.set(tool, k);
    for (const [b, entries] of group([...tools])) write(`tools/${b}.json`, entries);
    for (const [b, entries] of group(Object.entries(policy.personas))) write(`personas/${b}.json`, entries);
    write('bash.json', bashPrefixesOf(policy));
    const familyLevels: Record<string, Level> = {};
    for (const [family, def] of Object.entries(policy.catalog.families)) familyLevels[family] = def.level;
    const globFamilies: Record<string, { tools: string[] }> = {};
    for (const [family, def] of Object.entries(policy.catalog.families)) if (def.tools.length > 0) globFamilies[family] = { tools: def.tools };
    const core: Core = {
      format: FORMAT,
      key,
      sha256,
      settings: settingsOf(policy),
      familyLevels,
      globFamilies,
      agentTypes: Object.fromEntries(agentTypesOf(policy)),
      personaNames: Object.keys(policy.personas).sort(),
    };
    write('core.json', core);
    renameSync(tmp, target);
  } catch {
    // Another process cached it first, or the cache cannot be written: the next call validates again.
    rmSync(tmp, { recursive: true, force: true });
  }
}

function readJson<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text) as T;
}

/** Opens the cached index for `key`, or null when there is none (or it is not this format). */
export function openPolicyCache(cacheDir: string, key: string, path: string): PolicyIndex | null {
  const dir = join(cacheDir, key);
  let core: Core | undefined;
  try {
    core = readJson<Core>(join(dir, 'core.json'));
  } catch {
    return null;
  }
  if (!core || core.format !== FORMAT || core.key !== key) return null;
  const lookup = <T>(kind: string, name: string): T | undefined => {
    const entries = readJson<[string, T][]>(join(dir, kind, `${bucketOf(name)}.json`));
    return entries?.find(([n]) => n === name)?.[1];
  };
  const builtins = builtinToolsOf(core.settings.include);
  const familyLevels = builtins.families;
  for (const [family, level] of Object.entries(core.familyLevels)) familyLevels.set(family, level);
  let prefixes: BashPrefix[] | null = null;
  const personaNames = core.personaNames;
  return {
    sha256: core.sha256,
    path,
    policy: null,
    settings: core.settings,
    familyLevels,
    familyGlobs: familyGlobsOf(core.globFamilies),
    builtinTools: builtins.tools,
    agentTypeToPersona: new Map(Object.entries(core.agentTypes)),
    command: (name) => lookup<CommandDef>('commands', name),
    commandForTool: (tool) => lookup<string>('tools', tool),
    persona: (name) => (personaNames.includes(name) ? lookup<PersonaDef>('personas', name) : undefined),
    personaNames: () => [...personaNames],
    bashPrefixes: () => (prefixes ??= readJson<BashPrefix[]>(join(dir, 'bash.json')) ?? []),
  };
}
