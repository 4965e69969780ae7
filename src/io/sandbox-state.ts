import { basename, dirname, join, resolve } from 'node:path';
import type { Env } from '../core/decide';
import { isPlainObject } from '../core/event';
import { readJsonObject } from './read-file';

/**
 * Whether Claude Code's OS sandbox holds the guarded paths for this project (SPEC §9.2), read from
 * the settings Claude Code itself reads, in its order of precedence: managed settings, the
 * project's local settings, the project's settings, the user's settings. The sandbox counts only
 * when the setting that wins for each key says: on, never run unsandboxed when it cannot start,
 * no way out of it; and the policy and the state directory are write-denied. The agent cannot change any of these files
 * (the sandbox write-protects the project's, the others are guarded paths). Read only when the
 * answer changes a verdict, once per call.
 */

type Json = Record<string, unknown>;
export const MAX_SETTINGS_BYTES = 1024 * 1024;

export function managedSettingsFile(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/** The project a policy belongs to: the directory holding its `.claude/`, else the session's project directory. */
export function projectOf(policyPath: string, env: Env, cwd: string): string {
  const dir = dirname(policyPath);
  if (basename(dir) === '.claude') return dirname(dir);
  return env.CLAUDE_PROJECT_DIR?.trim() || cwd;
}

export function claudeSandboxHolds(opts: { policyPath: string; env: Env; cwd: string; stateDir?: string; managed?: string }): boolean {
  const project = projectOf(opts.policyPath, opts.env, opts.cwd);
  const configDir = opts.env.CLAUDE_CONFIG_DIR?.trim() || join(opts.env.HOME ?? '', '.claude');
  // highest precedence first
  const scopes = [
    opts.managed ?? managedSettingsFile(),
    join(project, '.claude', 'settings.local.json'),
    join(project, '.claude', 'settings.json'),
    join(configDir, 'settings.json'),
  ]
    .map((path) => readJsonObject(path, MAX_SETTINGS_BYTES))
    .filter((s): s is Json => s !== null)
    .map((s) => (isPlainObject(s.sandbox) ? s.sandbox : {}));
  const winning = (key: string): unknown => scopes.find((s) => s[key] !== undefined)?.[key];
  if (winning('enabled') !== true || winning('failIfUnavailable') !== true || winning('allowUnsandboxedCommands') !== false) return false;
  const denied = new Set(
    scopes
      .flatMap((s) => (isPlainObject(s.filesystem) && Array.isArray(s.filesystem.denyWrite) ? s.filesystem.denyWrite : []))
      .filter((p): p is string => typeof p === 'string')
      .map((p) => resolve(p)),
  );
  // the policy, and the state directory where the session's confirmations live
  return [opts.policyPath, ...(opts.stateDir !== undefined ? [opts.stateDir] : [])].every((p) => denied.has(resolve(p)));
}
