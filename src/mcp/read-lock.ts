import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

const MAX_LOCK_FILE_BYTES = 64 * 1024 * 1024;
import { z } from 'zod';
import { LEVELS, TIERS } from '../core/levels';
import { HINTS, lockSha256, lockStamp, type Lock } from './lock';

const Hex = z.string().regex(/^[0-9a-f]{64}$/);

const LockSchema = z.strictObject({
  version: z.literal(1),
  servers: z.record(
    z.string().min(1),
    z.strictObject({
      tools: z.record(
        z.string().min(1),
        z.strictObject({
          annotations: z.strictObject(Object.fromEntries(HINTS.map((h) => [h, z.boolean().optional()]))),
          description_sha256: Hex,
          input_schema_sha256: Hex,
          level: z.enum(LEVELS),
          confirm: z.enum(TIERS),
        }),
      ),
    }),
  ),
});

export type LockRead = { ok: true; lock: Lock; sha256: string; stamp?: string } | { ok: false; missing: boolean; detail: string };

/** Parses a lock's bytes; a lock that is not the shape `pin` writes is refused whole. */
export function parseLock(bytes: Buffer): LockRead {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    return { ok: false, missing: false, detail: (err as Error).message };
  }
  const parsed = LockSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, missing: false, detail: `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}` };
  }
  return { ok: true, lock: parsed.data as Lock, sha256: lockSha256(bytes) };
}

/** Reads the lock; its stamp is taken before its bytes, so a later change always shows in the stamp. */
export function readLock(path: string): LockRead {
  let bytes: Buffer;
  let stamp: string;
  try {
    // Never waits on a FIFO, never reads a device or an unbounded file (SPEC §9.7).
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = fstatSync(fd, { bigint: true });
      if (!st.isFile()) return { ok: false, missing: false, detail: 'not a regular file' };
      if (st.size > BigInt(MAX_LOCK_FILE_BYTES)) return { ok: false, missing: false, detail: 'larger than 64 MiB' };
      stamp = lockStamp(st);
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, missing: code === 'ENOENT', detail: code ?? String(err) };
  }
  const read = parseLock(bytes);
  return read.ok ? { ...read, stamp } : read;
}
