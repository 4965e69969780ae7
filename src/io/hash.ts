import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The file name a session's state and receipts are kept under: never the raw session id. */
export function sessionKey(sessionId: string): string {
  return sha256Hex(`persona-gate:session:${sessionId}`).slice(0, 32);
}
