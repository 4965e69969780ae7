import { dirname, join, resolve } from 'node:path';
import type { PinnedLookup } from '../core/types';
import { isPlainObject } from '../core/event';
import { own } from '../core/own';
import { LOCK_FILE } from '../mcp/lock';
import { readRegularFile } from './read-file';

/** The largest MCP lock read on the hook's path. */
const MAX_LOCK_BYTES = 8 * 1024 * 1024;

/**
 * SPEC §11 for a policy that does not take its commands from the lock: the MCP lock beside the
 * policy, read on the first MCP call that asks (never for any other call), tells which tools each
 * pinned server listed when it was pinned. A lock that is there but cannot be read refuses every
 * MCP tool: what was pinned is not known. An empty one is no lock.
 */
export function lockBeside(policyPath: string): PinnedLookup {
  const path = join(dirname(resolve(policyPath)), LOCK_FILE);
  type Loaded = { servers: Map<string, Record<string, unknown>> } | { unreadable: string } | null;
  let loaded: Loaded | undefined;
  const load = (): Loaded => {
    const read = readRegularFile(path, MAX_LOCK_BYTES);
    // Empty: the placeholder Claude Code's sandbox leaves, while a call runs in the background, at a
    // write-denied path that does not exist; the agent can no more empty the lock than remove it.
    if (read.ok && read.bytes.length === 0) return null;
    if (!read.ok)
      return read.code === 'ENOENT'
        ? null
        : {
            unreadable: `${path}: ${read.code === 'not_regular' ? 'not a regular file' : read.code === 'too_large' ? 'larger than 8 MiB' : read.code}`,
          };
    let json: unknown;
    try {
      json = JSON.parse(read.bytes.toString('utf8'));
    } catch (err) {
      return { unreadable: `${path}: ${(err as Error).message}` };
    }
    const all = isPlainObject(json) ? own(json, 'servers') : undefined;
    if (!isPlainObject(all)) return { unreadable: `${path}: no "servers" object` };
    const servers = new Map<string, Record<string, unknown>>();
    for (const [name, server] of Object.entries(all)) {
      const tools = isPlainObject(server) ? own(server, 'tools') : undefined;
      if (!isPlainObject(tools)) return { unreadable: `${path}: server "${name}" has no "tools" object` };
      servers.set(name, tools);
    }
    return { servers };
  };
  return (toolName) => {
    if (!toolName.startsWith('mcp__')) return null;
    if (loaded === undefined) loaded = load();
    if (loaded === null) return null;
    if ('unreadable' in loaded) return loaded;
    for (const [server, tools] of loaded.servers) {
      const prefix = `mcp__${server}__`;
      if (toolName.startsWith(prefix)) return { server, listed: own(tools, toolName.slice(prefix.length)) !== undefined };
    }
    return null;
  };
}
