import type { Level } from './levels';
import type { Messages } from './messages';
import type { PolicyIndex } from './policy-index';
import type { PersonaDef, StageDef } from '../policy/schema';
import type { Subject } from './resolve';
import type { SessionState } from './state';
import type { ToolEvent } from './event';

export type Verdict = 'allow' | 'deny' | 'ask' | 'abstain';

export type Status =
  | 'ok'
  | 'protected'
  | 'config_error'
  | 'permission_denied'
  | 'handoff_denied'
  | 'scope_violation'
  | 'iteration_limit'
  | 'unlisted_command'
  | 'identity_required'
  | 'blocked'
  | 'confirmation_required'
  | 'unknown_tool'
  | 'not_pinned'
  | 'invalid_event'
  | 'state_error'
  | 'deadline'
  | 'internal_error';

export type GateName =
  | 'self_protection'
  | 'pin'
  | 'persona'
  | 'scope'
  | 'delegation'
  | 'handoff'
  | 'stage'
  | 'identity'
  | 'confirmation'
  | 'unknown_tool'
  | 'pass'
  | 'hook';

/** What ends a walk through the gates: the verdict, and the gate and rule that decided it. */
export interface Ruling {
  verdict: Verdict;
  status: Status;
  gate: GateName;
  rule: string;
  reason: string;
}

export interface Scope {
  persona: string | null;
  stage: string | null;
  families: string[] | null;
  allowed_tools: string[] | null;
  ceiling: Level | null;
}

/** Narrowing given to one hook registration by `--allowed-tools` / `--side-effect-level`. */
export interface DispatchScope {
  allowedTools?: string[];
  sideEffectLevel?: Level;
}

export interface DecideOptions {
  confirmOn: 'pre' | 'post';
  dispatch?: DispatchScope;
  /** `explain --persona`: replaces persona resolution. */
  persona?: string;
  /** `explain --stage`: replaces the session's stage. */
  stage?: string;
  /**
   * The host lets a running command be given input later without a hook event (Codex's
   * write_stdin): a program that takes its code from stdin is then code the gate never sees.
   */
  unseenStdin?: boolean;
  /**
   * Whether the host's OS sandbox write-denies every guarded path for what the shell starts (SPEC
   * §9.2): gate 0 then refuses only what it can see writes one, not what merely may. Asked only
   * when the answer changes a verdict (it reads the host's settings).
   */
  sandboxed?: () => boolean;
  /**
   * Where a file tool's write lands when it lies outside every directory the OS sandbox lets the
   * agent's shell write, as the kernel resolves it; null when it lies inside one, or the sandbox is
   * off (SPEC §9.2). The file tools run outside the sandbox: this holds them to its bounds.
   */
  outsideSandbox?: (path: string, cwd: string | undefined) => { landing: string; writable: readonly string[] } | null;
  /**
   * Whether each start of this catalogued program is judged where it really happens, whatever
   * code starts it (SPEC §9.3: the sandbox hides it, and the broker judges the starts other
   * programs make on this call): code the reader cannot read may then name it.
   */
  startChecked?: (program: string) => boolean;
  /**
   * A start another program made during a call the hook let through (the broker's): the stage's
   * iteration cap counts calls, and that call was counted, so the start is neither held to the cap
   * nor counted again.
   */
  withinCall?: boolean;
}

/**
 * What a call does to a path (SPEC §9.5): `write` its content (through links); `destroy` it —
 * remove, move, replace or change the mode of it and what it holds; write or replace files
 * `beneath` it whose names only the input says (an archive extracted, a patch applied, another
 * commit checked out); put files of unknown names `into` it; make a `link` that points to it; hand
 * it to code the gate cannot read (`mention`); or, for a git work tree, put another commit's
 * version of every file it tracks in place (`tracked`).
 */
export type PathEffect = 'write' | 'destroy' | 'beneath' | 'into' | 'link' | 'mention' | 'tracked';

/**
 * Says whether doing `effect` to `path` touches something persona-gate guards, and what (edge-
 * supplied: it looks at the file system). `pattern`: the path is a glob that may expand to others.
 */
export type ProtectedPathCheck = (path: string, cwd: string | undefined, effect?: PathEffect, pattern?: boolean) => string | null;

/**
 * What the MCP lock beside the policy pins, for a policy that does not take its commands from it
 * (edge-supplied, read on first use): for a tool of a pinned server, whether the lock lists it;
 * null for a tool of no pinned server (or no lock); `unreadable` when the lock is there but
 * cannot be read.
 */
/**
 * The domain's active-profile state as it is now (identity.profile_state, SPEC §9.4): a
 * fingerprint to compare with the one recorded at confirmation, or why it cannot be told.
 */
export type ProfileObservation = { ok: true; fingerprint: string } | { ok: false; detail: string };
export type ProfileStateReader = () => ProfileObservation;

export type PinnedLookup = (toolName: string) => { server: string; listed: boolean } | { unreadable: string } | null;

/** A path that names the same file from any working directory: absolute, or from the home directory. */
export function isAbsoluteOrHome(path: string): boolean {
  return path.startsWith('/') || path === '~' || path.startsWith('~/');
}

export interface GateContext {
  index: PolicyIndex;
  event: ToolEvent;
  subject: Subject;
  personaName: string | null;
  persona: PersonaDef | null;
  stage: StageDef | null;
  scope: Scope;
  state: SessionState;
  messages: Messages;
  env: Readonly<Record<string, string | undefined>>;
  options: DecideOptions;
  /** Reads the domain's profile state, where the policy names one (the hook always passes it). */
  profileNow?: ProfileStateReader;
  /** The call also switches the profile (a switch among its commands): what else it runs follows the switch, unconfirmed. */
  switchedBy?: string;
}

export type GateOutcome = { ruling: Ruling } | { note: string };

export interface Gate {
  name: GateName;
  check(ctx: GateContext): GateOutcome;
}

export interface Finding {
  gate: GateName;
  outcome: 'pass' | 'refuse' | 'decide';
  note: string;
}
