import { closeSync, fstatSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { hash128 } from '../io/hash';
import { appendPrivateFile, checkPrivateFile, ensurePrivateDir, errno, openPrivateFile, readWhole } from '../io/private-fs';

/**
 * A ticket is the hook's judgment of one start, left for the launcher: the launcher runs a program
 * only with a ticket for exactly its argv, and takes it (one start per ticket). So a start the
 * hook did not judge — whatever route reached the launcher outside the sandbox — is refused, and
 * every start that runs has the session, persona and command its receipt names. Tickets live in
 * the state directory, which the sandboxed shell cannot write.
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

/** Leaves a ticket; an error is thrown as a StateError. */
export function leaveTicket(stateDir: string, ticket: Ticket, unique: string): void {
  const dir = ticketsDir(stateDir);
  ensurePrivateDir(dir);
  appendPrivateFile(join(dir, `${argvKey(ticket.program, ticket.args)}.${hash128(`${unique}\u0000${Date.now()}\u0000${Math.random()}`)}.json`), JSON.stringify(ticket));
}

function readTicket(path: string): Ticket | null {
  const fd = openPrivateFile(path);
  if (fd === null) return null;
  try {
    const st = fstatSync(fd);
    checkPrivateFile(path, st);
    if (st.size > MAX_TICKET_BYTES) return null;
    const v = JSON.parse(readWhole(fd, st.size).toString('utf8')) as Ticket;
    return v && v.v === 1 && typeof v.program === 'string' && Array.isArray(v.args) ? v : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Whether a ticket is for exactly this start and still valid. */
export function ticketFits(ticket: Ticket, program: string, args: readonly string[], now: number): boolean {
  return ticket.program === program && ticket.args.length === args.length && ticket.args.every((a, k) => a === args[k]) && ticket.expires > now;
}

/**
 * Takes a valid ticket for this argv: renamed first, so that two launchers never take
 * the same one, then read and removed. Void tickets met on the way are removed. Null: none.
 */
export function takeTicket(stateDir: string, program: string, args: readonly string[], now = Date.now()): Ticket | null {
  const dir = ticketsDir(stateDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if (errno(err) === 'ENOENT') return null;
    throw err;
  }
  const prefix = `${argvKey(program, args)}.`;
  for (const name of names.filter((n) => n.startsWith(prefix) && n.endsWith('.json')).sort()) {
    const path = join(dir, name);
    const taken = `${path}.taken`;
    try {
      renameSync(path, taken);
    } catch {
      continue;
    }
    const ticket = readTicket(taken);
    try {
      unlinkSync(taken);
    } catch {
      // gone already
    }
    if (ticket !== null && ticketFits(ticket, program, args, now)) return ticket;
  }
  return null;
}
