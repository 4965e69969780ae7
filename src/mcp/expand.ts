import { exceeds, type Level } from '../core/levels';
import { globToRegExp } from '../core/policy-index';
import { own } from '../core/own';
import { jsonPath, type PolicyProblem } from '../policy/rules';
import type { CommandDef, FamilyDef, McpServerDef, Policy } from '../policy/schema';
import type { LockRead } from './read-lock';
import type { McpMessages } from './messages';
import type { McpOrigin } from './types';

/**
 * `catalog.mcp`: the tools of each server named there, as the lock records them, become ordinary
 * commands and families of the policy, so that everything after validation (the index, the cache,
 * the decision) reads them like hand-written ones. The lock's level is the floor: a policy may
 * raise it, never lower it.
 */

export const mcpToolName = (server: string, tool: string) => `mcp__${server}__${tool}`;

/** `work_create` → `work.create`: separators become dots, empty segments are dropped. */
function segments(text: string): string {
  return text
    .split(/[_\-.\s]+/)
    .filter(Boolean)
    .join('.');
}

/** What the wildcards of a glob matched, joined: `ledger_*` on `ledger_entry_add` → `entry.add`. */
function globRest(glob: string, tool: string): string | null {
  const parts = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const match = new RegExp(`^${parts.join('(.*)')}$`).exec(tool);
  if (!match) return null;
  return segments(match.slice(1).join('_'));
}

interface Claim {
  family: string;
  key: string;
  path: (string | number)[];
}

export interface Expansion {
  policy: Policy;
  problems: PolicyProblem[];
  /** The JSON path of the policy entry behind each generated command, for problems the general rules find in it. */
  paths: Map<string, string>;
}

function claimsFor(serverName: string, server: McpServerDef, tool: string): { explicit: Claim[]; patterns: Claim[] } {
  const explicit: Claim[] = [];
  const patterns: Claim[] = [];
  for (const [family, rule] of Object.entries(server.families)) {
    const base = ['catalog', 'mcp', 'servers', serverName, 'families', family];
    const key = rule.tools ? own(rule.tools, tool) : undefined;
    if (key !== undefined) {
      explicit.push({ family, key, path: [...base, 'tools', tool] });
      continue;
    }
    let rest: string | null = null;
    if (rule.prefix !== undefined && tool.startsWith(rule.prefix)) rest = segments(tool.slice(rule.prefix.length));
    else if (rule.glob !== undefined && globToRegExp(rule.glob).test(tool)) rest = globRest(rule.glob, tool) ?? '';
    if (rest !== null)
      patterns.push({
        family,
        key: `${family}.${rest || segments(tool)}`,
        path: [...base, rule.prefix !== undefined && tool.startsWith(rule.prefix) ? 'prefix' : 'glob'],
      });
  }
  return { explicit, patterns };
}

export function expandMcp(policy: Policy, read: LockRead, lockPath: string, t: McpMessages): Expansion {
  const mcp = policy.catalog.mcp;
  const problems: PolicyProblem[] = [];
  const paths = new Map<string, string>();
  if (!mcp) return { policy, problems, paths };
  const at = (segments: (string | number)[], message: string) => problems.push({ path: jsonPath(segments), message });
  if (!read.ok) {
    at(['catalog', 'mcp'], read.missing ? t.lockMissing(lockPath) : t.lockUnreadable(lockPath, read.detail));
    return { policy, problems, paths };
  }
  const lock = read.lock;
  const commands: Record<string, CommandDef> = { ...policy.catalog.commands };
  const families: Record<string, FamilyDef> = { ...policy.catalog.families };
  const origins: Record<string, McpOrigin> = {};
  const unlisted: string[] = [];
  const keyOwner = new Map<string, string>();
  /** Family → the highest level among its members, and the stated levels to check them against. */
  const memberLevels = new Map<string, Level>();
  const created = new Set<string>();

  for (const [serverName, server] of Object.entries(mcp.servers)) {
    const serverPath = ['catalog', 'mcp', 'servers', serverName];
    const locked = own(lock.servers, serverName);
    if (!locked) {
      at(serverPath, t.serverNotPinned(serverName));
      continue;
    }
    for (const [family, rule] of Object.entries(server.families)) {
      if (rule.prefix === undefined && rule.glob === undefined && rule.tools === undefined)
        at([...serverPath, 'families', family], t.ruleEmpty());
      if (own(policy.catalog.families, family)) at([...serverPath, 'families', family], t.familyDeclaredTwice(family));
      for (const [tool, key] of Object.entries(rule.tools ?? {})) {
        if (!own(locked.tools, tool)) at([...serverPath, 'families', family, 'tools', tool], t.toolNotInLock(serverName, tool));
        if (!key.startsWith(`${family}.`)) at([...serverPath, 'families', family, 'tools', tool], t.keyOutsideFamily(key, family));
      }
    }
    for (const tool of Object.keys(server.tools))
      if (!own(locked.tools, tool)) at([...serverPath, 'tools', tool], t.toolNotInLock(serverName, tool));
    server.exclude.forEach((tool, i) => {
      if (!own(locked.tools, tool)) at([...serverPath, 'exclude', i], t.toolNotInLock(serverName, tool));
    });

    for (const tool of Object.keys(locked.tools).sort()) {
      const entry = locked.tools[tool]!;
      const toolName = mcpToolName(serverName, tool);
      if (server.exclude.includes(tool) || own(policy.catalog.meta_tools, toolName) !== undefined) {
        unlisted.push(toolName);
        continue;
      }
      const { explicit, patterns } = claimsFor(serverName, server, tool);
      const claims = explicit.length > 0 ? explicit : patterns;
      const claimFamilies = [...new Set(claims.map((c) => c.family))];
      if (claimFamilies.length === 0) {
        at(serverPath, t.toolInNoFamily(serverName, tool));
        continue;
      }
      if (claimFamilies.length > 1) {
        at(serverPath, t.toolInTwoFamilies(tool, claimFamilies));
        continue;
      }
      const claim = claims[0]!;
      const override = own(server.tools, tool);
      const overridePath = [...serverPath, 'tools', tool];
      if (override?.level !== undefined && exceeds(entry.level, override.level)) {
        at([...overridePath, 'level'], t.levelLowered(override.level, entry.level, tool));
      }
      const level = override?.level !== undefined && exceeds(override.level, entry.level) ? override.level : entry.level;
      const taken =
        keyOwner.get(claim.key) ?? (own(policy.catalog.commands, claim.key) ? jsonPath(['catalog', 'commands', claim.key]) : undefined);
      if (taken !== undefined) {
        at(claim.path, t.keyTaken(claim.key, taken));
        continue;
      }
      const path = jsonPath(override ? overridePath : claim.path);
      keyOwner.set(claim.key, path);
      paths.set(claim.key, path);
      const confirm = override?.confirm ?? (entry.confirm === 'auto' ? undefined : entry.confirm);
      commands[claim.key] = {
        ...(override?.description !== undefined ? { description: override.description } : {}),
        level,
        ...(confirm !== undefined ? { confirm } : {}),
        ...(override?.owner !== undefined ? { owner: override.owner } : {}),
        tools: [toolName],
        bash: override?.bash ?? [],
      };
      origins[claim.key] = {
        server: serverName,
        tool,
        annotations: entry.annotations,
        manifest: entry.level,
        level,
        source: level === entry.level ? 'annotation' : 'policy',
        path: level === entry.level ? jsonPath(claim.path) : jsonPath([...overridePath, 'level']),
      };
      const highest = memberLevels.get(claim.family);
      if (highest === undefined || exceeds(level, highest)) memberLevels.set(claim.family, level);
      const stated = server.families[claim.family]!.level;
      if (stated !== undefined && exceeds(entry.level, stated)) {
        at([...serverPath, 'families', claim.family, 'level'], t.familyLowered(stated, entry.level, tool));
      }
    }
    for (const [family, rule] of Object.entries(server.families)) {
      if (own(policy.catalog.families, family)) continue;
      const highest = memberLevels.get(family);
      const candidates = [rule.level, highest, created.has(family) ? families[family]!.level : undefined].filter(
        (l): l is Level => l !== undefined,
      );
      const level = candidates.reduce<Level>((a, b) => (exceeds(b, a) ? b : a), 'none');
      const previous = created.has(family) ? families[family] : undefined;
      const description = rule.description ?? previous?.description;
      families[family] = {
        ...(description !== undefined ? { description } : {}),
        level: candidates.length > 0 ? level : 'read_only',
        tools: [],
      };
      created.add(family);
    }
  }

  // A hand-written command may not claim a tool of a server whose tools come from the lock.
  const pinnedServers = Object.keys(mcp.servers).filter((s) => own(lock.servers, s));
  for (const [key, def] of Object.entries(policy.catalog.commands)) {
    def.tools.forEach((tool, i) => {
      const server = pinnedServers.find((s) => tool.startsWith(`mcp__${s}__`));
      if (server !== undefined) at(['catalog', 'commands', key, 'tools', i], t.toolOfPinnedServer(tool, server));
    });
  }

  const expanded: Policy = {
    ...policy,
    catalog: { ...policy.catalog, commands, families },
    pinned: {
      settings: { lock: lockPath, sha256: read.sha256, stamp: read.stamp ?? '', servers: pinnedServers.sort(), unlisted: unlisted.sort() },
      origins,
    },
  };
  return { policy: expanded, problems, paths };
}
