import { PolicySchema, type Policy } from './schema';
import { z } from 'zod';
import { POLICY_RULES, jsonPath, type PolicyProblem } from './rules';
import { RULE_MESSAGES } from './rule-messages';

export type PolicyValidation = { ok: true; policy: Policy } | { ok: false; problems: PolicyProblem[] };

/** Schema first; the cross-field rules run on a policy whose shape is known to be right. */
export function validatePolicy(value: unknown, locale: 'en' | 'es' = 'en'): PolicyValidation {
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
  const problems = POLICY_RULES.flatMap((rule) => rule(parsed.data, RULE_MESSAGES[locale]));
  return problems.length === 0 ? { ok: true, policy: parsed.data } : { ok: false, problems };
}

export function formatProblem(p: PolicyProblem): string {
  return `${p.path}: ${p.message}`;
}
