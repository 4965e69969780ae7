import Conf from 'conf';
import { isAbsolute, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { prefsDir } from '../../io/paths';
import { PREFERENCE_KEYS, type Preferences } from '../../io/prefs';
import { CliError, type CommandResult } from '../errors';
import { cliMessages } from '../messages';

type Key = (typeof PREFERENCE_KEYS)[number];

/**
 * User preferences, kept with conf in `<prefs dir>/config.json` — the one file the hook reads
 * directly (src/io/prefs.ts), without loading conf.
 */
function open(env: Env): Conf<Preferences> {
  return new Conf<Preferences>({
    projectName: 'persona-gate',
    cwd: prefsDir(env),
    configName: 'config',
    clearInvalidConfig: false,
    schema: {
      locale: { type: 'string', enum: ['en', 'es'] },
      policy: { type: 'string', minLength: 1 },
      stateDir: { type: 'string', minLength: 1 },
    },
  });
}

function checkKey(env: Env, action: string, key: string | undefined): Key {
  const t = cliMessages(env);
  if (key === undefined) throw new CliError(action === 'set' ? t.configNeedsValue() : t.configNeedsKey(action));
  if (!(PREFERENCE_KEYS as readonly string[]).includes(key)) throw new CliError(t.configUnknownKey(key, PREFERENCE_KEYS.join(', ')));
  return key as Key;
}

export function configCommand(env: Env, action: string, key?: string, value?: string): CommandResult {
  const t = cliMessages(env);
  switch (action) {
    case 'list': {
      const store = open(env);
      const lines = PREFERENCE_KEYS.filter((k) => store.has(k)).map((k) => t.configSet(k, String(store.get(k))));
      return { stdout: lines.length ? `${lines.join('\n')}\n` : '', exitCode: 0 };
    }
    case 'get': {
      const k = checkKey(env, action, key);
      const store = open(env);
      if (!store.has(k)) return { stdout: '', stderr: `${t.configUnset(k)}\n`, exitCode: 1 };
      return { stdout: `${String(store.get(k))}\n`, exitCode: 0 };
    }
    case 'set': {
      const k = checkKey(env, action, key);
      if (value === undefined) throw new CliError(t.configNeedsValue());
      const stored = (k === 'policy' || k === 'stateDir') && !isAbsolute(value) ? resolve(value) : value;
      try {
        open(env).set(k, stored);
      } catch (err) {
        throw new CliError(t.configBadValue(k, err instanceof Error ? err.message : String(err)));
      }
      return { stdout: `${t.configSet(k, stored)}\n`, exitCode: 0 };
    }
    case 'unset': {
      const k = checkKey(env, action, key);
      open(env).delete(k);
      return { stdout: `${t.configUnset(k)}\n`, exitCode: 0 };
    }
    default:
      throw new CliError(t.configActions(action));
  }
}
