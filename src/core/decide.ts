import { callKey, type ToolEvent } from './event';
import { exceeds, lowerLevel, type Level } from './levels';
import { bashPrograms, commandLevel, defaultTier, familyOfKey } from './policy-index';
import { messagesFor, type Locale, type Messages } from './messages';
import type { PolicyIndex } from './policy-index';
import { resolveTool, type Resolution, type Subject } from './resolve';
import { fileToolTargets } from './catalog/claude-code';
import { writeRunsCommandsLater } from './runs-later';
import type { SessionState, StateOp } from './state';
import type { PersonaDef, StageDef } from '../policy/schema';
import type { Reason } from './reason';
import type {
  DecideOptions,
  Finding,
  Gate,
  GateContext,
  PathEffect,
  PinnedLookup,
  ProfileStateReader,
  ProtectedPathCheck,
  Ruling,
  Scope,
  Verdict,
} from './types';
import { personaScopeGate } from './gates/scope';
import { delegationGate } from './gates/delegation';
import { handoffGate } from './gates/handoff';
import { stageGate } from './gates/stage';
import { identityGate, profileFingerprint } from './gates/identity';
import { confirmationGate } from './gates/confirmation';
import { unknownToolGate } from './gates/unknown-tool';
import { selfProtection } from './gates/self-protection';
import { pinRefusal } from './gates/pinned';

/** Gates 2–8, in precedence order, run for every operation a call amounts to. */
export const SUBJECT_GATES: readonly Gate[] = [
  personaScopeGate,
  delegationGate,
  handoffGate,
  stageGate,
  identityGate,
  confirmationGate,
  unknownToolGate,
];

export type Env = Readonly<Record<string, string | undefined>>;

/** Turns a shell command line into the operations it runs (supplied by the shell resolver, loaded lazily). */
/** `sandboxed`: the OS sandbox write-denies every guarded path, so a write target computed at run time can run (SPEC §9.2). */
export type ShellResolver = (
  index: PolicyIndex,
  event: ToolEvent,
  opts?: { sandboxed?: () => boolean; locale?: Locale },
) => ShellReading | null;

/** One program a shell command line may run, as the shell reader classified it (SPEC §9.1). */
export interface ShellInvocationSummary {
  program: string;
  args: string[];
  /** Its words as the line spells them (their span in the line, or in the string read again). */
  words: string;
  /** The subcommands read (`remote add`). */
  path: string[];
  level: Level;
  kind: 'catalogued' | 'unlisted' | 'builtin' | 'reader' | 'writer' | 'network' | 'exec' | 'function' | 'gate';
  key?: string;
  /** Why it runs code the gate cannot read. */
  opaque?: Reason;
  /** Why it has its level: the reason that made it opaque, else the one its reading gave. */
  reason?: Reason;
}

/** A part of a line that set a level: an invocation (its index in `invocations`), a redirection, an assignment. */
export interface ShellPart {
  words: string;
  level: Level;
  reason: Reason;
  invocation?: number;
}

export interface ShellReading {
  /** Catalogued commands the line runs. */
  matched: Subject[];
  /** The shell tool's own level: the highest among the programs that are not catalogued commands. */
  level: Level;
  invocations: ShellInvocationSummary[];
  /** Invocations of a catalogued program that match none of its commands (SPEC §9.2). */
  unlisted: string[];
  /** Why parts of the line run code the gate cannot read (SPEC §9.3), in the reading's locale. */
  opaque: string[];
  /** The parts at the line's level: what decided it (none for a line at level none). */
  decided: ShellPart[];
  /** The first of them said with its words, in the reading's locale ("`curl -s x` reaches the network"). */
  because?: string;
  /** The first part that runs code the gate cannot read, said with its words, in the reading's locale. */
  opaqueBecause?: string;
  /** Catalogued programs named in a line that runs opaque code. */
  opaqueNames: string[];
  /** The opaque code that a program takes from its stdin (a shell or an interpreter started without code). */
  stdinCode: string[];
  /** What the line does to paths, for gate 0. */
  effects: { path: string; effect: PathEffect; pattern: boolean; program: string }[];
  /** Directories besides the event's cwd that relative paths may be relative to (`cd`, `-C DIR`). */
  directories: string[];
  gateCommands: string[];
  /** The line may switch the active profile without being a catalogued switch (SPEC §9.4). */
  mayRearm: boolean;
  /** The programs that may switch it so (all of them, when set). */
  rearmBy?: string[];
  /** Every program in it is an identity read or reads only, and the read runs unconditionally. */
  confirmsIdentity: boolean;
  unparsable?: string;
}

export interface DecideInput {
  event: ToolEvent;
  index: PolicyIndex;
  state: SessionState;
  env: Env;
  options: DecideOptions;
  isProtected: ProtectedPathCheck;
  /** The MCP lock beside the policy, for a policy that does not take its commands from it (SPEC §11). */
  pinned?: PinnedLookup;
  shell?: ShellResolver;
  locale?: Locale;
  /** The domain's profile state now, for a policy with identity.profile_state (SPEC §9.4). */
  profileState?: ProfileStateReader;
}

export interface Decision extends Ruling {
  persona: string | null;
  stage: string | null;
  /** The operation whose ruling decided the call. */
  subject: Subject;
  resolution: Resolution;
  scope: Scope;
  findings: Finding[];
  ops: StateOp[];
  /** Enforcement `audit`: the verdict the call would have been given; `verdict` is then the answer as if it had passed. */
  would?: Verdict;
}

const STRICTNESS: Record<Verdict, number> = { deny: 3, ask: 2, abstain: 1, allow: 0 };

export function localeFor(index: PolicyIndex | null, env: Env, fallback: Locale = 'en'): Locale {
  const fromEnv = env.PERSONA_GATE_LOCALE;
  if (fromEnv === 'en' || fromEnv === 'es') return fromEnv;
  return index?.settings.locale ?? fallback;
}

type PersonaResolution =
  | { ok: true; name: string | null; def: PersonaDef | null; source: 'agent_type' | 'session' | 'env' | 'option' | 'none' }
  | { ok: false; reason: string; name: string | null };

/** Gate 1: agent_type binding, then the session's persona, then the environment; blank is unscoped. */
export function resolvePersona(
  index: PolicyIndex,
  event: ToolEvent,
  state: SessionState,
  env: Env,
  options: DecideOptions,
  m: Messages,
): PersonaResolution {
  let name: string | undefined;
  let source: 'agent_type' | 'session' | 'env' | 'option' | 'none' = 'none';
  if (options.persona !== undefined) {
    name = options.persona.trim();
    source = 'option';
  } else if (event.agent_type !== undefined && index.agentTypeToPersona.has(event.agent_type)) {
    name = index.agentTypeToPersona.get(event.agent_type);
    source = 'agent_type';
  } else if (state.persona !== null && state.persona.trim() !== '') {
    name = state.persona.trim();
    source = 'session';
  } else {
    const fromEnv = env[index.settings.persona_env];
    if (fromEnv !== undefined && fromEnv.trim() !== '') {
      name = fromEnv.trim();
      source = 'env';
    }
  }
  if (name === undefined || name === '') return { ok: true, name: null, def: null, source: 'none' };
  const def = index.persona(name);
  if (!def) return { ok: false, name, reason: m.unknownPersona(name, index.personaNames()) };
  return { ok: true, name, def, source };
}

type StageResolution = { ok: true; def: StageDef | null } | { ok: false; reason: string };

/**
 * The session's stage (state, else env) belongs to the session's persona. A subagent bound to
 * another persona keeps that stage only when its own persona declares it.
 */
export function resolveStage(
  persona: PersonaResolution & { ok: true },
  state: SessionState,
  env: Env,
  index: PolicyIndex,
  options: DecideOptions,
  m: Messages,
): StageResolution {
  let stageName: string | undefined;
  if (options.stage !== undefined) stageName = options.stage.trim();
  else if (state.stage !== null && state.stage.trim() !== '') stageName = state.stage.trim();
  else {
    const fromEnv = env[index.settings.stage_env];
    if (fromEnv !== undefined && fromEnv.trim() !== '') stageName = fromEnv.trim();
  }
  if (stageName === undefined || stageName === '') return { ok: true, def: null };
  if (persona.def === null || persona.name === null) return { ok: false, reason: m.stageWithoutPersona(stageName) };
  const def = persona.def.stages.find((s) => s.name === stageName);
  if (def) return { ok: true, def };
  if (persona.source === 'agent_type' && options.stage === undefined) return { ok: true, def: null };
  return {
    ok: false,
    reason: m.unknownStage(
      persona.name,
      stageName,
      persona.def.stages.map((s) => s.name),
    ),
  };
}

export function effectiveScope(
  personaName: string | null,
  persona: PersonaDef | null,
  stage: StageDef | null,
  options: DecideOptions,
): Scope {
  let ceiling: Level | null = persona?.ceiling ?? null;
  for (const level of [stage?.side_effect_level, options.dispatch?.sideEffectLevel]) {
    if (level !== undefined) ceiling = ceiling === null ? level : lowerLevel(ceiling, level);
  }
  return {
    persona: personaName,
    stage: stage?.name ?? null,
    families: persona ? [...persona.families] : null,
    allowed_tools: stage?.allowed_tools
      ? [...stage.allowed_tools]
      : options.dispatch?.allowedTools
        ? [...options.dispatch.allowedTools]
        : null,
    ceiling,
  };
}

function walkGates(ctx: GateContext): { ruling: Ruling | null; findings: Finding[] } {
  const findings: Finding[] = [];
  for (const gate of SUBJECT_GATES) {
    const outcome = gate.check(ctx);
    if ('ruling' in outcome) {
      findings.push({
        gate: gate.name,
        outcome: outcome.ruling.verdict === 'deny' || outcome.ruling.verdict === 'ask' ? 'refuse' : 'decide',
        note: outcome.ruling.reason,
      });
      return { ruling: outcome.ruling, findings };
    }
    findings.push({ gate: gate.name, outcome: 'pass', note: outcome.note });
  }
  return { ruling: null, findings };
}

function passRuling(index: PolicyIndex): Ruling {
  const verdict = index.settings.defaults.on_pass;
  return { verdict, status: 'ok', gate: 'pass', rule: `on_pass:${verdict}`, reason: '' };
}

/** The state a call leaves behind, once its verdict is known (SPEC §6 and the stage cap). */
function stateOps(
  input: DecideInput,
  verdict: Verdict,
  subjects: readonly Subject[],
  stage: StageDef | null,
  personaName: string | null,
  shell: ShellReading | null,
): StateOp[] {
  if (verdict === 'deny') return [];
  const ops: StateOp[] = [];
  if (stage && personaName !== null && stage.max_iterations !== undefined && input.options.withinCall !== true)
    ops.push({ op: 'count', stage: stage.name });
  const identity = input.index.settings.identity;
  if (!identity) return ops;
  if (subjects.some((s) => identity.switches.includes(s.key)) || (shell !== null && uncheckedRearm(shell, input.options)))
    ops.push({ op: 'rearm' });
  if (subjects.some((s) => identity.reads.includes(s.key)) && (shell === null || shell.confirmsIdentity)) {
    const id = callKey(input.event);
    // A command left running in the background has its post-tool event when it starts, not when the read has run.
    // the profile state as the read finds it: it confirms only if the state is the same once it ran
    const seen = identity.profile_state !== undefined ? { profile: profileFingerprint(identity, input.profileState) } : {};
    if (id !== undefined && input.event.tool_input.run_in_background !== true) ops.push({ op: 'pending_read', tool_use_id: id, ...seen });
    if (input.options.confirmOn === 'pre' && (verdict === 'allow' || verdict === 'abstain'))
      ops.push({ op: 'confirm', label: null, ...seen });
  }
  return ops;
}

/**
 * Whether the line may switch the profile where no gate sees it: a switching program whose every
 * start is judged where it happens (DecideOptions.startChecked) re-arms there, if it switches.
 */
function uncheckedRearm(shell: ShellReading, options: DecideOptions): boolean {
  if (!shell.mayRearm) return false;
  return shell.rearmBy === undefined || shell.rearmBy.length === 0 || shell.rearmBy.some((n) => options.startChecked?.(n) !== true);
}

/** A line let through on `ask` re-arms when it may switch the profile: the reader says so, or an unreadable line names a switching program. */
function shellMayRearm(index: PolicyIndex, event: ToolEvent, shell: ShellReading | null): boolean {
  if (!shell || !index.settings.identity) return false;
  if (shell.mayRearm) return true;
  const command = typeof event.tool_input.command === 'string' ? event.tool_input.command.toLowerCase() : '';
  return [...bashPrograms(index, index.settings.identity.switches)].some((name) => command.includes(name.toLowerCase()));
}

/**
 * SPEC §3 step 3 and §9.2–9.3: a line that cannot be read, that runs a catalogued program other
 * than as a catalogued command, or that names one inside code the gate cannot read. Denied under a
 * persona, asked about unscoped. A persona with `"shell": "strict"` is refused all opaque code.
 */
function shellRefusal(
  index: PolicyIndex,
  personaName: string | null,
  persona: PersonaDef | null,
  resolution: Resolution,
  shell: ShellReading | null,
  m: Messages,
  options: DecideOptions,
  event: ToolEvent,
): Ruling | null {
  const scoped = personaName !== null;
  if (resolution.unparsable !== undefined) {
    return {
      verdict: scoped ? 'deny' : 'ask',
      status: scoped ? 'permission_denied' : 'unknown_tool',
      gate: 'scope',
      rule: 'shell_unparsable',
      reason: m.shellUnparsable(resolution.unparsable),
    };
  }
  if (!shell) return null;
  const allowed = () =>
    persona && personaName !== null
      ? commandsReachable(index, personaName, persona).map((p) => p.words.join(' '))
      : index.bashPrefixes().map((p) => p.words.join(' '));
  if (shell.unlisted.length > 0) {
    return {
      verdict: scoped ? 'deny' : 'ask',
      status: 'unlisted_command',
      gate: 'scope',
      rule: 'unlisted_command',
      reason: m.unlistedCommand(shell.unlisted[0]!, personaName, allowed()),
    };
  }
  // A program whose every start is judged where it happens needs no reading of the code that starts it.
  const unchecked = shell.opaqueNames.filter((n) => options.startChecked?.(n) !== true);
  if (unchecked.length > 0) {
    return {
      verdict: scoped ? 'deny' : 'ask',
      status: 'unlisted_command',
      gate: 'scope',
      rule: 'opaque_execution',
      reason: m.opaqueExecution(shell.opaqueBecause ?? shell.opaque[0]!, unchecked, personaName, allowed()),
    };
  }
  if (persona?.shell === 'strict' && shell.opaque.length > 0) {
    return {
      verdict: 'deny',
      status: 'permission_denied',
      gate: 'scope',
      rule: 'shell_strict',
      reason: m.shellStrict(personaName!, shell.opaqueBecause ?? shell.opaque[0]!),
    };
  }
  // Where the host feeds a running command's stdin unseen, code read from stdin is code never checked:
  // refused under a persona, asked about unscoped when the policy catalogues shell programs at all.
  if (shell.mayRearm && event.tool_input.run_in_background === true && index.settings.identity) {
    return {
      verdict: 'deny',
      status: 'identity_required',
      gate: 'identity',
      rule: 'background_switch',
      reason: m.backgroundSwitch(
        shell.invocations
          .map((i) => i.program)
          .filter(Boolean)
          .join(' ') || event.tool_name,
      ),
    };
  }
  if (options.unseenStdin === true && shell.stdinCode.length > 0 && (scoped || index.bashPrefixes().length > 0)) {
    return {
      verdict: scoped ? 'deny' : 'ask',
      status: scoped ? 'permission_denied' : 'unlisted_command',
      gate: 'scope',
      rule: 'stdin_code',
      reason: m.stdinCode(shell.stdinCode[0]!, personaName, allowed()),
    };
  }
  return null;
}

/** The catalogued shell commands a persona may run: its families, within its ceiling, owned by it or by nobody. */
export function commandsReachable(index: PolicyIndex, personaName: string, persona: PersonaDef): { words: string[]; key: string }[] {
  const out: { words: string[]; key: string }[] = [];
  for (const prefix of index.bashPrefixes()) {
    const def = index.command(prefix.key);
    if (!def) continue;
    if (!persona.families.includes(familyOfKey(prefix.key)) || exceeds(commandLevel(index, prefix.key, def), persona.ceiling)) continue;
    if (def.owner !== undefined && def.owner !== personaName) continue;
    out.push(prefix);
  }
  return out;
}

/** The whole PreToolUse decision: pure, given the event, the policy, the session state and the environment. */
export function decide(input: DecideInput): Decision {
  const locale = input.locale ?? localeFor(input.index, input.env);
  const shell = input.shell
    ? input.shell(input.index, input.event, input.options.sandboxed ? { sandboxed: input.options.sandboxed, locale } : { locale })
    : null;
  return audited(input, judge({ ...input, locale }, shell), shell);
}

/**
 * Enforcement `audit` (the persona's, else the policy's default): a refusal is kept in the
 * decision — status, gate, rule and reason, and the verdict in `would` — but answered as if the
 * call had passed, and the state changes as if it had (a switch let through still re-arms).
 * Self-protection always enforces.
 */
function audited(input: DecideInput, decision: Decision, shell: ShellReading | null): Decision {
  if ((decision.verdict !== 'deny' && decision.verdict !== 'ask') || decision.gate === 'self_protection') return decision;
  const { index } = input;
  const persona = decision.persona !== null ? index.persona(decision.persona) : undefined;
  if ((persona?.enforcement ?? index.settings.defaults.enforcement ?? 'enforce') !== 'audit') return decision;
  const verdict = passRuling(index).verdict;
  const stage = persona?.stages.find((s) => s.name === decision.stage) ?? null;
  const subjects = [...decision.resolution.matched, decision.resolution.primary];
  return {
    ...decision,
    verdict,
    would: decision.verdict,
    ops: stateOps(input, verdict, subjects, stage, persona ? decision.persona : null, shell),
  };
}

/**
 * A file tool that writes a file which makes later calls run commands (`.cargo/config.toml`,
 * `~/.ssh/config`, `~/.local/bin/ls`) is as strong as the commands it can make run: process_exec,
 * as the same write from the shell is (SPEC §9.1).
 */
function fileToolRaise(resolved: Subject, event: ToolEvent, home: string | undefined, m: Messages): Subject | null {
  if (resolved.via !== 'builtin' || resolved.level === null || exceeds(resolved.level, 'workspace_write')) return null;
  const target = fileToolTargets(event.tool_name, event.tool_input).find((p) => writeRunsCommandsLater(p, home));
  if (target === undefined) return null;
  return {
    ...resolved,
    level: 'process_exec',
    because: m.writesRunsLater(target),
    decidedBy: { words: target.slice(0, 200), reason: 'writes_config_that_runs' },
  };
}

function judge(input: DecideInput, shell: ShellReading | null): Decision {
  const { index, event, state, env, options } = input;
  const m = messagesFor(input.locale ?? localeFor(index, env));
  const resolved = resolveTool(index, event.tool_name, event.tool_input);
  // A shell tool is as strong as the strongest program its line runs that is not a catalogued command (SPEC §9.1).
  const primary: Subject =
    shell && !shell.unparsable && resolved.via === 'builtin'
      ? {
          ...resolved,
          level: shell.level,
          tier: defaultTier(index, shell.level),
          ...(shell.because !== undefined ? { because: shell.because } : {}),
          ...(shell.decided.length > 0
            ? { decidedBy: { words: shell.decided[0]!.words.slice(0, 200), reason: shell.decided[0]!.reason.id } }
            : {}),
        }
      : (fileToolRaise(resolved, event, env.HOME, m) ?? resolved);
  const resolution: Resolution = { primary, matched: shell?.matched ?? [], ...(shell?.unparsable ? { unparsable: shell.unparsable } : {}) };

  const persona = resolvePersona(index, event, state, env, options, m);
  const base = (ruling: Ruling, extra: Partial<Decision> & { findings: Finding[] }): Decision => ({
    ...ruling,
    persona: persona.name,
    stage: null,
    subject: primary,
    resolution,
    scope: { persona: persona.name, stage: null, families: null, allowed_tools: null, ceiling: null },
    ops: [],
    ...extra,
  });

  const scoped = persona.ok ? persona.name !== null : true;
  const protection = selfProtection({
    event,
    shellEffects: shell?.effects ?? [],
    shellDirectories: shell?.directories ?? [],
    shellGateCommands: shell?.gateCommands ?? [],
    isProtected: input.isProtected,
    scoped,
    messages: m,
    ...(options.sandboxed ? { sandboxed: options.sandboxed } : {}),
    ...(options.outsideSandbox ? { outsideSandbox: options.outsideSandbox } : {}),
  });
  if ('ruling' in protection) {
    return base(protection.ruling, { findings: [{ gate: 'self_protection', outcome: 'refuse', note: protection.ruling.reason }] });
  }
  const findings: Finding[] = [{ gate: 'self_protection', outcome: 'pass', note: protection.note }];
  const unpinned = pinRefusal(index, event.tool_name, m, input.pinned);
  if (unpinned) return base(unpinned, { findings: [...findings, { gate: 'pin', outcome: 'refuse', note: unpinned.reason }] });

  if (!persona.ok) {
    const ruling: Ruling = { verdict: 'deny', status: 'config_error', gate: 'persona', rule: 'unknown_persona', reason: persona.reason };
    return base(ruling, { findings: [...findings, { gate: 'persona', outcome: 'refuse', note: persona.reason }] });
  }
  const stage = resolveStage(persona, state, env, index, options, m);
  if (!stage.ok) {
    const ruling: Ruling = { verdict: 'deny', status: 'config_error', gate: 'persona', rule: 'unknown_stage', reason: stage.reason };
    return base(ruling, { findings: [...findings, { gate: 'persona', outcome: 'refuse', note: stage.reason }] });
  }
  findings.push({
    gate: 'persona',
    outcome: 'pass',
    note: persona.name === null ? m.noteUnscoped() : m.notePersona(persona.name, persona.source, stage.def?.name ?? null),
  });
  const scope = effectiveScope(persona.name, persona.def, stage.def, options);

  const shellRuling = shellRefusal(index, persona.name, persona.def, resolution, shell, m, input.options, event);
  const refuseShell = (ruling: Ruling): Decision => {
    const ops: StateOp[] = ruling.verdict === 'ask' && shellMayRearm(index, event, shell) ? [{ op: 'rearm' }] : [];
    return base(ruling, {
      stage: stage.def?.name ?? null,
      scope,
      ops,
      findings: [...findings, { gate: 'scope', outcome: 'refuse', note: ruling.reason }],
    });
  };
  if (shellRuling !== null && resolution.unparsable !== undefined) return refuseShell(shellRuling);

  // Matched shell commands first, so that when several are equally strict the more specific one speaks.
  const subjects = [...resolution.matched, primary];
  const switches = index.settings.identity?.switches ?? [];
  const switchedBy = resolution.matched.find((s) => switches.includes(s.key))?.key;
  let chosen: { subject: Subject; ruling: Ruling; findings: Finding[] } | null = null;
  for (const subject of subjects) {
    const ctx: GateContext = {
      index,
      event,
      subject,
      personaName: persona.name,
      persona: persona.def,
      stage: stage.def,
      scope,
      state,
      messages: m,
      env,
      options,
      ...(input.profileState ? { profileNow: input.profileState } : {}),
      ...(switchedBy !== undefined && subject.key !== switchedBy ? { switchedBy } : {}),
    };
    const walked = walkGates(ctx);
    const ruling = walked.ruling ?? passRuling(index);
    if (chosen === null || STRICTNESS[ruling.verdict] > STRICTNESS[chosen.ruling.verdict]) {
      chosen = { subject, ruling, findings: walked.findings };
    }
  }
  const decided = chosen!;
  // A catalogued command's own refusal (a handoff naming its owner) says more than the shell's.
  if (shellRuling !== null && !(decided.ruling.verdict === 'deny' && decided.subject.via === 'shell')) return refuseShell(shellRuling);
  return {
    ...decided.ruling,
    persona: persona.name,
    stage: stage.def?.name ?? null,
    subject: decided.subject,
    resolution,
    scope,
    findings: [...findings, ...decided.findings],
    ops: stateOps(input, decided.ruling.verdict, subjects, stage.def, persona.name, shell),
  };
}
