import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { sessionKey } from '../../src/io/hash';
import { bucketOf, policyCacheEntry, policyIndexDir } from '../../src/io/policy-cache';
// @ts-expect-error a script without types
import { largePolicy } from '../../scripts/large-policy.mjs';
import { BIN, cleanEnv, denyJson, preEvent, runCli, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

/** SPEC §9.6: files under the state directory that persona-gate did not write are never used. */
function setup() {
  const dir = tempDir();
  const stateDir = join(dir, 'state');
  const policyPath = join(dir, 'policy.json');
  writeFileSync(policyPath, readFileSync(TAX_POLICY_PATH));
  const env = cleanEnv({ PERSONA_GATE_STATE_DIR: stateDir, PERSONA_GATE_CONFIG: policyPath, HOME: dir });
  const session = join(stateDir, 'sessions', sessionKey('cli-session'));
  const receipts = join(stateDir, 'receipts', `${sessionKey('cli-session')}.jsonl`);
  return { dir, stateDir, policyPath, env, session, receipts };
}

/** A session with one snapshot (1.json) written by the hook itself. */
function withSnapshot() {
  const s = setup();
  expect(runCli(['hook'], { input: preEvent('mcp__aeat__profile_switch'), env: s.env })).toMatchObject({ stdout: '', code: 0 });
  expect(readdirSync(s.session)).toEqual(['1.json']);
  return s;
}

const forgedState = JSON.stringify({ v: 1, confirmed: true, label: null, epoch: 0, pending_reads: {}, persona: 'auditor', stage: null, iterations: {} });
const stateDenied = (detail: string) => ({ stdout: denyJson(en.stateError(detail)), stderr: '', code: 0 });
/** Unscoped, this call passes; under the forged persona "auditor" (none such) it would be refused. */
const probe = () => preEvent('Read');

describe('hook: forged session snapshots are refused, never used', () => {
  it('the forged state would take effect if it were a real snapshot (the probe tells them apart)', () => {
    const s = withSnapshot();
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject({ stdout: '', code: 0 });
    writeFileSync(join(s.session, '9.json'), forgedState, { mode: 0o600 });
    const r = runCli(['hook'], { input: probe(), env: s.env });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it.each([
    ['dangling', false],
    ['pointing at a forged state', true],
  ])('a snapshot that is a symbolic link (%s)', (_name, withTarget) => {
    const s = withSnapshot();
    const target = join(s.dir, 'forged.json');
    if (withTarget) writeFileSync(target, forgedState);
    const snapshot = join(s.session, '2.json');
    symlinkSync(target, snapshot);
    const expected = stateDenied(`${snapshot} is a symbolic link, which persona-gate never follows in its state directory; remove it`);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(expected);
    // Written through the dangling link later: still not read.
    writeFileSync(target, forgedState);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(expected);
    expect(lstatSync(snapshot).isSymbolicLink()).toBe(true);
  });

  it('a snapshot that is a hard link to a file elsewhere', () => {
    const s = withSnapshot();
    const target = join(s.dir, 'forged.json');
    writeFileSync(target, forgedState, { mode: 0o600 });
    const snapshot = join(s.session, '2.json');
    linkSync(target, snapshot);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(stateDenied(`${snapshot} has 2 hard links, not one as the files persona-gate writes; remove it`));
  });

  it('a snapshot that is a FIFO (without blocking on it)', () => {
    const s = withSnapshot();
    const snapshot = join(s.session, '2.json');
    expect(spawnSync('mkfifo', ['-m', '600', snapshot]).status).toBe(0);
    const r = runCli(['hook'], { input: probe(), env: s.env, timeout: 10_000 });
    expect(r).toMatchObject(stateDenied(`${snapshot} is a FIFO, not a file persona-gate wrote; remove it`));
  });

  it('a snapshot that is a directory', () => {
    const s = withSnapshot();
    const snapshot = join(s.session, '2.json');
    mkdirSync(snapshot);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(stateDenied(`${snapshot} is a directory, not a file persona-gate wrote; remove it`));
  });

  it("another user's snapshot (uid 65534), even for root", () => {
    const s = withSnapshot();
    const snapshot = join(s.session, '2.json');
    writeFileSync(snapshot, forgedState, { mode: 0o600 });
    chownSync(snapshot, 65534, 65534);
    const uid = process.getuid!();
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(stateDenied(`${snapshot} belongs to uid 65534, not to this user (uid ${uid}); remove it`));
  });

  it('a snapshot other users can write', () => {
    const s = withSnapshot();
    const snapshot = join(s.session, '2.json');
    writeFileSync(snapshot, forgedState);
    chmodSync(snapshot, 0o666);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(stateDenied(`${snapshot} is writable by other users, so it may not be what persona-gate wrote; remove it`));
  });

  it('a session directory that is a symbolic link', () => {
    const s = setup();
    const elsewhere = join(s.dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    writeFileSync(join(elsewhere, '1.json'), forgedState, { mode: 0o600 });
    mkdirSync(join(s.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, s.session);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(stateDenied(`${s.session} is a symbolic link, which persona-gate never follows in its state directory; remove it`));
  });

  it('a sessions directory other users can write', () => {
    const s = setup();
    mkdirSync(join(s.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    chmodSync(join(s.stateDir, 'sessions'), 0o777);
    const dir = join(s.stateDir, 'sessions');
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(stateDenied(`${dir} is writable by other users; run chmod go-w ${dir}`));
  });

  it("a state directory reached through this user's symbolic link", () => {
    const s = setup();
    const real = join(s.dir, 'real-state');
    mkdirSync(real, { mode: 0o700 });
    const link = join(s.dir, 'link');
    symlinkSync(real, link);
    const stateDir = join(link, 'state');
    const r = runCli(['hook'], { input: probe(), env: { ...s.env, PERSONA_GATE_STATE_DIR: stateDir } });
    expect(r).toMatchObject(
      stateDenied(`the state directory ${stateDir} is reached through ${link}, a symbolic link of this user; use the directory it points to (PERSONA_GATE_STATE_DIR) or remove the link`),
    );
    expect(readdirSync(real)).toEqual([]);
  });
});

describe('hook: receipts are never written through a forged file', () => {
  const reference = () => {
    const s = setup();
    return runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' } });
  };

  it.each([
    ['a symbolic link', (path: string, target: string) => symlinkSync(target, path)],
    ['a dangling symbolic link', (path: string, target: string) => symlinkSync(`${target}-missing`, path)],
    ['a hard link', (path: string, target: string) => linkSync(target, path)],
  ])('receipts file as %s: not written, the verdict unchanged', (_name, make) => {
    const expected = reference();
    expect(JSON.parse(expected.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const s = setup();
    const target = join(s.dir, 'target.jsonl');
    writeFileSync(target, '', { mode: 0o600 });
    mkdirSync(join(s.stateDir, 'receipts'), { recursive: true, mode: 0o700 });
    make(s.receipts, target);
    const r = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' } });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(readFileSync(target, 'utf8')).toBe('');
    expect(existsSync(`${target}-missing`)).toBe(false);
  });

  it('receipts directory as a symbolic link: nothing written there, the verdict unchanged', () => {
    const expected = reference();
    const s = setup();
    const elsewhere = join(s.dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(s.stateDir, { mode: 0o700 });
    symlinkSync(elsewhere, join(s.stateDir, 'receipts'));
    const r = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' } });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('hook: the policy cache is never trusted over the policy', () => {
  /** modelo.export is owned by verifier: modelo-preparer is refused it. */
  const ownerCall = () => preEvent('mcp__aeat__modelo_export');

  it('an entry edited to hold a policy without the owner changes nothing, and is replaced', () => {
    const s = setup();
    const env = { ...s.env, PERSONA_GATE_PERSONA: 'modelo-preparer' };
    const expected = runCli(['hook'], { input: ownerCall(), env });
    expect(JSON.parse(expected.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/verifier/);
    const bytes = readFileSync(s.policyPath);
    const entry = policyCacheEntry(join(s.stateDir, 'policy-cache'), s.policyPath, bytes.length);
    const original = readFileSync(entry);
    expect(original.subarray(original.length - bytes.length).equals(bytes)).toBe(true);
    // The same size, so that the entry keeps its name: the owner replaced by spaces.
    const text = bytes.toString('utf8');
    const forged = text.replace('"owner": "verifier", ', ' '.repeat('"owner": "verifier", '.length));
    expect(forged).not.toBe(text);
    expect(forged.length).toBe(text.length);
    writeFileSync(entry, Buffer.concat([original.subarray(0, original.length - bytes.length), Buffer.from(forged)]));
    const r = runCli(['hook'], { input: ownerCall(), env });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(readFileSync(entry).equals(original)).toBe(true);
  });

  it('an entry that is a symbolic link is ignored and replaced by a file, its target untouched', () => {
    const s = setup();
    const env = { ...s.env, PERSONA_GATE_PERSONA: 'modelo-preparer' };
    const expected = runCli(['hook'], { input: ownerCall(), env });
    const bytes = readFileSync(s.policyPath);
    const entry = policyCacheEntry(join(s.stateDir, 'policy-cache'), s.policyPath, bytes.length);
    const original = readFileSync(entry);
    const target = join(s.dir, 'forged-entry');
    writeFileSync(target, original);
    renameSync(entry, `${entry}.old`);
    symlinkSync(target, entry);
    const r = runCli(['hook'], { input: ownerCall(), env });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(lstatSync(entry).isFile()).toBe(true);
    expect(readFileSync(target).equals(original)).toBe(true);
  });

  /** The bucket file of the cached positions that holds `name`, and its entries. */
  const bucket = (s: ReturnType<typeof setup>, kind: 'c' | 't' | 'p' | 'a', name: string) => {
    const bytes = readFileSync(s.policyPath);
    const file = join(policyIndexDir(join(s.stateDir, 'policy-cache'), s.policyPath, bytes.length), `${kind}-${bucketOf(name)}.json`);
    const original = readFileSync(file);
    const entries = JSON.parse(original.toString('utf8')) as unknown[][];
    return { file, original, entries, entry: entries.find((e) => e[0] === name)! };
  };
  /** A command of the example policy without an owner, and its span. */
  const unowned = (s: ReturnType<typeof setup>) => {
    const commands = JSON.parse(readFileSync(s.policyPath, 'utf8')).catalog.commands as Record<string, { owner?: string }>;
    const key = Object.keys(commands).find((k) => commands[k]!.owner === undefined)!;
    return bucket(s, 'c', key).entry;
  };

  it.each([
    ['the span of another command', (entry: unknown[], other: unknown[]) => [entry[0], entry[1], other[1], other[2]]],
    ['another command, key and span', (entry: unknown[], other: unknown[]) => [entry[0], other[0], other[1], other[2]]],
  ])('a bucket edited to give the tool %s changes nothing, and is rewritten', (_name, forge) => {
    const s = setup();
    const env = { ...s.env, PERSONA_GATE_PERSONA: 'modelo-preparer' };
    const expected = runCli(['hook'], { input: ownerCall(), env });
    expect(JSON.parse(expected.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/verifier/);
    const tools = bucket(s, 't', 'mcp__aeat__modelo_export');
    const other = unowned(s);
    const forged = tools.entries.map((e) => (e === tools.entry ? forge(e, other) : e));
    writeFileSync(tools.file, JSON.stringify(forged));
    // The forged entry is well formed: it names a command of the policy at a span that holds one.
    const commands = JSON.parse(readFileSync(s.policyPath, 'utf8')).catalog.commands;
    expect(commands[other[0] as string].owner).toBeUndefined();
    const r = runCli(['hook'], { input: ownerCall(), env });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(readFileSync(tools.file).equals(tools.original)).toBe(true);
  });

  it('a bucket with the entry deleted: the tool is still found, and the bucket rewritten', () => {
    const s = setup();
    const env = { ...s.env, PERSONA_GATE_PERSONA: 'modelo-preparer' };
    const expected = runCli(['hook'], { input: ownerCall(), env });
    const tools = bucket(s, 't', 'mcp__aeat__modelo_export');
    const commands = bucket(s, 'c', 'modelo.export');
    writeFileSync(tools.file, JSON.stringify(tools.entries.filter((e) => e !== tools.entry)));
    writeFileSync(commands.file, JSON.stringify(commands.entries.filter((e) => e !== commands.entry)));
    const r = runCli(['hook'], { input: ownerCall(), env });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(readFileSync(tools.file).equals(tools.original)).toBe(true);
  });

  it('spans of an earlier version of the policy are not used: the new one is validated, its positions recorded', () => {
    const s = setup();
    const env = { ...s.env, PERSONA_GATE_PERSONA: 'modelo-preparer' };
    const expected = runCli(['hook'], { input: ownerCall(), env });
    const cacheDir = join(s.stateDir, 'policy-cache');
    const before = readFileSync(s.policyPath);
    const oldEntry = readFileSync(policyCacheEntry(cacheDir, s.policyPath, before.length));
    const oldIndex = policyIndexDir(cacheDir, s.policyPath, before.length);
    const oldBuckets = Object.fromEntries(readdirSync(oldIndex).map((f) => [f, readFileSync(join(oldIndex, f))]));
    // The same size, so that the cache's names stay: every member after the first moves.
    const text = before.toString('utf8');
    const edited = `  ${text.replace('"owner": "verifier", ', '"owner": "verifier",')}`.replace(/\n\s*$/, '').padEnd(text.length, ' ');
    expect(edited.length).toBe(text.length);
    writeFileSync(s.policyPath, edited);
    expect(runCli(['hook'], { input: ownerCall(), env })).toMatchObject({ stdout: expected.stdout, code: 0 });
    const entry = policyCacheEntry(cacheDir, s.policyPath, before.length);
    expect(readFileSync(entry).subarray(readFileSync(entry).length - before.length).toString('utf8')).toBe(edited);
    // Forged back: a validated entry holding the new bytes with the old positions, and the old buckets.
    const header = oldEntry.subarray(0, oldEntry.length - before.length);
    writeFileSync(entry, Buffer.concat([header, Buffer.from(edited)]));
    for (const [f, content] of Object.entries(oldBuckets)) writeFileSync(join(oldIndex, f), content);
    const r = runCli(['hook'], { input: ownerCall(), env });
    expect(r).toMatchObject({ stdout: expected.stdout, code: 0 });
    expect(readFileSync(entry).subarray(0, header.length).equals(header)).toBe(false);
  });

  it('the large policy: the cached positions decide as the whole policy does, forged or not', () => {
    const s = setup();
    writeFileSync(s.policyPath, JSON.stringify(largePolicy(), null, 2));
    const calls: [string, Record<string, string>][] = [
      [preEvent('mcp__srv57__op3', {}, { session_id: 'large-1' }), { PERSONA_GATE_PERSONA: 'persona14' }],
      [preEvent('mcp__srv0__op0', {}, { session_id: 'large-2' }), { PERSONA_GATE_PERSONA: 'persona1' }],
      [preEvent('mcp__srv0__op0', {}, { session_id: 'large-3' }), { PERSONA_GATE_PERSONA: 'persona0' }],
      [preEvent('mcp__glob10__anything', {}, { session_id: 'large-4' }), { PERSONA_GATE_PERSONA: 'persona2' }],
      [preEvent('mcp__nowhere__x', {}, { session_id: 'large-5' }), {}],
      [preEvent('mcp__hub__execute', { command: 'fam3.group0.op0' }, { session_id: 'large-6' }), { PERSONA_GATE_PERSONA: 'persona0' }],
      [preEvent('mcp__srv5__op1', {}, { session_id: 'large-7', agent_type: 'agent1' }), {}],
      [preEvent('mcp__srv5__op1', {}, { session_id: 'large-8' }), { PERSONA_GATE_PERSONA: 'nobody' }],
    ];
    const decide = () => calls.map(([input, extra]) => runCli(['hook'], { input, env: { ...s.env, ...extra } })).map((r) => ({ stdout: r.stdout, code: r.code }));
    // First with a cache that holds nothing usable: each call validates.
    mkdirSync(join(s.stateDir, 'policy-cache'), { recursive: true, mode: 0o700 });
    const cacheDir = join(s.stateDir, 'policy-cache');
    const uncached = calls.map(([input, extra]) => {
      rmSync(cacheDir, { recursive: true, force: true });
      const r = runCli(['hook'], { input, env: { ...s.env, ...extra } });
      return { stdout: r.stdout, code: r.code };
    });
    expect(new Set(uncached.map((r) => r.stdout)).size).toBeGreaterThan(2);
    for (const id of calls.keys()) rmSync(join(s.stateDir, 'sessions', sessionKey(`large-${id + 1}`)), { recursive: true, force: true });
    runCli(['hook'], { input: preEvent('Read', {}, { session_id: 'warm' }), env: s.env });
    expect(decide()).toEqual(uncached);
    for (const id of calls.keys()) rmSync(join(s.stateDir, 'sessions', sessionKey(`large-${id + 1}`)), { recursive: true, force: true });
    // Every bucket emptied: each name is still found.
    const indexDir = policyIndexDir(cacheDir, s.policyPath, readFileSync(s.policyPath).length);
    for (const f of readdirSync(indexDir)) writeFileSync(join(indexDir, f), '[]');
    expect(decide()).toEqual(uncached);
  });

  it('an index directory that is a symbolic link to forged positions is ignored and replaced, its target untouched', () => {
    const s = setup();
    const env = { ...s.env, PERSONA_GATE_PERSONA: 'modelo-preparer' };
    const expected = runCli(['hook'], { input: ownerCall(), env });
    const tools = bucket(s, 't', 'mcp__aeat__modelo_export');
    const other = unowned(s);
    const indexDir = policyIndexDir(join(s.stateDir, 'policy-cache'), s.policyPath, readFileSync(s.policyPath).length);
    const elsewhere = join(s.dir, 'forged-index');
    mkdirSync(elsewhere, { mode: 0o700 });
    for (const f of readdirSync(indexDir)) writeFileSync(join(elsewhere, f), readFileSync(join(indexDir, f)), { mode: 0o600 });
    const forgedBucket = JSON.stringify(tools.entries.map((e) => (e === tools.entry ? [e[0], other[0], other[1], other[2]] : e)));
    writeFileSync(join(elsewhere, tools.file.slice(indexDir.length + 1)), forgedBucket);
    rmSync(indexDir, { recursive: true });
    symlinkSync(elsewhere, indexDir);
    const r = runCli(['hook'], { input: ownerCall(), env });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(lstatSync(indexDir).isDirectory()).toBe(true);
    expect(readFileSync(tools.file).equals(tools.original)).toBe(true);
    expect(readFileSync(join(elsewhere, tools.file.slice(indexDir.length + 1)), 'utf8')).toBe(forgedBucket);
  });

  it('a policy-cache directory that is a symbolic link is refused', () => {
    const s = setup();
    const elsewhere = join(s.dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(s.stateDir, { mode: 0o700 });
    const cacheDir = join(s.stateDir, 'policy-cache');
    symlinkSync(elsewhere, cacheDir);
    const r = runCli(['hook'], { input: ownerCall(), env: s.env });
    expect(r).toMatchObject(stateDenied(`${cacheDir} is a symbolic link, which persona-gate never follows in its state directory; remove it`));
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('hook: a state directory behind a symbolic link of root, for another user', () => {
  // Running the hook as uid 65534 needs root; elsewhere these cases are skipped.
  const asRoot = process.getuid?.() === 0;
  function nobodySetup() {
    const s = setup();
    chmodSync(s.dir, 0o755);
    chmodSync(s.policyPath, 0o644);
    const home = join(s.dir, 'home');
    mkdirSync(home, { mode: 0o755 });
    chownSync(home, 65534, 65534);
    return { ...s, home };
  }
  const runAs = (env: Record<string, string>) =>
    spawnSync(process.execPath, [BIN, 'hook'], { input: preEvent('Read'), env, uid: 65534, gid: 65534, encoding: 'utf8', cwd: '/' });

  it.runIf(asRoot)("accepts a link owned by root, refuses one of the user's own", () => {
    const s = nobodySetup();
    const rootLink = join(s.dir, 'root-link');
    symlinkSync(s.home, rootLink);
    const ok = runAs({ ...s.env, HOME: s.home, PERSONA_GATE_STATE_DIR: join(rootLink, 'state') });
    expect({ stdout: ok.stdout, stderr: ok.stderr, code: ok.status }).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(lstatSync(join(s.home, 'state', 'sessions')).uid).toBe(65534);

    const userLink = join(s.home, 'user-link');
    symlinkSync(join(s.home, 'state'), userLink);
    lchown(userLink);
    const stateDir = join(userLink, 'sub');
    const refused = runAs({ ...s.env, HOME: s.home, PERSONA_GATE_STATE_DIR: stateDir });
    expect({ stdout: refused.stdout, code: refused.status }).toEqual({
      stdout: denyJson(en.stateError(`the state directory ${stateDir} is reached through ${userLink}, a symbolic link of this user; use the directory it points to (PERSONA_GATE_STATE_DIR) or remove the link`)),
      code: 0,
    });
  });
});

function lchown(path: string): void {
  expect(spawnSync('chown', ['-h', '65534:65534', path]).status).toBe(0);
}
