import { renameSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { hash128 } from '../io/hash';
import { appendPrivateFile, ensurePrivateDir, readPrivateJson, sweepRecords } from '../io/private-fs';

/**
 * A ticket is the hook's judgment of one start, left for the launcher: the launcher runs a program
 * only with a ticket for exactly its argv, named by the secret the hook wrote into that call's
 * rewritten command (`--persona-gate-ticket=…`), and takes it (one start per ticket). So a start
 * the hook did not judge — whatever route reached the launcher outside the sandbox, even with the
 * argv of a call that was judged and never ran — is refused, and every start that runs has the
 * session, persona and command its receipt names. Tickets live in the state directory, which the
 * sandboxed shell can neither write nor (for the tickets) read.
 */
export interface Ticket {
  v: 1;
  program: string;
  args: string[];
  /** The directory the launched program may write (the project). */
  project: string;
  session_id: string;
  tool_use_id: string | null;
  agent_id: string | null;
  agent_type: string | null;
  persona: string | null;
  stage: string | null;
  command_key: string | null;
  policy_sha256: string | null;
  locale: 'en' | 'es';
  /** Milliseconds since the epoch after which the ticket is void. */
  expires: number;
  /** The domain's profile file as the hook found it when it judged the start: the start runs only if it is still so. */
  profile?: { file: string; fingerprint: string };
}

/** Long enough for a person to answer a confirmation, short enough that a ticket left behind goes. */
export const TICKET_TTL_MS = 10 * 60 * 1000;
const MAX_TICKET_BYTES = 64 * 1024;

export function ticketsDir(stateDir: string): string {
  return join(stateDir, 'exec');
}

/** The argv's key: the file name's prefix. */
export function argvKey(program: string, args: readonly string[]): string {
  return hash128(['persona-gate:exec', program, ...args].join('\u0000'));
}

function ticketFile(stateDir: string, program: string, args: readonly string[], secret: string): string {
  return join(ticketsDir(stateDir), `${argvKey(program, args)}.${secret}.json`);
}

/** Leaves a ticket and returns its secret; an error is thrown as a StateError. */
export function leaveTicket(stateDir: string, ticket: Ticket): string {
  ensurePrivateDir(ticketsDir(stateDir));
  const secret = randomBytes(16).toString('hex');
  appendPrivateFile(ticketFile(stateDir, ticket.program, ticket.args, secret), JSON.stringify(ticket));
  return secret;
}

function isTicket(v: unknown): v is Ticket {
  const t = v as Ticket | null;
  return (
    typeof t === 'object' &&
    t !== null &&
    t.v === 1 &&
    typeof t.program === 'string' &&
    Array.isArray(t.args) &&
    (t.profile === undefined || (typeof t.profile.file === 'string' && typeof t.profile.fingerprint === 'string'))
  );
}

function readTicket(path: string): Ticket | null {
  return readPrivateJson(path, MAX_TICKET_BYTES, isTicket);
}

/** Whether a ticket is for exactly this start and still valid. */
export function ticketFits(ticket: Ticket, program: string, args: readonly string[], now: number): boolean {
  return (
    ticket.program === program && ticket.args.length === args.length && ticket.args.every((a, k) => a === args[k]) && ticket.expires > now
  );
}

/**
 * Takes the ticket with this secret for exactly this argv: renamed first, so that two launchers
 * never take the same one, then read and removed. Void tickets in the directory go on the way.
 * Null: none.
 */
export function takeTicket(stateDir: string, secret: string, program: string, args: readonly string[], now = Date.now()): Ticket | null {
  sweep(stateDir, now);
  if (!/^[0-9a-f]{32}$/.test(secret)) return null;
  const path = ticketFile(stateDir, program, args, secret);
  const taken = `${path}.taken`;
  try {
    renameSync(path, taken);
  } catch {
    return null;
  }
  const ticket = readTicket(taken);
  try {
    unlinkSync(taken);
  } catch {
    // gone already
  }
  return ticket !== null && ticketFits(ticket, program, args, now) ? ticket : null;
}

/** Removes the tickets that expired (a call judged and never run leaves one). */
function sweep(stateDir: string, now: number): void {
  sweepRecords(ticketsDir(stateDir), (path) => {
    const ticket = readTicket(path);
    return ticket !== null && ticket.expires > now;
  });
}
