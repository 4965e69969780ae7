import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, preEvent, runCli, tempDir, type Ran } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

// SPEC §9.7: no file read on the hook's path can block or read without end. Each file the hook
// reads is made, in turn, a FIFO nobody writes (an open that would wait for ever) and a link to
// /dev/zero (a read that never ends). The hook must answer well within the deadline it was given,
// and fail closed where the file was one it needed.

const DEADLINE = 20_000;
/** Far below the deadline: an answer this fast was not the deadline's. */
const ANSWERED_WITHIN = 10_000;

function fifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
}

type Spoil = (path: string) => void;
const SPOILS: [string, Spoil][] = [
  ['a FIFO with no writer', fifo],
  ['a link to /dev/zero', (path) => symlinkSync('/dev/zero', path)],
];

function project() {
  const dir = tempDir();
  mkdirSync(join(dir, '.claude'));
  const policy = join(dir, '.claude', 'persona-gate.json');
  copyFileSync(TAX_POLICY_PATH, policy);
  const home = join(dir, 'home');
  mkdirSync(home);
  const env = cleanEnv({ HOME: home, PERSONA_GATE_STATE_DIR: join(dir, 'state'), PERSONA_GATE_DEADLINE_MS: String(DEADLINE) });
  const call = (command: string, cwd = dir, extraEnv: Record<string, string> = {}): Ran =>
    runCli(['hook'], { input: preEvent('Bash', { command }, { cwd }), env: { ...env, ...extraEnv }, timeout: DEADLINE + 20_000 });
  return { dir, home, policy, call };
}

const denied = (r: Ran) => JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };

describe('no read on the hook path blocks or runs without end', () => {
  for (const [what, spoil] of SPOILS) {
    it(`the policy as ${what}: denied at once, saying it is not a regular file`, () => {
      const p = project();
      const policy = join(p.dir, 'odd-policy.json');
      spoil(policy);
      const r = p.call('ls', p.dir, { PERSONA_GATE_CONFIG: policy });
      expect(r.ms).toBeLessThan(ANSWERED_WITHIN);
      expect(denied(r)).toMatchObject({ permissionDecision: 'deny' });
      expect(denied(r).permissionDecisionReason).toContain('not a regular file');
    });

    it(`the git index as ${what}: a checkout is held for the user, since what git tracks cannot be read`, () => {
      const p = project();
      mkdirSync(join(p.dir, '.git'));
      spoil(join(p.dir, '.git', 'index'));
      const r = p.call('git checkout main');
      expect(r.ms).toBeLessThan(ANSWERED_WITHIN);
      expect(['ask', 'deny']).toContain(denied(r).permissionDecision);
      expect(denied(r).permissionDecisionReason).toContain('cannot read');
      // An ordinary read in the same tree is still let through.
      const ls = p.call('ls');
      expect(ls.ms).toBeLessThan(ANSWERED_WITHIN);
      expect(ls).toMatchObject({ stdout: '', code: 0 });
    });

    it(`a .git file as ${what}: answered, and a checkout held for the user`, () => {
      const p = project();
      spoil(join(p.dir, '.git'));
      const r = p.call('git checkout main');
      expect(r.ms).toBeLessThan(ANSWERED_WITHIN);
      expect(['ask', 'deny']).toContain(denied(r).permissionDecision);
    });

    it(`the preferences file as ${what}: read as no preferences`, () => {
      const p = project();
      const prefsDir = join(p.home, '.config', 'persona-gate');
      mkdirSync(prefsDir, { recursive: true });
      spoil(join(prefsDir, 'config.json'));
      const r = p.call('ls', p.dir, { XDG_CONFIG_HOME: join(p.home, '.config') });
      expect(r.ms).toBeLessThan(ANSWERED_WITHIN);
      expect(r).toMatchObject({ stdout: '', code: 0 });
    });

    it(`the MCP lock as ${what}: answered on the policy's merits`, () => {
      const p = project();
      spoil(join(p.dir, '.claude', 'persona-gate.lock.json'));
      const r = p.call('ls');
      expect(r.ms).toBeLessThan(ANSWERED_WITHIN);
      expect(r.code).toBe(0);
      const mcp = runCli(['hook'], {
        input: preEvent('mcp__aeat__modelo_list', {}, { cwd: p.dir }),
        env: cleanEnv({ HOME: p.home, PERSONA_GATE_STATE_DIR: join(p.dir, 'state'), PERSONA_GATE_DEADLINE_MS: String(DEADLINE) }),
        timeout: DEADLINE + 20_000,
      });
      expect(mcp.ms).toBeLessThan(ANSWERED_WITHIN);
      expect(mcp.code).toBe(0);
    });
  }

  it('the test policy is a regular file read as before (control)', () => {
    const p = project();
    writeFileSync(join(p.dir, 'x'), '');
    expect(p.call('ls')).toMatchObject({ stdout: '', code: 0 });
  });
});
