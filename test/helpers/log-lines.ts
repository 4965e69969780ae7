import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The non-empty lines of a log the harness's recorders append to; none before the first is written. */
export function logLines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** Each line of a JSON-lines log, parsed (blank lines skipped); none before the first is written. */
export function jsonLines(path: string): any[] {
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
    : [];
}

/** Every receipt the hook kept under a state directory (`<state>/receipts/*.jsonl`), file by file. */
export function stateReceipts(stateDir: string): any[] {
  const dir = join(stateDir, 'receipts');
  return readdirSync(dir).flatMap((file) => jsonLines(join(dir, file)));
}
