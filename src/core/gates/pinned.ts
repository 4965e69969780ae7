import type { PolicyIndex } from '../policy-index';
import type { Messages } from '../messages';
import type { PinnedLookup, Ruling } from '../types';

/**
 * SPEC §11: a tool of a pinned server that the lock does not list is refused whoever calls it:
 * the server added it after it was pinned. For a policy that takes its commands from the lock
 * (`catalog.mcp`), the servers are the ones it names; for any other policy, the ones the lock
 * beside it holds (`pinned`), whatever form the policy gives their tools.
 */
export function pinRefusal(index: PolicyIndex, toolName: string, m: Messages, pinned?: PinnedLookup): Ruling | null {
  if (!toolName.startsWith('mcp__')) return null;
  const mcp = index.settings.mcp;
  if (mcp) {
    const server = mcp.servers.find((s) => toolName.startsWith(`mcp__${s}__`));
    if (server === undefined) return null;
    if (index.commandForTool(toolName) !== undefined || mcp.unlisted.includes(toolName)) return null;
    return refusal(m.notPinned(toolName, server));
  }
  const found = pinned?.(toolName) ?? null;
  if (found === null) return null;
  if ('unreadable' in found) return refusal(m.lockUnreadable(toolName, found.unreadable));
  return found.listed ? null : refusal(m.notPinned(toolName, found.server));
}

const refusal = (reason: string): Ruling => ({ verdict: 'deny', status: 'not_pinned', gate: 'pin', rule: 'not_pinned', reason });
