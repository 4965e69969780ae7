import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../core/decide';
import type { PolicyIndex } from '../core/policy-index';
import type { Receipt } from '../core/receipt';
import type { SessionState } from '../core/state';
import { receiptsDir, receiptsFile } from '../io/receipts';
import { StateStore } from '../io/state-store';
import { CliError } from './errors';
import { cliMessages } from './messages';

/** A session seen by the hook or the CLI: its receipts file names the session id on every line. */
export interface KnownSession {
  id: string;
  file: string;
  /** When its last receipt was written (ms since the epoch). */
  mtimeMs: number;
}

/** Up to `size` bytes from the start or the end of a file; `whole` when that is all of it. */
function readChunk(file: string, from: 'start' | 'end', size = 64 * 1024): { text: string; whole: boolean } {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const length = statSync(file).size;
    const n = Math.min(size, length);
    const buf = Buffer.alloc(n);
    readSync(fd, buf, 0, n, from === 'start' ? 0 : length - n);
    return { text: buf.toString('utf8'), whole: n === length };
  } catch {
    return { text: '', whole: true };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function parse(line: string): Receipt | null {
  try {
    const r = JSON.parse(line) as Receipt;
    return typeof r === 'object' && r !== null && typeof r.session_id === 'string' ? r : null;
  } catch {
    return null;
  }
}

/** The last whole receipts of a file (at most `limit`), oldest first. */
export function lastReceipts(file: string, limit: number): Receipt[] {
  const chunk = readChunk(file, 'end');
  // A chunk that starts mid-file starts mid-line: its first line is not whole.
  const lines = chunk.text.split('\n').slice(chunk.whole ? 0 : 1);
  const out: Receipt[] = [];
  for (const line of lines.reverse()) {
    if (out.length >= limit) break;
    const r = line.trim() === '' ? null : parse(line);
    if (r) out.push(r);
  }
  return out.reverse();
}

/** Every session with receipts in the state directory, the most recent first. Reads nothing but the first line of each file. */
export function knownSessions(stateDir: string): KnownSession[] {
  const dir = receiptsDir(stateDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const out: KnownSession[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const first = readChunk(file, 'start', 16 * 1024).text.split('\n')[0] ?? '';
    const r = parse(first);
    if (!r) continue;
    let mtimeMs = 0;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      continue;
    }
    out.push({ id: r.session_id, file, mtimeMs });
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs || a.id.localeCompare(b.id));
}

/** Whether a session id has state or receipts of its own. */
export function sessionExists(stateDir: string, id: string): boolean {
  return existsSync(receiptsFile(stateDir, id)) || existsSync(new StateStore(stateDir).sessionDir(id));
}

/**
 * The session a `--session` value names: the id itself when that session exists, else the one
 * session whose id starts with it (as `log` shows them, cut short). Several matches are an error
 * that lists them. No match is an error when `mustExist`; otherwise the value is a new session's id.
 */
export function resolveSession(env: Env, stateDir: string, given: string, mustExist: boolean): string {
  if (sessionExists(stateDir, given)) return given;
  const t = cliMessages(env);
  const matches =
    given === ''
      ? []
      : knownSessions(stateDir)
          .filter((s) => s.id.startsWith(given))
          .sort((a, b) => a.id.localeCompare(b.id));
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1)
    throw new CliError(
      t.sessionAmbiguous(
        given,
        matches.map((s) => s.id),
      ),
    );
  if (mustExist) throw new CliError(t.sessionUnknown(given));
  return given;
}

export type PersonaSource = 'agent_type' | 'session' | 'env' | 'none';

export interface Effective {
  persona: string | null;
  persona_source: PersonaSource;
  /** The environment variable, when the persona or the stage comes from it. */
  persona_env: string | null;
  stage: string | null;
  stage_source: 'session' | 'env' | 'none';
  stage_env: string | null;
}

/**
 * The persona and stage the session's main agent runs as, and where each comes from, in the
 * hook's order (a bound subagent type picks its own persona per call: see the last decision).
 */
export function effectiveScope(state: SessionState, env: Env, index: PolicyIndex | null, last: Receipt | null): Effective {
  const personaEnv = index?.settings.persona_env ?? 'PERSONA_GATE_PERSONA';
  const stageEnv = index?.settings.stage_env ?? 'PERSONA_GATE_STAGE';
  const fromEnv = env[personaEnv]?.trim();
  const stageFromEnv = env[stageEnv]?.trim();
  let persona: string | null = null;
  let source: PersonaSource = 'none';
  if (last?.agent_type && index?.agentTypeToPersona.has(last.agent_type)) {
    persona = index.agentTypeToPersona.get(last.agent_type)!;
    source = 'agent_type';
  } else if (state.persona) {
    persona = state.persona;
    source = 'session';
  } else if (fromEnv) {
    persona = fromEnv;
    source = 'env';
  }
  const stage = state.stage ?? (stageFromEnv ? stageFromEnv : null);
  const stageSource = state.stage ? 'session' : stageFromEnv ? 'env' : 'none';
  return {
    persona,
    persona_source: source,
    persona_env: source === 'env' ? personaEnv : null,
    stage,
    stage_source: stageSource,
    stage_env: stageSource === 'env' ? stageEnv : null,
  };
}
