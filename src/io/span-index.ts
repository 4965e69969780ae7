import {
  agentTypesOf,
  bashPrefixesOf,
  buildPolicyIndex,
  builtinToolsOf,
  familyGlobsOf,
  toolsToCommands,
  type BashPrefix,
  type FamilyGlob,
  type MemoryPolicyIndex,
  type PolicyIndex,
  type PolicySettings,
} from '../core/policy-index';
import { isDotted } from '../core/chars';
import { own } from '../core/own';
import {
  commandWithDefaults,
  DEFAULT_PERSONA_ENV,
  DEFAULT_STAGE_ENV,
  defaultsWithDefaults,
  familyWithDefaults,
  identityWithDefaults,
  personaWithDefaults,
  policyWithDefaults,
  programsWithDefaults,
} from '../policy/defaults';
import type { Level } from '../core/levels';
import type { CommandDef, FamilyDef, PersonaDef, Policy } from '../policy/schema';
import type { BucketRead, IndexEntries, IndexKind } from './policy-cache';
import {
  isCommandShape,
  isPersonaShape,
  isSettingShape,
  memberAt,
  MISMATCH,
  occurs,
  SCHEMA_KEYS,
  SETTINGS,
  settingMembers,
  spansUsable,
  usableName,
  type PolicySpans,
  type SettingName,
  type Span,
} from './policy-spans';
import { utf8Text } from './text';

/**
 * The policy index a call reads through the cached positions (policy-spans.ts): the settings are
 * read whole from their spans when the index is opened; a command, a tool's command, a persona or
 * an agent type's persona is read from its span when the decision asks for it. Trusted positions
 * (a policy of the user running the hook: policy-source.ts) are taken as recorded, the families
 * too, each read by name; a span that does not hold the member named, or a bucket that does not
 * parse, is answered from the whole policy and the cache is written again. Checked positions (a
 * policy of another user) are used only where they check out against the policy's bytes, the
 * families read whole with the settings; whatever does not check out is answered from the whole
 * policy, parsed from the same bytes.
 */

/** What the cache records for a validated policy: the settings' spans and the named entries. */
export function indexEntries(
  policy: Policy,
  spans: PolicySpans,
): { core: Partial<Record<SettingName, Span>>; entries: IndexEntries } | null {
  const entries: IndexEntries = { c: [], t: [], p: [], a: [], f: [] };
  const named = (list: [string, ...unknown[]][], names: string[], of: Map<string, Span>) => {
    for (const name of names) {
      const span = of.get(name);
      if (!span) return false;
      list.push([name, ...span]);
    }
    return true;
  };
  if (!named(entries.c, Object.keys(policy.catalog.commands), spans.commands)) return null;
  if (!named(entries.p, Object.keys(policy.personas), spans.personas)) return null;
  if (!named(entries.f, Object.keys(policy.catalog.families), spans.families)) return null;
  for (const [tool, key] of toolsToCommands(policy)) entries.t.push([tool, key, ...spans.commands.get(key)!]);
  for (const [agentType, persona] of agentTypesOf(policy)) entries.a.push([agentType, persona, ...spans.personas.get(persona)!]);
  return { core: spans.settings, entries };
}

export interface SpanCache {
  /** Positions taken as recorded; otherwise each is checked against the bytes before it is used. */
  trusted: boolean;
  bucket(kind: IndexKind, name: string): BucketRead;
  /** Writes the cache again from the whole policy. */
  rewrite(policy: Policy): void;
  /** Told when a lookup had to parse the whole policy. */
  parsedWhole?: () => void;
}

type Lookup<T> = { fast: true; value: T | undefined } | { fast: false; stale: boolean };

/** What openSpanIndex answers for bytes with a member named `mcp`: they are read with the MCP lock. */
export const TAKES_MCP: unique symbol = Symbol('takes mcp');

/**
 * Opens the index over `bytes` (already known validated) with the cached settings' spans `core`,
 * or returns null when these are not usable (the caller then parses the whole policy), or, for
 * checked positions, TAKES_MCP when the bytes have a member named `mcp` (the caller reads them with
 * the lock). Trusted positions are those of a policy recorded as one without `mcp`.
 */
export function openSpanIndex(
  bytes: Buffer,
  sha256: string,
  path: string,
  core: unknown,
  cache: SpanCache,
): PolicyIndex | null | typeof TAKES_MCP {
  if (typeof core !== 'object' || core === null || Array.isArray(core)) return null;
  const trusted = cache.trusted;
  // Checked, each setting's span must be the last member of the name with a value of its kind.
  let last: Record<SettingName, number> | null = null;
  if (!trusted) {
    if (!spansUsable(bytes)) return null;
    const members = settingMembers(bytes);
    if (members.mcp) return TAKES_MCP;
    last = members.last;
  }
  const values: Partial<Record<SettingName, unknown>> = {};
  for (const name of SETTINGS) {
    const span = (core as Record<string, unknown>)[name];
    if (span === undefined) {
      if (last && last[name] !== -1) return null;
      continue;
    }
    if (last && (!Array.isArray(span) || span[0] !== last[name])) return null;
    // Trusted, the families are read one by one, when a call needs one (below).
    if (trusted && name === 'families') continue;
    const value = memberAt(bytes, span, name, false);
    if (value === MISMATCH || (!trusted && !isSettingShape(name, value))) return null;
    values[name] = value;
  }
  const metaTools = (values.meta_tools ?? {}) as Record<string, string>;
  let families: Record<string, FamilyDef> | undefined;
  if (!trusted) {
    families = (values.families ?? {}) as Record<string, FamilyDef>;
    // A setting that shares its name with a family or a meta tool could have been read from there.
    if (own(families, 'meta_tools') !== undefined) return null;
    for (const name of ['persona_env', 'stage_env', 'locale']) if (own(metaTools, name) !== undefined) return null;
  }

  const settings: PolicySettings = {
    defaults: defaultsWithDefaults(values.defaults),
    identity: values.identity === undefined ? undefined : identityWithDefaults(values.identity),
    persona_env: (values.persona_env as string | undefined) ?? DEFAULT_PERSONA_ENV,
    stage_env: (values.stage_env as string | undefined) ?? DEFAULT_STAGE_ENV,
    locale: values.locale as PolicySettings['locale'],
    meta_tools: metaTools,
    include: (values.include ?? []) as PolicySettings['include'],
    programs: programsWithDefaults(values.programs),
  };
  const builtins = builtinToolsOf(settings.include);
  const familyMap = builtins.families;
  if (families) {
    const familyNames = Object.keys(families);
    for (let i = 0; i < familyNames.length; i++) {
      const family = familyNames[i]!;
      familyMap.set(family, familyWithDefaults(families[family]).level);
    }
  }

  let whole: MemoryPolicyIndex | null = null;
  const wholeIndex = () => {
    if (whole) return whole;
    cache.parsedWhole?.();
    return (whole = buildPolicyIndex(policyWithDefaults(JSON.parse(bytes.toString('utf8'))), sha256, path));
  };
  let prefixes: BashPrefix[] | undefined;
  /**
   * Every command's shell prefixes (a shell call is matched against all of them): from the commands
   * of the whole policy parsed from these bytes, without the rest of the whole index.
   */
  const bashPrefixes = (): BashPrefix[] => {
    if (whole) return whole.bashPrefixes();
    if (prefixes) return prefixes;
    cache.parsedWhole?.();
    const parsed = JSON.parse(utf8Text(bytes)) as { catalog?: { commands?: Record<string, { bash?: string[] }> } };
    return (prefixes = bashPrefixesOf({ catalog: { commands: parsed.catalog?.commands ?? {} } }));
  };
  let rewritten = false;
  const rewrite = () => {
    if (rewritten) return;
    rewritten = true;
    cache.rewrite(wholeIndex().policy);
  };

  /** The bucket's entry for `name`: undefined when there is none, null when the bucket cannot be used. */
  const entryOf = (kind: IndexKind, name: string): unknown[] | undefined | null => {
    const read = cache.bucket(kind, name);
    if (!read.ok) return null;
    let found: unknown[] | undefined;
    for (const entry of read.entries) {
      if (!Array.isArray(entry) || entry[0] !== name) continue;
      if (found) return null;
      found = entry;
    }
    return found;
  };

  /**
   * One lookup through the cache: `verify` answers from the entry, or MISMATCH. Trusted, an absent
   * entry is believed, and one that does not answer has the cache written again. Checked, the name
   * must be `usable`, and an absent entry is believed only when the name does not occur in the
   * bytes; otherwise the answer is the whole policy's.
   */
  function lookup<T>(
    kind: IndexKind,
    name: string,
    usable: (name: string) => boolean,
    verify: (entry: unknown[]) => T | typeof MISMATCH,
  ): Lookup<T> {
    if (!trusted && !usable(name))
      return usableName(name) && !occurs(bytes, name) ? { fast: true, value: undefined } : { fast: false, stale: false };
    const entry = entryOf(kind, name);
    if (entry === null) return { fast: false, stale: true };
    if (entry === undefined) {
      if (trusted || !occurs(bytes, name)) return { fast: true, value: undefined };
    } else {
      const value = verify(entry);
      if (value !== MISMATCH) return { fast: true, value };
    }
    return { fast: false, stale: trusted };
  }
  function answer<T>(result: Lookup<T>, fromWhole: (index: MemoryPolicyIndex) => T | undefined): T | undefined {
    if (result.fast) return result.value;
    const value = fromWhole(wholeIndex());
    if (result.stale) rewrite();
    return value;
  }

  const commandUsable = (key: unknown): key is string =>
    typeof key === 'string' && (trusted || (usableName(key) && isDotted(key) && own(families ?? {}, key) === undefined));
  const commandAt = (key: string, start: unknown, end: unknown): CommandDef | typeof MISMATCH => {
    const value = memberAt(bytes, [start, end], key, !trusted);
    return value !== MISMATCH && (trusted || isCommandShape(value)) ? commandWithDefaults(value) : MISMATCH;
  };
  const personaUsable = (name: unknown): name is string =>
    typeof name === 'string' && (trusted || (usableName(name) && !SCHEMA_KEYS.has(name)));
  const personaAt = (name: string, start: unknown, end: unknown): PersonaDef | typeof MISMATCH => {
    const value = memberAt(bytes, [start, end], name, !trusted);
    return value !== MISMATCH && (trusted || isPersonaShape(value)) ? personaWithDefaults(value) : MISMATCH;
  };

  const commands = new Map<string, CommandDef | undefined>();
  const tools = new Map<string, string | undefined>();
  const personas = new Map<string, PersonaDef | undefined>();
  const agentTypes = new Map<string, string | undefined>();
  const familyLevels = new Map<string, Level | undefined>();
  const memo = <T>(map: Map<string, T>, name: string, compute: () => T): T => {
    if (map.has(name)) return map.get(name) as T;
    const value = compute();
    map.set(name, value);
    return value;
  };

  const command = (key: string): CommandDef | undefined =>
    whole
      ? whole.command(key)
      : memo(commands, key, () =>
          answer(
            lookup('c', key, commandUsable, ([, s, e]) => commandAt(key, s, e)),
            (w) => w.command(key),
          ),
        );

  const commandForTool = (tool: string): string | undefined =>
    whole
      ? whole.commandForTool(tool)
      : memo(tools, tool, () =>
          answer(
            lookup('t', tool, usableName, ([, key, s, e]) => {
              if (!commandUsable(key)) return MISMATCH;
              const def = commandAt(key, s, e);
              if (def === MISMATCH || (!trusted && !def.tools.includes(tool))) return MISMATCH;
              commands.set(key, def);
              return key;
            }),
            (w) => w.commandForTool(tool),
          ),
        );

  const persona = (name: string): PersonaDef | undefined =>
    whole
      ? whole.persona(name)
      : memo(personas, name, () =>
          answer(
            lookup('p', name, personaUsable, ([, s, e]) => personaAt(name, s, e)),
            (w) => w.persona(name),
          ),
        );

  const personaOfAgentType = (agentType: string): string | undefined =>
    whole
      ? whole.agentTypeToPersona.get(agentType)
      : memo(agentTypes, agentType, () =>
          answer(
            lookup('a', agentType, usableName, ([, name, s, e]) => {
              if (!personaUsable(name)) return MISMATCH;
              const def = personaAt(name, s, e);
              if (def === MISMATCH || (!trusted && !def.agent_types.includes(agentType))) return MISMATCH;
              personas.set(name, def);
              return name;
            }),
            (w) => w.agentTypeToPersona.get(agentType),
          ),
        );

  const familyLevel = (name: string): Level | undefined =>
    whole
      ? whole.familyLevels.get(name)
      : memo(
          familyLevels,
          name,
          () =>
            answer(
              lookup('f', name, usableName, ([, s, e]) => {
                const value = memberAt(bytes, [s, e], name, false);
                return value === MISMATCH ? MISMATCH : familyWithDefaults(value).level;
              }),
              (w) => w.familyLevels.get(name),
            ) ?? familyMap.get(name),
        );
  /** All the families, for their tools' patterns: trusted, read only when a call needs those. */
  const allFamilies = (): Record<string, FamilyDef> => {
    if (families) return families;
    const span = (core as Record<string, unknown>).families;
    const value = span === undefined ? {} : memberAt(bytes, span, 'families', false);
    if (value === MISMATCH) {
      rewrite();
      return (families = wholeIndex().policy.catalog.families);
    }
    families = value as Record<string, FamilyDef>;
    for (const family in families) familyWithDefaults(families[family]);
    return families;
  };

  // The families' tool patterns are made into regular expressions when a tool that is not a
  // command is resolved, not for every call (a large policy has many).
  let globs: FamilyGlob[] | undefined;
  return {
    sha256,
    path,
    policy: null,
    settings,
    familyLevels: trusted ? { get: familyLevel, has: (name) => familyLevel(name) !== undefined } : familyMap,
    get familyGlobs() {
      return (globs ??= familyGlobsOf(allFamilies()));
    },
    builtinTools: builtins.tools,
    agentTypeToPersona: { has: (agentType) => personaOfAgentType(agentType) !== undefined, get: personaOfAgentType },
    command,
    commandForTool,
    persona,
    personaNames: () => wholeIndex().personaNames(),
    bashPrefixes,
  };
}
