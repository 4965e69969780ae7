import { closeSync, fstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isSha256Hex } from '../core/chars';
import { hash128 } from './hash';
import { checkPrivateFile, ensurePrivateDir, openPrivateFile, readWhole, StateError } from './private-fs';
import { latin1Text, utf8Text } from './text';

/**
 * What is cached of a policy is the fact that these exact bytes passed validation, with their
 * SHA-256, and where the members a call needs sit in them (policy-spans.ts), all in one file,
 * `<key>.validated`: a header line (format, SHA-256, the settings' positions), the positions of
 * the commands, tools, personas, agent types and families in buckets by the first byte of the name's hash
 * (each parsed only when a call looks up a name in it), and a copy of the bytes. The entry is used
 * only for bytes equal to that copy, compared byte for byte: that is the check that the policy read
 * on this call has the size and the hash recorded with it, without hashing it on every call. It is
 * written whole and renamed into place, so that its header, its positions and its copy always
 * belong together.
 *
 * Entries are named by the policy's path and size. They are read as the state's files are
 * (private-fs.ts): one that is not a regular file of this user is ignored, like one that does not
 * match, and the new entry is renamed over it (rename replaces a link, never writes through it).
 * Whether the positions are then trusted or checked against the bytes is policy-source.ts's call.
 */

/** Bump when the validated form changes (schema.ts POLICY_FORMAT) or this layout does. */
const FORMAT = 3;
const MAGIC = `persona-gate policy-validated ${FORMAT} `;

export type IndexKind = 'c' | 't' | 'p' | 'a' | 'f';
const KINDS: readonly IndexKind[] = ['c', 't', 'p', 'a', 'f'];
const BUCKETS = 256;
/** The buckets' end offsets, one 32-bit number each, after a leading 0. */
const TABLE_BYTES = 4 * (KINDS.length * BUCKETS + 1);

export type IndexEntries = Record<IndexKind, [string, ...unknown[]][]>;

export function policyCacheEntry(cacheDir: string, policyPath: string, size: number): string {
  return join(cacheDir, `${hash128(`${resolve(policyPath)}\u0000${size}`)}.validated`);
}

const bucketOf = (kind: IndexKind, name: string) => KINDS.indexOf(kind) * BUCKETS + parseInt(hash128(name).slice(0, 2), 16);

export type BucketRead = { ok: true; entries: unknown[] } | { ok: false };

export interface ValidatedEntry {
  sha: string;
  /** The settings' positions as recorded (null when there are none). */
  core: unknown;
  /** The recorded entries of the bucket `name` falls in; not ok when the bucket does not parse. */
  bucket(kind: IndexKind, name: string): BucketRead;
}

/**
 * What the cache holds for `bytes` when they were validated, or null when they were not (or the
 * entry is not usable). Throws StateError when the cache directory itself is not private.
 */
export function validatedEntry(cacheDir: string, policyPath: string, bytes: Buffer): ValidatedEntry | null {
  if (!ensurePrivateDir(cacheDir, false)) return null;
  const path = policyCacheEntry(cacheDir, policyPath, bytes.length);
  let fd: number | null;
  try {
    fd = openPrivateFile(path);
  } catch (err) {
    if (err instanceof StateError) return null;
    throw err;
  }
  if (fd === null) return null;
  let entry: Buffer;
  try {
    const st = fstatSync(fd);
    try {
      checkPrivateFile(path, st);
    } catch {
      return null;
    }
    entry = readWhole(fd, st.size);
    if (entry.length !== st.size) return null;
  } finally {
    closeSync(fd);
  }
  const copy = entry.length - bytes.length;
  const line = MAGIC.length + 65;
  if (copy < line + 1 + TABLE_BYTES || latin1Text(entry, 0, MAGIC.length) !== MAGIC || !entry.subarray(copy).equals(bytes)) return null;
  const sha = latin1Text(entry, MAGIC.length, MAGIC.length + 64);
  if (!isSha256Hex(sha) || entry[MAGIC.length + 64] !== 0x20) return null;
  const end = entry.indexOf(0x0a, line);
  if (end === -1 || end + 1 + TABLE_BYTES > copy) return null;
  let core: unknown = null;
  try {
    core = JSON.parse(utf8Text(entry, line, end));
  } catch {
    // Positions that do not parse are not used: the validation still holds.
  }
  const table = end + 1;
  const data = table + TABLE_BYTES;
  return {
    sha,
    core,
    bucket(kind, name) {
      const at = table + 4 * bucketOf(kind, name);
      const start = entry.readUInt32LE(at);
      const stop = entry.readUInt32LE(at + 4);
      if (start === stop) return { ok: true, entries: [] };
      if (start > stop || data + stop > copy) return { ok: false };
      try {
        const entries: unknown = JSON.parse(utf8Text(entry, data + start, data + stop));
        return Array.isArray(entries) ? { ok: true, entries } : { ok: false };
      } catch {
        return { ok: false };
      }
    },
  };
}

/** The SHA-256 recorded for `bytes` when they were validated, or null. */
export function validatedSha(cacheDir: string, policyPath: string, bytes: Buffer): string | null {
  return validatedEntry(cacheDir, policyPath, bytes)?.sha ?? null;
}

/** The buckets' offsets table and their JSON, for the named entries of one policy. */
function indexBytes(entries: IndexEntries | undefined): Buffer[] {
  const table = Buffer.alloc(TABLE_BYTES);
  const lists = new Map<number, unknown[]>();
  for (const kind of KINDS) {
    for (const entry of entries?.[kind] ?? []) {
      const b = bucketOf(kind, entry[0]);
      const list = lists.get(b);
      if (list) list.push(entry);
      else lists.set(b, [entry]);
    }
  }
  const parts = [table];
  let offset = 0;
  for (let b = 0; b < KINDS.length * BUCKETS; b++) {
    const list = lists.get(b);
    if (list) {
      const json = Buffer.from(JSON.stringify(list), 'utf8');
      parts.push(json);
      offset += json.length;
    }
    table.writeUInt32LE(offset, 4 * (b + 1));
  }
  return parts;
}

/**
 * Records that `bytes` validated, with the settings' positions `core` and the named entries; a
 * cache that cannot be written only costs the next call a validation.
 */
export function recordValidated(
  cacheDir: string,
  policyPath: string,
  bytes: Buffer,
  sha: string,
  core: unknown = null,
  entries?: IndexEntries,
): void {
  const target = policyCacheEntry(cacheDir, policyPath, bytes.length);
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    ensurePrivateDir(cacheDir);
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${sha} ${JSON.stringify(core)}\n`, 'utf8'), ...indexBytes(entries), bytes]), {
      mode: 0o600,
      flag: 'wx',
    });
    renameSync(tmp, target);
    // The positions' directory an earlier layout kept beside the entry.
    rmSync(`${target.slice(0, -'.validated'.length)}.index`, { recursive: true, force: true });
  } catch {
    rmSync(tmp, { force: true });
  }
}
