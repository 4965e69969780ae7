import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { sessionKey } from '../../src/io/hash';
import { policyCacheEntry } from '../../src/io/policy-cache';
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
