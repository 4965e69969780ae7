import { closeSync, fstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isSha256Hex } from '../core/chars';
import { hash128 } from './hash';
import { checkPrivateFile, ensurePrivateDir, openPrivateFile, readWhole, StateError } from './private-fs';
import { latin1Text, utf8Text } from './text';

/**
 * What is cached of a policy is the fact that these exact bytes passed validation, with their
 * SHA-256, and where the members a call needs sit in them (policy-spans.ts). The hook reads the
 * policy on every call and takes its content (commands, owners, personas …) from the bytes it
 * read; the cache spares it the validator, only when the policy's bytes equal the copy the entry
 * holds (compared byte for byte), and the whole parse, only where a position checks out against
 * the bytes. Editing the cache therefore changes no decision: an entry that does not match is
 * ignored and written again.
 *
 * `<key>.validated` holds a header (format, SHA-256, the settings' positions) and the copy of the
 * bytes; `<key>.index/` holds the positions of commands, tools, personas and agent types in small
 * files (`c-`, `t-`, `p-`, `a-` and the first two hex digits of the name's hash), each read only
 * when a call looks up a name in it. Entries are named by the policy's path and size, so that one
 * policy has one entry and a change of the policy replaces it. They are read as the state's files
 * are (private-fs.ts); one that is not a regular file of this user is ignored, like one that does
 * not match, and the new entry is renamed over it (rename replaces a link, never writes through it).
 */

/** Bump when the validated form changes (schema.ts POLICY_FORMAT) or this layout does. */
const FORMAT = 2;
const MAGIC = `persona-gate policy-validated ${FORMAT} `;

export type IndexKind = 'c' | 't' | 'p' | 'a';

export function policyCacheEntry(cacheDir: string, policyPath: string, size: number): string {
  return join(cacheDir, `${hash128(`${resolve(policyPath)}\u0000${size}`)}.validated`);
}

export function policyIndexDir(cacheDir: string, policyPath: string, size: number): string {
  return indexDirOf(policyCacheEntry(cacheDir, policyPath, size));
}

/** The index directory beside an entry's file. */
const indexDirOf = (entryFile: string) => `${entryFile.slice(0, -'.validated'.length)}.index`;

export const bucketOf = (name: string) => hash128(name).slice(0, 2);

export interface ValidatedEntry {
  /** The entry's file: its index directory sits beside it. */
  file: string;
  sha: string;
  /** The settings' positions as recorded; checked against the bytes before any use. */
  core: unknown;
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
  try {
    const st = fstatSync(fd);
    try {
      checkPrivateFile(path, st);
    } catch {
      return null;
    }
    const headerLength = st.size - bytes.length;
    if (headerLength < MAGIC.length + 66) return null;
    const entry = readWhole(fd, st.size);
    if (entry.length !== st.size || latin1Text(entry, 0, MAGIC.length) !== MAGIC || entry[headerLength - 1] !== 0x0a) return null;
    if (!entry.subarray(headerLength).equals(bytes)) return null;
    const sha = latin1Text(entry, MAGIC.length, MAGIC.length + 64);
    if (!isSha256Hex(sha) || entry[MAGIC.length + 64] !== 0x20) return null;
    let core: unknown = null;
    try {
      core = JSON.parse(utf8Text(entry, MAGIC.length + 65, headerLength - 1));
    } catch {
      // Positions that do not parse are not used: the validation still holds.
    }
    return { file: path, sha, core };
  } finally {
    closeSync(fd);
  }
}

/** The SHA-256 recorded for `bytes` when they were validated, or null. */
export function validatedSha(cacheDir: string, policyPath: string, bytes: Buffer): string | null {
  return validatedEntry(cacheDir, policyPath, bytes)?.sha ?? null;
}

/** Records that `bytes` validated; a cache that cannot be written only costs the next call a validation. */
export function recordValidated(cacheDir: string, policyPath: string, bytes: Buffer, sha: string, core: unknown = null): void {
  const target = policyCacheEntry(cacheDir, policyPath, bytes.length);
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    ensurePrivateDir(cacheDir);
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${sha} ${JSON.stringify(core)}\n`, 'utf8'), bytes]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, target);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * Writes the positions of the named members, bucket by bucket, as a new `<key>.index/` renamed over
 * the old one. A cache that cannot be written only costs later calls a whole parse.
 */
export function writeIndex(cacheDir: string, policyPath: string, size: number, entries: Record<IndexKind, [string, ...unknown[]][]>): void {
  const target = policyIndexDir(cacheDir, policyPath, size);
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    ensurePrivateDir(cacheDir);
    mkdirSync(tmp, { mode: 0o700 });
    for (const kind of Object.keys(entries) as IndexKind[]) {
      const buckets = new Map<string, unknown[]>();
      for (const entry of entries[kind]) {
        const b = bucketOf(entry[0]);
        const list = buckets.get(b);
        if (list) list.push(entry);
        else buckets.set(b, [entry]);
      }
      for (const [b, list] of buckets) writeFileSync(join(tmp, `${kind}-${b}.json`), JSON.stringify(list), { mode: 0o600, flag: 'wx' });
    }
    // rm removes a link in the way, never what it points to.
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
  } catch {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export type BucketRead = { ok: true; entries: unknown[] } | { ok: false };

/** Whether the index directory is there and private: 'missing', 'ok', or 'bad' (ignored and replaced). */
function indexDirState(indexDir: string): 'missing' | 'ok' | 'bad' {
  try {
    return ensurePrivateDir(indexDir, false) ? 'ok' : 'missing';
  } catch (err) {
    if (err instanceof StateError) return 'bad';
    throw err;
  }
}

/**
 * The entries of the bucket `name` falls in, in an index directory found private: none when the
 * bucket does not exist; not ok when it is not a private file or does not parse.
 */
function readBucket(indexDir: string, kind: IndexKind, name: string): BucketRead {
  const path = join(indexDir, `${kind}-${bucketOf(name)}.json`);
  let fd: number | null;
  try {
    fd = openPrivateFile(path);
  } catch (err) {
    if (err instanceof StateError) return { ok: false };
    throw err;
  }
  if (fd === null) return { ok: true, entries: [] };
  try {
    const st = fstatSync(fd);
    checkPrivateFile(path, st);
    const entries: unknown = JSON.parse(utf8Text(readWhole(fd, st.size)));
    return Array.isArray(entries) ? { ok: true, entries } : { ok: false };
  } catch (err) {
    if (err instanceof StateError || err instanceof SyntaxError) return { ok: false };
    throw err;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the buckets of the index beside a validated entry (`entryFile`). The directory is looked at
 * on the first read, not before: a call that looks up no name reads nothing of it. One found
 * missing holds no entries; one that is not private is not used (and is replaced when written).
 */
export function bucketReader(entryFile: string): (kind: IndexKind, name: string) => BucketRead {
  const indexDir = indexDirOf(entryFile);
  let state: ReturnType<typeof indexDirState> | undefined;
  return (kind, name) => {
    state ??= indexDirState(indexDir);
    return state === 'ok' ? readBucket(indexDir, kind, name) : state === 'missing' ? { ok: true, entries: [] } : { ok: false };
  };
}
