import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { buildPolicyIndex, type PolicyIndex } from '../core/policy-index';
import type { Policy } from '../policy/schema';
import type { PolicyValidation } from '../policy/validate';
import { hash128, sha256Hex } from './hash';
import { lockStamp } from '../mcp/lock';
import { openPolicyCache, writePolicyCache } from './policy-cache';
import { lazyValidator } from './lazy';
import { RULE_MESSAGES } from '../policy/rule-messages';

type Env = Readonly<Record<string, string | undefined>>;

export const POLICY_FILE = join('.claude', 'persona-gate.json');
/** Bump when the validated form changes, so older cached validations are ignored. */
const CACHE_FORMAT = 1;

export type PolicyError =
  | { kind: 'not_found'; searched: string[] }
  | { kind: 'unreadable'; path: string; detail: string }
  | { kind: 'invalid'; path: string; problems: { path: string; message: string }[] };

export type PolicyLoad = { ok: true; index: PolicyIndex } | { ok: false; error: PolicyError };

export interface PolicyLocation {
  path: string | null;
  searched: string[];
}

/** SPEC §2 order: --config, PERSONA_GATE_CONFIG, $CLAUDE_PROJECT_DIR, the user's default, then up from cwd. */
export function locatePolicy(opts: { explicit?: string; env: Env; userDefault?: string; cwd?: string }): PolicyLocation {
  const searched: string[] = [];
  const base = process.cwd();
  const explicit = opts.explicit ?? (opts.env.PERSONA_GATE_CONFIG?.trim() ? opts.env.PERSONA_GATE_CONFIG : undefined);
  if (explicit !== undefined) return { path: resolve(base, explicit), searched: [resolve(base, explicit)] };
  const projectDir = opts.env.CLAUDE_PROJECT_DIR?.trim();
  if (projectDir) {
    const candidate = resolve(projectDir, POLICY_FILE);
    searched.push(candidate);
    if (existsSync(candidate)) return { path: candidate, searched };
  }
  if (opts.userDefault !== undefined) return { path: resolve(base, opts.userDefault), searched: [...searched, resolve(base, opts.userDefault)] };
  if (opts.cwd !== undefined && isAbsolute(opts.cwd)) {
    let dir = opts.cwd;
    for (;;) {
      const candidate = join(dir, POLICY_FILE);
      searched.push(candidate);
      if (existsSync(candidate)) return { path: candidate, searched };
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return { path: null, searched };
}

export function readPolicyBytes(path: string): { ok: true; bytes: Buffer } | { ok: false; error: PolicyError } {
  try {
    return { ok: true, bytes: readFileSync(path) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, error: { kind: 'unreadable', path, detail: code === 'ENOENT' ? 'no such file' : code ?? String(err) } };
  }
}

export function validateBytes(path: string, bytes: Buffer, validate: (value: unknown, locale?: 'en' | 'es', policyPath?: string) => PolicyValidation, locale: 'en' | 'es' = 'en'): { ok: true; policy: Policy } | { ok: false; error: PolicyError } {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    return { ok: false, error: { kind: 'invalid', path, problems: [{ path: '(root)', message: RULE_MESSAGES[locale].notJson((err as Error).message) }] } };
  }
  const result = validate(json, locale, path);
  if (!result.ok) return { ok: false, error: { kind: 'invalid', path, problems: result.problems } };
  return { ok: true, policy: result.policy };
}

/**
 * The cache is keyed by the file's identity and change times (device, inode, size, mtime and
 * ctime in nanoseconds): any write to the policy changes its ctime, which no user call can set
 * back, so a changed policy is always validated again. The entry keeps the content's SHA-256.
 */
function statKey(path: string): string | null {
  try {
    const st = statSync(path, { bigint: true });
    return hash128(`${CACHE_FORMAT}:${resolve(path)}:${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`);
  } catch {
    return null;
  }
}

/** The MCP lock's stamp now (see lockStamp; '' when it cannot be stat'ed: never a cached lock's). */
function currentLockStamp(lockPath: string): string {
  try {
    return lockStamp(statSync(lockPath, { bigint: true }));
  } catch {
    return '';
  }
}

/**
 * Reads and validates the policy. With a cache directory, a policy file unchanged since it was
 * last validated is taken from the cache without reading it again or loading the validator.
 */
export function loadPolicy(path: string, opts: { cacheDir?: string; validate?: (value: unknown, locale?: 'en' | 'es', policyPath?: string) => PolicyValidation; locale?: 'en' | 'es' } = {}): PolicyLoad {
  const statAtStart = opts.cacheDir !== undefined ? statKey(path) : null;
  let key = statAtStart;
  let cached = key !== null && opts.cacheDir !== undefined ? openPolicyCache(opts.cacheDir, key, path) : null;
  // A policy that takes commands from the MCP lock is cached once per content of the lock.
  let lockNow: string | null = null;
  if (cached?.settings.mcp && (lockNow = currentLockStamp(cached.settings.mcp.lock)) !== cached.settings.mcp.stamp) {
    key = hash128(`${key}:lock:${lockNow}`);
    cached = openPolicyCache(opts.cacheDir!, key, path);
    if (cached?.settings.mcp?.stamp !== lockNow) cached = null;
  }
  if (cached) return { ok: true, index: cached };
  const read = readPolicyBytes(path);
  if (!read.ok) return read;
  const sha = sha256Hex(read.bytes);
  const validated = validateBytes(path, read.bytes, opts.validate ?? lazyValidator, opts.locale);
  if (!validated.ok) return validated;
  // Only cache when neither the file nor the lock it was expanded from changed while they were read.
  const lockUnchanged = lockNow === null || validated.policy.pinned?.settings.stamp === lockNow;
  if (key !== null && opts.cacheDir !== undefined && statKey(path) === statAtStart && lockUnchanged) {
    mkdirSync(opts.cacheDir, { recursive: true, mode: 0o700 });
    writePolicyCache(opts.cacheDir, key, sha, validated.policy);
  }
  return { ok: true, index: buildPolicyIndex(validated.policy, sha, path) };
}
