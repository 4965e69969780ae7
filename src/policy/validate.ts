import { dirname, join, resolve } from 'node:path';
import { PolicySchema, type Policy } from './schema';
import { z } from 'zod';
import { POLICY_RULES, jsonPath, type PolicyProblem } from './rules';
import { RULE_MESSAGES } from './rule-messages';
import { expandMcp } from '../mcp/expand';
import { LOCK_FILE } from '../mcp/lock';
import { MCP_MESSAGES } from '../mcp/messages';
import { readLock, type LockRead } from '../mcp/read-lock';

export type PolicyValidation = { ok: true; policy: Policy } | { ok: false; problems: PolicyProblem[] };

/** The MCP lock a policy at `policyPath` takes its `catalog.mcp` commands from: beside it. */
export function lockPathFor(policyPath: string | undefined): string {
  return resolve(policyPath === undefined ? join(process.cwd(), LOCK_FILE) : join(dirname(resolve(policyPath)), LOCK_FILE));
}

/**
 * Schema first; then `catalog.mcp` is expanded from the lock into commands and families; the
 * cross-field rules run on the expanded policy, and a problem in a command taken from the lock
 * is reported at the `catalog.mcp` entry behind it. `lock` replaces reading the lock file.
 */
export function validatePolicy(value: unknown, locale: 'en' | 'es' = 'en', policyPath?: string, lock?: LockRead): PolicyValidation {
  z.config(locale === 'es' ? z.locales.es() : z.locales.en());
  const parsed = PolicySchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({
        path: jsonPath(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))),
        message: issue.message,
      })),
    };
  }
  let policy: Policy = parsed.data;
  let problems: PolicyProblem[] = [];
  if (policy.catalog.mcp) {
    const lockPath = lockPathFor(policyPath);
    const expansion = expandMcp(policy, lock ?? readLock(lockPath), lockPath, MCP_MESSAGES[locale]);
    if (expansion.problems.length > 0) return { ok: false, problems: expansion.problems };
    policy = expansion.policy;
    const generated = [...expansion.paths].map(([key, path]) => ({ prefix: jsonPath(['catalog', 'commands', key]), path }));
    problems = POLICY_RULES.flatMap((rule) => rule(policy, RULE_MESSAGES[locale])).map((p) => {
      const from = generated.find((g) => p.path === g.prefix || p.path.startsWith(`${g.prefix}.`) || p.path.startsWith(`${g.prefix}[`));
      return from ? { ...p, path: from.path + p.path.slice(from.prefix.length) } : p;
    });
  } else {
    problems = POLICY_RULES.flatMap((rule) => rule(policy, RULE_MESSAGES[locale]));
  }
  return problems.length === 0 ? { ok: true, policy } : { ok: false, problems };
}

export function formatProblem(p: PolicyProblem): string {
  return `${p.path}: ${p.message}`;
}
