import type { Decision, Env } from '../core/decide';
import type { ToolEvent } from '../core/event';
import type { Locale } from '../core/messages';
import { EXEC_MESSAGES } from './messages';
import { launcherCommand, type ExecMap } from './map';
import type { LaunchPlan } from './plan';
import { unreadableText } from '../shell/unreadable';
import { leaveTicket, TICKET_TTL_MS } from './tickets';

/**
 * The hook's answer to a call that names a launched program and that the policy let through
 * (SPEC §9.3): a ticket per start for the launcher and the launcher form through `updatedInput`,
 * or the refusal of a form the hook cannot judge. Shipped in the shell reader's bundle: only a
 * call that names a launched program needs it.
 */

export interface RoutedAnswer {
  decision: Decision;
  /** The tool input Claude Code is to run instead. */
  updatedInput?: Record<string, unknown>;
}

export interface SettleContext {
  stateDir: string;
  env: Env;
  locale: Locale;
  policySha: string | null;
  /** The domain's profile file as the hook found it: each start's ticket carries it, for the launcher to check again. */
  profile?: { file: string; fingerprint: string };
}

/** A call that names a launched program, let through by the policy: the rewrite and its tickets, or a refusal. */
export function settleStart(
  plan: Exclude<LaunchPlan, { kind: 'none' | 'sandboxed' }>,
  map: ExecMap,
  event: ToolEvent,
  decision: Decision,
  ctx: SettleContext,
): RoutedAnswer {
  const m = EXEC_MESSAGES[ctx.locale];
  if (plan.kind === 'refused') {
    return {
      decision: {
        ...decision,
        verdict: 'deny',
        status: 'permission_denied',
        gate: 'scope',
        rule: `exec_${plan.why}`,
        reason: m.refused(plan.why, plan.name, plan.problem ? unreadableText(plan.problem, ctx.locale) : plan.detail),
      },
    };
  }
  const project = ctx.env.CLAUDE_PROJECT_DIR?.trim() || event.cwd || process.cwd();
  const secrets: string[] = [];
  try {
    for (const [k, start] of plan.starts.entries()) {
      secrets.push(
        leaveTicket(ctx.stateDir, {
          v: 1,
          program: start.program,
          args: start.args,
          project,
          session_id: event.session_id,
          tool_use_id: event.tool_use_id ?? null,
          agent_id: event.agent_id ?? null,
          agent_type: event.agent_type ?? null,
          persona: decision.persona,
          stage: decision.stage,
          command_key: decision.resolution.matched[k]?.key ?? decision.subject.key,
          policy_sha256: ctx.policySha,
          locale: ctx.locale,
          expires: Date.now() + TICKET_TTL_MS,
          ...(ctx.profile !== undefined ? { profile: ctx.profile } : {}),
        }),
      );
    }
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return {
      decision: {
        ...decision,
        verdict: 'deny',
        status: 'state_error',
        gate: 'scope',
        rule: 'exec_ticket',
        reason: m.ticketsFailed(plan.starts[0]!.name, detail),
      },
    };
  }
  // Claude Code applies `updatedInput` only with a decision: `ask` stays a question, anything let through is `allow`.
  const verdict = decision.verdict === 'ask' ? 'ask' : 'allow';
  return {
    decision: { ...decision, verdict },
    updatedInput: { ...event.tool_input, command: launcherCommand(map, plan.starts, plan.ops, secrets) },
  };
}
