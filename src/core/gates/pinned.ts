import type { PolicyIndex } from '../policy-index';
import type { Messages } from '../messages';
import type { Ruling } from '../types';

/**
 * SPEC §11: a tool of a server whose tools the policy takes from the MCP lock, and that the lock
 * does not list, is refused whoever calls it: the server added it after it was pinned.
 */
export function pinRefusal(index: PolicyIndex, toolName: string, m: Messages): Ruling | null {
  const mcp = index.settings.mcp;
  if (!mcp || !toolName.startsWith('mcp__')) return null;
  const server = mcp.servers.find((s) => toolName.startsWith(`mcp__${s}__`));
  if (server === undefined) return null;
  if (index.commandForTool(toolName) !== undefined || mcp.unlisted.includes(toolName)) return null;
  return { verdict: 'deny', status: 'not_pinned', gate: 'pin', rule: 'not_pinned', reason: m.notPinned(toolName, server) };
}
