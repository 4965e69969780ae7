import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPolicy } from '../../src/io/policy-source';
import { validatePolicy } from '../../src/policy/validate';
import { ROOT } from '../helpers/policy';

// A policy that takes commands from the MCP lock: validated once with its lock, then expanded again
// from the bytes read on each call without the validator, to the same commands.
const made: string[] = [];
afterEach(() => {
  while (made.length) rmSync(made.pop()!, { recursive: true, force: true });
});

describe('a pinned policy, loaded again', () => {
  it('is validated once, then expanded from the policy and lock bytes alone, to the same index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-pinned-'));
    made.push(dir);
    cpSync(join(ROOT, 'examples', 'tax-filing-mcp', '.claude'), join(dir, '.claude'), { recursive: true });
    const path = join(dir, '.claude', 'persona-gate.json');
    mkdirSync(join(dir, 'state'), { mode: 0o700 });
    const cacheDir = join(dir, 'state', 'policy-cache');
    let validations = 0;
    const validate = (value: unknown, locale?: 'en' | 'es', policyPath?: string) => {
      validations++;
      return validatePolicy(value, locale, policyPath);
    };
    const first = loadPolicy(path, { cacheDir, validate });
    const second = loadPolicy(path, { cacheDir, validate });
    expect(first.ok && second.ok).toBe(true);
    expect(validations).toBe(1);
    if (!first.ok || !second.ok) return;
    for (const tool of ['mcp__aeat__modelo_list', 'mcp__aeat__modelo_export', 'mcp__aeat__whoami']) {
      const key = first.index.commandForTool(tool);
      expect(key).toBeDefined();
      expect(second.index.commandForTool(tool)).toBe(key);
      expect(second.index.command(key!)).toEqual(first.index.command(key!));
    }
    // the same lock and servers; the lock's file stamp is only known to a call that validated
    expect({ ...second.index.settings.mcp, stamp: '' }).toEqual({ ...first.index.settings.mcp, stamp: '' });
  });
});
