import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { locatePolicy } from '../../io/policy-source';
import { readPreferences } from '../../io/prefs';
import { StateStore } from '../../io/state-store';
import { validatePolicy } from '../../policy/validate';
import type { CommandResult } from '../errors';
import { stateDirFor } from '../context';
import { cliLocale, CLI_MESSAGES } from '../messages';
import { hardenedFindings, userSettingsPath, type Finding } from './hardened';
import { HOOK_EVENTS, isGateHook } from './init';

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
  for (const event of HOOK_EVENTS) {
    const groups = settings?.hooks?.[event];
    if (!Array.isArray(groups)) continue;
    for (const group of groups) for (const hook of Array.isArray(group?.hooks) ? group.hooks : []) if (isGateHook(hook?.command)) found.set(event, [...(found.get(event) ?? []), hook]);
  }
  return found;
}

/** The script or program a hook command runs, when it can be told. */
function commandTarget(command: string, dir: string): string | null {
  const script = /(?:^|\s)"?([^"\s]+\.c?js)"?(?:\s|$)/.exec(command);
  if (script) return resolve(dir, script[1]!.replace('${CLAUDE_PROJECT_DIR}', dir).replace('$CLAUDE_PROJECT_DIR', dir));
  if (/^npx\b/.test(command)) return join(dir, 'node_modules', '.bin', 'persona-gate');
  return null;
}

export function doctorCommand(env: Env, opts: { dir?: string; hardened?: boolean }): CommandResult {
  const locale = cliLocale(env);
  const t = CLI_MESSAGES[locale];
  const dir = resolve(opts.dir ?? env.CLAUDE_PROJECT_DIR ?? process.cwd());
  const findings: Finding[] = [];
  const files = [join(dir, '.claude', 'settings.json'), join(dir, '.claude', 'settings.local.json'), join(env.HOME ?? homedir(), '.claude', 'settings.json')];
  if (!files.includes(userSettingsPath(env))) files.push(userSettingsPath(env));
  const commands = new Set<string>();
  for (const event of HOOK_EVENTS) {
    const where = files.filter((f) => hookEntries(f).has(event));
    if (where.length === 0) {
      findings.push({ level: 'fail', text: t.checkNotRegistered(event), fix: t.fixRegister() });
      continue;
    }
    findings.push({ level: 'ok', text: t.checkRegistered(event, where.join(', ')) });
    const entries = where.flatMap((f) => hookEntries(f).get(event) ?? []);
    for (const e of entries) commands.add(String(e.command));
    if (entries.every((e) => e.onFailure === 'block')) findings.push({ level: 'ok', text: t.checkOnFailure(event) });
    else findings.push({ level: 'warn', text: t.checkNoOnFailure(event), fix: t.fixOnFailure() });
  }
  const targets: string[] = [];
  for (const command of commands) {
    const target = commandTarget(command, dir);
    if (target === null) continue;
    if (!targets.includes(target)) targets.push(target);
    findings.push(existsSync(target) ? { level: 'ok', text: t.checkCommand(target) } : { level: 'fail', text: t.checkNoCommand(target), fix: t.fixCommand() });
  }
  const location = locatePolicy({ env: { ...env, CLAUDE_PROJECT_DIR: env.CLAUDE_PROJECT_DIR ?? dir }, userDefault: readPreferences(env).policy, cwd: dir });
  if (location.path === null || !existsSync(location.path)) findings.push({ level: 'fail', text: t.checkNoPolicy(), fix: t.fixPolicy() });
  else {
    let problems = 0;
    try {
      const result = validatePolicy(JSON.parse(readFileSync(location.path, 'utf8')), locale, location.path);
      problems = result.ok ? 0 : result.problems.length;
    } catch {
      problems = 1;
    }
    findings.push(problems === 0 ? { level: 'ok', text: t.checkPolicy(location.path) } : { level: 'fail', text: t.checkInvalidPolicy(location.path, problems), fix: t.fixInvalidPolicy() });
  }
  const stateDir = stateDirFor(env);
  try {
    new StateStore(stateDir).open();
    findings.push({ level: 'ok', text: t.checkState(stateDir) });
  } catch (err) {
    findings.push({ level: 'fail', text: t.checkStateBad(stateDir, err instanceof Error ? err.message : String(err)), fix: t.fixState(stateDir) });
  }
  const node = process.versions.node;
  findings.push(Number(node.split('.')[0]) >= 20 ? { level: 'ok', text: t.checkNode(node) } : { level: 'fail', text: t.checkNodeOld(node), fix: t.fixNode() });
  const claude = spawnSync(env.PERSONA_GATE_CLAUDE_BIN ?? 'claude', ['--version'], { encoding: 'utf8', timeout: 15_000, env: env as NodeJS.ProcessEnv });
  const version = /(\d+\.\d+\.\d+)/.exec(claude.stdout ?? '')?.[1];
  if (claude.error || claude.status !== 0 || !version) findings.push({ level: 'warn', text: t.checkNoClaude(), fix: t.fixNoClaude() });
  else if (compareVersions(version, ON_FAILURE_VERSION) >= 0) findings.push({ level: 'ok', text: t.checkClaude(version) });
  else findings.push({ level: 'warn', text: t.checkClaudeOld(version), fix: t.fixClaude() });

  // SPEC §9.8: which parts of the deployment the agent cannot switch off are in place.
  const hardened = hardenedFindings({
    env,
    dir,
    t,
    strict: opts.hardened === true,
    stateDir,
    policyPath: location.path !== null && existsSync(location.path) ? location.path : null,
    targets,
    registeredIn: (file) => hookEntries(file).has('PreToolUse'),
  });

  const label = { ok: t.doctorOk(), warn: t.doctorWarn(), fail: t.doctorFail() };
  const render = (f: Finding) => [`${label[f.level].padEnd(5)} ${f.text}`, ...(f.fix && f.level !== 'ok' ? [t.doctorFix(f.fix)] : [])];
  const lines = [...findings.flatMap(render), '', t.doctorHardened(), ...hardened.flatMap(render)];
  const all = [...findings, ...hardened];
  const fails = all.filter((f) => f.level === 'fail').length;
  lines.push('', t.doctorSummary(fails, all.filter((f) => f.level === 'warn').length));
  return { stdout: `${lines.join('\n')}\n`, exitCode: fails === 0 ? 0 : 1 };
}
