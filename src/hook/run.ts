import { decide, localeFor, type Decision, type Env } from '../core/decide';
import { parseEvent, type HookEvent, type ToolEvent } from '../core/event';
import { messagesFor, type Locale, type Messages } from '../core/messages';
import type { PolicyIndex } from '../core/policy-index';
import type { DecideOptions, ProfileStateReader } from '../core/types';
import { decidePost, decideSessionStart } from '../core/post';
import { decisionReceipt, eventReceipt, type Receipt } from '../core/receipt';
import type { StateOp } from '../core/state';
import { defaultStateDir } from '../io/paths';
import { loadPolicy, locatePolicy, type PolicyError } from '../io/policy-source';
import { readPreferences, type Preferences } from '../io/prefs';
import { gateProtections } from '../io/protect';
import { hostAdapter, lazyLaunchPlan, lazySettleStart, lazyShellResolver } from '../io/lazy';
import { launchRoute, routeAnswer, type LaunchRoute } from '../exec/route';
import { brokeredCommand, unbrokered } from '../exec/brokered';
import { dropCall, endCall } from '../exec/calls';
import { readExecMap, type ExecMap } from '../exec/map';
import { exceeds } from '../core/levels';
import { lockBeside } from '../io/lock-lookup';
import { appendReceipt } from '../io/receipts';
import { StateError, StateStore } from '../io/state-store';
import { fstatSync } from 'node:fs';
import { argsProblem, hostArg, parseHookArgs, type HookArgs } from './args';
import type { HostAdapter, HostName } from '../hosts/host';
import { hash128, stableJson } from '../io/hash';
import { hookHelp } from './help';
import { DeadlineStop, runWithin } from './watchdog';
import { profileFilePath, profileStateReader } from '../io/profile-state';
import { sandboxOptions, sandboxView, type SandboxView } from '../io/sandbox-state';
import { readStdin } from './stdin';
import { blockingError, emit, preToolUseRewrite, SILENT, type HookResponse } from './output';

export const MAX_EVENT_BYTES = 1024 * 1024;
const DEFAULT_DEADLINE_MS = 5000;

function deadlineMs(env: Env): number {
  const n = Number(env.PERSONA_GATE_DEADLINE_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_DEADLINE_MS;
}

/** `hook`: a host's event. `broker`: a start of a launched program made by another program, judged as a call of the session's (SPEC §9.3). */
export type EventSource = 'hook' | 'broker';

interface HookContext {
  env: Env;
  argv: readonly string[];
  source: EventSource;
  args: HookArgs;
  started: number;
  deadline: number;
  stateDir: string;
  locale: Locale;
  host: HostAdapter;
  /** Whom the PreToolUse was judged for, once it was (the broker's start receipt names them too). */
  judged?: HookResponse['judged'];
}

function failurePre(
  ctx: HookContext,
  event: HookEvent | null,
  status: string,
  reason: string,
  policySha: string | null = null,
): HookResponse {
  if (event)
    keepReceipt(
      ctx,
      event,
      eventReceipt(event, { verdict: 'deny', status, gate: 'hook', rule: status, reason }, policySha, new Date(), Date.now() - ctx.started),
    );
  return event && event.hook_event_name === 'PreToolUse' ? ctx.host.answer('deny', reason) : ctx.host.blockUnread(reason);
}

/** A failure after the event was read: a deny for a PreToolUse; nothing to block for the other events. */
function refuse(ctx: HookContext, event: HookEvent, status: string, reason: string, policySha: string | null = null): HookResponse {
  return event.hook_event_name === 'PreToolUse' ? failurePre(ctx, event, status, reason, policySha) : SILENT;
}

function policyErrorReason(m: Messages, error: PolicyError): string {
  switch (error.kind) {
    case 'not_found':
      return m.noPolicy(error.searched);
    case 'unreadable':
      return m.unreadablePolicy(error.path, error.detail);
    case 'invalid': {
      const shown = error.problems.slice(0, 5).map((p) => `${p.path}: ${p.message}`);
      if (error.problems.length > 5) shown.push(`… ${error.problems.length - 5} more`);
      return m.invalidPolicy(error.path, shown);
    }
  }
}

/** The deadline covers the decision too (SPEC §9.7): checked between steps and inside the path checks. */
class DeadlinePassed extends Error {}

function checkDeadline(ctx: HookContext): void {
  if (Date.now() > ctx.deadline) throw new DeadlinePassed();
}

function handleToolEvent(ctx: HookContext, event: ToolEvent, index: PolicyIndex, store: StateStore): HookResponse {
  if (event.hook_event_name === 'PostToolUse') {
    const { ran, starts } = ctx.source === 'hook' ? endBrokeredCall(ctx, event) : { ran: event, starts: [] };
    const profile = profileReader(ctx, event, index);
    const result = store.transact(event.session_id, ctx.deadline, () => {
      const own = decidePost(
        index,
        ctx.source === 'hook' ? launchRoute(ran, ctx.stateDir, ctx.host.name, lazyLaunchPlan).judged : ran,
        ctx.env,
        lazyShellResolver,
        profile,
      );
      // the identity reads the call's brokered starts made confirm now that the call has ended
      const theirs = starts.map((start) => decidePost(index, start, ctx.env, lazyShellResolver, profile)).filter((p) => p.ops.length > 0);
      return theirs.length === 0
        ? own
        : { ops: [...own.ops, ...theirs.flatMap((p) => p.ops)], note: [own.note, ...theirs.map((p) => p.note)].join('; ') };
    });
    if (result.ops.length > 0) {
      keepReceipt(
        ctx,
        event,
        eventReceipt(
          event,
          { verdict: 'abstain', status: 'ok', gate: 'identity', rule: 'post_tool_use', reason: result.note },
          index.sha256,
          new Date(),
          Date.now() - ctx.started,
        ),
      );
    }
    return SILENT;
  }
  const guarded = gateProtections(index.path, ctx.stateDir, ctx.env, ctx.locale);
  const isProtected: typeof guarded = (path, cwd, effect, pattern) => {
    checkDeadline(ctx);
    return guarded(path, cwd, effect, pattern);
  };
  const pinned = lockBeside(index.path);
  checkDeadline(ctx);
  const sandbox =
    ctx.host.name === 'claude-code'
      ? sandboxView({ policyPath: index.path, env: ctx.env, cwd: event.cwd ?? process.cwd(), stateDir: ctx.stateDir })
      : null;
  // A brokered start names the program as the policy catalogues it: there is no launcher form to read.
  const route: LaunchRoute =
    ctx.source === 'hook' ? launchRoute(event, ctx.stateDir, ctx.host.name, lazyLaunchPlan) : { plan: null, map: null, judged: event };
  const options = {
    confirmOn: ctx.args.confirmOn,
    dispatch: { allowedTools: ctx.args.allowedTools, sideEffectLevel: ctx.args.sideEffectLevel },
    unseenStdin: ctx.host.unseenStdin === true,
    ...(ctx.source === 'broker' ? { withinCall: true } : {}),
    ...(sandbox !== null ? sandboxOptions(sandbox, ctx.env.HOME) : {}),
    ...(sandbox !== null && ctx.source === 'hook' && route.map?.broker !== undefined
      ? { startChecked: startChecked(route.map, sandbox) }
      : {}),
  };
  // read once per call: by the identity gate, and for the launcher's check of a start (startProfile)
  const profile = profileReader(ctx, event, index);
  const result = store.transact(event.session_id, ctx.deadline, (state) => {
    const decision = decide({
      event: route.judged,
      index,
      state,
      env: ctx.env,
      options,
      isProtected,
      pinned,
      shell: lazyShellResolver,
      locale: ctx.locale,
      ...(profile ? { profileState: profile } : {}),
    });
    return { ops: decision.ops as StateOp[], decision };
  });
  const { decision } = result;
  checkDeadline(ctx);
  // A host that cannot ask a person gets a deny that says one must approve.
  const asked =
    decision.verdict === 'ask' && !ctx.host.asks
      ? { ...decision, verdict: 'deny' as const, reason: messagesFor(ctx.locale).askWithoutHost(ctx.host.title, decision.reason) }
      : decision;
  const unseen = startsForBroker(route, sandbox);
  const { decision: answered, updatedInput } = routeAnswer(
    unseen ?? route,
    event,
    asked,
    {
      stateDir: ctx.stateDir,
      env: ctx.env,
      locale: ctx.locale,
      policySha: index.sha256,
      ...startProfile(ctx, index, route, asked, profile),
    },
    lazySettleStart,
  );
  const brokered = updatedInput === undefined ? brokeredInput(ctx, event, route, answered, sandbox, unseen !== null) : undefined;
  const rewritten = updatedInput ?? brokered;
  const verdict =
    rewritten !== undefined && answered.verdict !== 'deny'
      ? rewrittenVerdict(answered.verdict, brokered !== undefined, sandbox)
      : answered.verdict;
  const receipt = decisionReceipt(event, { ...answered, verdict }, index.sha256, new Date(), Date.now() - ctx.started);
  ctx.judged = { persona: receipt.persona, stage: receipt.stage, command_key: receipt.command_key };
  keepReceipt(ctx, event, receipt);
  if (rewritten && verdict !== 'deny' && verdict !== 'abstain')
    return preToolUseRewrite(verdict, answered.would !== undefined ? '' : answered.reason, rewritten);
  // Audit mode answers as if the call had passed: the refusal's reason is for the receipt only.
  return ctx.host.answer(answered.verdict, answered.would !== undefined ? '' : answered.reason);
}

/**
 * The rewrite of a Bash call let through or asked about that may start launched programs out of
 * the hook's sight (it runs code: a catalogued command, a script, an interpreter, a build): their
 * shims first on PATH and the call's record for the broker (SPEC §9.3). Only where the deployment
 * brokers and the sandbox holds; anywhere else a program the sandbox hides is simply not found.
 * A call in audit is rewritten as the call it is answered as: one that passed.
 */
function brokeredInput(
  ctx: HookContext,
  event: ToolEvent,
  route: LaunchRoute,
  decision: ReturnType<typeof decide>,
  sandbox: SandboxView | null,
  /** The line names a launched program in a form the broker is to judge, whatever it runs. */
  startsUnseen = false,
): Record<string, unknown> | undefined {
  if (ctx.source !== 'hook' || sandbox === null || event.tool_name !== 'Bash' || event.hook_event_name !== 'PreToolUse') return undefined;
  const map = route.map;
  const command = event.tool_input.command;
  if (map?.broker === undefined || typeof command !== 'string') return undefined;
  if (decision.verdict !== 'allow' && decision.verdict !== 'abstain' && decision.verdict !== 'ask') return undefined;
  const { primary, matched } = decision.resolution;
  const runsCode = matched.length > 0 || primary.level === null || exceeds(primary.level, 'workspace_write');
  if (!(runsCode || startsUnseen) || !brokers(sandbox)) return undefined;
  const project = ctx.env.CLAUDE_PROJECT_DIR?.trim() || event.cwd || process.cwd();
  return {
    ...event.tool_input,
    command: brokeredCommand(
      event,
      command,
      { ...map, broker: map.broker },
      { stateDir: ctx.stateDir, env: ctx.env, argv: ctx.argv, project },
    ),
  };
}

/**
 * A line that names a launched program only by name, in a form the hook cannot judge as its starts
 * (a pipe, a redirection, a substitution, other commands beside it): where the deployment brokers,
 * it runs in the sandbox, rewritten for the broker, which judges every start it makes. Null: it is
 * settled as the plan says.
 */
function startsForBroker(route: LaunchRoute, sandbox: SandboxView | null): LaunchRoute | null {
  const { plan, map } = route;
  if (plan?.kind !== 'refused' || plan.brokerable !== true || map?.broker === undefined || sandbox === null || !brokers(sandbox))
    return null;
  return { ...route, plan: { kind: 'sandboxed', name: plan.name } };
}

/** Whether a call let through that runs code is rewritten for the broker: the sandbox holds. */
function brokers(sandbox: SandboxView): boolean {
  return sandbox().holds;
}

/**
 * What a rewritten call is answered. A rewrite needs a decision, so a call persona-gate would
 * leave to Claude Code is allowed where Claude Code runs a sandboxed call without asking
 * (`autoAllowBashIfSandboxed`, on by default) and asked about where it would ask.
 */
function rewrittenVerdict(verdict: 'allow' | 'abstain' | 'ask', brokered: boolean, sandbox: SandboxView | null): 'allow' | 'ask' {
  if (verdict !== 'abstain') return verdict;
  return brokered && sandbox !== null && !sandbox().autoAllow ? 'ask' : 'allow';
}

/** Whether the broker judges the starts of `program` on this call: the sandbox hides it and the call is rewritten for the broker. */
function startChecked(map: ExecMap, sandbox: SandboxView): (program: string) => boolean {
  return (program) => Object.prototype.hasOwnProperty.call(map.programs, program) && brokers(sandbox);
}

/** The call as it was given and its record's secret, for a Bash call the hook rewrote for the broker; else null. */
function brokeredCall(stateDir: string, toolName: unknown, command: unknown): { secret: string; command: string } | null {
  if (toolName !== 'Bash' || typeof command !== 'string' || !command.startsWith('export PATH=')) return null;
  const broker = readExecMap(stateDir)?.broker;
  return broker === undefined ? null : unbrokered(command, broker);
}

/**
 * The end of a Bash call the hook rewrote for the broker: its record goes; returns the call as it
 * was given and the PostToolUse events of the starts it made (of this session), or null for another call.
 */
function endBrokered(
  stateDir: string,
  toolName: unknown,
  command: unknown,
  sessionId: string,
): { command: string; starts: ToolEvent[] } | null {
  const call = brokeredCall(stateDir, toolName, command);
  if (call === null) return null;
  const starts = endCall(stateDir, call.secret).flatMap((json) => {
    const start = parseEvent(json);
    return start.ok && start.event.hook_event_name === 'PostToolUse' && start.event.session_id === sessionId ? [start.event] : [];
  });
  return { command: call.command, starts };
}

/** A PostToolUse of a call the hook rewrote for the broker: the call's record goes, and the call is read as it was given. */
function endBrokeredCall(ctx: HookContext, event: ToolEvent): { ran: ToolEvent; starts: ToolEvent[] } {
  if (ctx.host.name !== 'claude-code') return { ran: event, starts: [] };
  const ended = endBrokered(ctx.stateDir, event.tool_name, event.tool_input.command, event.session_id);
  return ended === null
    ? { ran: event, starts: [] }
    : { ran: { ...event, tool_input: { ...event.tool_input, command: ended.command } }, starts: ended.starts };
}

/** Claude Code's event for a call that failed (a non-zero exit, an interrupt): no PostToolUse follows it. */
function isFailedCall(json: unknown): json is { tool_name?: unknown; tool_input?: unknown } {
  return typeof json === 'object' && json !== null && (json as Record<string, unknown>).hook_event_name === 'PostToolUseFailure';
}

/**
 * A call that failed has ended as surely as one that succeeded: the record of a call the hook
 * rewrote for the broker goes (SPEC §9.3), or a secret the call saved would start programs for 30
 * minutes. Nothing else happens: a failed call confirms nothing, not even the identity reads its
 * brokered starts made.
 */
function endFailedCall(ctx: HookContext, json: { tool_name?: unknown; tool_input?: unknown }): HookResponse {
  const input = json.tool_input;
  const command = typeof input === 'object' && input !== null ? (input as Record<string, unknown>).command : undefined;
  try {
    const call = brokeredCall(ctx.stateDir, json.tool_name, command);
    if (call !== null) dropCall(ctx.stateDir, call.secret);
  } catch {
    // no map to read: no record was left
  }
  return SILENT;
}

/**
 * The domain's profile file as the hook finds it when it judges a launched start, for the launcher
 * to check again when it starts the program (SPEC §9.4): a job in the background may switch it in
 * between. Not for a call that switches the profile itself, nor where the state is a command's output.
 */
function startProfile(
  ctx: HookContext,
  index: PolicyIndex,
  route: LaunchRoute,
  decision: Decision,
  read: ProfileStateReader | undefined,
): { profile?: { file: string; fingerprint: string } } {
  const identity = index.settings.identity;
  const def = identity?.profile_state;
  if (route.plan?.kind !== 'starts' || decision.verdict === 'deny' || def === undefined || !('file' in def) || read === undefined)
    return {};
  if (decision.resolution.matched.some((s) => identity!.switches.includes(s.key))) return {};
  const seen = read();
  return seen.ok ? { profile: { file: profileFilePath(def.file, index.path, ctx.env), fingerprint: seen.fingerprint } } : {};
}

/** The domain's profile state, read only when a gate asks (SPEC §9.4); none where the policy names none. */
function profileReader(ctx: HookContext, event: ToolEvent, index: PolicyIndex) {
  const def = index.settings.identity?.profile_state;
  return def === undefined
    ? undefined
    : profileStateReader(def, { policyPath: index.path, env: ctx.env, cwd: event.cwd ?? process.cwd(), deadline: ctx.deadline });
}

/** Appends a receipt; one of another host names it, and the tool as that host called it. */
function keepReceipt(ctx: HookContext, event: HookEvent, receipt: Receipt): void {
  const hostTool = 'host_tool_name' in event ? event.host_tool_name : undefined;
  appendReceipt(
    ctx.stateDir,
    ctx.host.name === 'claude-code'
      ? receipt
      : { ...receipt, host: ctx.host.name, ...(hostTool !== undefined ? { host_tool_name: hostTool } : {}) },
  );
}

function hookContext(argv: readonly string[], env: Env, started: number, prefs: Preferences, host: HostName, source: EventSource) {
  const parsedArgs = parseHookArgs(argv);
  const stateDir = env.PERSONA_GATE_STATE_DIR?.trim() ? env.PERSONA_GATE_STATE_DIR : (prefs.stateDir ?? defaultStateDir(env));
  const ctx: HookContext = {
    env,
    argv,
    source,
    args: parsedArgs.ok ? parsedArgs.args : { host, confirmOn: 'post' },
    started,
    deadline: started + deadlineMs(env),
    stateDir,
    locale: localeFor(null, env, prefs.locale ?? 'en'),
    host: hostAdapter(host),
  };
  return { ctx, argsError: parsedArgs.ok ? null : parsedArgs.error };
}

/** Everything the hook does once stdin is read: the whole path from bytes to a response. */
export function processEvent(
  text: string,
  argv: readonly string[],
  env: Env,
  started = Date.now(),
  prefs: Preferences = readPreferences(env),
  source: EventSource = 'hook',
): HookResponse {
  const host = hostArg(argv);
  if (host === null) return unknownHost(argv, env, prefs);
  const { ctx, argsError } = hookContext(argv, env, started, prefs, host, source);
  const m0 = messagesFor(ctx.locale);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // SPEC §5: no event at all (stdin /dev/null, or closed at once) is a malformed event: denied.
    if (text.trim() === '') return ctx.host.blockUnread(m0.eventEmpty());
    return ctx.host.blockUnread(m0.eventMalformed((err as Error).message.replace(/\s+/g, ' ').slice(0, 200)));
  }
  if (ctx.host.name === 'claude-code' && source === 'hook' && isFailedCall(json)) return endFailedCall(ctx, json);
  const parsed = ctx.host.readEvent(json);
  if (!parsed.ok) {
    const reason = m0.eventShape(parsed.detail);
    return parsed.hookEventName === 'PreToolUse' ? ctx.host.answer('deny', reason) : ctx.host.blockUnread(reason);
  }
  const event = parsed.event;
  if (event.hook_event_name !== 'SessionStart' && event.tool_use_id === undefined) {
    event.call_signature = hash128(`${event.tool_name}\u0000${stableJson(event.tool_input)}`);
  }
  if (argsError !== null) return failurePre(ctx, event, 'config_error', m0.hookUsage(argsProblem(m0, argsError)));

  try {
    // The watchdog stops the decision at the deadline even inside synchronous code (a parse, a
    // regular expression, a loop), where the checks between steps never get to run.
    const response = runWithin(ctx.deadline - Date.now(), () => handleEvent(ctx, event, prefs));
    return source === 'broker' && ctx.judged !== undefined ? { ...response, judged: ctx.judged } : response;
  } catch (err) {
    const m = messagesFor(ctx.locale);
    if (err instanceof StateError) return refuse(ctx, event, 'state_error', m.stateError(err.message));
    if (err instanceof DeadlinePassed || err instanceof DeadlineStop)
      return refuse(ctx, event, 'deadline', m.deadline(deadlineMs(ctx.env)));
    return refuse(ctx, event, 'internal_error', m.internalError(err instanceof Error ? err.message : String(err)));
  }
}

/**
 * An unknown host: nobody knows what it honours, so exit 2 with the reason, the one answer that
 * blocks everywhere (SPEC §10). A usage error of the registration, not of persona-gate.
 */
function unknownHost(argv: readonly string[], env: Env, prefs: Preferences): HookResponse {
  const m = messagesFor(localeFor(null, env, prefs.locale ?? 'en'));
  const parsed = parseHookArgs(argv);
  return blockingError(m.hookUsage(parsed.ok ? m.hookNeedsValue('--host') : argsProblem(m, parsed.error)));
}

async function runHook(argv: readonly string[], env: Env, host: HostAdapter | null): Promise<HookResponse> {
  const started = Date.now();
  const prefs = readPreferences(env);
  if (host === null) return unknownHost(argv, env, prefs);
  const m0 = messagesFor(localeFor(null, env, prefs.locale ?? 'en'));
  const input = await readStdin(MAX_EVENT_BYTES, {
    at: started + deadlineMs(env),
    onDeadline: () => emit(host.blockUnread(m0.deadline(deadlineMs(env)))),
  });
  if (!input.ok) return host.blockUnread(m0.eventTooLarge(MAX_EVENT_BYTES));
  return processEvent(input.text, argv, env, started, prefs);
}

function handleEvent(ctx: HookContext, event: HookEvent, prefs: Preferences): HookResponse {
  const { env, stateDir, started } = ctx;
  const m0 = messagesFor(ctx.locale);
  // Where the host lets the model choose the event's cwd (Codex: the command's workdir), the policy is
  // looked for from the session's own directory, the one the host started the hook in.
  const location = locatePolicy({
    explicit: ctx.args.config,
    env,
    userDefault: prefs.policy,
    cwd: ctx.host.cwdFromModel === true ? process.cwd() : event.cwd,
  });
  let store: StateStore | null = null;
  let stateProblem: string | null = null;
  try {
    store = new StateStore(stateDir).open();
  } catch (err) {
    stateProblem = err instanceof StateError ? err.message : String(err);
  }
  if (location.path === null) return refuse(ctx, event, 'config_error', m0.noPolicy(location.searched));
  const loaded = loadPolicy(location.path, { ...(store ? { cacheDir: `${stateDir}/policy-cache` } : {}), locale: ctx.locale });
  if (!loaded.ok) return refuse(ctx, event, 'config_error', policyErrorReason(m0, loaded.error));
  const index = loaded.index;
  ctx.locale = localeFor(index, env, prefs.locale ?? 'en');
  const m = messagesFor(ctx.locale);
  if (!store) return refuse(ctx, event, 'state_error', m.stateError(stateProblem ?? 'unknown'), index.sha256);
  if (event.hook_event_name === 'SessionStart') {
    const result = store.transact(event.session_id, ctx.deadline, () => decideSessionStart(event));
    if (result.ops.length > 0) {
      keepReceipt(
        ctx,
        event,
        eventReceipt(
          event,
          { verdict: 'abstain', status: 'ok', gate: 'identity', rule: 'session_start', reason: result.note },
          index.sha256,
          new Date(),
          Date.now() - started,
        ),
      );
    }
    return SILENT;
  }
  return handleToolEvent(ctx, event, index, store);
}

/** The `hook` subcommand: every path ends in emit(), never in exit code 1. */
export function hookMain(argv: readonly string[], env: Env = process.env): void {
  // A terminal, or /dev/null: a character device, so nobody is feeding an event. (One fstat:
  // node:tty would cost the hot path milliseconds to load, so it is asked only of a character
  // device.) A person at a terminal gets the help; /dev/null is an event that is not there, a
  // deny (SPEC §5), unless the help was asked for.
  let charDevice = false;
  try {
    charDevice = fstatSync(0).isCharacterDevice();
  } catch {
    charDevice = false;
  }
  const onTerminal = charDevice && (require('node:tty') as typeof import('node:tty')).isatty(0);
  if (onTerminal || argv.includes('--help') || argv.includes('-h'))
    return emit(hookHelp(charDevice, localeFor(null, env, readPreferences(env).locale ?? 'en')));
  const hostName = hostArg(argv);
  const host = hostName === null ? null : hostAdapter(hostName);
  const fail = (err: unknown) => {
    const reason = messagesFor(localeFor(null, env)).internalError(err instanceof Error ? err.message : String(err));
    emit(host ? host.blockUnread(reason) : blockingError(reason));
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  runHook(argv, env, host).then(emit, fail);
}
