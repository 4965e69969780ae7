import type { Env } from '../../core/decide';
import { eventReceipt } from '../../core/receipt';
import { appendReceipt } from '../../io/receipts';
import { CliError, type CommandResult } from '../errors';
import { policyForCli, stateDirFor, storeForCli } from '../context';
import { cliMessages, type CliMessages } from '../messages';

function sessionPersonaName(env: Env, persona: string | null, personaEnv: string, t: CliMessages): string {
  const name = persona ?? env[personaEnv]?.trim();
  if (!name) throw new CliError(t.noSessionPersona());
  return name;
}

function record(env: Env, sessionId: string, rule: string, reason: string, persona: string, stage: string | null, sha: string): void {
  appendReceipt(
    stateDirFor(env),
    eventReceipt(
      { session_id: sessionId, hook_event_name: 'cli' },
      { verdict: 'abstain', status: 'ok', gate: 'stage', rule, reason, persona, stage },
      sha,
      new Date(),
      0,
    ),
  );
}

export function stageEnter(env: Env, sessionId: string, stageName: string, opts: { config?: string }): CommandResult {
  const index = policyForCli(env, opts.config);
  const t = cliMessages(env, index);
  const store = storeForCli(env);
  const personaName = sessionPersonaName(env, store.read(sessionId).state.persona, index.settings.persona_env, t);
  const persona = index.persona(personaName);
  if (!persona) throw new CliError(t.notAPersona(personaName, index.personaNames().join(', ')));
  if (!persona.stages.some((s) => s.name === stageName)) {
    throw new CliError(t.notAStage(stageName, personaName, persona.stages.map((s) => s.name).join(', ')));
  }
  store.update(sessionId, [{ op: 'enter_stage', stage: stageName }]);
  record(env, sessionId, 'stage_enter', `entered stage ${stageName}`, personaName, stageName, index.sha256);
  return { stdout: `${t.entered(sessionId, personaName, stageName)}\n`, exitCode: 0 };
}

/** Leaves the active stage; `on_exit` names the next stage for the outcome, else the session has no stage. */
export function stageExit(env: Env, sessionId: string, opts: { config?: string; outcome?: string }): CommandResult {
  const index = policyForCli(env, opts.config);
  const t = cliMessages(env, index);
  const outcome = opts.outcome ?? 'complete';
  if (outcome !== 'complete' && outcome !== 'failure') throw new CliError(t.badOutcome());
  const store = storeForCli(env);
  const { from, next, personaName } = store.transact(sessionId, Date.now() + 5000, (state) => {
    if (state.stage === null) throw new CliError(t.inNoStage(sessionId));
    const personaName = sessionPersonaName(env, state.persona, index.settings.persona_env, t);
    const stage = index.persona(personaName)?.stages.find((s) => s.name === state.stage);
    const next = (outcome === 'complete' ? stage?.on_exit?.on_complete : stage?.on_exit?.on_failure) ?? null;
    return { ops: [{ op: 'enter_stage' as const, stage: next }], from: state.stage, next, personaName };
  });
  record(
    env,
    sessionId,
    `stage_exit:${outcome}`,
    `stage ${from} exited (${outcome}) → ${next ?? '(no stage)'}`,
    personaName,
    next,
    index.sha256,
  );
  return { stdout: `${t.exited(sessionId, from, outcome, next)}\n`, exitCode: 0 };
}
