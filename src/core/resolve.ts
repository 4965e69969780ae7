import type { Level, Tier } from './levels';
import { type PolicyIndex, commandLevel, defaultTier, familyOfKey } from './policy-index';
import { own } from './own';

/** One operation a tool call amounts to. */
export interface Subject {
  /** The command key: a declared command, or the tool name for a family glob / built-in tool. */
  key: string;
  family: string | null;
  level: Level | null;
  tier: Tier;
  owner: string | null;
  via: 'meta_tool' | 'tool' | 'shell' | 'family_glob' | 'builtin' | 'unknown';
  /** Why the call is unknown, when it is. */
  unknown?: string;
  /** A shell tool: the part of its line that decided its level, said with its words in the call's locale. */
  because?: string;
  /** A shell tool: that part's words (cut to 200 characters) and its reason id, for the receipt. */
  decidedBy?: { words: string; reason: string };
}

export interface Resolution {
  /** What the call itself resolves to (for a shell tool, the shell tool). */
  primary: Subject;
  /** Commands matched inside a shell command line, judged alongside the primary. */
  matched: Subject[];
  /** Set when a shell command line could not be read with confidence. */
  unparsable?: string;
}

export function subjectForCommand(index: PolicyIndex, key: string, via: Subject['via']): Subject | null {
  const def = index.command(key);
  if (!def) return null;
  const level = commandLevel(index, key, def);
  return {
    key,
    family: familyOfKey(key),
    level,
    tier: def.confirm ?? defaultTier(index, level),
    owner: def.owner ?? null,
    via,
  };
}

function unknownSubject(key: string, why: string): Subject {
  return { key, family: null, level: null, tier: 'auto', owner: null, via: 'unknown', unknown: why };
}

/** SPEC §3 steps 1, 2, 4, 5, 6 for one tool name (shell parsing is layered on by the caller). */
export function resolveTool(index: PolicyIndex, toolName: string, toolInput: Record<string, unknown>): Subject {
  const metaField = own(index.settings.meta_tools, toolName);
  if (metaField !== undefined) {
    const key = toolInput[metaField];
    if (typeof key !== 'string' || key.length === 0) {
      return unknownSubject(toolName, `meta tool field "${metaField}" is missing or not a command key`);
    }
    return subjectForCommand(index, key, 'meta_tool') ?? unknownSubject(key, 'undeclared command key');
  }
  const commandKey = index.commandForTool(toolName);
  if (commandKey !== undefined) {
    const subject = subjectForCommand(index, commandKey, 'tool');
    if (subject) return subject;
  }
  for (const glob of index.familyGlobs) {
    if (glob.regex.test(toolName)) {
      const level = index.familyLevels.get(glob.family) ?? 'network';
      return { key: toolName, family: glob.family, level, tier: defaultTier(index, level), owner: null, via: 'family_glob' };
    }
  }
  const builtin = index.builtinTools.get(toolName);
  if (builtin) {
    return {
      key: toolName,
      family: builtin.family,
      level: builtin.level,
      tier: defaultTier(index, builtin.level),
      owner: null,
      via: 'builtin',
    };
  }
  return unknownSubject(toolName, 'not in the catalog');
}
