import { chmodSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a script without types
import { largePolicy } from '../../scripts/large-policy.mjs';
import { policyCacheEntry, recordValidated, validatedSha } from '../../src/io/policy-cache';
import { appendPrivateFile, ensurePrivateDir, ensureStateDir, readPrivateFile, StateError } from '../../src/io/private-fs';
import { appendReceipt, receiptsFile } from '../../src/io/receipts';
import { policyWithDefaults } from '../../src/policy/defaults';
import { validatePolicy } from '../../src/policy/validate';
import { tempDir } from '../helpers/cli';
import { MERGE_POLICY_PATH, TAX_POLICY_PATH } from '../helpers/policy';

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StateError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('policyWithDefaults: the validated form without the validator', () => {
  const minimal = {
    version: 1,
    catalog: { families: { f: { level: 'read_only' } }, commands: { 'f.x': {} } },
    personas: { p: { families: ['f'], ceiling: 'read_only' } },
    identity: {},
  };
  it.each([
    ['tax-filing', JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'))],
    ['merge-captain', JSON.parse(readFileSync(MERGE_POLICY_PATH, 'utf8'))],
    ['the generated large policy', largePolicy()],
    ['a minimal policy', minimal],
  ])('equals the validator’s output for %s', (_name, raw) => {
    const validated = validatePolicy(structuredClone(raw));
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    expect(policyWithDefaults(structuredClone(raw))).toStrictEqual(JSON.parse(JSON.stringify(validated.policy)));
  });

  it('throws on a shape no validated policy has', () => {
    expect(() => policyWithDefaults({ version: 1, catalog: { commands: [] } })).toThrow();
    expect(() => policyWithDefaults(null)).toThrow();
  });
});

describe('private files and directories', () => {
  it('reads a private file, refuses links, hard links and files others can write', () => {
    const dir = tempDir();
    const file = join(dir, 'f');
    writeFileSync(file, 'x', { mode: 0o600 });
    expect(readPrivateFile(file)?.toString()).toBe('x');
    expect(readPrivateFile(join(dir, 'missing'))).toBeNull();
    symlinkSync(file, join(dir, 'l'));
    expect(refused(() => readPrivateFile(join(dir, 'l')))).toBe(
      `${join(dir, 'l')} is a symbolic link, which persona-gate never follows in its state directory; remove it`,
    );
    linkSync(file, join(dir, 'h'));
    expect(refused(() => readPrivateFile(file))).toBe(`${file} has 2 hard links, not one as the files persona-gate writes; remove it`);
    writeFileSync(join(dir, 'w'), 'x');
    chmodSync(join(dir, 'w'), 0o620);
    expect(refused(() => readPrivateFile(join(dir, 'w')))).toMatch(/is writable by other users/);
  });

  it('appends only to a private file, never through a link', () => {
    const dir = tempDir();
    const target = join(dir, 'target');
    writeFileSync(target, '', { mode: 0o600 });
    symlinkSync(target, join(dir, 'l'));
    expect(refused(() => appendPrivateFile(join(dir, 'l'), 'x'))).toMatch(/is a symbolic link/);
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(refused(() => appendPrivateFile(join(dir, 'dangling'), 'x'))).toMatch(/is a symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('');
    appendPrivateFile(join(dir, 'new'), 'a\n');
    appendPrivateFile(join(dir, 'new'), 'b\n');
    expect(readFileSync(join(dir, 'new'), 'utf8')).toBe('a\nb\n');
  });

  it('a receipt that cannot be written is reported, not thrown', () => {
    const stateDir = join(tempDir(), 'state');
    ensureStateDir(stateDir);
    mkdirSync(join(stateDir, 'receipts'), { mode: 0o700 });
    const receipt = { session_id: 's' } as never;
    symlinkSync('/dev/null', receiptsFile(stateDir, 's'));
    expect(appendReceipt(stateDir, receipt)).toMatch(/is a symbolic link/);
  });

  it('creates directories 0700 and refuses links, files and modes', () => {
    const dir = tempDir();
    const state = join(dir, 'a', 'b', 'state');
    ensureStateDir(state);
    ensurePrivateDir(join(state, 'sessions'));
    expect(ensurePrivateDir(join(state, 'none'), false)).toBe(false);
    symlinkSync(join(state, 'sessions'), join(state, 'link'));
    expect(refused(() => ensurePrivateDir(join(state, 'link')))).toMatch(/is a symbolic link/);
    chmodSync(join(state, 'sessions'), 0o770);
    expect(refused(() => ensurePrivateDir(join(state, 'sessions')))).toBe(
      `${join(state, 'sessions')} is writable by other users; run chmod go-w ${join(state, 'sessions')}`,
    );
    symlinkSync(join(dir, 'a'), join(dir, 'alias'));
    expect(refused(() => ensureStateDir(join(dir, 'alias', 'b', 'state')))).toMatch(/is reached through .*alias, a symbolic link/);
  });
});

describe('the policy cache: only a record that these exact bytes validated', () => {
  it('matches the same bytes only', () => {
    const cache = join(tempDir(), 'cache');
    const bytes = Buffer.from('{"version":1}');
    expect(validatedSha(cache, '/p.json', bytes)).toBeNull();
    recordValidated(cache, '/p.json', bytes, 'a'.repeat(64));
    expect(validatedSha(cache, '/p.json', bytes)).toBe('a'.repeat(64));
    expect(validatedSha(cache, '/p.json', Buffer.from('{"version":2}'))).toBeNull();
    expect(validatedSha(cache, '/q.json', bytes)).toBeNull();
    const entry = policyCacheEntry(cache, '/p.json', bytes.length);
    writeFileSync(entry, readFileSync(entry).toString().replace('"version":1', '"version":3'));
    expect(validatedSha(cache, '/p.json', bytes)).toBeNull();
  });
});
