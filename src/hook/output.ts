import { writeSync } from 'node:fs';
import type { Verdict } from '../core/types';

/** What the hook prints and how it exits: the one place verdicts become bytes and exit codes. */
export interface HookResponse {
  stdout: string;
  stderr: string;
  exitCode: 0 | 2;
  /** Whom a PreToolUse was judged for, and as what command: for the broker's receipt of the start it judged. */
  judged?: { persona: string | null; stage: string | null; command_key: string | null };
}

export function preToolUseResponse(verdict: Verdict, reason: string): HookResponse {
  if (verdict === 'abstain') return { stdout: '', stderr: '', exitCode: 0 };
  const output = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: verdict,
      permissionDecisionReason: reason,
    },
  };
  return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
}

/** A verdict that also replaces the tool's input (Claude Code's `updatedInput`: the launcher form of a start). */
export function preToolUseRewrite(verdict: 'allow' | 'ask', reason: string, updatedInput: Record<string, unknown>): HookResponse {
  const output = {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: verdict, permissionDecisionReason: reason, updatedInput },
  };
  return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
}

/** For when the event is not known to be a PreToolUse: exit 2 blocks the call and shows the reason. */
export function blockingError(reason: string): HookResponse {
  return { stdout: '', stderr: `${reason}\n`, exitCode: 2 };
}

export const SILENT: HookResponse = { stdout: '', stderr: '', exitCode: 0 };

function writeAll(fd: number, text: string): boolean {
  // The whole text in one write(2) is the usual case: no Buffer to make (a first Buffer.from costs
  // a hook's short life a compilation). The bytes a short write left are written from a Buffer.
  let offset = 0;
  try {
    offset = writeSync(fd, text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return false;
  }
  if (offset === Buffer.byteLength(text)) return true;
  const buf = Buffer.from(text, 'utf8');
  while (offset < buf.length) {
    try {
      offset += writeSync(fd, buf, offset);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      return false;
    }
  }
  return true;
}

let emitted = false;

type ExitingProcess = NodeJS.Process & { reallyExit?: (code: number) => never };

/**
 * Ends the process once everything is written (every write above is synchronous). With no `exit`
 * listener to run, through the native exit that `process.exit` itself ends in: its JavaScript
 * side (the exit event, its bookkeeping) is compiled on first use, a cost a hook pays on every call.
 */
function exitNow(code: number): never {
  const reallyExit = (process as ExitingProcess).reallyExit;
  if (typeof reallyExit === 'function' && process.listenerCount('exit') === 0) reallyExit.call(process, code);
  process.exit(code);
}

/** Writes the response once and ends the process. If stdout fails, the reason goes to stderr with exit 2. */
export function emit(response: HookResponse): never {
  if (!emitted) {
    emitted = true;
    let code: number = response.exitCode;
    if (response.stdout !== '' && !writeAll(1, response.stdout)) {
      code = 2;
      writeAll(2, 'persona-gate: could not write the decision; the call is denied.\n');
    }
    if (response.stderr !== '') writeAll(2, response.stderr);
    exitNow(code);
  }
  process.exit(2);
}
