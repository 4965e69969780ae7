import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { sessionKey } from '../../src/io/hash';
import { BIN, cleanEnv, denyJson, preEvent, runCli, runCliAsync, tempDir } from '../helpers/cli';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';

/** Faults injected around the hook; each must end in the documented verdict, within the deadline. */

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const NOBODY = 65534;
const DEADLINE = 3000;

function setup(opts: { world?: boolean } = {}) {
  const dir = tempDir();
  if (opts.world) chmodSync(dir, 0o755);
  const stateDir = join(dir, 'state');
  const policyPath = join(dir, 'policy.json');
  writeFileSync(policyPath, readFileSync(TAX_POLICY_PATH));
  const env = cleanEnv({
    PERSONA_GATE_STATE_DIR: stateDir,
    PERSONA_GATE_CONFIG: policyPath,
    HOME: dir,
    PERSONA_GATE_DEADLINE_MS: String(DEADLINE),
  });
  return { dir, stateDir, policyPath, env };
}

/** The hook as another user (only root can switch), for faults that root's privileges would hide. */
function runAs(uid: number, input: string, env: Record<string, string>) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [BIN, 'hook'], { input, env, cwd: '/', uid, gid: uid, encoding: 'utf8', timeout: 20_000 });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status, ms: Date.now() - started };
}

const decision = (stdout: string) => (stdout === '' ? 'abstain' : JSON.parse(stdout).hookSpecificOutput.permissionDecision);

describe('fault injection', () => {
  it.skipIf(!isRoot)('denies when the policy cannot be read (permissions)', () => {
    const s = setup({ world: true });
    mkdirSync(s.stateDir, { mode: 0o700 });
    chownSync(s.stateDir, NOBODY, NOBODY);
    chmodSync(s.policyPath, 0o000);
    const r = runAs(NOBODY, preEvent('Read'), s.env);
    expect(r).toMatchObject({ stdout: denyJson(en.unreadablePolicy(s.policyPath, 'EACCES')), code: 0 });
    expect(r.ms).toBeLessThan(DEADLINE);
  });

  it('decides every call by a whole policy while the policy is replaced mid-run', async () => {
    const s = setup();
    const valid = readFileSync(TAX_POLICY_PATH, 'utf8');
    const widened = JSON.parse(valid);
    widened.personas.coordinator.ceiling = 'workspace_write';
    const variants = [valid, JSON.stringify(widened), '{"version": 1, "catalog": {', ''];
    let stop = false;
    let writes = 0;
    const writer = (async () => {
      while (!stop) {
        const text = variants[writes % variants.length]!;
        if (writes % 2 === 0) writeFileSync(s.policyPath, text);
        else {
          writeFileSync(`${s.policyPath}.new`, text);
          renameSync(`${s.policyPath}.new`, s.policyPath);
        }
        writes++;
        await new Promise((r) => setTimeout(r, 3));
      }
    })();
    // 40 processes at once on a small machine: a generous deadline, so that what is measured is
    // which policy each decision saw, not how long 40 process starts take.
    const env = { ...s.env, PERSONA_GATE_PERSONA: 'coordinator', PERSONA_GATE_DEADLINE_MS: '20000' };
    const calls = Array.from({ length: 40 }, (_, i) =>
      runCliAsync(['hook'], { input: preEvent(i % 2 ? 'mcp__aeat__modelo_export' : 'mcp__aeat__modelo_list'), env }),
    );
    const results = await Promise.all(calls);
    stop = true;
    await writer;
    expect(writes).toBeGreaterThan(5);
    results.forEach((r, i) => {
      expect(r.code).toBe(0);
      const verdict = decision(r.stdout);
      // The filing is refused by every version of the policy, and by a broken one.
      if (i % 2) expect(verdict).toBe('deny');
      else expect(['abstain', 'deny']).toContain(verdict);
      expect(r.ms).toBeLessThan(20_000);
    });
  });

  it.skipIf(!isRoot)('denies a state-changing call when the state directory is not writable', () => {
    const s = setup({ world: true });
    mkdirSync(join(s.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    for (const d of [s.stateDir, join(s.stateDir, 'sessions')]) chownSync(d, NOBODY, NOBODY);
    chmodSync(join(s.stateDir, 'sessions'), 0o500);
    const r = runAs(NOBODY, preEvent('mcp__aeat__whoami'), s.env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toBe(
      en.stateError(`cannot create ${join(s.stateDir, 'sessions', sessionKey('cli-session'))}: EACCES`),
    );
  });

  it('denies when the state directory is a symbolic link to elsewhere', () => {
    const s = setup();
    const elsewhere = mkdtempSync(join(tmpdir(), 'pg-elsewhere-'));
    try {
      symlinkSync(elsewhere, s.stateDir);
      const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
      expect(r).toMatchObject({
        stdout: denyJson(
          en.stateError(
            `the state directory ${s.stateDir} is reached through ${s.stateDir}, a symbolic link of this user; use the directory it points to (PERSONA_GATE_STATE_DIR) or remove the link`,
          ),
        ),
        code: 0,
      });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it.skipIf(!isRoot)('denies when the state directory belongs to another user', () => {
    const s = setup();
    mkdirSync(s.stateDir, { mode: 0o700 });
    chownSync(s.stateDir, NOBODY, NOBODY);
    const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(r).toMatchObject({
      stdout: denyJson(
        en.stateError(
          `${s.stateDir} belongs to uid ${NOBODY}, not to this user (uid ${process.getuid!()}); remove it or use a state directory of your own`,
        ),
      ),
      code: 0,
    });
  });

  it('denies when the state directory is writable by others', () => {
    const s = setup();
    mkdirSync(s.stateDir, { mode: 0o700 });
    chmodSync(s.stateDir, 0o777);
    const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(r).toMatchObject({
      stdout: denyJson(en.stateError(`${s.stateDir} is writable by other users; run chmod go-w ${s.stateDir}`)),
      code: 0,
    });
  });

  it('denies when a session state file is a directory', () => {
    const s = setup();
    mkdirSync(join(s.stateDir, 'sessions', sessionKey('cli-session'), '1.json'), { recursive: true });
    const r = runCli(['hook'], { input: preEvent('Read'), env: s.env });
    expect(r).toMatchObject({
      stdout: denyJson(
        en.stateError(
          `${join(s.stateDir, 'sessions', sessionKey('cli-session'), '1.json')} is a directory, not a file persona-gate wrote; remove it`,
        ),
      ),
      code: 0,
    });
  });

  it('has no lock to leave held: a writer killed mid-publish leaves a temporary file that is ignored', () => {
    const s = setup();
    const session = join(s.stateDir, 'sessions', sessionKey('cli-session'));
    mkdirSync(session, { recursive: true, mode: 0o700 });
    // What a writer killed between writing its snapshot and publishing it leaves behind.
    writeFileSync(join(session, '1.99999.abc.tmp'), '{"v":1,"confirmed":true');
    const r = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env: s.env });
    expect(r.stdout).toBe(denyJson(en.identityRequired()));
    const ok = runCli(['hook'], { input: preEvent('mcp__aeat__whoami'), env: s.env });
    expect(ok).toMatchObject({ stdout: '', code: 0 });
  });

  it('denies, never hangs, when the next snapshot slot is taken by garbage', () => {
    const s = setup();
    expect(runCli(['hook'], { input: preEvent('mcp__aeat__whoami'), env: s.env }).code).toBe(0);
    writeFileSync(join(s.stateDir, 'sessions', sessionKey('cli-session'), '2.json'), 'not a state');
    const r = runCli(['hook'], { input: preEvent('mcp__aeat__whoami'), env: s.env });
    expect(r).toMatchObject({ stdout: denyJson(en.stateError('the session state file is corrupt')), code: 0 });
    expect(r.ms).toBeLessThan(DEADLINE);
  });

  it('denies within its deadline under contention it cannot win', async () => {
    const s = setup();
    const env = { ...s.env, PERSONA_GATE_DEADLINE_MS: '1', PERSONA_GATE_PERSONA: 'verifier', PERSONA_GATE_STAGE: 'file' };
    const results = await Promise.all(
      Array.from({ length: 16 }, () => runCliAsync(['hook'], { input: preEvent('mcp__aeat__whoami'), env })),
    );
    for (const r of results) {
      expect([0, 2]).toContain(r.code);
      if (r.code === 0 && r.stdout !== '') expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    }
  });

  describe('a full disk', () => {
    const mountPoint = join(tmpdir(), `pg-full-${process.pid}`);
    let mounted = false;
    if (isRoot) {
      mkdirSync(mountPoint, { recursive: true });
      mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', mountPoint]).status === 0;
    }

    it.skipIf(!mounted)('denies a state-changing call, and keeps the verdict of the others (tmpfs of 256 KiB, filled)', () => {
      try {
        const stateDir = join(mountPoint, 'state');
        const env = cleanEnv({
          PERSONA_GATE_STATE_DIR: stateDir,
          PERSONA_GATE_CONFIG: TAX_POLICY_PATH,
          HOME: mountPoint,
          PERSONA_GATE_PERSONA: 'coordinator',
        });
        // The policy is cached while there is room; then the disk is filled.
        expect(runCli(['hook'], { input: preEvent('Read'), env }).code).toBe(0);
        const filler = join(mountPoint, 'filler');
        spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k', 'count=1000']);
        const write = runCli(['hook'], { input: preEvent('mcp__aeat__whoami'), env });
        expect(write.code).toBe(0);
        expect(JSON.parse(write.stdout).hookSpecificOutput.permissionDecisionReason).toBe(
          en.stateError('cannot write the session state: ENOSPC'),
        );
        const refused = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env });
        expect(JSON.parse(refused.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
        expect(runCli(['hook'], { input: preEvent('mcp__aeat__modelo_list'), env })).toMatchObject({ stdout: '', code: 0 });
      } finally {
        spawnSync('umount', [mountPoint]);
        rmSync(mountPoint, { recursive: true, force: true });
      }
    });

    it('keeps the verdict when receipts hit a write error (/dev/full)', () => {
      if (mounted) spawnSync('umount', [mountPoint]);
      const s = setup();
      runCli(['hook'], { input: preEvent('Read'), env: s.env });
      const receipts = join(s.stateDir, 'receipts');
      rmSync(receipts, { recursive: true, force: true });
      mkdirSync(receipts, { mode: 0o700 });
      symlinkSync('/dev/full', join(receipts, `${sessionKey('cli-session')}.jsonl`));
      const env = { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' };
      expect(runCli(['hook'], { input: preEvent('mcp__aeat__modelo_list'), env })).toMatchObject({ stdout: '', code: 0 });
      const denied = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env });
      expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      expect(readdirSync(receipts)).toHaveLength(1);
    });
  });
});
void ROOT;
