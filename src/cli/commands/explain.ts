import { readFileSync } from 'node:fs';
import { decide, localeFor, type Decision, type Env } from '../../core/decide';
import { parseEvent, type ToolEvent } from '../../core/event';
import { isLevel } from '../../core/levels';
import { decisionReceipt } from '../../core/receipt';
import { emptyState } from '../../core/state';
import { prefsFile, readPreferences } from '../../io/prefs';
import { makeProtectedPathCheck } from '../../io/protect';
import { readShellCall } from '../../shell/resolve-shell';
import { CliError, type CommandResult } from '../errors';
import { policyForCli, stateDirFor, storeForCli } from '../context';

export interface ExplainOptions {
  config?: string;
  persona?: string;
  stage?: string;
  session?: string;
  event?: string;
  json?: boolean;
  confirmOn?: string;
  allowedTools?: string;
  sideEffectLevel?: string;
}

export const EXPLAIN_EXIT: Record<Decision['verdict'], number> = { allow: 0, abstain: 0, deny: 2, ask: 3 };

function readEvent(opts: ExplainOptions, tool: string | undefined, inputJson: string | undefined): ToolEvent {
  if (opts.event !== undefined) {
    if (tool !== undefined) throw new CliError('persona-gate explain: give either --event FILE or TOOL [INPUT_JSON], not both');
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(opts.event, 'utf8'));
    } catch (err) {
      throw new CliError(`persona-gate explain: cannot read the event ${opts.event}: ${(err as Error).message}`);
    }
    const parsed = parseEvent(value);
    if (!parsed.ok) throw new CliError(`persona-gate explain: ${parsed.detail}`);
    if (parsed.event.hook_event_name !== 'PreToolUse') throw new CliError('persona-gate explain: the event must be a PreToolUse event');
    return { ...parsed.event, ...(opts.session !== undefined ? { session_id: opts.session } : {}) } as ToolEvent;
  }
  if (tool === undefined) throw new CliError('persona-gate explain: give a TOOL name (and its INPUT_JSON) or --event FILE');
  let input: unknown = {};
  if (inputJson !== undefined) {
    try {
      input = JSON.parse(inputJson);
    } catch (err) {
      throw new CliError(`persona-gate explain: INPUT_JSON is not JSON: ${(err as Error).message}`);
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new CliError('persona-gate explain: INPUT_JSON must be a JSON object');
  return {
    hook_event_name: 'PreToolUse',
    session_id: opts.session ?? 'persona-gate-explain',
    tool_name: tool,
    tool_input: input as Record<string, unknown>,
    cwd: process.cwd(),
  };
}

function describe(decision: Decision, event: ToolEvent): string {
  const s = decision.subject;
  const lines: string[] = [];
  lines.push(`verdict: ${decision.verdict} (status ${decision.status}, gate ${decision.gate}, rule ${decision.rule})`);
  if (decision.reason) lines.push(`reason:  ${decision.reason}`);
  const what = s.family === null ? `${s.key} (unknown: ${s.unknown ?? 'not in the catalog'})` : `${s.key} (family ${s.family}, level ${s.level}, tier ${s.tier}${s.owner ? `, owner ${s.owner}` : ''}, via ${s.via})`;
  lines.push(`call:    ${event.tool_name} → ${what}`);
  if (decision.resolution.matched.length > 0) lines.push(`matched: ${decision.resolution.matched.map((m) => m.key).join(', ')}`);
  const sc = decision.scope;
  lines.push(`persona: ${decision.persona ?? '(unscoped)'}   stage: ${decision.stage ?? '(none)'}`);
  if (sc.persona !== null || sc.ceiling !== null || sc.allowed_tools !== null) {
    lines.push(`scope:   families ${sc.families?.join(', ') ?? '(any)'}; allowed tools ${sc.allowed_tools?.join(', ') ?? '(inherited)'}; ceiling ${sc.ceiling ?? '(none)'}`);
  }
  lines.push('gates:');
  for (const f of decision.findings) lines.push(`  ${f.gate.padEnd(16)} ${f.outcome.padEnd(7)} ${f.note}`);
  if (decision.ops.length > 0) lines.push(`state:   would apply ${decision.ops.map((o) => o.op).join(', ')} (explain changes nothing)`);
  return `${lines.join('\n')}\n`;
}

export function explainCommand(env: Env, opts: ExplainOptions, tool?: string, inputJson?: string): CommandResult {
  const index = policyForCli(env, opts.config);
  const event = readEvent(opts, tool, inputJson);
  const state = opts.session !== undefined ? storeForCli(env).read(opts.session).state : emptyState();
  if (opts.sideEffectLevel !== undefined && !isLevel(opts.sideEffectLevel)) throw new CliError(`persona-gate explain: unknown level ${opts.sideEffectLevel}`);
  if (opts.confirmOn !== undefined && opts.confirmOn !== 'pre' && opts.confirmOn !== 'post') throw new CliError('persona-gate explain: --confirm-on takes pre or post');
  const started = Date.now();
  const decision = decide({
    event,
    index,
    state,
    env,
    options: {
      confirmOn: opts.confirmOn === 'pre' ? 'pre' : 'post',
      ...(opts.persona !== undefined ? { persona: opts.persona } : {}),
      ...(opts.stage !== undefined ? { stage: opts.stage } : {}),
      dispatch: {
        ...(opts.allowedTools !== undefined ? { allowedTools: opts.allowedTools.split(',').map((t) => t.trim()).filter(Boolean) } : {}),
        ...(isLevel(opts.sideEffectLevel) ? { sideEffectLevel: opts.sideEffectLevel } : {}),
      },
    },
    isProtected: makeProtectedPathCheck({ policyPath: index.path, stateDir: stateDirFor(env), prefsFile: prefsFile(env) }),
    shell: readShellCall,
    locale: localeFor(index, env, readPreferences(env).locale ?? 'en'),
  });
  const exitCode = decision.status === 'config_error' ? 1 : EXPLAIN_EXIT[decision.verdict];
  const stdout = opts.json
    ? `${JSON.stringify(decisionReceipt(event, decision, index.sha256, new Date(), Date.now() - started))}\n`
    : describe(decision, event);
  return { stdout, exitCode };
}
