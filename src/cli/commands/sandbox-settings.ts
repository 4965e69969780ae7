import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Env } from '../../core/decide';
import type { CliMessages } from '../messages';
import { mergeLists } from './launcher-settings';
import { launchSettingsPath, mergeHardened, onPath, readSettings, type Guarded, type Json } from './hardened';

/**
 * The sandbox in the default deployment (SPEC §9.2): where the machine can have Claude Code's OS
 * sandbox, init turns it on with every guarded path write-denied (the hook, reading the same
 * settings, then refuses only what plainly writes a guarded path), and writes the settings a
 * project must not override into a file `persona-gate launch` passes with `--settings`.
 */

/** What the machine lacks for Claude Code's sandbox: bubblewrap and socat on Linux, Seatbelt on macOS. */
export function sandboxMissing(env: Env, platform: NodeJS.Platform = process.platform): string[] | null {
  if (platform === 'linux') return ['bwrap', 'socat'].filter((p) => !onPath(p, env));
  if (platform === 'darwin') return existsSync('/usr/bin/sandbox-exec') ? [] : ['sandbox-exec'];
  return null;
}

/**
 * Writes the settings a project must not override (the sandbox on, no way out, the guarded paths)
 * to the file `persona-gate launch` passes to Claude Code; keeps whatever else the file holds.
 * Returns the path, whether it changed, and the file as it was (`original` null: there was none).
 */
export function writeLaunchSettings(
  env: Env,
  guarded: Guarded[],
  t: CliMessages,
  launched: Json = {},
): { path: string; changed: boolean; before: Json; original: string | null } {
  const path = launchSettingsPath(env);
  const { settings, original } = readSettings(path, t);
  const merged = mergeHardened(settings, guarded, path, t);
  // The launched programs' entries too: Claude Code takes a --settings file's sandbox lists over the project's.
  mergeLists(merged.settings, launched, path, t);
  const text = `${JSON.stringify(merged.settings, null, 2)}\n`;
  if (text === original) return { path, changed: false, before: settings, original };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o644 });
  return { path, changed: true, before: settings, original };
}
