import type { Script } from 'node:vm';

/**
 * The hook's deadline inside synchronous code (SPEC §9.7): the decision runs under a vm script
 * with a timeout, so V8 stops it when the deadline passes — inside a loop, a regular expression, a
 * parse — and the hook answers with a deny. The script only calls back into the hook's own code,
 * in the hook's own context. The state store has no lock, so a decision stopped halfway leaves
 * nothing held (at most an unused temporary file).
 */

export class DeadlineStop extends Error {}

const SLOT = '__personaGateWithinDeadline';
let script: Script | undefined;

export function runWithin<T>(ms: number, fn: () => T): T {
  if (!(ms > 0)) throw new DeadlineStop();
  const vm = require('node:vm') as typeof import('node:vm');
  script ??= new vm.Script(`globalThis.${SLOT}()`, { filename: 'persona-gate-deadline' });
  const slots = globalThis as unknown as Record<string, unknown>;
  slots[SLOT] = fn;
  try {
    return script.runInThisContext({ timeout: Math.max(1, Math.ceil(ms)) }) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new DeadlineStop();
    throw err;
  } finally {
    delete slots[SLOT];
  }
}
