import { existsSync } from 'node:fs';
import { readRegularFile } from './read-file';
import { join } from 'node:path';
import { prefsDir } from './paths';

export interface Preferences {
  locale?: 'en' | 'es';
  policy?: string;
  stateDir?: string;
}

export const PREFERENCE_KEYS = ['locale', 'policy', 'stateDir'] as const;

export function prefsFile(env: Readonly<Record<string, string | undefined>>): string {
  return join(prefsDir(env), 'config.json');
}

/** Reads the preferences file without loading conf; a missing or unreadable file is no preferences. */
export function readPreferences(env: Readonly<Record<string, string | undefined>>): Preferences {
  let raw: unknown;
  const file = prefsFile(env);
  // Most hooks run without a preferences file: asking first spares building the exception.
  if (!existsSync(file)) return {};
  // Read on every hook call: a regular file only, bounded, never waiting on a FIFO (SPEC §9.7).
  const read = readRegularFile(file, 1024 * 1024);
  if (!read.ok) return {};
  try {
    raw = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return {};
  }
  if (typeof raw !== 'object' || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const prefs: Preferences = {};
  if (r.locale === 'en' || r.locale === 'es') prefs.locale = r.locale;
  if (typeof r.policy === 'string' && r.policy !== '') prefs.policy = r.policy;
  if (typeof r.stateDir === 'string' && r.stateDir !== '') prefs.stateDir = r.stateDir;
  return prefs;
}
