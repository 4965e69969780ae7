import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { appendPrivateFile, ensurePrivateDir, readPrivateFile, readPrivateJson, sweepRecords } from '../io/private-fs';

/**
 * A call record is the hook's word, for the broker, on one Bash call it let through (SPEC §9.3):
 * which session and agent made it, and how that session's hook was started (its arguments and
 * environment, which choose the policy and the persona). The rewritten call carries the record's
 * secret in `PERSONA_GATE_CALL`; a launched program started by anything that call runs (a script,
 * `make`, an interpreter) reaches the broker through its shim, and the broker judges that start as
 * this session's hook would judge the same command typed as a call. The record goes when the
 * call's PostToolUse comes, or when it expires, so a process the call left behind loses it.
 * Records live beside the launcher's tickets, which the sandboxed shell cannot read.
 */
export interface CallRecord {
  v: 1;
  session_id: string;
  tool_use_id: string | null;
  agent_id: string | null;
  agent_type: string | null;
  /** The directory a brokered program may write (the project). */
  project: string;
  /** The hook's own arguments (`hook --host claude-code --config …`). */
  argv: string[];
  /** The hook's environment. */
  env: Record<string, string>;
  /** Milliseconds since the epoch after which the record is void. */
  expires: number;
}

/** Longer than Claude Code lets a Bash call run (10 minutes), with room for a slow PostToolUse. */
export const CALL_TTL_MS = 30 * 60 * 1000;
const MAX_CALL_BYTES = 1024 * 1024;
const SECRET = /^[0-9a-f]{32}$/;

/** Beside the launcher's tickets (`<state>/exec`, which the sandbox cannot read). */
function execDir(stateDir: string): string {
  return join(stateDir, 'exec');
}

export function callsDir(stateDir: string): string {
  return join(execDir(stateDir), 'calls');
}

function callFile(stateDir: string, secret: string): string {
  return join(callsDir(stateDir), `${secret}.json`);
}

/** Leaves a record and returns its secret; an error is thrown as a StateError. */
export function leaveCall(stateDir: string, call: CallRecord): string {
  ensurePrivateDir(execDir(stateDir));
  ensurePrivateDir(callsDir(stateDir));
  // node:crypto is loaded only here: most calls leave no record.
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  const secret = randomBytes(16).toString('hex');
  appendPrivateFile(callFile(stateDir, secret), JSON.stringify(call));
  return secret;
}

function isCallRecord(v: unknown): v is CallRecord {
  const c = v as CallRecord | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.v === 1 &&
    typeof c.session_id === 'string' &&
    Array.isArray(c.argv) &&
    typeof c.env === 'object'
  );
}

function readRecord(path: string): CallRecord | null {
  return readPrivateJson(path, MAX_CALL_BYTES, isCallRecord);
}

/** The live record of this secret, or null (none, void, or not a secret). Not taken: a call may start programs many times. */
export function readCall(stateDir: string, secret: string, now = Date.now()): CallRecord | null {
  if (!SECRET.test(secret)) return null;
  const call = readRecord(callFile(stateDir, secret));
  return call !== null && call.expires > now ? call : null;
}

/**
 * The brokered starts of a call that ran, each as the PostToolUse event of its start, one JSON line
 * each. The identity reads among them confirm the session when the call ends (SPEC §6), as a read
 * typed as a call does: a script that reads and then changes state within one call is refused the change.
 */
function startsBeside(callPath: string): string {
  return callPath.replace(/\.json$/, '.starts');
}

function startsFile(stateDir: string, secret: string): string {
  return startsBeside(callFile(stateDir, secret));
}

const MAX_STARTS_BYTES = 1024 * 1024;

/** Keeps a brokered start of the call that ran, as its PostToolUse event; an error is thrown as a StateError. */
export function keepStart(stateDir: string, secret: string, post: Record<string, unknown>): void {
  if (!SECRET.test(secret)) return;
  appendPrivateFile(startsFile(stateDir, secret), `${JSON.stringify(post)}\n`);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/** Ends a call: its record goes, and the starts it made go unapplied (a call that failed confirms nothing). */
export function dropCall(stateDir: string, secret: string): void {
  if (!SECRET.test(secret)) return;
  unlinkQuietly(callFile(stateDir, secret));
  unlinkQuietly(startsFile(stateDir, secret));
}

/**
 * Ends a call that ran: its record goes, and the PostToolUse events of the brokered starts it made
 * are returned, in the order they ended, to be applied now. A file that is not what the broker
 * writes gives none.
 */
export function endCall(stateDir: string, secret: string): Record<string, unknown>[] {
  if (!SECRET.test(secret)) return [];
  let text: string | null = null;
  try {
    text = readPrivateFile(startsFile(stateDir, secret), MAX_STARTS_BYTES)?.toString('utf8') ?? null;
  } catch {
    text = null;
  }
  dropCall(stateDir, secret);
  const posts: Record<string, unknown>[] = [];
  for (const line of text?.split('\n') ?? []) {
    if (line === '') continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) posts.push(v as Record<string, unknown>);
    } catch {
      // a line cut short: that start confirms nothing
    }
  }
  return posts;
}

/** How many records are live; void ones go on the way, with the starts they kept. */
export function liveCalls(stateDir: string, now = Date.now()): number {
  return sweepRecords(callsDir(stateDir), (path) => {
    const call = readRecord(path);
    const live = call !== null && call.expires > now;
    if (!live) unlinkQuietly(startsBeside(path));
    return live;
  });
}
