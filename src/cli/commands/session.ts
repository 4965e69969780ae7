import type { Env } from '../../core/decide';
import { eventReceipt } from '../../core/receipt';
import type { StateOp } from '../../core/state';
import { appendReceipt, receiptsFile } from '../../io/receipts';
import type { PolicyIndex } from '../../core/policy-index';
import { StateStore } from '../../io/state-store';
import { effectiveScope, lastReceipts } from '../sessions';
import { sessionKey } from '../../io/hash';
import { CliError, type CommandResult } from '../errors';
import { policyForCli, stateDirFor, storeForCli } from '../context';
import { cliMessages } from '../messages';

function record(
  env: Env,
  sessionId: string,
  rule: string,
  reason: string,
  persona: string | null,
  stage: string | null,
  sha: string | null,
): void {
  appendReceipt(
    stateDirFor(env),
    eventReceipt(
      { session_id: sessionId, hook_event_name: 'cli' },
      { verdict: 'abstain', status: 'ok', gate: 'cli', rule, reason, persona, stage },
      sha,
      new Date(),
      0,
    ),
  );
}

export function sessionShow(env: Env, sessionId: string): CommandResult {
  const stateDir = stateDirFor(env);
  const snap = new StateStore(stateDir).read(sessionId);
  let index: PolicyIndex | null = null;
  try {
    index = policyForCli(env);
  } catch {
    // without a policy, the persona's source is still told from the state and the environment
  }
  const last = lastReceipts(receiptsFile(stateDir, sessionId), 1)[0] ?? null;
  const body = {
    session_id: sessionId,
    file_key: sessionKey(sessionId),
    seq: snap.seq,
    ...snap.state,
    in_effect: effectiveScope(snap.state, env, index, last),
  };
  return { stdout: `${JSON.stringify(body, null, 2)}\n`, exitCode: 0 };
}

export function sessionReset(env: Env, sessionId: string): CommandResult {
  storeForCli(env).update(sessionId, [{ op: 'reset' }]);
  record(env, sessionId, 'session_reset', 'session state reset', null, null, null);
  return { stdout: `${cliMessages(env).sessionReset(sessionId)}\n`, exitCode: 0 };
}

export function sessionPersona(
  env: Env,
  sessionId: string,
  name: string | undefined,
  opts: { config?: string; clear?: boolean },
): CommandResult {
  const index = policyForCli(env, opts.config);
  const t = cliMessages(env, index);
  let op: StateOp;
  if (opts.clear) op = { op: 'set_persona', persona: null };
  else {
    if (name === undefined) throw new CliError(t.personaNameOrClear());
    if (!index.persona(name)) throw new CliError(t.notAPersona(name, index.personaNames().join(', ')));
    op = { op: 'set_persona', persona: name };
  }
  const state = storeForCli(env).update(sessionId, [op]);
  record(env, sessionId, 'session_persona', `persona set to ${state.persona ?? '(none)'}`, state.persona, null, index.sha256);
  return { stdout: `${t.sessionPersona(sessionId, state.persona)}\n`, exitCode: 0 };
}
