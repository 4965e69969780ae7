import { dirname, join, resolve } from 'node:path';
import { PolicySchema, type Policy } from './schema';
import { z } from 'zod';
import { POLICY_RULES, jsonPath, type PolicyProblem } from './rules';
import { RULE_MESSAGES, type RuleMessages } from './rule-messages';
import { expandMcp } from '../mcp/expand';
import { LOCK_FILE } from '../mcp/lock';
import { MCP_MESSAGES } from '../mcp/messages';
import { readLock, type LockRead } from '../mcp/read-lock';

/** For the hook, which loads this bundle only when a policy needs validating, or does not parse. */
export { jsonErrorAt } from '../core/json-error';

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
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.flatMap((issue) => issueProblems(issue, value, RULE_MESSAGES[locale])) };
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

type Segment = string | number;

/** The schema that validates the member at `path` (through defaults, optionals, records, arrays and unions), or null. */
function schemaAt(schema: z.core.$ZodType, path: readonly Segment[]): z.core.$ZodType[] {
  let at: z.core.$ZodType[] = [schema];
  const unwrap = (s: z.core.$ZodType): z.core.$ZodType[] => {
    const def = s._zod.def as unknown as { type: string; innerType?: z.core.$ZodType; options?: z.core.$ZodType[]; in?: z.core.$ZodType };
    if (def.innerType) return unwrap(def.innerType);
    if (def.type === 'union' && def.options) return def.options.flatMap(unwrap);
    if (def.type === 'pipe' && def.in) return unwrap(def.in);
    return [s];
  };
  for (const segment of path) {
    at = at.flatMap(unwrap).flatMap((s) => {
      const def = s._zod.def as unknown as {
        type: string;
        shape?: Record<string, z.core.$ZodType>;
        valueType?: z.core.$ZodType;
        element?: z.core.$ZodType;
      };
      if (def.type === 'object' && typeof segment === 'string' && def.shape && Object.hasOwn(def.shape, segment))
        return [def.shape[segment]!];
      if (def.type === 'record' && def.valueType) return [def.valueType];
      if (def.type === 'array' && typeof segment === 'number' && def.element) return [def.element];
      return [];
    });
  }
  return at.flatMap(unwrap);
}

function valueAt(value: unknown, path: readonly Segment[]): unknown {
  let at = value;
  for (const segment of path) at = typeof at === 'object' && at !== null ? (at as Record<Segment, unknown>)[segment] : undefined;
  return at;
}

/**
 * A schema issue in the policy's words: an unknown key with the nearest key accepted there, a
 * value that is not one of a closed list (a level, a tier…) with the nearest one; any other issue
 * in zod's words.
 */
function issueProblems(issue: z.core.$ZodIssue, value: unknown, t: RuleMessages): PolicyProblem[] {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) as Segment[];
  if (issue.code === 'unrecognized_keys') {
    const accepted = [
      ...new Set(
        schemaAt(PolicySchema, path).flatMap((s) => {
          const def = s._zod.def as unknown as { type: string; shape?: Record<string, unknown> };
          return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
        }),
      ),
    ];
    return issue.keys.map((key) => ({ path: jsonPath([...path, key]), message: t.unknownKey(key, accepted) }));
  }
  const got = valueAt(value, path);
  const key = path[path.length - 1];
  // A required member that is not there (often because its key is misspelt: see the unknown key beside it).
  const missing = got === undefined && typeof key === 'string' && typeof valueAt(value, path.slice(0, -1)) === 'object';
  if (issue.code === 'invalid_value' && issue.values.every((v) => typeof v === 'string')) {
    if (missing) return [{ path: jsonPath(path), message: t.required(key, issue.values as string[]) }];
    if (typeof got === 'string') return [{ path: jsonPath(path), message: t.badValue(got, issue.values as string[]) }];
  }
  if (issue.code === 'invalid_type' && missing) return [{ path: jsonPath(path), message: t.required(key) }];
  if (
    issue.code === 'invalid_union' &&
    'options' in issue &&
    Array.isArray(issue.options) &&
    issue.options.every((v) => typeof v === 'string')
  ) {
    if (typeof got === 'string') return [{ path: jsonPath(path), message: t.badValue(got, issue.options as string[]) }];
  }
  return [{ path: jsonPath(path), message: issue.message }];
}

export function formatProblem(p: PolicyProblem): string {
  return `${p.path}: ${p.message}`;
}
