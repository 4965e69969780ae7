import { join } from 'node:path';
import type { Receipt } from '../core/receipt';
import { sessionKey } from './hash';
import { appendPrivateFile, ensurePrivateDir, errno } from './private-fs';

export function receiptsDir(stateDir: string): string {
  return join(stateDir, 'receipts');
}

export function receiptsFile(stateDir: string, sessionId: string): string {
  return join(receiptsDir(stateDir), `${sessionKey(sessionId)}.jsonl`);
}

/**
 * Appends one line with one write(2) on an O_APPEND descriptor, opened without following a link
 * and checked (a regular file of this user, one link, not writable by others) before writing.
 * A receipt that cannot be written never changes the verdict, so errors are returned, not thrown.
 */
export function appendReceipt(stateDir: string, receipt: Receipt): string | null {
  try {
    ensurePrivateDir(receiptsDir(stateDir));
    appendPrivateFile(receiptsFile(stateDir, receipt.session_id), `${JSON.stringify(receipt)}\n`);
    return null;
  } catch (err) {
    return err instanceof Error && err.name === 'StateError' ? err.message : (errno(err) ?? String(err));
  }
}
