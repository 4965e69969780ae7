import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SYSTEM_DIRS } from '../core/runs-later';
import type { Receipt } from '../core/receipt';
import { isoTime } from '../core/receipt';
import { defaultStateDir } from '../io/paths';
import { onlyRootChanges } from '../io/private-fs';
import { profileFileState } from '../io/profile-state';
import { readPreferences } from '../io/prefs';
import { appendReceipt } from '../io/receipts';
import { bwrapArgs, projectProblem } from './confine';
import { hiddenFromStart, readExecMap, TICKET_OPTION } from './map';
import { EXEC_MESSAGES, type ExecLocale } from './messages';
import { takeTicket, ticketsDir, type Ticket } from './tickets';

/**
 * The launcher (SPEC §9.3): the one command Claude Code's `sandbox.excludedCommands` lets out of
 * the sandbox, as `<launcher> <real program> <args…>`. It starts the program only with the hook's
 * ticket for exactly those arguments, confined so that it cannot write what the sandbox protects,
 * and writes a receipt for every start it makes or refuses. A refused start exits 126 with the
 * reason on stderr; an allowed one keeps stdin, stdout, stderr and the program's exit status.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** The launcher's own refusals end with this status: the program was found and not started. */
export const REFUSED_EXIT = 126;
/** A receipt of a start no session can be named for (no ticket). */
const NO_SESSION = 'persona-gate-exec';

export interface LaunchOutcome {
  /** The bubblewrap command to run, when the start is allowed. */
  run?: { command: string; args: string[] };
  /** The reason on stderr, when it is refused. */
  refused?: string;
  receipt: Receipt;
  /** Where the receipt goes. */
  stateDir: string;
}

/** Who a start is for, as a ticket or a broker's call record names it. */
export type StartWho = Pick<Ticket, 'session_id' | 'agent_id' | 'agent_type' | 'tool_use_id'> &
  Partial<Pick<Ticket, 'command_key' | 'persona' | 'stage' | 'policy_sha256'>>;

/** The receipt of a start made or refused (`ExecStart`), by the launcher or the broker. */
export function startReceipt(
  who: StartWho | null,
  how: { noSession: string; allowed: string; refused: string },
  program: string,
  args: readonly string[],
  refused: string | null,
  started: number,
): Receipt {
  const persona = who?.persona ?? null;
  const stage = who?.stage ?? null;
  return {
    v: 1,
    ts: isoTime(new Date()),
    session_id: who?.session_id ?? how.noSession,
    agent_id: who?.agent_id ?? null,
    agent_type: who?.agent_type ?? null,
    tool_use_id: who?.tool_use_id ?? null,
    hook_event: 'ExecStart',
    tool_name: 'Bash',
    command_key: who?.command_key ?? null,
    family: null,
    level: null,
    persona,
    stage,
    verdict: refused === null ? 'allow' : 'deny',
    status: refused === null ? 'ok' : 'permission_denied',
    gate: 'exec',
    rule: refused === null ? how.allowed : how.refused,
    reason: refused ?? `started ${[program, ...args].join(' ')}`,
    matched: who?.command_key ? [who.command_key] : [],
    scope: { persona, stage, families: null, allowed_tools: null, ceiling: null },
    policy_sha256: who?.policy_sha256 ?? null,
    elapsed_ms: Date.now() - started,
  };
}

const LAUNCHER_RULES = { noSession: NO_SESSION, allowed: 'exec_ticket', refused: 'exec_refused' };

function receiptOf(ticket: Ticket | null, program: string, args: readonly string[], refused: string | null, started: number): Receipt {
  return startReceipt(ticket, LAUNCHER_RULES, program, args, refused, started);
}

/**
 * The system's `program`: in one of the system's program directories, a regular executable file
 * that only root can change, in a directory only root can change. Never one found earlier on PATH
 * (a `~/.local/bin/bwrap` the agent could have written would run the program unconfined).
 */
export function systemProgram(program: string): string | null {
  for (const dir of SYSTEM_DIRS) {
    const path = join(dir, program);
    try {
      const st = statSync(path);
      if (st.isFile() && (st.mode & 0o111) !== 0 && onlyRootChanges(path)) return path;
    } catch {
      // not there
    }
  }
  return null;
}

/** Everything but the start itself: which ticket, what to run, what to record. */
export function planLaunch(argv: readonly string[], env: Env, cwd: string, platform: NodeJS.Platform = process.platform): LaunchOutcome {
  const started = Date.now();
  const prefs = readPreferences(env);
  const fromEnv = env.PERSONA_GATE_LOCALE;
  let locale: ExecLocale = fromEnv === 'en' || fromEnv === 'es' ? fromEnv : (prefs.locale ?? 'en');
  // `<program> --persona-gate-ticket=SECRET <args…>`: the secret is the launcher's, the rest the program's.
  const [program, ...rest] = argv;
  const secret = rest[0]?.startsWith(TICKET_OPTION) ? rest[0].slice(TICKET_OPTION.length) : null;
  const args = secret === null ? rest : rest.slice(1);
  const stateDir = env.PERSONA_GATE_STATE_DIR?.trim() ? env.PERSONA_GATE_STATE_DIR : (prefs.stateDir ?? defaultStateDir(env));
  const refuse = (reason: string, ticket: Ticket | null = null): LaunchOutcome => ({
    refused: reason,
    receipt: receiptOf(ticket, program ?? '', args, reason, started),
    stateDir,
  });
  if (program === undefined) return refuse(EXEC_MESSAGES[locale].usage());
  let ticket: Ticket | null;
  try {
    const map = readExecMap(stateDir);
    if (map === null || !Object.values(map.programs).includes(program)) return refuse(EXEC_MESSAGES[locale].notLaunched(program));
    ticket = secret === null ? null : takeTicket(stateDir, secret, program, args);
    if (ticket === null) return refuse(EXEC_MESSAGES[locale].noTicket(program));
    if (fromEnv !== 'en' && fromEnv !== 'es') locale = ticket.locale === 'es' ? 'es' : 'en';
    const m = EXEC_MESSAGES[locale];
    // the profile the start was judged under must still be the active one (SPEC §9.4)
    if (ticket.profile !== undefined) {
      const now = profileFileState(ticket.profile.file);
      if (!now.ok || now.fingerprint !== ticket.profile.fingerprint) return refuse(m.profileMoved(program, ticket.profile.file), ticket);
    }
    const problem = projectProblem(ticket.project);
    if (problem !== null) return refuse(m.noConfinement(problem), ticket);
    if (platform !== 'linux') return refuse(m.noConfinement(`bubblewrap confinement is Linux only; this is ${platform}`), ticket);
    const bwrap = systemProgram('bwrap');
    if (bwrap === null) return refuse(m.noConfinement(`no bwrap only root can change in ${[...SYSTEM_DIRS].join(', ')}`), ticket);
    const tmpdir = env.TMPDIR?.trim() ? env.TMPDIR : null;
    const run = {
      command: bwrap,
      args: bwrapArgs({
        project: ticket.project,
        cwd,
        readOnly: map.readOnly,
        writable: map.writable,
        tmpdir,
        hidden: hiddenFromStart(map, program, ticketsDir(stateDir)),
        program,
        args,
        exists: existsSync,
      }),
    };
    return { run, receipt: receiptOf(ticket, program, args, null, started), stateDir };
  } catch (err) {
    return refuse(EXEC_MESSAGES[locale].stateProblem(err instanceof Error ? err.message : String(err)));
  }
}

/** The launcher's process: decides, records, starts, and exits with the program's status. */
export function launcherMain(argv: readonly string[], env: Env = process.env): never {
  const outcome = planLaunch(argv, env, process.cwd());
  appendReceipt(outcome.stateDir, outcome.receipt);
  if (outcome.run === undefined) {
    process.stderr.write(`${outcome.refused}\n`);
    process.exit(REFUSED_EXIT);
  }
  const r = spawnSync(outcome.run.command, outcome.run.args, { stdio: 'inherit' });
  if (r.error) {
    process.stderr.write(`${EXEC_MESSAGES.en.noConfinement(r.error.message)}\n`);
    process.exit(REFUSED_EXIT);
  }
  if (r.status !== null) process.exit(r.status);
  const signals = (require('node:os') as typeof import('node:os')).constants.signals as Record<string, number>;
  process.exit(128 + (signals[r.signal ?? ''] ?? 0));
}
