import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { readWhole } from './private-fs';

/**
 * Reads a file on the hook's path without ever waiting or reading without end (SPEC §9.7): opened
 * non-blocking (a FIFO with no writer does not hold the open), read only when it is a regular file
 * (never a FIFO, a device or a directory), and only up to `maxBytes`.
 */

export type FileRead = { ok: true; bytes: Buffer } | { ok: false; code: 'ENOENT' | 'not_regular' | 'too_large' | string };

const READ = constants.O_RDONLY | constants.O_NONBLOCK;

export function readRegularFile(path: string, maxBytes: number): FileRead {
  let fd: number;
  try {
    fd = openSync(path, READ);
  } catch (err) {
    return { ok: false, code: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, code: 'not_regular' };
    if (st.size > maxBytes) return { ok: false, code: 'too_large' };
    return { ok: true, bytes: readWhole(fd, st.size) };
  } catch (err) {
    return { ok: false, code: (err as NodeJS.ErrnoException).code ?? String(err) };
  } finally {
    closeSync(fd);
  }
}

/** A JSON object file read as readRegularFile reads it, or null when it is absent, unreadable, not JSON or not an object. */
export function readJsonObject(path: string, maxBytes: number): Record<string, unknown> | null {
  const read = readRegularFile(path, maxBytes);
  if (!read.ok) return null;
  try {
    const v: unknown = JSON.parse(read.bytes.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
