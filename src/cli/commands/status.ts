import { projectGuards } from './init';
import { removeHardened } from './hardened';
import { existsSync, readFileSync, readdirSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { buildPolicyIndex, type PolicyIndex } from '../../core/policy-index';
import type { Receipt } from '../../core/receipt';
import { emptyState, type SessionState } from '../../core/state';
import { sha256Hex } from '../../io/hash';
import { locatePolicy } from '../../io/policy-source';
import { readPreferences } from '../../io/prefs';
import { receiptsFile } from '../../io/receipts';
import { StateStore } from '../../io/state-store';
import { validatePolicy } from '../../policy/validate';
import { stateDirFor } from '../context';
import type { CommandResult } from '../errors';
import { cliLocale, CLI_MESSAGES, type CliMessages } from '../messages';
import { effectiveScope, knownSessions, lastReceipts, resolveSession, type Effective } from '../sessions';
import { EXAMPLES, isGateHook, removeHooks } from './init';
import { purgeStarterTests } from './starter';
import { isObject, readSettings, userSettingsPath } from './hardened';
import { formatReceipt } from './log';
import { isDeepStrictEqual } from 'node:util';
import { execMapFile } from '../../exec/map';
import { pruneShims } from './launcher-settings';
import { applyTakeBack, InstallRecord, recordOwner, removeEmptyDir, type FileKind, type TakeBack } from './install-record';
import type { Json } from './hardened';

interface PolicyStatus {
  path: string | null;
  sha256: string | null;
  valid: boolean;
  problems: number;
  index: PolicyIndex | null;
}

/** The policy the hook would find for this project, read and validated; nothing is written. */
function projectPolicy(env: Env, dir: string, config?: string): PolicyStatus {
  const location = locatePolicy({
    explicit: config,
    env: { ...env, CLAUDE_PROJECT_DIR: env.CLAUDE_PROJECT_DIR?.trim() || dir },
    userDefault: readPreferences(env).policy,
    cwd: dir,
  });
  if (location.path === null || !existsSync(location.path))
    return { path: location.path, sha256: null, valid: false, problems: 0, index: null };
  let bytes: Buffer;
  try {
    bytes = readFileSync(location.path);
  } catch {
    return { path: location.path, sha256: null, valid: false, problems: 1, index: null };
  }
  const sha256 = sha256Hex(bytes);
  try {
    const result = validatePolicy(JSON.parse(bytes.toString('utf8')), cliLocale(env), location.path);
    if (!result.ok) return { path: location.path, sha256, valid: false, problems: result.problems.length, index: null };
    return { path: location.path, sha256, valid: true, problems: 0, index: buildPolicyIndex(result.policy, sha256, location.path) };
  } catch {
    return { path: location.path, sha256, valid: false, problems: 1, index: null };
  }
}

/** The most recent session whose last decision was made under this policy. */
function latestSession(stateDir: string, sha256: string | null): string | null {
  if (sha256 === null) return null;
  for (const s of knownSessions(stateDir)) {
    const last = lastReceipts(s.file, 1)[0];
    if (last?.policy_sha256 === sha256) return s.id;
  }
  return null;
}

interface SessionStatus {
  id: string;
  state: SessionState;
  scope: Effective;
  last: Receipt[];
}

function sessionStatus(env: Env, stateDir: string, id: string, index: PolicyIndex | null, limit: number): SessionStatus {
  const state = new StateStore(stateDir).read(id).state;
  const last = lastReceipts(receiptsFile(stateDir, id), limit);
  return { id, state, scope: effectiveScope(state, env, index, last[last.length - 1] ?? null), last };
}

function personaWords(t: CliMessages, scope: Effective): string {
  if (scope.persona === null) return t.statusUnscoped();
  return t.statusPersona(scope.persona, scope.persona_source, scope.persona_env);
}

export function statusCommand(env: Env, opts: { session?: string; json?: boolean; config?: string; dir?: string }): CommandResult {
  const t = CLI_MESSAGES[cliLocale(env)];
  const dir = resolve(opts.dir ?? env.CLAUDE_PROJECT_DIR ?? process.cwd());
  const stateDir = stateDirFor(env);
  const policy = projectPolicy(env, dir, opts.config);
  const id = opts.session !== undefined ? resolveSession(env, stateDir, opts.session, true) : latestSession(stateDir, policy.sha256);
  const session = id === null ? null : sessionStatus(env, stateDir, id, policy.index, 5);
  const identity = policy.index?.settings.identity !== undefined;
  const scope = session?.scope ?? effectiveScope(emptyState(), env, policy.index, null);
  const exitCode = policy.valid ? 0 : 1;
  if (opts.json) {
    const body = {
      policy: { path: policy.path, sha256: policy.sha256, valid: policy.valid, problems: policy.problems },
      session: session?.id ?? null,
      ...scope,
      identity: session && identity ? { confirmed: session.state.confirmed, label: session.state.label } : null,
      last: session?.last ?? [],
    };
    return { stdout: `${JSON.stringify(body, null, 2)}\n`, exitCode };
  }
  const lines: string[] = [];
  if (policy.path === null || policy.sha256 === null) lines.push(t.statusNoPolicy());
  else if (policy.valid) lines.push(t.statusPolicy(policy.path, policy.sha256));
  else lines.push(t.statusPolicyInvalid(policy.path, policy.problems));
  lines.push(session ? t.statusSession(session.id) : t.statusNoSession());
  lines.push(`${t.statusPersonaLabel()} ${personaWords(t, scope)}`);
  lines.push(
    `${t.statusStageLabel()} ${scope.stage === null ? t.statusNone() : t.statusStage(scope.stage, scope.stage_source, scope.stage_env)}`,
  );
  if (!identity) lines.push(`${t.statusIdentityLabel()} ${t.statusNoIdentityGate()}`);
  else if (session)
    lines.push(`${t.statusIdentityLabel()} ${session.state.confirmed ? t.statusConfirmed(session.state.label) : t.statusNotConfirmed()}`);
  if (session && session.last.length > 0) lines.push('', t.statusLast(), ...session.last.map((r) => formatReceipt(r, false)));
  return { stdout: `${lines.join('\n')}\n`, exitCode };
}

/** Claude Code's status-line input: the fields read here, all optional. */
interface StatusLineInput {
  session_id?: unknown;
  cwd?: unknown;
  workspace?: { current_dir?: unknown; project_dir?: unknown };
}

/**
 * `statusLine` command: one short line, always exit 0, never a write. Claude Code runs it after
 * each assistant message with the session's JSON on stdin.
 */
export function statuslineCommand(env: Env, input: string): CommandResult {
  const t = CLI_MESSAGES[cliLocale(env)];
  try {
    let data: StatusLineInput = {};
    try {
      const parsed: unknown = JSON.parse(input);
      if (isObject(parsed)) data = parsed as StatusLineInput;
    } catch {
      // no input: the project and the environment still tell the persona
    }
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
    const workspace = isObject(data.workspace) ? data.workspace : {};
    const dir = str(workspace.project_dir) ?? str(env.CLAUDE_PROJECT_DIR) ?? str(workspace.current_dir) ?? str(data.cwd) ?? process.cwd();
    const policy = projectPolicy(env, dir);
    if (policy.path === null || policy.sha256 === null) return { stdout: `${t.lineNoPolicy()}\n`, exitCode: 0 };
    if (!policy.valid) return { stdout: `${t.lineInvalidPolicy()}\n`, exitCode: 0 };
    const stateDir = stateDirFor(env);
    const id = str(data.session_id);
    const session = id ? sessionStatus(env, stateDir, id, policy.index, 1) : null;
    const scope = session?.scope ?? effectiveScope(emptyState(), env, policy.index, null);
    const parts = [scope.persona ?? t.lineUnscoped()];
    if (scope.stage) parts.push(scope.stage);
    if (policy.index?.settings.identity !== undefined) {
      const state = session?.state ?? emptyState();
      if (state.label) parts.push(state.label);
      parts.push(state.confirmed ? t.lineConfirmed() : t.lineNotConfirmed());
    }
    return { stdout: `persona-gate: ${parts.join(' · ')}\n`, exitCode: 0 };
  } catch {
    return { stdout: `${t.lineUnknown()}\n`, exitCode: 0 };
  }
}

/**
 * Removes exactly what `init` added: the hook entries of the project's settings, and what the
 * install record says init added to the local settings, the launch settings, the exec map and (for
 * `init --hardened`) the user settings; `--purge` also the policy. Everything is read first: a
 * file that cannot be read, or is not the shape init left, changes nothing.
 */
export function uninstallCommand(env: Env, opts: { dir?: string; purge?: boolean }): CommandResult {
  const t = CLI_MESSAGES[cliLocale(env)];
  const dir = resolve(opts.dir ?? process.cwd());
  const claudeDir = join(dir, '.claude');
  const settingsPath = join(claudeDir, 'settings.json');
  const policyPath = join(claudeDir, 'persona-gate.json');
  const localPath = join(claudeDir, 'settings.local.json');
  const stateDir = stateDirFor(env);
  const { settings, original } = readSettings(settingsPath, t);
  const { settings: next, removed } = removeHooks(settings);
  const record = InstallRecord.open(stateDir, t);
  const taken = takeBackAll(record, recordOwner('claude-code', dir), execMapFile(stateDir), t);
  // An init from before the record (it holds nothing for this project, and the local file still
  // write-denies the policy): its sandbox settings there, under --purge, as far as they can be told
  // from the user's.
  let legacy: Json | null = null;
  if (opts.purge && taken.files.length === 0 && existsSync(localPath)) {
    const local = readSettings(localPath, t);
    const sandbox = isObject(local.settings.sandbox) ? local.settings.sandbox : {};
    const denyWrite = isObject(sandbox.filesystem) ? sandbox.filesystem.denyWrite : undefined;
    if (Array.isArray(denyWrite) && denyWrite.includes(policyPath)) {
      const kept = removeHardened(local.settings, projectGuards(env, dir, policyPath));
      if (!isDeepStrictEqual(kept, local.settings)) legacy = kept;
    }
  }

  const lines: string[] = [];
  if (original === null || removed.length === 0) lines.push(t.uninstallNothing(settingsPath));
  else {
    if (Object.keys(next).length === 0) unlinkSync(settingsPath);
    else writeFileSync(settingsPath, `${JSON.stringify(next, null, 2)}\n`);
    lines.push(
      Object.keys(next).length === 0
        ? t.uninstallRemovedFile(settingsPath, removed.join(', '))
        : t.uninstallRemoved(settingsPath, removed.join(', ')),
    );
  }
  lines.push(...taken.apply());
  if (legacy !== null) {
    if (Object.keys(legacy).length === 0) unlinkSync(localPath);
    else writeFileSync(localPath, `${JSON.stringify(legacy, null, 2)}\n`);
    lines.push(t.uninstallSandboxRemoved(localPath));
  }
  if (opts.purge) {
    if (existsSync(policyPath)) {
      unlinkSync(policyPath);
      lines.push(t.uninstallPolicyRemoved(policyPath));
    } else lines.push(t.uninstallNoPolicy(policyPath));
    lines.push(...purgeStarterTests(policyPath, t, EXAMPLES));
    try {
      if (readdirSync(claudeDir).length === 0) rmdirSync(claudeDir);
    } catch {
      // not there, or not empty: left as it is
    }
  } else if (existsSync(policyPath)) lines.push(t.uninstallKeptPolicy(policyPath));
  // Registrations init did not write here are named, not touched.
  for (const other of [localPath, userSettingsPath(env)]) {
    try {
      const s: unknown = JSON.parse(readFileSync(other, 'utf8'));
      const hooks = isObject(s) && isObject(s.hooks) ? s.hooks : {};
      const registered = Object.values(hooks).some(
        (groups) =>
          Array.isArray(groups) &&
          groups.some((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isObject(h) && isGateHook(h.command))),
      );
      if (registered) lines.push(t.uninstallElsewhere(other));
    } catch {
      // absent or unreadable: nothing to say
    }
  }
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}

/**
 * Plans taking `owner`'s part out of every file the record holds for it (reading each, so that a
 * bad one stops everything before a write); `apply` writes the changes and the record, removes
 * the directories init made when they are empty, and returns the lines to print.
 */
export function takeBackAll(
  record: InstallRecord,
  owner: string,
  execMap: string,
  t: CliMessages,
  kind: FileKind = 'claude',
): { files: string[]; apply(): string[] } {
  const files = record.filesOf(owner);
  const changes: { change: TakeBack; hooks: string | null }[] = [];
  for (const file of files) {
    const current = existsSync(file) ? readSettings(file, t).settings : null;
    let now = current;
    let hooks: string | null = null;
    if (now !== null && record.hooksGo(file, owner)) {
      const gone = removeHooks(now);
      if (gone.removed.length > 0) {
        now = gone.settings;
        hooks = gone.removed.join(', ');
      }
    }
    const change = record.takeBack(file, owner, now, file === execMap ? 'exec-map' : kind, hooks !== null);
    if (change) changes.push({ change, hooks });
  }
  const dirs = record.takeDirs(owner);
  return {
    files,
    apply() {
      const lines: string[] = [];
      for (const { change, hooks } of changes) {
        applyTakeBack(change, change.file === execMap ? 0o600 : undefined);
        if (hooks !== null) lines.push(t.uninstallHookTakenBack(change.file, hooks));
        if (change.text === null) lines.push(t.uninstallTookBackFile(change.file, change.removed));
        else if (change.restored) lines.push(t.uninstallRestored(change.file, change.removed));
        else lines.push(t.uninstallTookBack(change.file, change.removed));
      }
      record.save();
      // The shims stand for the launched programs: they go with them.
      if (changes.some(({ change }) => change.file === execMap))
        for (const p of pruneShims(dirname(execMap))) lines.push(t.uninstallDirRemoved(p));
      for (const d of dirs) if (removeEmptyDir(d)) lines.push(t.uninstallDirRemoved(d));
      return lines;
    },
  };
}
