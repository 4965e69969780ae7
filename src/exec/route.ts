import type { Decision, Env } from '../core/decide';
import type { ToolEvent } from '../core/event';
import type { Locale } from '../core/messages';
import { mentioned, readExecMap } from './map';
import { EXEC_MESSAGES } from './messages';
import type { ExecMap, LaunchPlan } from './plan';
import { leaveTicket, TICKET_TTL_MS } from './tickets';

/**
 * The hook's side of the excluded launcher (SPEC §9.3), for Claude Code: a Bash call that starts
 * launched programs is judged as those starts and, when let through, rewritten to the launcher
 * form through `updatedInput` (Claude Code decides in or out of its sandbox on the rewritten
 * text), with a ticket per start for the launcher. A call that names a launched program in a form
 * the hook cannot judge is refused. Nothing here runs unless the deployment launches programs
 * (the state directory holds their map) and the line names one: any other call costs a stat.
 */

export interface LaunchRoute {
  plan: LaunchPlan | null;
  /** The event the policy judges: for a start, the line under the programs' catalogued names. */
  judged: ToolEvent;
}

export type Planner = (command: string, map: ExecMap) => LaunchPlan;

export function launchRoute(event: ToolEvent, stateDir: string, host: string, planner: Planner): LaunchRoute {
  const none = { plan: null, judged: event };
  // A PostToolUse carries the command as it ran (the launcher form): it is read back under the programs' names.
  if (host !== 'claude-code' || event.tool_name !== 'Bash') return none;
  const command = event.tool_input.command;
  if (typeof command !== 'string') return none;
  const map = readExecMap(stateDir);
  if (map === null || mentioned(command, map) === null) return none;
  const plan = planner(command, map);
  if (plan.kind !== 'starts') return { plan, judged: event };
  return { plan, judged: { ...event, tool_input: { ...event.tool_input, command: plan.judged } } };
}

export interface RoutedAnswer {
  decision: Decision;
  /** The tool input Claude Code is to run instead. */
  updatedInput?: Record<string, unknown>;
}

/** The answer once the policy has judged the call: the rewrite and its tickets, or a refusal. */
export function routeAnswer(route: LaunchRoute, event: ToolEvent, decision: Decision, ctx: { stateDir: string; env: Env; locale: Locale; policySha: string | null }): RoutedAnswer {
  const { plan } = route;
  if (plan === null || plan.kind === 'none' || plan.kind === 'sandboxed' || decision.verdict === 'deny') return { decision };
  const m = EXEC_MESSAGES[ctx.locale];
  if (plan.kind === 'refused') {
    return { decision: { ...decision, verdict: 'deny', status: 'permission_denied', gate: 'scope', rule: `exec_${plan.why}`, reason: m.refused(plan.why, plan.name, plan.detail) } };
  }
  const project = ctx.env.CLAUDE_PROJECT_DIR?.trim() || event.cwd || process.cwd();
  try {
    for (const [k, start] of plan.starts.entries()) {
      leaveTicket(
        ctx.stateDir,
        {
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
        },
        `${event.session_id}\u0000${event.tool_use_id ?? ''}\u0000${k}`,
      );
    }
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { decision: { ...decision, verdict: 'deny', status: 'state_error', gate: 'scope', rule: 'exec_ticket', reason: m.ticketsFailed(plan.starts[0]!.name, detail) } };
  }
  // Claude Code applies `updatedInput` only with a decision: `ask` stays a question, anything let through is `allow`.
  const verdict = decision.verdict === 'ask' ? 'ask' : 'allow';
  return { decision: { ...decision, verdict }, updatedInput: { ...event.tool_input, command: plan.command } };
}
