import { claudeSandboxHolds } from '../../io/sandbox-state';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { locatePolicy } from '../../io/policy-source';
import { readPreferences } from '../../io/prefs';
import type { Policy } from '../../policy/schema';
import { validatePolicy } from '../../policy/validate';
import type { CommandResult } from '../errors';
import { stateDirFor } from '../context';
import { cliLocale, CLI_MESSAGES, type CliMessages } from '../messages';
import { lockFindings } from './validate';
import {
  hardenedFindings,
  managedSettingsPath,
  onPath,
  sandboxProgramFindings,
  userSettingsPath,
  writableByMe,
  type Finding,
} from './hardened';
import { launcherFindings } from './launcher-settings';
import { FAILURE_EVENT, HOOK_EVENTS, installedInProject, isGateHook, machineSpecificPath } from './init';
import { cliInvocation } from './starter';
import { definitionFindings } from './agents';

/** The first Claude Code version known to block when a hook entry says `"onFailure": "block"`. */
export const ON_FAILURE_VERSION = '2.1.332';

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function hookEntries(file: string): Map<string, Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>[]>();
  let settings: any;
  try {
    settings = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return found;
  }
  for (const event of [...HOOK_EVENTS, FAILURE_EVENT]) {
    const groups = settings?.hooks?.[event];
    if (!Array.isArray(groups)) continue;
    for (const group of groups)
      for (const hook of Array.isArray(group?.hooks) ? group.hooks : [])
        if (isGateHook(hook?.command)) found.set(event, [...(found.get(event) ?? []), hook]);
  }
  return found;
}

/**
 * The script or program a hook command runs, when it can be told: `$CLAUDE_PROJECT_DIR` is the
 * project directory; a bare program name is looked up on PATH (null when it is not there).
 */
export function commandTarget(command: string, dir: string, env: Env): { target: string | null; program: string } | null {
  const expanded = command.replace(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR/g, dir);
  const words = (expanded.match(/(?:"[^"]*"|'[^']*'|[^\s"']+)+/g) ?? []).map((w) => w.replace(/["']/g, ''));
  const script = words.find((w) => /\.c?js$/.test(w));
  if (script) return { target: resolve(dir, script), program: script };
  const first = words[0];
  if (first === undefined) return null;
  if (first === 'npx') return { target: join(dir, 'node_modules', '.bin', 'persona-gate'), program: 'npx persona-gate' };
  if (/[\\/]/.test(first)) return { target: resolve(dir, first), program: first };
  return { target: onPathWhere(first, env), program: first };
}

function onPathWhere(program: string, env: Env): string | null {
  for (const d of (env.PATH ?? '').split(delimiter)) {
    if (d && onPath(program, { PATH: d })) return join(d, program);
  }
  return null;
}

/** The state directory as the hook would find it, checked without creating anything. */
function stateFinding(stateDir: string, t: CliMessages): Finding {
  const problem = (detail: string): Finding => ({ level: 'fail', text: t.checkStateBad(stateDir, detail), fix: t.fixState(stateDir) });
  for (const dir of [stateDir, join(stateDir, 'sessions')]) {
    let st;
    try {
      st = lstatSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return problem((err as NodeJS.ErrnoException).code ?? String(err));
      if (dir !== stateDir) break;
      let parent = dirname(stateDir);
      while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
      return writableByMe(parent) ? { level: 'ok', text: t.checkStateLater(stateDir) } : problem(t.stateParentReadOnly(parent));
    }
    if (st.isSymbolicLink()) return problem(`${dir} is a symbolic link`);
    if (!st.isDirectory()) return problem(`${dir} is not a directory`);
    if (typeof process.getuid === 'function' && st.uid !== process.getuid())
      return problem(`${dir} belongs to another user (uid ${st.uid})`);
    if ((st.mode & 0o022) !== 0) return problem(`${dir} is writable by other users`);
  }
  return { level: 'ok', text: t.checkState(stateDir) };
}

/** The policy the hook would find from this directory, and whether it is valid; then what the environment names in it. */
export function policyFinding(env: Env, dir: string, t: CliMessages, locale: 'en' | 'es', claudeSandbox = true): Finding[] {
  const findings: Finding[] = [];
  const location = locatePolicy({
    env: { ...env, CLAUDE_PROJECT_DIR: env.CLAUDE_PROJECT_DIR ?? dir },
    userDefault: readPreferences(env).policy,
    cwd: dir,
  });
  let policy: Policy | null = null;
  if (location.path === null || !existsSync(location.path)) findings.push({ level: 'fail', text: t.checkNoPolicy(), fix: t.fixPolicy() });
  else {
    let problems = 0;
    try {
      const result = validatePolicy(JSON.parse(readFileSync(location.path, 'utf8')), locale, location.path);
      if (result.ok) policy = result.policy;
      problems = result.ok ? 0 : result.problems.length;
    } catch {
      problems = 1;
    }
    findings.push(
      problems === 0
        ? { level: 'ok', text: t.checkPolicy(location.path) }
        : { level: 'fail', text: t.checkInvalidPolicy(location.path, problems), fix: t.fixInvalidPolicy() },
    );
  }
  if (policy && location.path !== null) findings.push(...lockFindings(policy, location.path, t));
  // SPEC §9.2: the OS sandbox holds the guarded paths (the default deployment), or only the hook does
  if (policy && location.path !== null && claudeSandbox) {
    const holds = claudeSandboxHolds({ policyPath: resolve(location.path), env, cwd: dir, stateDir: stateDirFor(env) });
    findings.push(
      holds ? { level: 'ok', text: t.checkSandboxHolds() } : { level: 'warn', text: t.checkSandboxOff(), fix: t.fixSandboxOff() },
    );
    if (holds) findings.push(...sandboxProgramFindings(env, 'warn', t));
  }
  if (policy) findings.push(...environmentFindings(policy, env, t));
  return findings;
}

export function stateFindingFor(env: Env, t: CliMessages): Finding {
  return stateFinding(stateDirFor(env), t);
}

/** Findings as doctor prints them: a label, the text, and the fix under anything not ok. */
export function renderFindings(findings: readonly Finding[], t: CliMessages): string[] {
  const label = { ok: t.doctorOk(), warn: t.doctorWarn(), fail: t.doctorFail() };
  return findings.flatMap((f) => [`${label[f.level].padEnd(5)} ${f.text}`, ...(f.fix && f.level !== 'ok' ? [t.doctorFix(f.fix)] : [])]);
}

export function doctorCommand(env: Env, opts: { dir?: string; hardened?: boolean; json?: boolean }): CommandResult {
  const locale = cliLocale(env);
  const t = CLI_MESSAGES[locale];
  const dir = resolve(opts.dir ?? env.CLAUDE_PROJECT_DIR ?? process.cwd());
  const findings: Finding[] = [];
  const projectSettings = join(dir, '.claude', 'settings.json');
  const files = [
    ...new Set([
      projectSettings,
      join(dir, '.claude', 'settings.local.json'),
      join(env.HOME ?? homedir(), '.claude', 'settings.json'),
      userSettingsPath(env),
    ]),
  ];
  const commands = new Map<string, string>();
  for (const event of HOOK_EVENTS) {
    const where = files.filter((f) => hookEntries(f).has(event));
    if (where.length === 0) {
      findings.push({ level: 'fail', text: t.checkNotRegistered(event), fix: t.fixRegister() });
      continue;
    }
    findings.push({ level: 'ok', text: t.checkRegistered(event, where.join(', ')) });
    for (const f of where)
      for (const e of hookEntries(f).get(event) ?? [])
        if (!commands.has(String(e.command)) || f === projectSettings) commands.set(String(e.command), f);
    const entries = where.flatMap((f) => hookEntries(f).get(event) ?? []);
    if (entries.every((e) => e.onFailure === 'block')) findings.push({ level: 'ok', text: t.checkOnFailure(event) });
    else findings.push({ level: 'warn', text: t.checkNoOnFailure(event), fix: t.fixOnFailure() });
  }
  // A failed call has no PostToolUse: without this registration its broker record outlives it.
  const failureWhere = files.filter((f) => hookEntries(f).has(FAILURE_EVENT));
  if (failureWhere.length > 0) findings.push({ level: 'ok', text: t.checkRegistered(FAILURE_EVENT, failureWhere.join(', ')) });
  else findings.push({ level: 'warn', text: t.checkFailureNotRegistered(), fix: t.fixRegister() });
  const targets: string[] = [];
  for (const [command, file] of commands) {
    // The project's settings.json is committed: a path of this machine breaks every other clone and CI.
    const local = file === projectSettings ? machineSpecificPath(command) : null;
    const found = commandTarget(command, dir, env);
    if (found === null) continue;
    if (found.target === null) {
      findings.push({ level: 'fail', text: t.checkNotOnPath(found.program, command), fix: t.fixNotOnPath() });
      continue;
    }
    const target = existsSync(found.target) ? realpathSync(found.target) : found.target;
    if (!targets.includes(target)) targets.push(target);
    if (!existsSync(found.target))
      findings.push({
        level: 'fail',
        text: local ? t.checkStaleCommand(found.target, file) : t.checkNoCommand(found.target),
        fix: local ? t.fixMachineSpecific() : t.fixCommand(),
      });
    else {
      findings.push({ level: 'ok', text: t.checkCommand(found.target) });
      if (local) findings.push({ level: 'warn', text: t.checkMachineSpecific(local, file), fix: t.fixMachineSpecific() });
    }
  }
  findings.push(...policyFinding(env, dir, t, locale));
  findings.push(...definitionFindings(env, dir, t));
  const location = locatePolicy({
    env: { ...env, CLAUDE_PROJECT_DIR: env.CLAUDE_PROJECT_DIR ?? dir },
    userDefault: readPreferences(env).policy,
    cwd: dir,
  });
  const stateDir = stateDirFor(env);
  findings.push(stateFinding(stateDir, t));
  const node = process.versions.node;
  findings.push(
    Number(node.split('.')[0]) >= 20
      ? { level: 'ok', text: t.checkNode(node) }
      : { level: 'fail', text: t.checkNodeOld(node), fix: t.fixNode() },
  );
  const claude = spawnSync(env.PERSONA_GATE_CLAUDE_BIN ?? 'claude', ['--version'], {
    encoding: 'utf8',
    timeout: 15_000,
    env: env as NodeJS.ProcessEnv,
  });
  const version = /(\d+\.\d+\.\d+)/.exec(claude.stdout ?? '')?.[1];
  if (claude.error || claude.status !== 0 || !version) findings.push({ level: 'warn', text: t.checkNoClaude(), fix: t.fixNoClaude() });
  else if (compareVersions(version, ON_FAILURE_VERSION) >= 0) findings.push({ level: 'ok', text: t.checkClaude(version) });
  else findings.push({ level: 'warn', text: t.checkClaudeOld(version), fix: t.fixClaude() });

  // SPEC §9.8: which parts of the deployment the agent cannot switch off are in place.
  const policyPath = location.path !== null && existsSync(location.path) ? location.path : null;
  const hardened = hardenedFindings({
    env,
    dir,
    t,
    strict: opts.hardened === true,
    stateDir,
    policyPath,
    targets,
    registeredIn: (file) => hookEntries(file).has('PreToolUse'),
  });
  // SPEC §9.3: each catalogued program starts only through the launcher.
  hardened.push(
    ...launcherFindings({
      env,
      dir,
      stateDir,
      policyPath,
      userPath: userSettingsPath(env),
      managedPath: managedSettingsPath(),
      t,
      missing: opts.hardened === true ? 'fail' : 'warn',
    }),
  );

  const all = [...findings, ...hardened];
  const fails = all.filter((f) => f.level === 'fail').length;
  const warns = all.filter((f) => f.level === 'warn').length;
  if (opts.json) {
    const shape = (section: string) => (f: Finding) => ({
      section,
      level: f.level,
      text: f.text,
      ...(f.fix && f.level !== 'ok' ? { fix: f.fix } : {}),
    });
    const body = {
      ok: fails === 0,
      failed: fails,
      warnings: warns,
      checks: [...findings.map(shape('setup')), ...hardened.map(shape('hardened'))],
    };
    return { stdout: `${JSON.stringify(body, null, 2)}\n`, exitCode: fails === 0 ? 0 : 1 };
  }
  // Without --hardened, the hardened deployment is one line: what is missing is counted, and --hardened lists it.
  const shownHardened =
    opts.hardened === true ? hardened : [groupHardened(hardened, t, cliInvocation(installedInProject(dir) ? 'project' : 'global', env))];
  const shown = [...findings, ...shownHardened];
  const lines = [...renderFindings(findings, t), '', t.doctorHardened(), ...renderFindings(shownHardened, t)];
  lines.push('', t.doctorSummary(shown.filter((f) => f.level === 'fail').length, shown.filter((f) => f.level === 'warn').length));
  return { stdout: `${lines.join('\n')}\n`, exitCode: fails === 0 ? 0 : 1 };
}

/** The hardened deployment's findings as one: in place, or how many parts are not and where to see them. */
export function groupHardened(hardened: readonly Finding[], t: CliMessages, cli: string): Finding {
  const missing = hardened.filter((f) => f.level !== 'ok').length;
  const worst = hardened.some((f) => f.level === 'fail') ? 'fail' : 'warn';
  if (missing === 0) return { level: 'ok', text: t.hardAllInPlace(hardened.length) };
  return { level: worst, text: t.hardGrouped(missing, hardened.length), fix: t.fixHardenedList(cli) };
}

/** The persona and stage the environment names must be the policy's: a typo there refuses every call. */
function environmentFindings(policy: Policy, env: Env, t: CliMessages): Finding[] {
  const out: Finding[] = [];
  const personaEnv = policy.persona_env ?? 'PERSONA_GATE_PERSONA';
  const stageEnv = policy.stage_env ?? 'PERSONA_GATE_STAGE';
  const persona = env[personaEnv]?.trim();
  const names = Object.keys(policy.personas);
  if (persona) {
    if (names.includes(persona)) out.push({ level: 'ok', text: t.checkEnvPersona(personaEnv, persona) });
    else
      out.push({ level: 'fail', text: t.checkEnvPersonaUnknown(personaEnv, persona, names.join(', ')), fix: t.fixEnvPersona(personaEnv) });
  }
  const stage = env[stageEnv]?.trim();
  if (stage) {
    const stages = persona && names.includes(persona) ? (policy.personas[persona]?.stages ?? []).map((s) => s.name) : [];
    if (stages.includes(stage)) out.push({ level: 'ok', text: t.checkEnvStage(stageEnv, stage) });
    else
      out.push({
        level: 'fail',
        text: t.checkEnvStageUnknown(stageEnv, stage, persona && names.includes(persona) ? persona : null, stages.join(', ')),
        fix: t.fixEnvPersona(stageEnv),
      });
  }
  return out;
}
