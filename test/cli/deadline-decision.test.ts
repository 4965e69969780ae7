import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { cleanEnv, denyJson, preEvent, runCli, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

// SPEC §9.7: the deadline covers the decision, not only reading stdin. A policy large enough that
// validating it on the first call takes far longer than the deadline: the event arrives at once,
// so it is the decision that runs out of time, and the hook still answers with a deny.
describe('the deadline during a decision', () => {
  it('denies, and says so in the receipt, when deciding outlasts the deadline', () => {
    const dir = tempDir();
    const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    for (let k = 0; k < 60_000; k++) policy.catalog.commands[`ledger.bulk${k}.op`] = { level: 'read_only', tools: [`mcp__bulk__op${k}`], bash: [`bulk${k} op`] };
    const policyPath = join(dir, 'policy.json');
    writeFileSync(policyPath, JSON.stringify(policy));
    const stateDir = join(dir, 'state');
    const env = cleanEnv({ PERSONA_GATE_CONFIG: policyPath, PERSONA_GATE_STATE_DIR: stateDir, HOME: dir, PERSONA_GATE_DEADLINE_MS: '1000' });
    const started = Date.now();
    const r = runCli(['hook'], { input: preEvent('Bash', { command: 'ls' }, { cwd: dir }), env, timeout: 60_000 });
    const took = Date.now() - started;
    expect(r).toMatchObject({ stdout: denyJson(en.deadline(1000)), stderr: '', code: 0 });
    const receipts = readdirSync(join(stateDir, 'receipts'));
    const lines = readFileSync(join(stateDir, 'receipts', receipts[0]!), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ verdict: 'deny', status: 'deadline', gate: 'hook' });
    // The same call with room to decide is answered on its merits, so it was the decision that ran out.
    const roomy = runCli(['hook'], { input: preEvent('Bash', { command: 'ls' }, { cwd: dir }), env: { ...env, PERSONA_GATE_DEADLINE_MS: '120000' }, timeout: 120_000 });
    expect(roomy).toMatchObject({ stdout: '', code: 0 });
    expect(took).toBeGreaterThan(1000);
  }, 180_000);
});
