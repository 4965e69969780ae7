import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { dirname, isAbsolute, join } from 'node:path';
import type { Receipt } from '../core/receipt';
import { processEvent } from '../hook/run';
import type { HookResponse } from '../hook/output';
import { defaultStateDir } from '../io/paths';
import { ensurePrivateDir, errno, readWhole } from '../io/private-fs';
import { readPreferences } from '../io/prefs';
import { appendReceipt } from '../io/receipts';
import { brokerListens, parseStartRequest, type BrokerPaths, type StartRequest } from '../exec/brokered';
import { keepStart, liveCalls, readCall, type CallRecord } from '../exec/calls';
import { bwrapArgs, projectProblem } from '../exec/confine';
import { startReceipt, systemProgram, REFUSED_EXIT } from '../exec/launcher';
import { hiddenFromStart, quoteWord, readExecMap, type ExecMap } from '../exec/map';
import { ticketsDir } from '../exec/tickets';
import { EXEC_MESSAGES, type ExecLocale } from '../exec/messages';

/**
 * The broker (SPEC §9.3): a process outside Claude Code's sandbox, started by the hook, that serves
 * the starts of launched programs made by other programs (a script, `make`, an interpreter). Such
 * a program is hidden in the sandbox; on the PATH of a call the hook let through, its shim stands
 * in its place and hands the broker a request: a directory the shim made, holding the real argv,
 * the working directory, the call's secret and five FIFOs (`in`, `out`, `err`, `status`, `alive`).
 *
 * The broker judges the start as the session's hook would judge the same command typed as a call
 * (the call record names the session, the agent and how its hook was started), runs the program
 * confined like the launcher does, relays stdin, stdout and stderr, and ends with the exit status
 * on `status` (`exit N`). A refused start writes its reason to `err` and ends with 126. Everything
 * in the request but the argv and the working directory is the broker's own: the program's path
 * from the map, the persona from the session's hook, the environment from the hook's. When the
 * shim goes (killed, or its call stopped), `alive` ends and the program's process group is killed.
 * A start that exits 0 is kept with its call, and confirms the session, if it is an identity read,
 * when the call ends (its PostToolUse), as a read typed as a call of its own does.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** How long the broker stays with no request and no live call (`PERSONA_GATE_BROKER_IDLE_MS` shortens it). */
const IDLE_MS = 120_000;
const MAX_REQUEST_BYTES = 1024 * 1024;
/** What of an identity read's stdout its PostToolUse is given. */
const MAX_STDOUT_KEPT = 64 * 1024;

/** Whom the start was judged for, and as what command (the PreToolUse receipt of `toolUseId` says it too). */
type Judged = NonNullable<HookResponse['judged']>;

/** What the session's hook answers to the start typed as a call of its own. */
export type Judgment =
  | { allowed: true; toolUseId: string; judged?: Judged; event: Record<string, unknown> }
  | { allowed: false; reason: string; toolUseId?: string; judged?: Judged };

/** The PreToolUse event a brokered start is judged as. */
export function startEvent(
  call: CallRecord,
  name: string,
  args: readonly string[],
  cwd: string,
  toolUseId: string,
): Record<string, unknown> {
  return {
    hook_event_name: 'PreToolUse',
    session_id: call.session_id,
    cwd,
    tool_name: 'Bash',
    tool_input: { command: [name, ...args].map(quoteWord).join(' ') },
    tool_use_id: toolUseId,
    ...(call.agent_id !== null ? { agent_id: call.agent_id } : {}),
    ...(call.agent_type !== null ? { agent_type: call.agent_type } : {}),
  };
}

/** Judges a start with the session's hook: its arguments, its environment, its policy and state. */
export function judgeStart(call: CallRecord, name: string, args: readonly string[], cwd: string, locale: ExecLocale): Judgment {
  const toolUseId = `exec_${randomBytes(8).toString('hex')}`;
  const event = startEvent(call, name, args, cwd, toolUseId);
  const response = processEvent(JSON.stringify(event), call.argv, call.env, Date.now(), readPreferences(call.env), 'broker');
  const who = { toolUseId, ...(response.judged !== undefined ? { judged: response.judged } : {}) };
  if (response.exitCode !== 0) return { allowed: false, reason: response.stderr.trim(), ...who };
  if (response.stdout.trim() === '') return { allowed: true, ...who, event };
  let out: { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  try {
    out = JSON.parse(response.stdout);
  } catch {
    return { allowed: false, reason: response.stdout.trim(), ...who };
  }
  const decision = out.hookSpecificOutput?.permissionDecision;
  const reason = out.hookSpecificOutput?.permissionDecisionReason ?? '';
  if (decision === 'allow') return { allowed: true, ...who, event };
  if (decision === 'ask') return { allowed: false, reason: EXEC_MESSAGES[locale].needsPerson(name, reason), ...who };
  return { allowed: false, reason, ...who };
}

/**
 * The PostToolUse event of a brokered start that ran, from the PreToolUse event it was judged as:
 * kept with its call, the hook applies it when the call ends, so an identity read confirms the
 * session once the call that made it has ended (SPEC §6), and what the same call goes on to change
 * is judged as unconfirmed.
 */
function endedEvent(judged: Record<string, unknown>, stdout: string): Record<string, unknown> {
  return { ...judged, hook_event_name: 'PostToolUse', tool_response: { stdout, stderr: '', interrupted: false } };
}

const BROKER_RULES = { noSession: 'persona-gate-broker', allowed: 'broker_start', refused: 'broker_refused' };

/**
 * A brokered start's receipt: the session and agent its call names, and, once judged, the persona,
 * stage and command it was judged as (the judgement itself is the PreToolUse receipt of `toolUseId`).
 */
function brokerReceipt(
  call: CallRecord | null,
  program: string,
  args: readonly string[],
  refused: string | null,
  judgment: Pick<Judgment, 'toolUseId' | 'judged'> | null,
  started: number,
): Receipt {
  const who =
    call === null
      ? null
      : {
          session_id: call.session_id,
          agent_id: call.agent_id,
          agent_type: call.agent_type,
          tool_use_id: judgment?.toolUseId ?? null,
          ...judgment?.judged,
        };
  return startReceipt(who, BROKER_RULES, program, args, refused, started);
}

/**
 * Which call the process holding `alive` (the shim) runs under: the secret of the topmost of its
 * ancestors whose command line carries one. The call Claude Code started is the first process of
 * the tree with its rewritten command line, so the topmost secret is that call's, whatever a
 * process below it wrote into its own command line or environment. A secret is honoured only from
 * inside the call it names: one read from another call's files, a call that ended, or a call
 * Claude Code refused after the rewrite, gives nothing. Null: no one, or more than one, holds it.
 */
export function requesterCall(alive: FileId, proc = '/proc'): string | null {
  const holders: number[] = [];
  for (const name of readdirSync(proc)) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(join(proc, name, 'fd'));
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const st = statSync(join(proc, name, 'fd', fd));
        if (st.dev === alive.dev && st.ino === alive.ino) {
          holders.push(Number(name));
          break;
        }
      } catch {
        // gone, or not ours to see
      }
    }
  }
  if (holders.length !== 1) return null;
  let top: string | null = null;
  const seen = new Set<number>();
  for (let pid = holders[0]!; pid > 1 && !seen.has(pid);) {
    seen.add(pid);
    let cmdline: string;
    let stat: string;
    try {
      cmdline = readFileSync(join(proc, String(pid), 'cmdline'), 'latin1');
      stat = readFileSync(join(proc, String(pid), 'stat'), 'latin1');
    } catch {
      return null;
    }
    const m = /PERSONA_GATE_CALL=([0-9a-f]{32})/.exec(cmdline);
    if (m) top = m[1]!;
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, the last `)` ends it
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return top;
}

/** The request's directory: the shim's own, made private (0700), by this user, not a link. */
function requestDirProblem(dir: string): string | null {
  if (!isAbsolute(dir)) return `${dir} is not absolute`;
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (st === undefined || !st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== process.getuid?.() || (st.mode & 0o077) !== 0) return `${dir} is not a private directory of this user`;
  return null;
}

function readRequest(dir: string): StartRequest | null {
  const fd = openSync(join(dir, 'request.json'), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.uid !== process.getuid?.() || st.size > MAX_REQUEST_BYTES) return null;
    return parseStartRequest(readWhole(fd, st.size).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/** One of the request's FIFOs, opened without waiting and without following a link; a FIFO of this user or nothing. */
function openFifo(dir: string, name: string, write: boolean): { socket: Socket; id: FileId } {
  const fd = openSync(join(dir, name), (write ? constants.O_WRONLY : constants.O_RDONLY) | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  const st = fstatSync(fd);
  if (!st.isFIFO() || st.uid !== process.getuid?.()) {
    closeSync(fd);
    throw new Error(`${join(dir, name)} is not a FIFO of this user`);
  }
  const socket = new Socket({ fd, readable: !write, writable: write });
  socket.on('error', () => {
    // the shim went: `alive` says so
  });
  return { socket, id: { dev: st.dev, ino: st.ino } };
}

interface FileId {
  dev: number;
  ino: number;
}

interface Channels {
  input: Socket;
  out: Socket;
  err: Socket;
  status: Socket;
  alive: Socket;
  /** The `alive` FIFO, which the shim holds open while it waits. */
  aliveId: FileId;
}

function openChannels(dir: string): Channels {
  const opened: Socket[] = [];
  try {
    const open = (name: string, write: boolean) => {
      const s = openFifo(dir, name, write);
      opened.push(s.socket);
      return s;
    };
    const alive = open('alive', false);
    return {
      input: open('in', false).socket,
      out: open('out', true).socket,
      err: open('err', true).socket,
      status: open('status', true).socket,
      alive: alive.socket,
      aliveId: alive.id,
    };
  } catch (err) {
    for (const s of opened) s.destroy();
    throw err;
  }
}

export interface BrokerContext {
  stateDir: string;
  map: ExecMap & { broker: BrokerPaths };
  env: Env;
  locale: ExecLocale;
}

/** Serves one request: judged, then run or refused; every start leaves a receipt. */
export function serveRequest(ctx: BrokerContext, dir: string, done: () => void): void {
  const started = Date.now();
  const dirProblem = requestDirProblem(dir);
  if (dirProblem !== null) return done();
  let request: StartRequest | null;
  let ch: Channels;
  try {
    request = readRequest(dir);
    ch = openChannels(dir);
  } catch {
    return done(); // a request nobody waits for
  }
  // The shim reads `out` and `err` once the broker holds their other ends: before, it would read an end at once.
  ch.status.write('ready\n');
  const finish = (code: number) => {
    ch.status.end(`exit ${code}\n`);
    ch.input.destroy();
    ch.alive.destroy();
    done();
  };
  const m0 = EXEC_MESSAGES[ctx.locale];
  const refuse = (call: CallRecord | null, program: string, args: readonly string[], reason: string, judgment: Judgment | null = null) => {
    appendReceipt(ctx.stateDir, brokerReceipt(call, program, args, reason, judgment, started));
    ch.out.end();
    ch.err.end(`${reason}\n`, () => finish(REFUSED_EXIT));
  };
  if (request === null) return refuse(null, '', [], m0.shimUsage());
  const program = Object.prototype.hasOwnProperty.call(ctx.map.programs, request.name) ? ctx.map.programs[request.name]! : null;
  if (program === null) return refuse(null, request.name, request.args, m0.notLaunched(request.name));
  const call = readCall(ctx.stateDir, request.call);
  if (call === null) return refuse(null, program, request.args, m0.noCall(request.name));
  // The secret counts only from inside the call it names.
  let under: string | null = null;
  try {
    under = requesterCall(ch.aliveId);
  } catch {
    under = null;
  }
  if (under !== request.call) return refuse(null, program, request.args, m0.noCall(request.name));
  const locale: ExecLocale = call.env.PERSONA_GATE_LOCALE === 'es' ? 'es' : ctx.locale;
  const m = EXEC_MESSAGES[locale];
  const cwd = isAbsolute(request.cwd) && existsSync(request.cwd) ? request.cwd : call.project;
  let judged: Judgment;
  try {
    judged = judgeStart(call, request.name, request.args, cwd, locale);
  } catch (err) {
    judged = { allowed: false, reason: m.stateProblem(err instanceof Error ? err.message : String(err)) };
  }
  if (!judged.allowed) return refuse(call, program, request.args, judged.reason, judged);
  const problem = projectProblem(call.project);
  const bwrap = process.platform === 'linux' ? systemProgram('bwrap') : null;
  if (problem !== null || bwrap === null)
    return refuse(call, program, request.args, m.noConfinement(problem ?? 'no bwrap only root can change'), judged);
  const tmpdir = call.env.TMPDIR?.trim() ? call.env.TMPDIR : null;
  const args = bwrapArgs({
    project: call.project,
    cwd,
    readOnly: ctx.map.readOnly,
    writable: ctx.map.writable,
    tmpdir,
    hidden: hiddenFromStart(ctx.map, program, ticketsDir(ctx.stateDir)),
    program,
    args: request.args,
    exists: existsSync,
  });
  appendReceipt(ctx.stateDir, brokerReceipt(call, program, request.args, null, judged, started));
  const child = spawn(bwrap, args, { stdio: ['pipe', 'pipe', 'pipe'], env: call.env as NodeJS.ProcessEnv, detached: true, cwd });
  let kept = '';
  child.stdout.on('data', (chunk: Buffer) => {
    if (kept.length < MAX_STDOUT_KEPT) kept += chunk.toString('utf8').slice(0, MAX_STDOUT_KEPT - kept.length);
  });
  child.stdin.on('error', () => {
    // the program did not read it all
  });
  ch.input.pipe(child.stdin);
  child.stdout.pipe(ch.out);
  child.stderr.pipe(ch.err);
  const kill = () => {
    try {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
  };
  // The shim's end of `alive` closes when the shim goes, however it goes.
  ch.alive.on('end', kill);
  ch.alive.on('close', kill);
  ch.alive.resume();
  child.on('error', (err) => refuse(call, program, request.args, m.noConfinement(err.message), judged));
  child.on('close', (code, signal) => {
    const status = code ?? 128 + ((require('node:os') as typeof import('node:os')).constants.signals[signal as NodeJS.Signals] ?? 0);
    // Kept with the call before the status goes: the call's PostToolUse, which may come as soon as
    // the shim has the status, finds it.
    const keep = () => {
      if (status !== 0) return;
      try {
        keepStart(ctx.stateDir, request.call, endedEvent(judged.event, kept));
      } catch {
        // the read stays unconfirmed: the next state-changing call is refused until it runs again
      }
    };
    let ended = 0;
    const both = () => {
      if (++ended !== 2) return;
      keep();
      finish(status);
    };
    if (ch.out.writableFinished) both();
    else ch.out.once('finish', both).once('close', both);
    if (ch.err.writableFinished) both();
    else ch.err.once('finish', both).once('close', both);
  });
}

/** The request FIFO, made when missing: a FIFO of this user in a private directory of the state. */
function ensureRequests(requests: string): void {
  ensurePrivateDir(dirname(requests));
  const st = lstatSync(requests, { throwIfNoEntry: false });
  if (st === undefined) {
    const mkfifo = systemProgram('mkfifo');
    if (mkfifo === null) throw new Error('no mkfifo only root can change');
    const r = spawnSync(mkfifo, ['-m', '600', requests]);
    if (r.status !== 0 && !existsSync(requests)) throw new Error(`cannot make ${requests}: ${r.stderr?.toString().trim()}`);
    return;
  }
  if (!st.isFIFO() || st.uid !== process.getuid?.()) throw new Error(`${requests} is not a FIFO of this user`);
}

/** The broker's process: serves requests until idle, then leaves. */
export function brokerMain(env: Env = process.env): void {
  const prefs = readPreferences(env);
  const stateDir = env.PERSONA_GATE_STATE_DIR?.trim() ? env.PERSONA_GATE_STATE_DIR : (prefs.stateDir ?? defaultStateDir(env));
  const map = readExecMap(stateDir);
  if (map?.broker === undefined) {
    process.stderr.write(`persona-gate-broker: ${stateDir} brokers no program\n`);
    process.exit(1);
  }
  const ctx: BrokerContext = {
    stateDir,
    map: { ...map, broker: map.broker },
    env,
    locale: env.PERSONA_GATE_LOCALE === 'es' || prefs.locale === 'es' ? 'es' : 'en',
  };
  ensureRequests(map.broker.requests);
  if (brokerListens(map.broker.requests)) process.exit(0);
  // Read and written: the broker is a writer of its own FIFO, so it never reads an end.
  const fd = openSync(map.broker.requests, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  const requests = new Socket({ fd, readable: true, writable: false });
  let busy = 0;
  let last = Date.now();
  let pending = '';
  requests.on('data', (chunk: Buffer) => {
    last = Date.now();
    pending += chunk.toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const dir = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      busy++;
      try {
        serveRequest(ctx, dir, () => {
          busy--;
          last = Date.now();
        });
      } catch {
        busy--;
      }
    }
    if (pending.length > 4096) pending = '';
  });
  const idleFor = Number(env.PERSONA_GATE_BROKER_IDLE_MS) > 0 ? Number(env.PERSONA_GATE_BROKER_IDLE_MS) : IDLE_MS;
  const idle = setInterval(
    () => {
      if (busy > 0 || Date.now() - last < idleFor) return;
      let live = 1;
      try {
        live = liveCalls(stateDir);
      } catch {
        live = 0;
      }
      if (live === 0) {
        clearInterval(idle);
        process.exit(0);
      }
    },
    Math.min(10_000, idleFor),
  );
  process.on('uncaughtException', (err) => {
    process.stderr.write(`persona-gate-broker: ${errno(err) ?? (err instanceof Error ? err.message : String(err))}\n`);
  });
}
