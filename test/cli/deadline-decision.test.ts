import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { cleanEnv, denyJson, preEvent, runCli, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

// SPEC §9.7: the deadline covers the decision, not only reading stdin. A policy large enough that
// validating it on the first call (one synchronous step) takes far longer than the deadline: the
// event arrives at once, so it is the decision that runs out of time, and the watchdog stops it
// inside that step rather than after it.
describe('the deadline during a decision', () => {
  it('denies, and says so in the receipt, when deciding outlasts the deadline', () => {
    const dir = tempDir();
    const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    for (let k = 0; k < 150_000; k++)
      policy.catalog.commands[`ledger.bulk${k}.op`] = { level: 'read_only', tools: [`mcp__bulk__op${k}`], bash: [`bulk${k} op`] };
    const policyPath = join(dir, 'policy.json');
    writeFileSync(policyPath, JSON.stringify(policy));
    const env = cleanEnv({ PERSONA_GATE_CONFIG: policyPath, HOME: dir });
    const call = (stateDir: string, deadline: number) => {
      const started = Date.now();
      const r = runCli(['hook'], {
        input: preEvent('Bash', { command: 'ls' }, { cwd: dir }),
        env: { ...env, PERSONA_GATE_STATE_DIR: stateDir, PERSONA_GATE_DEADLINE_MS: String(deadline) },
        timeout: 120_000,
      });
      return { r, took: Date.now() - started };
    };
    // With room to decide, the call is answered on its merits; this is how long the decision takes.
    const roomy = call(join(dir, 'roomy'), 120_000);
    expect(roomy.r, JSON.stringify(roomy.r).slice(0, 400)).toMatchObject({ stdout: '', code: 0 });
    // A deadline well inside the decision, however fast this machine decides.
    expect(roomy.took).toBeGreaterThan(1200);
    const deadline = Math.max(300, Math.floor(roomy.took / 3));
    // A fresh state directory, so the decision cannot take the cached index the roomy call left.
    const stateDir = join(dir, 'state');
    const short = call(stateDir, deadline);
    expect(short.r).toMatchObject({ stdout: denyJson(en.deadline(deadline)), stderr: '', code: 0 });
    const receipts = readdirSync(join(stateDir, 'receipts'));
    const lines = readFileSync(join(stateDir, 'receipts', receipts[0]!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ verdict: 'deny', status: 'deadline', gate: 'hook' });
    // Stopped inside the validation, not after it: well before the decision would have ended.
    expect(short.took).toBeGreaterThan(deadline);
    expect(short.took).toBeLessThan(deadline + (roomy.took - deadline) / 2);
  }, 180_000);
});
