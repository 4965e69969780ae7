import type { Env } from '../../core/decide';
import { eventReceipt } from '../../core/receipt';
import { appendReceipt } from '../../io/receipts';
import { CliError, type CommandResult } from '../errors';
import { policyForCli, stateDirFor, storeForCli } from '../context';

function sessionPersonaName(env: Env, persona: string | null, personaEnv: string): string {
  const name = persona ?? env[personaEnv]?.trim();
  if (!name) throw new CliError('persona-gate stage: the session has no persona (persona-gate session persona NAME --session ID)');
  return name;
}

export function stageEnter(env: Env, sessionId: string, stageName: string, opts: { config?: string }): CommandResult {
  const index = policyForCli(env, opts.config);
  const store = storeForCli(env);
  const personaName = sessionPersonaName(env, store.read(sessionId).state.persona, index.settings.persona_env);
  const persona = index.persona(personaName);
  if (!persona) throw new CliError(`persona-gate stage: "${personaName}" is not a persona of this policy`);
  if (!persona.stages.some((s) => s.name === stageName)) {
    throw new CliError(`persona-gate stage: "${stageName}" is not a stage of ${personaName}; accepted: ${persona.stages.map((s) => s.name).join(', ') || '(none)'}`);
  }
  const state = store.update(sessionId, [{ op: 'enter_stage', stage: stageName }]);
  appendReceipt(stateDirFor(env), eventReceipt({ session_id: sessionId, hook_event_name: 'cli' }, { verdict: 'abstain', status: 'ok', gate: 'stage', rule: 'stage_enter', reason: `entered stage ${stageName}`, persona: personaName, stage: state.stage }, index.sha256, new Date(), 0));
  return { stdout: `session ${sessionId}: ${personaName} entered stage ${stageName}\n`, exitCode: 0 };
}

/** Leaves the active stage; `on_exit` names the next stage for the outcome, else the session has no stage. */
export function stageExit(env: Env, sessionId: string, opts: { config?: string; outcome?: string }): CommandResult {
  const outcome = opts.outcome ?? 'complete';
  if (outcome !== 'complete' && outcome !== 'failure') throw new CliError('persona-gate stage exit: --outcome takes complete or failure');
  const index = policyForCli(env, opts.config);
  const store = storeForCli(env);
  const { from, next, personaName } = store.transact(sessionId, Date.now() + 5000, (state) => {
    if (state.stage === null) throw new CliError(`persona-gate stage exit: session ${sessionId} is in no stage`);
    const personaName = sessionPersonaName(env, state.persona, index.settings.persona_env);
    const stage = index.persona(personaName)?.stages.find((s) => s.name === state.stage);
    const next = (outcome === 'complete' ? stage?.on_exit?.on_complete : stage?.on_exit?.on_failure) ?? null;
    return { ops: [{ op: 'enter_stage' as const, stage: next }], from: state.stage, next, personaName };
  });
  const reason = `stage ${from} exited (${outcome}) → ${next ?? '(no stage)'}`;
  appendReceipt(stateDirFor(env), eventReceipt({ session_id: sessionId, hook_event_name: 'cli' }, { verdict: 'abstain', status: 'ok', gate: 'stage', rule: `stage_exit:${outcome}`, reason, persona: personaName, stage: next }, index.sha256, new Date(), 0));
  return { stdout: `session ${sessionId}: ${reason}\n`, exitCode: 0 };
}
