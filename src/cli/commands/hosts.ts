import { existsSync, mkdirSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { HOST_NAMES, isHostName, type HostName } from '../../hosts/host';
import { codexHome, home, HOST_REGISTRATIONS, type HostRegistration } from '../../hosts/registration';
import { CliError, type CommandResult } from '../errors';
import { CLI_MESSAGES, cliLocale, type CliMessages } from '../messages';
import { isObject, onPath, readJsonQuiet, readSettings, type Finding, type Json } from './hardened';
import {
  EXAMPLES,
  GLOBAL_HOOK_COMMAND,
  installedInProject,
  isGateHook,
  machineSpecificPath,
  mergeHooks,
  PROJECT_HOOK_COMMAND,
  removeHooks,
} from './init';
import { cliInvocation, purgeStarterTests, writeStarter } from './starter';
import { commandTarget, policyFinding, renderFindings, stateFindingFor } from './doctor';
import { codexTrust, readCodexTrust, withCodexTrust } from './codex-trust';
import { droidSandboxFindings, planDroidSandbox } from './droid-sandbox';
import { InstallRecord, recordOwner } from './install-record';
import { takeBackAll } from './status';
import { execMapFile } from '../../exec/map';
import { codexSandboxFindings, hasCodexSandbox, planCodexSandbox, readText, withoutCodexSandbox } from './codex-sandbox';
import { stateDirFor } from '../context';

export type OtherHost = Exclude<HostName, 'claude-code'>;

/** persona-gate's hook entries in one registration file, by event name. */
function gateEntries(file: string, reg: HostRegistration): Map<string, Json[]> {
  const found = new Map<string, Json[]>();
  let hooks: unknown = readJsonQuiet(file);
  for (const key of reg.layout.hooksPath) hooks = isObject(hooks) ? hooks[key] : undefined;
  if (!isObject(hooks)) return found;
  for (const { name } of reg.layout.events) {
    const groups = hooks[name];
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const hook of group.hooks) if (isObject(hook) && isGateHook(hook.command)) found.set(name, [...(found.get(name) ?? []), hook]);
    }
  }
  return found;
}

/**
 * The command init registers for a host. Where the host gives hooks CLAUDE_PROJECT_DIR, the same
 * portable command as Claude Code's; where it does not (Codex), the project's own installation by
 * its absolute path (that host's registration is the user's, on this machine), else the one on PATH.
 */
function hostHookCommand(dir: string, reg: HostRegistration): { command: string; install: 'project' | 'global' } {
  const inProject = installedInProject(dir);
  const base = !inProject
    ? GLOBAL_HOOK_COMMAND
    : reg.setsProjectDir
      ? PROJECT_HOOK_COMMAND
      : `${JSON.stringify(join(dir, 'node_modules', '.bin', 'persona-gate'))} hook`;
  return { command: `${base} ${reg.hookFlags}`, install: inProject ? 'project' : 'global' };
}

const geminiHome = (env: Env) => env.GEMINI_CLI_HOME?.trim() || home(env);

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Gemini runs a project's hooks only in a folder the user trusts: the trust is part of the
 * registration. Its rule: a key covers that folder and everything below it (TRUST_PARENT: the key's
 * parent), paths compared after resolving symbolic links, the longest matching key wins.
 */
function geminiTrust(dir: string, env: Env): { path: string; trusted: boolean; add(): void } {
  const path = env.GEMINI_CLI_TRUSTED_FOLDERS_PATH?.trim() || join(geminiHome(env), '.gemini', 'trustedFolders.json');
  const folders = readJsonQuiet(path) ?? {};
  const real = realOr(dir);
  let best: { length: number; trusted: boolean } | null = null;
  for (const [key, value] of Object.entries(folders)) {
    const folder = realOr(value === 'TRUST_PARENT' ? dirname(key) : key);
    if (real !== folder && !real.startsWith(folder.endsWith('/') ? folder : `${folder}/`)) continue;
    if (best === null || folder.length > best.length)
      best = { length: folder.length, trusted: value === 'TRUST_FOLDER' || value === 'TRUST_PARENT' };
  }
  return {
    path,
    trusted: best?.trusted === true,
    add() {
      writeJson(path, { ...folders, [real]: 'TRUST_FOLDER' });
    },
  };
}

/** Gemini settings that switch hooks off or strip the persona variables, in the files it merges (system over project over user). */
function geminiSwitches(dir: string, env: Env, t: CliMessages): Finding[] {
  const files = [
    env.GEMINI_CLI_SYSTEM_SETTINGS_PATH?.trim() || '/etc/gemini-cli/settings.json',
    join(dir, '.gemini', 'settings.json'),
    join(geminiHome(env), '.gemini', 'settings.json'),
  ];
  const findings: Finding[] = [];
  let redaction = false;
  for (const file of files) {
    const settings = readJsonQuiet(file);
    if (settings === null) continue;
    const hooksConfig = isObject(settings.hooksConfig) ? settings.hooksConfig : {};
    if (hooksConfig.enabled === false) findings.push({ level: 'fail', text: t.checkGeminiHooksOff(file), fix: t.fixGeminiHooksOff() });
    if (
      Array.isArray(hooksConfig.disabled) &&
      hooksConfig.disabled.some((d) => typeof d === 'string' && (/persona-gate/.test(d) || d === 'persona-gate'))
    ) {
      findings.push({ level: 'fail', text: t.checkGeminiHookDisabled(file), fix: t.fixGeminiHooksOff() });
    }
    const security = isObject(settings.security) ? settings.security : {};
    if (isObject(security.environmentVariableRedaction) && security.environmentVariableRedaction.enabled === true) redaction = true;
  }
  if (redaction || env.GITHUB_SHA || env.SURFACE === 'Github')
    findings.push({ level: 'warn', text: t.checkGeminiRedaction(), fix: t.fixGeminiRedaction() });
  return findings;
}

/**
 * Qwen Code: `disableAllHooks` in the project's or the user's settings switches every hook off,
 * unless the system settings pin it to false; with folder trust on, an untrusted folder's hooks are skipped.
 */
function qwenSwitches(dir: string, env: Env, t: CliMessages): Finding[] {
  const systemFile = env.QWEN_CODE_SYSTEM_SETTINGS_PATH?.trim() || '/etc/qwen-code/settings.json';
  const system = readJsonQuiet(systemFile);
  const findings: Finding[] = [];
  if (system?.disableAllHooks === false) findings.push({ level: 'ok', text: t.checkQwenPinned(systemFile) });
  else {
    const userDir = env.QWEN_HOME?.trim() || join(home(env), '.qwen');
    for (const file of [join(dir, '.qwen', 'settings.json'), join(userDir, 'settings.json')]) {
      if (readJsonQuiet(file)?.disableAllHooks === true)
        findings.push({ level: 'fail', text: t.checkQwenHooksOff(file), fix: t.fixQwenHooksOff(systemFile) });
    }
    if (system?.disableAllHooks === true)
      findings.push({ level: 'fail', text: t.checkQwenHooksOff(systemFile), fix: t.fixQwenHooksOff(systemFile) });
    if (findings.length === 0) findings.push({ level: 'warn', text: t.checkQwenNotPinned(systemFile), fix: t.fixQwenHooksOff(systemFile) });
  }
  return findings;
}

const copilotHome = (env: Env) => join(home(env), '.copilot');

/** Copilot reads a project's .github/hooks only in a folder listed in ~/.copilot/config.json's trustedFolders (or below one). */
function copilotTrust(dir: string, env: Env): { path: string; trusted: boolean; add(): void } {
  const path = join(copilotHome(env), 'config.json');
  const config = readJsonQuiet(path) ?? {};
  const folders = Array.isArray(config.trustedFolders) ? config.trustedFolders.filter((f): f is string => typeof f === 'string') : [];
  const real = realOr(dir);
  const trusted = folders.some((f) => {
    const folder = realOr(f);
    return real === folder || real.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
  });
  return {
    path,
    trusted,
    add() {
      writeJson(path, { ...config, trustedFolders: [...folders, real] });
    },
  };
}

const codexConfig = (env: Env) => join(codexHome(env), 'config.toml');

/**
 * Records the user's trust in persona-gate's handlers of Codex's hooks.json (Codex skips untrusted
 * hooks without a word), and writes the sandbox step's profile into the same config.toml.
 */
function recordCodexTrust(
  hooksPath: string,
  hooksFile: Json,
  env: Env,
  t: CliMessages,
  sandbox: ReturnType<typeof planCodexSandbox>,
): string[] {
  const config = codexConfig(env);
  const before = readText(config);
  const trust = codexTrust(hooksPath, hooksFile);
  // The sandbox blocks out first: a trust table taken out would otherwise take the comment that opens the next block.
  const base = withoutCodexSandbox(before);
  const trusted = withCodexTrust(base, new Set(trust.map((x) => x.key)), trust);
  const { text: after, lines } = sandbox.apply(trusted, before);
  if (after !== before) {
    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(config, after);
  }
  return [trusted === base ? t.codexTrustKept(config) : t.codexTrusted(trust.length, config), ...lines];
}

function codexTrustFindings(reg: HostRegistration, dir: string, env: Env, t: CliMessages): Finding[] {
  const config = codexConfig(env);
  const tables = readCodexTrust(readText(config));
  const findings: Finding[] = [];
  for (const file of reg.files(dir, env)) {
    const parsed = readJsonQuiet(file);
    if (parsed === null) continue;
    for (const { key, hash } of codexTrust(file, parsed)) {
      const table = tables.get(key);
      if (table?.enabled === false)
        findings.push({ level: 'fail', text: t.checkCodexDisabled(key, config), fix: t.fixRegisterHost('codex') });
      else if (table?.hash === hash) findings.push({ level: 'ok', text: t.checkCodexTrusted(key) });
      else
        findings.push({
          level: 'fail',
          text: table ? t.checkCodexModified(key, config) : t.checkCodexUntrusted(key, config),
          fix: t.fixRegisterHost('codex'),
        });
    }
  }
  return findings;
}

function writeJson(path: string, value: Json): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

export function initHost(
  env: Env,
  host: OtherHost,
  opts: { dir?: string; example?: string; exampleGiven?: boolean; force?: boolean; command?: string; locale?: string; sandbox?: boolean },
): CommandResult {
  const t = CLI_MESSAGES[cliLocale(env)];
  const reg = HOST_REGISTRATIONS[host];
  const dir = resolve(opts.dir ?? process.cwd());
  const example = opts.example ?? 'tax-filing';
  if (!(EXAMPLES as readonly string[]).includes(example)) throw new CliError(t.initBadExample(example, EXAMPLES.join(', ')));
  if (opts.locale !== undefined && opts.locale !== 'en' && opts.locale !== 'es') throw new CliError(t.initBadLocale(opts.locale));
  const { path } = reg.file(dir, env);
  const { settings, original } = readSettings(path, t);
  const chosen = hostHookCommand(dir, reg);
  const command =
    opts.command !== undefined ? `${opts.command} ${opts.command.includes('--host') ? '' : reg.hookFlags}`.trim() : chosen.command;
  const replace =
    opts.command !== undefined
      ? () => true
      : (existing: string) => machineSpecificPath(existing) !== null || !existing.includes(`--host ${host}`);
  const merged = mergeHooks(settings, command, path, t, replace, reg.layout);
  const cli = cliInvocation(chosen.install, env);
  const policyPath = join(dir, '.claude', 'persona-gate.json');
  // Droid's sandbox, planned before anything is written.
  const droidSandbox = host === 'droid' ? planDroidSandbox(env, dir, policyPath, opts.sandbox !== false, t) : null;
  const codexSandbox =
    host === 'codex'
      ? planCodexSandbox(
          env,
          dir,
          policyPath,
          command,
          { path: codexConfig(env), text: readText(codexConfig(env)) },
          opts.sandbox !== false,
          t,
        )
      : null;
  mkdirSync(dirname(policyPath), { recursive: true });
  const starter = {
    example,
    asked: opts.exampleGiven === true,
    force: opts.force === true,
    ...(opts.locale !== undefined ? { locale: opts.locale as 'en' | 'es' } : {}),
  };
  const lines: string[] = writeStarter(policyPath, starter, t, cli);
  if (merged.changed.length > 0 || original === null) {
    writeJson(path, merged.settings);
    for (const old of merged.replaced) lines.push(t.initReplaced(old));
    lines.push(t.initRegistered(path, (merged.changed.length > 0 ? merged.changed : reg.layout.events.map((e) => e.name)).join(', ')));
  } else lines.push(t.initUnchanged(path));
  if (droidSandbox) lines.push(...droidSandbox.write());
  if (codexSandbox) lines.push(...recordCodexTrust(path, merged.settings, env, t, codexSandbox));
  if (host === 'copilot') {
    const trust = copilotTrust(dir, env);
    if (trust.trusted) lines.push(t.hostTrustKept(dir, trust.path));
    else {
      trust.add();
      lines.push(t.copilotTrusted(dir, trust.path));
    }
  }
  if (host === 'gemini') {
    const trust = geminiTrust(dir, env);
    if (trust.trusted) lines.push(t.hostTrustKept(dir, trust.path));
    else {
      trust.add();
      lines.push(t.hostTrusted(dir, trust.path));
    }
  }
  if (opts.command === undefined && chosen.install === 'global' && !onPath('persona-gate', env)) lines.push(t.initNotOnPath());
  lines.push(t.hostLetsThrough(reg.title, t.hostFailsOpen[host]));
  lines.push(t.hostNext(reg.title, host, cli));
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}

export function doctorHost(env: Env, host: OtherHost, opts: { dir?: string; json?: boolean }): CommandResult {
  const locale = cliLocale(env);
  const t = CLI_MESSAGES[locale];
  const reg = HOST_REGISTRATIONS[host];
  const dir = resolve(opts.dir ?? env.CLAUDE_PROJECT_DIR ?? process.cwd());
  const findings: Finding[] = [];
  const commands = new Set<string>();
  for (const { name, role } of reg.layout.events) {
    const where = reg.files(dir, env).filter((f) => gateEntries(f, reg).has(name));
    if (where.length === 0) {
      findings.push({
        level: role === 'pre' ? 'fail' : 'warn',
        text: t.checkNotRegistered(`${reg.title} ${name}`),
        fix: t.fixRegisterHost(host),
      });
      continue;
    }
    findings.push({ level: 'ok', text: t.checkRegistered(`${reg.title} ${name}`, where.join(', ')) });
    for (const f of where) {
      for (const entry of gateEntries(f, reg).get(name) ?? []) {
        const command = String(entry.command);
        commands.add(command);
        if (!command.includes(`--host ${host}`))
          findings.push({ level: 'fail', text: t.checkHostFlag(command, host), fix: t.fixRegisterHost(host) });
        const timeout = typeof entry.timeout === 'number' ? entry.timeout : null;
        const seconds = timeout === null ? null : reg.layout.timeoutUnit === 'ms' ? timeout / 1000 : timeout;
        if (seconds !== null && seconds <= 5)
          findings.push({ level: 'fail', text: t.checkHostTimeout(timeout!, reg.layout.timeoutUnit), fix: t.fixRegisterHost(host) });
      }
    }
  }
  for (const command of commands) {
    const found = commandTarget(command, dir, env);
    if (found === null) continue;
    if (found.target === null) findings.push({ level: 'fail', text: t.checkNotOnPath(found.program, command), fix: t.fixNotOnPath() });
    else if (!existsSync(found.target)) findings.push({ level: 'fail', text: t.checkNoCommand(found.target), fix: t.fixCommand() });
    else findings.push({ level: 'ok', text: t.checkCommand(found.target) });
  }
  if (host === 'gemini') {
    const trust = geminiTrust(dir, env);
    findings.push(
      trust.trusted
        ? { level: 'ok', text: t.checkHostTrusted(dir, trust.path) }
        : { level: 'fail', text: t.checkHostUntrusted(dir, trust.path), fix: t.fixRegisterHost(host) },
    );
    findings.push(...geminiSwitches(dir, env, t));
  }
  if (host === 'qwen') findings.push(...qwenSwitches(dir, env, t));
  if (host === 'droid') findings.push(...droidSandboxFindings(env, dir, join(dir, '.claude', 'persona-gate.json'), stateDirFor(env), t));
  if (host === 'codex') {
    findings.push(...codexTrustFindings(reg, dir, env, t));
    const hook = [...commands][0] ?? null;
    findings.push(
      ...codexSandboxFindings(
        env,
        dir,
        join(dir, '.claude', 'persona-gate.json'),
        hook,
        { path: codexConfig(env), text: readText(codexConfig(env)) },
        t,
      ),
    );
  }
  if (host === 'copilot') {
    const trust = copilotTrust(dir, env);
    findings.push(
      trust.trusted
        ? { level: 'ok', text: t.checkHostTrusted(dir, trust.path) }
        : { level: 'fail', text: t.checkCopilotUntrusted(dir, trust.path), fix: t.fixRegisterHost(host) },
    );
    for (const file of [
      join(dir, '.github', 'copilot', 'settings.json'),
      join(dir, '.github', 'copilot', 'settings.local.json'),
      join(copilotHome(env), 'settings.json'),
      join(copilotHome(env), 'config.json'),
    ]) {
      if (readJsonQuiet(file)?.disableAllHooks === true)
        findings.push({ level: 'fail', text: t.checkCopilotHooksOff(file), fix: t.fixCopilotHooksOff() });
    }
  }
  // Codex's own sandbox is checked above; Claude Code's says nothing of it.
  findings.push(...policyFinding(env, dir, t, locale, host !== 'codex'));
  findings.push(stateFindingFor(env, t));
  const letsThrough = t.hostFailsOpen[host];
  const fails = findings.filter((f) => f.level === 'fail').length;
  const warns = findings.filter((f) => f.level === 'warn').length;
  if (opts.json) {
    const body = {
      ok: fails === 0,
      host,
      failed: fails,
      warnings: warns,
      checks: findings.map((f) => ({ level: f.level, text: f.text, ...(f.fix && f.level !== 'ok' ? { fix: f.fix } : {}) })),
      lets_through: letsThrough,
    };
    return { stdout: `${JSON.stringify(body, null, 2)}\n`, exitCode: fails === 0 ? 0 : 1 };
  }
  const lines = [
    ...renderFindings(findings, t),
    '',
    t.hostLetsThroughHeading(reg.title),
    ...letsThrough.map((l) => `  - ${l}`),
    '',
    t.doctorSummary(fails, warns),
  ];
  return { stdout: `${lines.join('\n')}\n`, exitCode: fails === 0 ? 0 : 1 };
}

export function uninstallHost(env: Env, host: OtherHost, opts: { dir?: string; purge?: boolean }): CommandResult {
  const t = CLI_MESSAGES[cliLocale(env)];
  const reg = HOST_REGISTRATIONS[host];
  const dir = resolve(opts.dir ?? process.cwd());
  const { path } = reg.file(dir, env);
  const { settings, original } = readSettings(path, t);
  const lines: string[] = [];
  const { settings: next, removed } = removeHooks(settings, reg.layout);
  // Droid's sandbox: what the install record says init added to the user's settings, read before any write.
  const record = host === 'droid' ? InstallRecord.open(stateDirFor(env), t) : null;
  const taken = record === null ? null : takeBackAll(record, recordOwner('droid', dir), execMapFile(stateDirFor(env)), t, 'droid');
  if (host === 'codex') {
    // The trust of the entries that go goes with them, and so does the sandbox profile init added.
    const config = codexConfig(env);
    const before = readText(config);
    const base = withoutCodexSandbox(before);
    const after = removed.length > 0 ? withCodexTrust(base, new Set(codexTrust(path, settings).map((x) => x.key)), []) : base;
    if (after !== before) writeFileSync(config, after);
    if (hasCodexSandbox(before)) lines.push(t.codexSandboxRemoved(config));
  }
  if (original === null || removed.length === 0) lines.push(t.uninstallNothing(path));
  else {
    // A file left with nothing but the fields every such file carries was persona-gate's alone.
    const leftover = Object.keys(next).filter((k) => !(k in (reg.layout.fileFields ?? {})));
    if (leftover.length === 0) {
      unlinkSync(path);
      lines.push(t.uninstallRemovedFile(path, removed.join(', ')));
    } else {
      writeJson(path, next);
      lines.push(t.uninstallRemoved(path, removed.join(', ')));
    }
  }
  for (const other of reg.files(dir, env)) if (other !== path && gateEntries(other, reg).size > 0) lines.push(t.uninstallElsewhere(other));
  const policyPath = join(dir, '.claude', 'persona-gate.json');
  if (opts.purge) {
    if (existsSync(policyPath)) {
      unlinkSync(policyPath);
      lines.push(t.uninstallPolicyRemoved(policyPath));
    } else lines.push(t.uninstallNoPolicy(policyPath));
    lines.push(...purgeStarterTests(policyPath, t, EXAMPLES));
  } else if (existsSync(policyPath)) lines.push(t.uninstallKeptPolicy(policyPath));
  if (taken !== null) {
    // after the policy: the directories init made go when nothing is left in them
    lines.push(...taken.apply());
  }
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}

/** Reads and checks `--host`: the commands' one entry to the hosts. */
export function hostOption(value: unknown, t: CliMessages): HostName {
  if (value === undefined) return 'claude-code';
  if (!isHostName(value)) throw new CliError(t.badHost(String(value), HOST_NAMES.join(', ')));
  return value;
}
