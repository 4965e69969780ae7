import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { lazyListServers } from '../../io/lazy';
import { readMcpServers } from '../../mcp/config';
import { lockDrift, type Drift } from '../../mcp/drift';
import { LOCK_FILE, LOCK_VERSION, lockServer, serializeLock, type Lock } from '../../mcp/lock';
import { PIN_MESSAGES, type PinMessages } from '../../mcp/messages';
import { parseLock } from '../../mcp/read-lock';
import { CliError, type CommandResult } from '../errors';
import { cliLocale } from '../messages';

export interface PinOptions {
  server?: string;
  check?: boolean;
  dir?: string;
  timeout?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export function describeDrift(d: Drift, t: PinMessages): string {
  switch (d.kind) {
    case 'server_added':
      return t.serverAdded(d.server);
    case 'server_removed':
      return t.serverRemoved(d.server);
    case 'tool_added':
      return t.toolAdded(d.server, d.tool);
    case 'tool_removed':
      return t.toolRemoved(d.server, d.tool);
    case 'description':
      return t.descriptionChanged(d.server, d.tool);
    case 'input_schema':
      return t.schemaChanged(d.server, d.tool);
    case 'annotations': {
      const show = (v: boolean | undefined) => (v === undefined ? t.unset() : String(v));
      return t.annotationsChanged(d.server, d.tool, d.changes.map((c) => `${c.hint}: ${show(c.was)} → ${show(c.now)}`).join(', '));
    }
  }
}

/** The lock as it is on disk: null when there is none. */
function existingLock(path: string, t: PinMessages, required: boolean): Lock | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      if (required) throw new CliError(t.noLock(path));
      return null;
    }
    throw new CliError(t.badLock(path, (err as NodeJS.ErrnoException).code ?? String(err)));
  }
  const read = parseLock(bytes);
  if (!read.ok) {
    if (required) throw new CliError(t.badLock(path, read.detail));
    return null;
  }
  return read.lock;
}

const countTools = (lock: Lock, servers: readonly string[]) =>
  servers.reduce((n, s) => n + Object.keys(lock.servers[s]?.tools ?? {}).length, 0);

/**
 * `persona-gate pin [--server NAME] [--check]` (SPEC §11): lists the tools of the project's MCP
 * servers and writes the lock whole (a temporary file renamed into place), or, with `--check`,
 * names every drift from it.
 */
export async function pinCommand(env: Env, opts: PinOptions): Promise<CommandResult> {
  const t = PIN_MESSAGES[cliLocale(env)];
  const dir = resolve(opts.dir ?? (env.CLAUDE_PROJECT_DIR?.trim() || process.cwd()));
  const timeoutMs = opts.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(opts.timeout);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new CliError(t.badTimeout(String(opts.timeout)));
  const configured = readMcpServers(dir, env);
  if (!configured.ok)
    throw new CliError(configured.problem === 'missing' ? t.noMcpJson(configured.detail) : t.badMcpJson(configured.detail));
  if (opts.server !== undefined && !configured.servers.has(opts.server))
    throw new CliError(t.unknownServer(opts.server, [...configured.servers.keys()]));
  const selected = [...configured.servers].filter(([name]) => opts.server === undefined || name === opts.server);
  const lockPath = join(dir, '.claude', LOCK_FILE);
  const pinned = existingLock(lockPath, t, opts.check === true);

  const listings = await lazyListServers(selected, { cwd: dir, env, timeoutMs });
  const failures = listings.filter((l) => !l.ok);
  if (failures.length > 0) {
    const lines = failures.map((f) => t.serverFailed(f.server, f.ok ? '' : f.detail));
    if (opts.check !== true) lines.push(t.notWritten(lockPath));
    throw new CliError(lines.join('\n'));
  }
  const live: Lock = { version: LOCK_VERSION, servers: {} };
  // With --server, the other servers keep what the lock says; without, the lock is exactly .mcp.json's servers.
  if (opts.server !== undefined && pinned)
    for (const [name, server] of Object.entries(pinned.servers)) if (name !== opts.server) live.servers[name] = server;
  for (const l of listings) if (l.ok) live.servers[l.server] = lockServer(l.tools);
  const names = Object.keys(live.servers).sort();
  const scope = opts.server !== undefined ? [opts.server] : undefined;
  const drift = pinned ? lockDrift(pinned, live, scope) : [];

  if (opts.check === true) {
    if (drift.length === 0)
      return { stdout: `${t.upToDate(lockPath, scope?.length ?? names.length, countTools(live, scope ?? names))}\n`, exitCode: 0 };
    const lines = drift.map((d) => t.drift(describeDrift(d, t)));
    return { stdout: '', stderr: `${lines.join('\n')}\n${t.driftSummary(drift.length, lockPath)}\n`, exitCode: 1 };
  }

  const text = serializeLock(live);
  let current: string | null = null;
  try {
    current = readFileSync(lockPath, 'utf8');
  } catch {
    current = null;
  }
  if (current === text) return { stdout: `${t.unchanged(lockPath)}\n`, exitCode: 0 };
  mkdirSync(join(dir, '.claude'), { recursive: true });
  const tmp = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o644 });
    renameSync(tmp, lockPath);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  const changes = drift.map((d) => t.change(describeDrift(d, t)));
  return { stdout: `${[t.written(lockPath, names.length, countTools(live, names)), ...changes].join('\n')}\n`, exitCode: 0 };
}
