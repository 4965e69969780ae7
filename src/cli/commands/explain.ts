import { lockBeside } from '../../io/lock-lookup';
import { opaqueReach } from '../../core/residue';
import type { Policy } from '../../policy/schema';
import { readFileSync } from 'node:fs';
import { decide, localeFor, type Decision, type Env } from '../../core/decide';
import { parseEvent, type ToolEvent } from '../../core/event';
import { isLevel } from '../../core/levels';
import { decisionReceipt } from '../../core/receipt';
import { emptyState } from '../../core/state';
import { readPreferences } from '../../io/prefs';
import { gateProtections } from '../../io/protect';
import { sandboxOptions, watchedSandboxView } from '../../io/sandbox-state';
import { readShellCall } from '../../shell/resolve-shell';
import type { ShellReading } from '../../core/decide';
import { shellLines, shellView, type ShellView } from '../shell-view';
import { CliError, type CommandResult } from '../errors';
import { cliLocale, cliMessages, type CliMessages } from '../messages';
import { MCP_MESSAGES, type McpMessages } from '../../mcp/messages';
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

function readEvent(opts: ExplainOptions, tool: string | undefined, inputJson: string | undefined, t: CliMessages): ToolEvent {
  if (opts.event !== undefined) {
    if (tool !== undefined) throw new CliError(t.explainBoth());
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(opts.event, 'utf8'));
    } catch (err) {
      throw new CliError(t.explainEventUnreadable(opts.event, (err as Error).message));
    }
    const parsed = parseEvent(value);
    if (!parsed.ok) throw new CliError(t.explainEventShape(parsed.detail));
    if (parsed.event.hook_event_name !== 'PreToolUse') throw new CliError(t.explainNotPre());
    return { ...parsed.event, ...(opts.session !== undefined ? { session_id: opts.session } : {}) } as ToolEvent;
  }
  if (tool === undefined) throw new CliError(t.explainNeither());
  let input: unknown = {};
  if (inputJson !== undefined) {
    try {
      input = JSON.parse(inputJson);
    } catch (err) {
      throw new CliError(t.explainInputNotJson((err as Error).message));
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new CliError(t.explainInputNotObject());
  return {
    hook_event_name: 'PreToolUse',
    session_id: opts.session ?? 'persona-gate-explain',
    tool_name: tool,
    tool_input: input as Record<string, unknown>,
    cwd: process.cwd(),
  };
}

/** Where a command taken from the MCP lock got its level: the server's annotations, or the policy raising it. */
function levelOrigin(policy: Policy | null, key: string, t: McpMessages): string | null {
  const origin = policy?.pinned?.origins[key];
  if (!origin) return null;
  if (origin.source === 'policy') return t.levelFromPolicy(origin.path, origin.manifest, origin.server, origin.tool);
  const hints = Object.entries(origin.annotations).map(([hint, value]) => `${hint}: ${value}`);
  return t.levelFromAnnotations(origin.server, origin.tool, hints.length > 0 ? hints.join(', ') : t.noAnnotations());
}

function describe(
  decision: Decision,
  event: ToolEvent,
  t: CliMessages,
  policy: Policy | null,
  mt: McpMessages = MCP_MESSAGES.en,
  shell: ShellView | null = null,
  sandboxHeld: boolean | null = null,
): string {
  const s = decision.subject;
  const lines: string[] = [];
  lines.push(t.verdictLine(decision.verdict, decision.status, decision.gate, decision.rule));
  if (decision.reason) lines.push(t.reasonLine(decision.reason));
  if (decision.would !== undefined) lines.push(t.auditLine(decision.would, decision.verdict));
  const what =
    s.family === null || s.level === null
      ? t.callUnknown(s.key, s.unknown ?? t.notInCatalog())
      : t.callKnown(s.key, s.family, s.level, s.tier, s.owner, s.via);
  lines.push(t.callLine(event.tool_name, what));
  const origin = levelOrigin(policy, s.key, mt);
  if (origin !== null) lines.push(mt.originLine(origin));
  if (decision.resolution.matched.length > 0) lines.push(t.matchedLine(decision.resolution.matched.map((m) => m.key).join(', ')));
  if (shell !== null) lines.push(...shellLines(shell, t));
  const sc = decision.scope;
  lines.push(t.personaLine(decision.persona, decision.stage));
  if (sc.persona !== null || sc.ceiling !== null || sc.allowed_tools !== null) {
    lines.push(t.scopeLine(sc.families?.join(', ') ?? null, sc.allowed_tools?.join(', ') ?? null, sc.ceiling));
  }
  lines.push(t.gatesLine());
  for (const f of decision.findings) lines.push(`  ${f.gate.padEnd(16)} ${t.outcome(f.outcome).padEnd(7)} ${f.note}`);
  if (decision.ops.length > 0) lines.push(t.stateLine(decision.ops.map((o) => o.op).join(', ')));
  if (sandboxHeld !== null) lines.push(t.sandboxLine(sandboxHeld));
  const reach = policy && decision.persona !== null ? opaqueReach(policy, decision.persona) : null;
  if (reach) lines.push(t.residueLine(reach.commands.map((c) => c.bash)));
  return `${lines.join('\n')}\n`;
}

export function explainCommand(env: Env, opts: ExplainOptions, tool?: string, inputJson?: string): CommandResult {
  const index = policyForCli(env, opts.config);
  const t = cliMessages(env, index);
  const event = readEvent(opts, tool, inputJson, t);
  const state = opts.session !== undefined ? storeForCli(env).read(opts.session).state : emptyState();
  if (opts.sideEffectLevel !== undefined && !isLevel(opts.sideEffectLevel)) throw new CliError(t.badLevel(opts.sideEffectLevel));
  if (opts.confirmOn !== undefined && opts.confirmOn !== 'pre' && opts.confirmOn !== 'post') throw new CliError(t.badConfirmOn());
  const started = Date.now();
  let reading: ShellReading | null = null;
  const locale = localeFor(index, env, readPreferences(env).locale ?? 'en');
  // Claude Code's sandbox, read as the hook reads it, and only if a gate asks (then the answer is shown)
  const sandbox = watchedSandboxView({ policyPath: index.path, env, cwd: event.cwd ?? process.cwd(), stateDir: stateDirFor(env) });
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
        ...(opts.allowedTools !== undefined
          ? {
              allowedTools: opts.allowedTools
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            }
          : {}),
        ...(isLevel(opts.sideEffectLevel) ? { sideEffectLevel: opts.sideEffectLevel } : {}),
      },
      // gate 0 as the hook has it here
      ...sandboxOptions(sandbox.view, env.HOME),
    },
    isProtected: gateProtections(index.path, stateDirFor(env), env, locale),
    pinned: lockBeside(index.path),
    shell: (i, e, o) => (reading = readShellCall(i, e, o)),
    locale,
  });
  const sandboxHeld = sandbox.held();
  const shell = reading === null ? null : shellView(reading, cliLocale(env, index));
  const exitCode = decision.status === 'config_error' ? 1 : EXPLAIN_EXIT[decision.verdict];
  const stdout = opts.json
    ? `${JSON.stringify({
        ...decisionReceipt(event, decision, index.sha256, new Date(), Date.now() - started),
        ...(shell !== null ? { shell } : {}),
        ...(sandboxHeld !== null ? { sandbox: { holds: sandboxHeld } } : {}),
      })}\n`
    : describe(decision, event, t, index.policy, MCP_MESSAGES[cliLocale(env, index)], shell, sandboxHeld);
  return { stdout, exitCode };
}
