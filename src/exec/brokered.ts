import { closeSync, constants, openSync } from 'node:fs';
import type { Env } from '../core/decide';
import type { ToolEvent } from '../core/event';
import { errno } from '../io/private-fs';
import { leaveCall, CALL_TTL_MS } from './calls';
import { quoteWord, type ExecMap } from './map';

/**
 * The hook's side of the broker (SPEC §9.3): launched programs started by other programs. A Bash
 * call the hook lets through that may start programs it cannot see (it runs code: a script, an
 * interpreter, `make`) is rewritten to put the shims of the launched programs first on PATH and to
 * carry the secret of a call record in `PERSONA_GATE_CALL`. A shim hands its real argv to the
 * broker, a process outside the sandbox, which judges it as this session's hook would and runs the
 * program confined. The hook starts the broker when none listens.
 */

export const CALL_VARIABLE = 'PERSONA_GATE_CALL';

export interface BrokerPaths {
  /** The broker's bundle. */
  broker: string;
  /** The directory of the launched programs' shims. */
  shims: string;
  /** The FIFO the broker reads requests from. */
  requests: string;
}

/** The first line of a rewritten call; the call's own text follows it, unchanged. */
export function brokeredPrefix(paths: Pick<BrokerPaths, 'shims'>, secret: string): string {
  return `export PATH=${quoteWord(paths.shims)}:"$PATH" ${CALL_VARIABLE}=${secret}\n`;
}

/** A call as the hook rewrote it: its own text and the record's secret; null when it was not rewritten so. */
export function unbrokered(command: string, paths: Pick<BrokerPaths, 'shims'>): { command: string; secret: string } | null {
  const head = `export PATH=${quoteWord(paths.shims)}:"$PATH" ${CALL_VARIABLE}=`;
  if (!command.startsWith(head)) return null;
  const rest = command.slice(head.length);
  const m = /^([0-9a-f]{32})\n/.exec(rest);
  return m === null ? null : { command: rest.slice(m[0].length), secret: m[1]! };
}

/** Whether a broker listens on the request FIFO: opening it to write, without waiting, finds a reader. */
export function brokerListens(requests: string): boolean {
  let fd: number;
  try {
    fd = openSync(requests, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = errno(err);
    if (code === 'ENXIO' || code === 'ENOENT') return false;
    throw err;
  }
  closeSync(fd);
  return true;
}

/** Starts a broker for this state directory, on its own: it outlives the hook and leaves when idle. */
export function startBroker(map: ExecMap & { broker: BrokerPaths }, stateDir: string, env: Env): void {
  // node:child_process is loaded only here: most calls never start a broker.
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const child = spawn(map.runtime, [map.broker.broker], {
    detached: true,
    stdio: 'ignore',
    env: { ...env, PERSONA_GATE_STATE_DIR: stateDir } as NodeJS.ProcessEnv,
  });
  child.on('error', () => {
    // the shim says the broker did not answer
  });
  child.unref();
}

export interface BrokeredCall {
  stateDir: string;
  env: Env;
  argv: readonly string[];
  project: string;
}

/** The rewritten command of a call let through: a record for the broker, the broker started when none listens. */
export function brokeredCommand(event: ToolEvent, command: string, map: ExecMap & { broker: BrokerPaths }, call: BrokeredCall): string {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(call.env)) if (typeof v === 'string') env[k] = v;
  const secret = leaveCall(call.stateDir, {
    v: 1,
    session_id: event.session_id,
    tool_use_id: event.tool_use_id ?? null,
    agent_id: event.agent_id ?? null,
    agent_type: event.agent_type ?? null,
    project: call.project,
    argv: [...call.argv],
    env,
    expires: Date.now() + CALL_TTL_MS,
  });
  if (!brokerListens(map.broker.requests)) startBroker(map, call.stateDir, call.env);
  return `${brokeredPrefix(map.broker, secret)}${command}`;
}

/** What a shim hands the broker, as `request.json` in the directory it names. */
export interface StartRequest {
  v: 1;
  name: string;
  args: string[];
  cwd: string;
  /** The call record's secret (`PERSONA_GATE_CALL`), or '' when the shim had none. */
  call: string;
}

export function parseStartRequest(text: string): StartRequest | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Record<string, unknown>;
  if (r.v !== 1 || typeof r.name !== 'string' || typeof r.cwd !== 'string' || typeof r.call !== 'string') return null;
  if (!Array.isArray(r.args) || !r.args.every((a) => typeof a === 'string')) return null;
  return { v: 1, name: r.name, args: r.args as string[], cwd: r.cwd, call: r.call };
}
