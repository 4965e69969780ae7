import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Receipt } from '../core/receipt';
import { sessionKey } from './hash';

export function receiptsDir(stateDir: string): string {
  return join(stateDir, 'receipts');
}

export function receiptsFile(stateDir: string, sessionId: string): string {
  return join(receiptsDir(stateDir), `${sessionKey(sessionId)}.jsonl`);
}

/** Appends one line; a receipt that cannot be written never changes the verdict, so errors are returned, not thrown. */
export function appendReceipt(stateDir: string, receipt: Receipt): string | null {
  try {
    mkdirSync(receiptsDir(stateDir), { recursive: true, mode: 0o700 });
    appendFileSync(receiptsFile(stateDir, receipt.session_id), `${JSON.stringify(receipt)}\n`, { mode: 0o600 });
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err);
  }
}
