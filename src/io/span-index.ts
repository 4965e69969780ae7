import { agentTypesOf, bashPrefixesOf, buildPolicyIndex, builtinToolsOf, familyGlobsOf, toolsToCommands, type BashPrefix, type FamilyGlob, type MemoryPolicyIndex, type PolicyIndex, type PolicySettings } from '../core/policy-index';
import { isDotted } from '../core/chars';
import { own } from '../core/own';
import { commandWithDefaults, DEFAULT_PERSONA_ENV, DEFAULT_STAGE_ENV, defaultsWithDefaults, familyWithDefaults, identityWithDefaults, personaWithDefaults, policyWithDefaults } from '../policy/defaults';
import type { CommandDef, FamilyDef, PersonaDef, Policy } from '../policy/schema';
import type { BucketRead, IndexKind } from './policy-cache';
import {
  isCommandShape,
  isPersonaShape,
  isSettingShape,
  memberAt,
  MISMATCH,
  occurs,
  SCHEMA_KEYS,
  scanSpans,
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
 * The policy index a call reads through the cached positions (policy-spans.ts): the settings and
 * the families are read whole from their spans when the index is opened; a command, a tool's
 * command, a persona or an agent type's persona is read from its span when the decision asks for
 * it. Whatever does not check out against the policy's bytes is answered from the whole policy,
 * parsed from the same bytes, and when the cache said something else than the whole policy does,
 * the cache is written again.
 */

export type IndexEntries = Record<IndexKind, [string, ...unknown[]][]>;

/** What the cache records for a validated policy: the settings' spans and the named entries. */
export function indexEntries(policy: Policy, spans: PolicySpans): { core: Partial<Record<SettingName, Span>>; entries: IndexEntries } | null {
  const entries: IndexEntries = { c: [], t: [], p: [], a: [] };
  for (const key of Object.keys(policy.catalog.commands)) {
    const span = spans.commands.get(key);
    if (!span) return null;
    entries.c.push([key, ...span]);
  }
  for (const [tool, key] of toolsToCommands(policy)) entries.t.push([tool, key, ...spans.commands.get(key)!]);
  for (const name of Object.keys(policy.personas)) {
    const span = spans.personas.get(name);
    if (!span) return null;
    entries.p.push([name, ...span]);
  }
  for (const [agentType, persona] of agentTypesOf(policy)) entries.a.push([agentType, persona, ...spans.personas.get(persona)!]);
  return { core: spans.settings, entries };
}

export interface SpanCache {
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
 * or returns null when these do not check out (the caller then parses the whole policy), or
 * TAKES_MCP when the bytes have a member named `mcp` (the caller reads them with the lock).
 */
export function openSpanIndex(bytes: Buffer, sha256: string, path: string, core: unknown, cache: SpanCache): PolicyIndex | null | typeof TAKES_MCP {
  if (!spansUsable(bytes) || typeof core !== 'object' || core === null || Array.isArray(core)) return null;
  const values: Partial<Record<SettingName, unknown>> = {};
  const members = settingMembers(bytes);
  if (members.mcp) return TAKES_MCP;
  const last = members.last;
  for (const name of SETTINGS) {
    const span = (core as Record<string, unknown>)[name];
    if (span === undefined) {
      if (last[name] !== -1) return null;
      continue;
    }
    // The span must be the last member of the name with a value of its kind.
    if (!Array.isArray(span) || span[0] !== last[name]) return null;
    const value = memberAt(bytes, span, name, false);
    if (value === MISMATCH || !isSettingShape(name, value)) return null;
    values[name] = value;
  }
  const families = (values.families ?? {}) as Record<string, FamilyDef>;
  const familyNames = Object.keys(families);
  const metaTools = (values.meta_tools ?? {}) as Record<string, string>;
  // A setting that shares its name with a family or a meta tool could have been read from there.
  if (own(families, 'meta_tools') !== undefined) return null;
  for (const name of ['persona_env', 'stage_env', 'locale']) if (own(metaTools, name) !== undefined) return null;

  const settings: PolicySettings = {
    defaults: defaultsWithDefaults(values.defaults),
    identity: values.identity === undefined ? undefined : identityWithDefaults(values.identity),
    persona_env: (values.persona_env as string | undefined) ?? DEFAULT_PERSONA_ENV,
    stage_env: (values.stage_env as string | undefined) ?? DEFAULT_STAGE_ENV,
    locale: values.locale as PolicySettings['locale'],
    meta_tools: metaTools,
    include: (values.include ?? []) as PolicySettings['include'],
  };
  const builtins = builtinToolsOf(settings.include);
  const familyLevels = builtins.families;
  for (let i = 0; i < familyNames.length; i++) {
    const family = familyNames[i]!;
    familyLevels.set(family, familyWithDefaults(families[family]).level);
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
  let expected: Record<IndexKind, Map<string, string>> | null | undefined;
  /** The entries a fresh cache would hold, by kind and name, as JSON; null when none can be made. */
  const expectedEntries = () => {
    if (expected !== undefined) return expected;
    const spans = scanSpans(bytes);
    const made = spans && indexEntries(wholeIndex().policy, spans);
    expected = made ? { c: new Map(), t: new Map(), p: new Map(), a: new Map() } : null;
    if (made && expected) for (const kind of ['c', 't', 'p', 'a'] as const) for (const entry of made.entries[kind]) expected[kind].set(entry[0], JSON.stringify(entry));
    return expected;
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
   * One lookup through the cache: `verify` answers from the entry, or MISMATCH. An absent entry
   * is believed only when the name does not occur in the bytes. Otherwise the answer is the whole
   * policy's, and the cache is written again when its entry is not the one it would now hold.
   */
  function lookup<T>(kind: IndexKind, name: string, usable: boolean, verify: (entry: unknown[]) => T | typeof MISMATCH): Lookup<T> {
    if (!usable) return usableName(name) && !occurs(bytes, name) ? { fast: true, value: undefined } : { fast: false, stale: false };
    const entry = entryOf(kind, name);
    if (entry === null) return { fast: false, stale: true };
    if (entry === undefined) {
      if (!occurs(bytes, name)) return { fast: true, value: undefined };
    } else {
      const value = verify(entry);
      if (value !== MISMATCH) return { fast: true, value };
    }
    const want = expectedEntries();
    return { fast: false, stale: want !== null && want[kind].get(name) !== (entry === undefined ? undefined : JSON.stringify(entry)) };
  }
  function answer<T>(result: Lookup<T>, fromWhole: (index: MemoryPolicyIndex) => T | undefined): T | undefined {
    if (result.fast) return result.value;
    const value = fromWhole(wholeIndex());
    if (result.stale) rewrite();
    return value;
  }

  const commandUsable = (key: unknown): key is string => typeof key === 'string' && usableName(key) && isDotted(key) && own(families, key) === undefined;
  const commandAt = (key: string, start: unknown, end: unknown): CommandDef | typeof MISMATCH => {
    const value = memberAt(bytes, [start, end], key);
    return value !== MISMATCH && isCommandShape(value) ? commandWithDefaults(value) : MISMATCH;
  };
  const personaUsable = (name: unknown): name is string => typeof name === 'string' && usableName(name) && !SCHEMA_KEYS.has(name);
  const personaAt = (name: string, start: unknown, end: unknown): PersonaDef | typeof MISMATCH => {
    const value = memberAt(bytes, [start, end], name);
    return value !== MISMATCH && isPersonaShape(value) ? personaWithDefaults(value) : MISMATCH;
  };

  const commands = new Map<string, CommandDef | undefined>();
  const tools = new Map<string, string | undefined>();
  const personas = new Map<string, PersonaDef | undefined>();
  const agentTypes = new Map<string, string | undefined>();
  const memo = <T>(map: Map<string, T>, name: string, compute: () => T): T => {
    if (map.has(name)) return map.get(name) as T;
    const value = compute();
    map.set(name, value);
    return value;
  };

  const command = (key: string): CommandDef | undefined =>
    whole
      ? whole.command(key)
      : memo(commands, key, () => answer(lookup('c', key, commandUsable(key), ([, s, e]) => commandAt(key, s, e)), (w) => w.command(key)));

  const commandForTool = (tool: string): string | undefined =>
    whole
      ? whole.commandForTool(tool)
      : memo(tools, tool, () =>
          answer(
            lookup('t', tool, usableName(tool), ([, key, s, e]) => {
              if (!commandUsable(key)) return MISMATCH;
              const def = commandAt(key, s, e);
              if (def === MISMATCH || !def.tools.includes(tool)) return MISMATCH;
              commands.set(key, def);
              return key;
            }),
            (w) => w.commandForTool(tool),
          ),
        );

  const persona = (name: string): PersonaDef | undefined =>
    whole ? whole.persona(name) : memo(personas, name, () => answer(lookup('p', name, personaUsable(name), ([, s, e]) => personaAt(name, s, e)), (w) => w.persona(name)));

  const personaOfAgentType = (agentType: string): string | undefined =>
    whole
      ? whole.agentTypeToPersona.get(agentType)
      : memo(agentTypes, agentType, () =>
          answer(
            lookup('a', agentType, usableName(agentType), ([, name, s, e]) => {
              if (!personaUsable(name)) return MISMATCH;
              const def = personaAt(name, s, e);
              if (def === MISMATCH || !def.agent_types.includes(agentType)) return MISMATCH;
              personas.set(name, def);
              return name;
            }),
            (w) => w.agentTypeToPersona.get(agentType),
          ),
        );

  // The families' tool patterns are made into regular expressions when a tool that is not a
  // command is resolved, not for every call (a large policy has many).
  let globs: FamilyGlob[] | undefined;
  return {
    sha256,
    path,
    policy: null,
    settings,
    familyLevels,
    get familyGlobs() {
      return (globs ??= familyGlobsOf(families));
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
