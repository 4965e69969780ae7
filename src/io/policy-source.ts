import { accessSync, closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { readRegularFile } from './read-file';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isSha256Hex } from '../core/chars';
import type { JsonErrorAt } from '../core/json-error';
import { buildPolicyIndex, type PolicyIndex } from '../core/policy-index';
import type { Policy } from '../policy/schema';
import type { PolicyValidation } from '../policy/validate';
import { sha256Hex } from './hash';
import { recordValidated, validatedEntry } from './policy-cache';
import { scanSpans, spansUsable } from './policy-spans';
import { indexEntries, openSpanIndex, TAKES_MCP } from './span-index';
import { isThisUser, readWhole, StateError } from './private-fs';
import { policyWithDefaults } from '../policy/defaults';
import { own } from '../core/own';
import { isPlainObject } from '../core/event';
import { lazyJsonErrorAt, lazyValidator } from './lazy';
import { expandMcp } from '../mcp/expand';
import { LOCK_FILE, type Lock } from '../mcp/lock';
import { MCP_MESSAGES } from '../mcp/messages';
import { RULE_MESSAGES } from '../policy/rule-messages';

type Env = Readonly<Record<string, string | undefined>>;

export const POLICY_FILE = join('.claude', 'persona-gate.json');

export type PolicyError =
  | { kind: 'not_found'; searched: string[] }
  /** `detail`: `missing`, `not_regular`, `too_large`, or the error's code (messages say each in words). */
  | { kind: 'unreadable'; path: string; detail: string }
  | { kind: 'invalid'; path: string; problems: { path: string; message: string }[]; at?: JsonErrorAt };

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
  if (opts.userDefault !== undefined)
    return { path: resolve(base, opts.userDefault), searched: [...searched, resolve(base, opts.userDefault)] };
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

/** The largest policy the hook reads (SPEC §9.7: no read on the hook path is unbounded). */
export const MAX_POLICY_BYTES = 64 * 1024 * 1024;

/**
 * Reads the policy's bytes. On the hook's path (`hookPath`) only a regular file of at most
 * MAX_POLICY_BYTES is read, opened without waiting for a FIFO's writer; the CLI also reads a
 * pipe or a process substitution (`--config <(…)`), which a person is there to end.
 */
export function readPolicyBytes(
  path: string,
  hookPath = false,
): { ok: true; bytes: Buffer; owner: number } | { ok: false; error: PolicyError } {
  let fd: number | undefined;
  try {
    fd = openSync(path, hookPath ? constants.O_RDONLY | constants.O_NONBLOCK : 'r');
    const st = fstatSync(fd);
    if (hookPath && !st.isFile()) return { ok: false, error: { kind: 'unreadable', path, detail: 'not_regular' } };
    if (hookPath && st.size > MAX_POLICY_BYTES) return { ok: false, error: { kind: 'unreadable', path, detail: 'too_large' } };
    return { ok: true, bytes: st.isFile() ? readWhole(fd, st.size) : readFileSync(fd), owner: st.uid };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, error: { kind: 'unreadable', path, detail: code === 'ENOENT' ? 'missing' : (code ?? String(err)) } };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Whether the cached positions of a policy are taken as recorded (SPEC §9.6): when the policy is a
 * file of the user running the hook, who can write it, as the cache's entry and the private state
 * directory are this user's (validatedEntry reads nothing else). That user can rewrite the policy
 * itself, so checking the positions against its bytes buys nothing against them. A policy of
 * another user (a managed policy), or one this user cannot write (a read-only location), keeps the
 * check: nobody steers through the cache a policy they could not edit.
 */
function trustsPositions(path: string, owner: number): boolean {
  if (!isThisUser(owner)) return false;
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

type Validate = (value: unknown, locale?: 'en' | 'es', policyPath?: string) => PolicyValidation;

function parseBytes(path: string, bytes: Buffer, locale: 'en' | 'es'): { ok: true; json: unknown } | { ok: false; error: PolicyError } {
  const text = bytes.toString('utf8');
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch (err) {
    // Where it stops being JSON, as a person finds it: line, column and the line itself.
    const at = lazyJsonErrorAt(text, err);
    const t = RULE_MESSAGES[locale];
    const message = at
      ? t.notJsonAt(at.trailingComma ? t.trailingComma() : at.detail, at.line, at.column, at.excerpt[0].trim())
      : t.notJson((err as Error).message);
    return { ok: false, error: { kind: 'invalid', path, problems: [{ path: '(root)', message }], ...(at ? { at } : {}) } };
  }
}

function validateJson(
  path: string,
  json: unknown,
  validate: Validate,
  locale: 'en' | 'es',
): { ok: true; policy: Policy } | { ok: false; error: PolicyError } {
  const result = validate(json, locale, path);
  if (!result.ok) return { ok: false, error: { kind: 'invalid', path, problems: result.problems } };
  return { ok: true, policy: result.policy };
}

export function validateBytes(
  path: string,
  bytes: Buffer,
  validate: Validate,
  locale: 'en' | 'es' = 'en',
): { ok: true; policy: Policy } | { ok: false; error: PolicyError } {
  const parsed = parseBytes(path, bytes, locale);
  return parsed.ok ? validateJson(path, parsed.json, validate, locale) : parsed;
}

/** Whether a parsed policy has `catalog.mcp`: it takes commands from the MCP lock beside it. */
function takesMcp(json: unknown): boolean {
  const catalog = isPlainObject(json) ? own(json, 'catalog') : undefined;
  return isPlainObject(catalog) && own(catalog, 'mcp') !== undefined;
}

/**
 * Records that `bytes` validated, with the positions of their members (when they can be used).
 * With `recorded`, the settings' positions the cache holds: when they are already the right ones
 * (a policy whose settings are always read whole, for a name they share), nothing is written.
 */
function recordPolicy(cacheDir: string, path: string, bytes: Buffer, sha: string, policy: Policy, recorded?: unknown): void {
  const spans = scanSpans(bytes);
  const made = spans && indexEntries(policy, spans);
  if (recorded !== undefined && made && JSON.stringify(made.core) === JSON.stringify(recorded)) return;
  recordValidated(cacheDir, path, bytes, sha, made ? made.core : null, made?.entries);
}

/**
 * Reads the policy and builds its index from the bytes read on this call. With a cache directory,
 * bytes that passed validation before (policy-cache.ts: the same bytes, compared in full) are not
 * validated again, so an ordinary call never loads the validator, and the members the call needs
 * are parsed alone from the positions the cache records (span-index.ts): taken as recorded for a
 * policy of this user's (trustsPositions), each checked against these bytes otherwise; nothing
 * else is taken from the cache. Throws StateError when the cache directory is not private.
 */
export function loadPolicy(path: string, opts: { cacheDir?: string; validate?: Validate; locale?: 'en' | 'es' } = {}): PolicyLoad {
  const read = readPolicyBytes(path, true);
  if (!read.ok) return read;
  const { bytes } = read;
  const cacheDir = opts.cacheDir;
  // A policy with `catalog.mcp` is read with its lock (loadPinnedPolicy), under an entry of its own:
  // where the positions are checked, that is told from these bytes (the settings' pass, or the whole
  // parse); trusted, an entry recorded for these bytes alone says they have none.
  const known = cacheDir !== undefined ? validatedEntry(cacheDir, path, bytes) : null;
  if (cacheDir !== undefined && known !== null) {
    const rewrite = (policy: Policy) => recordPolicy(cacheDir, path, bytes, known.sha, policy);
    try {
      // Null when the bytes have no usable positions (spansUsable) or the settings' do not check out.
      const trusted = known.core !== null && trustsPositions(path, read.owner);
      const fast = openSpanIndex(bytes, known.sha, path, known.core, { trusted, bucket: known.bucket, rewrite });
      if (fast === TAKES_MCP) return loadPinnedPolicy(path, bytes, opts);
      if (fast) return { ok: true, index: fast };
      const json: unknown = JSON.parse(bytes.toString('utf8'));
      if (takesMcp(json)) return loadPinnedPolicy(path, bytes, opts, json);
      const index = buildPolicyIndex(policyWithDefaults(json), known.sha, path);
      // The settings' positions did not check out: record them again, unless they are right
      // (bytes with a backslash have none).
      if (spansUsable(bytes)) recordPolicy(cacheDir, path, bytes, known.sha, index.policy, known.core);
      return { ok: true, index };
    } catch (err) {
      if (err instanceof StateError) throw err;
      // Not the shape a validated policy has: validate it below.
    }
  }
  const parsed = parseBytes(path, bytes, opts.locale ?? 'en');
  if (!parsed.ok) return parsed;
  if (takesMcp(parsed.json)) return loadPinnedPolicy(path, bytes, opts, parsed.json);
  const sha = sha256Hex(bytes);
  const validated = validateJson(path, parsed.json, opts.validate ?? lazyValidator, opts.locale ?? 'en');
  if (!validated.ok) return validated;
  if (cacheDir !== undefined) recordPolicy(cacheDir, path, bytes, sha, validated.policy);
  return { ok: true, index: buildPolicyIndex(validated.policy, sha, path) };
}

/**
 * A policy that takes commands from the MCP lock beside it (`catalog.mcp`): what was validated is
 * the policy's bytes and the lock's bytes together, and an ordinary call expands the lock again
 * from the bytes read on this call, without the validator; nothing derived is taken from the cache.
 */
function loadPinnedPolicy(
  path: string,
  policyBytes: Buffer,
  opts: { cacheDir?: string; validate?: Validate; locale?: 'en' | 'es' },
  json?: unknown,
): PolicyLoad {
  const lockPath = join(dirname(resolve(path)), LOCK_FILE);
  // A lock that is not a regular file, or too large, is read as no lock: the policy then fails
  // validation (its catalog.mcp names servers no lock holds) and every call is denied.
  const lockRead = readRegularFile(lockPath, MAX_POLICY_BYTES);
  const lockBytes = lockRead.ok ? lockRead.bytes : Buffer.alloc(0);
  const both = Buffer.concat([policyBytes, Buffer.from([0]), lockBytes]);
  const cacheDir = opts.cacheDir;
  const known = cacheDir !== undefined && lockBytes.length > 0 ? validatedEntry(cacheDir, path, both) : null;
  if (known !== null) {
    try {
      const policy = policyWithDefaults(json ?? JSON.parse(policyBytes.toString('utf8')));
      const lock = JSON.parse(lockBytes.toString('utf8')) as Lock;
      const recorded = (known.core as { lock_sha256?: unknown } | null)?.lock_sha256;
      const lockSha = typeof recorded === 'string' && isSha256Hex(recorded) ? recorded : '';
      const expanded = expandMcp(policy, { ok: true, lock, sha256: lockSha }, lockPath, MCP_MESSAGES.en);
      if (expanded.problems.length === 0) return { ok: true, index: buildPolicyIndex(expanded.policy, known.sha, path) };
    } catch (err) {
      if (err instanceof StateError) throw err;
      // not what was validated: validate below
    }
  }
  const validated = validateBytes(path, policyBytes, opts.validate ?? lazyValidator, opts.locale);
  if (!validated.ok) return validated;
  const sha = sha256Hex(policyBytes);
  if (cacheDir !== undefined && lockBytes.length > 0)
    recordValidated(cacheDir, path, both, sha, { lock_sha256: validated.policy.pinned?.settings.sha256 ?? '' });
  return { ok: true, index: buildPolicyIndex(validated.policy, sha, path) };
}
