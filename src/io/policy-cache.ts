import { closeSync, fstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hash128 } from './hash';
import { checkPrivateFile, ensurePrivateDir, openPrivateFile, readWhole, StateError } from './private-fs';

/**
 * What is cached of a policy is only the fact that these exact bytes passed validation, with
 * their SHA-256: a file holding a header and a copy of the bytes. The hook reads the policy on
 * every call and takes its content (commands, owners, personas …) from the bytes it read; the
 * cache only spares it the validator, and only when the policy's bytes equal the copy, compared
 * byte for byte. Editing the cache therefore changes no decision: an entry that does not match
 * is ignored and written again after a full validation.
 *
 * Entries are named by the policy's path and size, so that one policy has one entry and a change
 * of the policy replaces it. An entry is read as the state's files are (private-fs.ts); one that
 * is not a regular file of this user is ignored, like one that does not match, and the new entry
 * is renamed over it (rename replaces a link, never writes through it).
 */

/** Bump when the validated form changes (schema.ts POLICY_FORMAT), so older entries are ignored. */
const FORMAT = 1;
const MAGIC = `persona-gate policy-validated ${FORMAT} `;
const HEADER_LENGTH = MAGIC.length + 64 + 1;

export function policyCacheEntry(cacheDir: string, policyPath: string, size: number): string {
  return join(cacheDir, `${hash128(`${resolve(policyPath)}\u0000${size}`)}.validated`);
}

/**
 * The SHA-256 recorded for `bytes` when they were validated, or null when they were not (or the
 * entry is not usable). Throws StateError when the cache directory itself is not private.
 */
export function validatedSha(cacheDir: string, policyPath: string, bytes: Buffer): string | null {
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
    if (st.size !== HEADER_LENGTH + bytes.length) return null;
    const entry = readWhole(fd, st.size);
    if (entry.length !== st.size || entry.toString('latin1', 0, MAGIC.length) !== MAGIC || entry[HEADER_LENGTH - 1] !== 0x0a) return null;
    if (!entry.subarray(HEADER_LENGTH).equals(bytes)) return null;
    const sha = entry.toString('latin1', MAGIC.length, HEADER_LENGTH - 1);
    return /^[0-9a-f]{64}$/.test(sha) ? sha : null;
  } finally {
    closeSync(fd);
  }
}

/** Records that `bytes` validated; a cache that cannot be written only costs the next call a validation. */
export function recordValidated(cacheDir: string, policyPath: string, bytes: Buffer, sha: string): void {
  const target = policyCacheEntry(cacheDir, policyPath, bytes.length);
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    ensurePrivateDir(cacheDir);
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${sha}\n`, 'latin1'), bytes]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, target);
  } catch {
    rmSync(tmp, { force: true });
  }
}
