import { jsonPath } from '../policy/rules';
import type { Policy } from '../policy/schema';
import type { LockRead } from './read-lock';

/**
 * SPEC §11 for a policy that does not take its commands from the MCP lock: the servers the lock
 * beside it pins, and each tool the policy names of them that the lock does not list (refused at
 * hook time as `not_pinned`). Null when there is no lock, or the policy takes its commands from it.
 */
export type LockCoverage = { servers: string[]; unlisted: { path: string; tool: string }[] } | { unreadable: string };

export function lockCoverage(policy: Policy, read: LockRead): LockCoverage | null {
  if (policy.catalog.mcp) return null;
  if (!read.ok) return read.missing ? null : { unreadable: read.detail };
  const servers = Object.keys(read.lock.servers).sort();
  const unlisted: { path: string; tool: string }[] = [];
  for (const [key, def] of Object.entries(policy.catalog.commands)) {
    def.tools.forEach((tool, i) => {
      const server = servers.find((s) => tool.startsWith(`mcp__${s}__`));
      if (server !== undefined && read.lock.servers[server]!.tools[tool.slice(`mcp__${server}__`.length)] === undefined) {
        unlisted.push({ path: jsonPath(['catalog', 'commands', key, 'tools', i]), tool });
      }
    });
  }
  return { servers, unlisted };
}
