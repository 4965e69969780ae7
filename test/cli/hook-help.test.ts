import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';
import { messagesFor } from '../../src/core/messages';

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe('hook --help', () => {
  it('prints its help at once and exits 0 when no event is fed (stdin /dev/null)', () => {
    const started = Date.now();
    const r = spawnSync(process.execPath, [BIN, 'hook', '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      env: cleanEnv(),
      timeout: 30_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: persona-gate hook \[--config PATH\]/);
    expect(r.stderr).toBe('');
    // Well before the hook's own 5 s deadline, which is what it used to wait for.
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('refuses the call (exit 2, nothing on stdout) when --help is given where an event is fed', () => {
    const r = runCli(['hook', '--help'], { input: preEvent('Read'), env: cleanEnv({ PERSONA_GATE_CONFIG: TAX_POLICY_PATH }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: persona-gate hook');
    expect(r.stderr).toContain('persona-gate hook: --help given where an event is expected: the call is denied.');
  });

  it('denies, exit 2 and nothing on stdout, when stdin is /dev/null and no help was asked for (SPEC §5: no event)', () => {
    for (const locale of ['en', 'es'] as const) {
      const r = spawnSync(process.execPath, [BIN, 'hook'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        env: cleanEnv({ PERSONA_GATE_LOCALE: locale }),
        timeout: 30_000,
      });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`${messagesFor(locale).eventEmpty()}\n`);
    }
  });

  it.skipIf(!hasScript)('prints its help at once on a terminal', () => {
    const started = Date.now();
    const r = spawnSync('script', ['-qec', `${process.execPath} ${BIN} hook`, '/dev/null'], {
      encoding: 'utf8',
      env: cleanEnv(),
      timeout: 30_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: persona-gate hook');
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

describe('locale', () => {
  it("follows the user's preference for what the user reads, and the policy's locale for what the model reads", () => {
    const dir = tempDir();
    const policy = join(dir, 'policy.json');
    writeFileSync(policy, JSON.stringify({ ...JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8')), locale: 'en' }));
    const env = cleanEnv({
      HOME: dir,
      PERSONA_GATE_STATE_DIR: join(dir, 'state'),
      PERSONA_GATE_CONFIG_HOME: join(dir, 'prefs'),
      PERSONA_GATE_CONFIG: policy,
    });
    expect(runCli(['config', 'set', 'locale', 'es'], { env }).code).toBe(0);
    expect(runCli(['validate'], { env }).stdout).toContain(': válida (');
    const r = runCli(['hook'], { env: { ...env, PERSONA_GATE_PERSONA: 'coordinator' }, input: preEvent('mcp__aeat__modelo_export') });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /^persona-gate: the coordinator persona may not run modelo\.export/,
    );
  });
});
