import type { Decision } from '../core/decide';
import type { ToolEvent } from '../core/event';
import { mentioned, readExecMap } from './map';
import type { ExecMap, LaunchPlan } from './plan';
import type { RoutedAnswer, SettleContext, settleStart } from './settle';

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
  map: ExecMap | null;
  /** The event the policy judges: for a start, the line under the programs' catalogued names. */
  judged: ToolEvent;
}

export type Planner = (command: string, map: ExecMap) => LaunchPlan;

export function launchRoute(event: ToolEvent, stateDir: string, host: string, planner: Planner): LaunchRoute {
  const none = { plan: null, map: null, judged: event };
  // A PostToolUse carries the command as it ran (the launcher form): it is read back under the programs' names.
  if (host !== 'claude-code' || event.tool_name !== 'Bash') return none;
  const command = event.tool_input.command;
  if (typeof command !== 'string') return none;
  const map = readExecMap(stateDir);
  if (map === null || Object.keys(map.programs).length === 0) return none;
  const read = { plan: null, map, judged: event };
  // Outside the sandbox the programs it hides are there, unchecked: a call may not ask to leave it.
  if (event.tool_input.dangerouslyDisableSandbox === true && event.hook_event_name === 'PreToolUse') {
    return {
      plan: { kind: 'refused', why: 'unsandboxed', name: Object.keys(map.programs).join(', '), detail: command },
      map,
      judged: event,
    };
  }
  if (mentioned(command, map) === null) return read;
  const plan = planner(command, map);
  if (plan.kind !== 'starts') return { plan, map, judged: event };
  return { plan, map, judged: { ...event, tool_input: { ...event.tool_input, command: plan.judged } } };
}

/**
 * The answer once the policy has judged the call. A call that starts a launched program or names
 * one is settled by `settle` (loaded with the shell reader, which such a call has loaded already);
 * any other call is answered as it was decided.
 */
export function routeAnswer(
  route: LaunchRoute,
  event: ToolEvent,
  decision: Decision,
  ctx: SettleContext,
  settle: typeof settleStart,
): RoutedAnswer {
  const { plan, map } = route;
  if (plan === null || map === null || plan.kind === 'none' || plan.kind === 'sandboxed' || decision.verdict === 'deny')
    return { decision };
  return settle(plan, map, event, decision, ctx);
}
