import type { BigIntStats } from 'node:fs';
import { sha256Hex } from '../io/hash';
import type { Level, Tier } from '../core/levels';

/**
 * The MCP lock (`.claude/persona-gate.lock.json`): what each pinned server declared about each of
 * its tools when it was pinned. Written sorted and indented, so that a change reads as a small diff.
 */

export const LOCK_FILE = 'persona-gate.lock.json';
export const LOCK_VERSION = 1;

/** The four MCP tool annotations that describe behaviour (`title` is not one). */
export const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
export type Hint = (typeof HINTS)[number];
export type Annotations = Partial<Record<Hint, boolean>>;

export interface LockedTool {
  annotations: Annotations;
  description_sha256: string;
  input_schema_sha256: string;
  level: Level;
  confirm: Tier;
}

export interface LockedServer {
  tools: Record<string, LockedTool>;
}

export interface Lock {
  version: number;
  servers: Record<string, LockedServer>;
}

/** What `tools/list` says about one tool, as far as the lock cares. */
export interface ListedTool {
  name: string;
  description?: string | undefined;
  inputSchema?: unknown;
  annotations?: Record<string, unknown> | undefined;
}

/**
 * The level the annotations declare (SPEC §11). A hint the server leaves out takes the default
 * the MCP specification gives it: not read-only, destructive, open-world.
 */
export function levelOfAnnotations(a: Annotations): Level {
  if (a.readOnlyHint === true) return 'read_only';
  return a.openWorldHint === false ? 'workspace_write' : 'network';
}

/** `destructiveHint` (true unless the server says false, and meaningless for a read-only tool) → confirm. */
export function tierOfAnnotations(a: Annotations): Tier {
  if (a.readOnlyHint === true) return 'auto';
  return a.destructiveHint === false ? 'auto' : 'confirm';
}

/** JSON with object keys sorted at every depth: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = sha256Hex;

export function annotationsOf(raw: Record<string, unknown> | undefined): Annotations {
  const out: Annotations = {};
  for (const hint of HINTS) if (typeof raw?.[hint] === 'boolean') out[hint] = raw[hint] as boolean;
  return out;
}

export function lockTool(tool: ListedTool): LockedTool {
  const annotations = annotationsOf(tool.annotations);
  return {
    annotations,
    description_sha256: sha256(tool.description ?? ''),
    input_schema_sha256: sha256(canonicalJson(tool.inputSchema ?? {})),
    level: levelOfAnnotations(annotations),
    confirm: tierOfAnnotations(annotations),
  };
}

export function lockServer(tools: readonly ListedTool[]): LockedServer {
  const out: Record<string, LockedTool> = {};
  for (const tool of tools) out[tool.name] = lockTool(tool);
  return { tools: out };
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as object).sort()) out[k] = sortDeep((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** The lock's text: keys sorted at every depth, two-space indent, one trailing newline. */
export function serializeLock(lock: Lock): string {
  return `${JSON.stringify(sortDeep(lock), null, 2)}\n`;
}

export function lockSha256(bytes: Buffer | string): string {
  return sha256Hex(bytes);
}

/**
 * The lock file's identity and change times: any write to it, or a new file renamed over it,
 * changes them, and no user call can set a ctime back (the same rule as the policy cache's key).
 */
export function lockStamp(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}
