import type { Env } from '../core/decide';
import { messagesFor } from '../core/messages';
import { buildPolicyIndex, type MemoryPolicyIndex } from '../core/policy-index';
import { defaultStateDir } from '../io/paths';
import { locatePolicy, readPolicyBytes, validateBytes, type PolicyError } from '../io/policy-source';
import { sha256Hex } from '../io/hash';
import { readPreferences } from '../io/prefs';
import { StateError, StateStore } from '../io/state-store';
import { validatePolicy } from '../policy/validate';
import { CliError } from './errors';
import { cliLocale, cliMessages, jsonExcerpt } from './messages';

export function stateDirFor(env: Env): string {
  if (env.PERSONA_GATE_STATE_DIR?.trim()) return env.PERSONA_GATE_STATE_DIR;
  return readPreferences(env).stateDir ?? defaultStateDir(env);
}

export function locateForCli(env: Env, config?: string) {
  return locatePolicy({ explicit: config, env, userDefault: readPreferences(env).policy, cwd: process.cwd() });
}

/** Loads and validates the policy for a CLI command; any problem is a CliError (exit 1). */
export function policyForCli(env: Env, config?: string): MemoryPolicyIndex {
  const location = locateForCli(env, config);
  const locale = cliLocale(env);
  const m = messagesFor(locale);
  const fail = (error: PolicyError): never => {
    if (error.kind === 'unreadable') throw new CliError(m.unreadablePolicy(error.path, error.detail));
    if (error.kind === 'not_found') throw new CliError(m.noPolicy(error.searched));
    const excerpt = error.at ? `\n${jsonExcerpt(error.at).join('\n')}` : '';
    throw new CliError(
      `${m.invalidPolicy(
        error.path,
        error.problems.map((p) => `${p.path}: ${p.message}`),
      )}${excerpt}`,
    );
  };
  if (location.path === null) return fail({ kind: 'not_found', searched: location.searched });
  const read = readPolicyBytes(location.path);
  if (!read.ok) return fail(read.error);
  const loaded = validateBytes(location.path, read.bytes, validatePolicy, locale);
  if (!loaded.ok) return fail(loaded.error);
  return buildPolicyIndex(loaded.policy, sha256Hex(read.bytes), location.path);
}

export function storeForCli(env: Env): StateStore {
  try {
    return new StateStore(stateDirFor(env)).open();
  } catch (err) {
    throw new CliError(cliMessages(env).stateDirProblem(err instanceof StateError ? err.message : String(err)));
  }
}
