import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, runCliAsync, tempDir } from '../helpers/cli';
import { sessionKey } from '../../src/io/hash';
import { KEEP_SNAPSHOTS } from '../../src/io/state-store';
import { TAX_POLICY_PATH, ROOT } from '../helpers/policy';

const SESSION = 'concurrent-session';

function setup() {
  const dir = tempDir();
  const stateDir = join(dir, 'state');
  const policyPath = join(dir, 'policy.json');
  writeFileSync(policyPath, readFileSync(TAX_POLICY_PATH));
  // What is tested here is that no update is lost; a generous deadline keeps a slow machine's
  // process starts from turning into (correct, fail-closed) deadline denials.
  const env = cleanEnv({ PERSONA_GATE_STATE_DIR: stateDir, PERSONA_GATE_CONFIG: policyPath, HOME: dir, PERSONA_GATE_DEADLINE_MS: '30000' });
  return { dir, stateDir, env };
}

function event(hook: 'PreToolUse' | 'PostToolUse', tool: string, id: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    hook_event_name: hook,
    session_id: SESSION,
    tool_name: tool,
    tool_input: {},
    tool_use_id: id,
    cwd: ROOT,
    ...extra,
  });
}

const hook = (env: Record<string, string>, input: string) => runCliAsync(['hook'], { input, env });
const verdictOf = (stdout: string) => (stdout === '' ? 'abstain' : (JSON.parse(stdout).hookSpecificOutput.permissionDecision as string));
const show = (env: Record<string, string>) => JSON.parse(runCli(['session', 'show', '--session', SESSION], { env }).stdout);

describe('state store under concurrent hook processes', () => {
  it('loses no update with 48 processes of one session at once, and after a final switch no mutation passes', async () => {
    const { env } = setup();
    // Reads let through before the storm; their PostToolUse arrive during it.
    for (let i = 0; i < 16; i++) expect((await hook(env, event('PreToolUse', 'mcp__aeat__whoami', `read-${i}`))).code).toBe(0);
    const storm = [
      ...Array.from({ length: 16 }, (_, i) =>
        event('PostToolUse', 'mcp__aeat__whoami', `read-${i}`, { tool_response: [{ type: 'text', text: `Erika ${i}` }] }),
      ),
      ...Array.from({ length: 8 }, (_, i) => event('PreToolUse', 'mcp__aeat__profile_switch', `switch-${i}`)),
      ...Array.from({ length: 8 }, (_, i) => event('PreToolUse', 'mcp__aeat__whoami', `late-read-${i}`)),
      ...Array.from({ length: 16 }, (_, i) => event('PreToolUse', 'mcp__aeat__modelo_work_create', `mutate-${i}`)),
    ];
    const results = await Promise.all(storm.map((input) => hook(env, input)));
    for (const r of results) expect([0, 2]).toContain(r.code);
    // Every switch was let through (none denied for a store error or the deadline)...
    for (const r of results.slice(16, 24)) expect(r.stdout, r.stdout).toBe('');
    const state = show(env);
    // Every switch re-armed exactly once: no update was overwritten.
    expect(state.epoch).toBe(8);

    const final = await hook(env, event('PreToolUse', 'mcp__aeat__profile_switch', 'final-switch'));
    expect(verdictOf(final.stdout)).toBe('abstain');
    const after = await Promise.all([
      ...Array.from({ length: 32 }, (_, i) => hook(env, event('PreToolUse', 'mcp__aeat__modelo_work_create', `after-${i}`))),
      // Confirmations of reads let through before the final switch arrive now: they must not count.
      ...Array.from({ length: 8 }, (_, i) =>
        hook(env, event('PostToolUse', 'mcp__aeat__whoami', `late-read-${i}`, { tool_response: [{ type: 'text', text: 'Erik' }] })),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        hook(env, event('PostToolUse', 'mcp__aeat__whoami', `read-${i}`, { tool_response: [{ type: 'text', text: 'Erik' }] })),
      ),
    ]);
    const mutations = after.slice(0, 32);
    for (const r of mutations) {
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/has not yet confirmed which profile/);
    }
    expect(show(env)).toMatchObject({ confirmed: false, epoch: 9, label: null });
  });

  // Far more writers than the kept window of snapshots: some are descheduled between reading and
  // publishing while the window moves past their number (the case the snapshot lineage is for).
  it('keeps every switch through rounds of 64 processes, more than the kept window', async () => {
    const rounds = Number(process.env.STORM_ROUNDS ?? 3);
    for (let round = 0; round < rounds; round++) {
      const { env } = setup();
      const results = await Promise.all(
        Array.from({ length: 64 }, (_, i) =>
          hook(env, event('PreToolUse', i % 2 ? 'mcp__aeat__profile_switch' : 'mcp__aeat__whoami', `storm-${i}`)),
        ),
      );
      for (const r of results) expect(r.stdout, r.stdout).toBe('');
      expect(show(env).epoch).toBe(32);
    }
  }, 180_000);

  it('lets exactly max_iterations calls through 32 concurrent processes in a stage', async () => {
    const dir = tempDir();
    const stateDir = join(dir, 'state');
    const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    policy.personas.verifier.stages[1].max_iterations = 10;
    const policyPath = join(dir, 'policy.json');
    writeFileSync(policyPath, JSON.stringify(policy));
    const env = cleanEnv({
      PERSONA_GATE_STATE_DIR: stateDir,
      PERSONA_GATE_CONFIG: policyPath,
      HOME: dir,
      PERSONA_GATE_PERSONA: 'verifier',
      PERSONA_GATE_DEADLINE_MS: '30000',
    });
    expect(runCli(['stage', 'enter', 'file', '--session', SESSION], { env }).code).toBe(0);
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) => hook(env, event('PreToolUse', 'mcp__aeat__modelo_list', `list-${i}`))),
    );
    const verdicts = results.map((r) => verdictOf(r.stdout));
    expect(verdicts.filter((v) => v === 'abstain')).toHaveLength(10);
    const refused = results.filter((r) => verdictOf(r.stdout) === 'deny');
    expect(refused).toHaveLength(22);
    for (const r of refused)
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/has used all 10 calls of stage "file"/);
    expect(show(env).iterations.file).toBe(10);
  });

  it('never reads as confirmed after a switch when writers are killed mid-write', async () => {
    const { env, stateDir } = setup();
    const rounds = Number(process.env.CRASH_ROUNDS ?? 25);
    let killed = 0;
    for (let round = 0; round < rounds; round++) {
      // Reads let through, then a storm of confirmations and switches, some killed at random moments.
      for (let i = 0; i < 4; i++) await hook(env, event('PreToolUse', 'mcp__aeat__whoami', `r${round}-${i}`));
      const children = Array.from({ length: 12 }, (_, i) => {
        const input =
          i % 3 === 0
            ? event('PreToolUse', 'mcp__aeat__profile_switch', `s${round}-${i}`)
            : event('PostToolUse', 'mcp__aeat__whoami', `r${round}-${i % 4}`, { tool_response: [{ type: 'text', text: 'Erika' }] });
        const child = spawn(process.execPath, [BIN, 'hook'], { env, cwd: ROOT, stdio: ['pipe', 'ignore', 'ignore'] });
        child.stdin.on('error', () => {});
        child.stdin.end(input);
        const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
        setTimeout(
          () => {
            if (child.exitCode === null && child.kill('SIGKILL')) killed++;
          },
          30 + Math.floor(Math.random() * 50),
        );
        return done;
      });
      await Promise.all(children);
      const final = await hook(env, event('PreToolUse', 'mcp__aeat__profile_switch', `final-${round}`));
      expect(final.code).toBe(0);
      const shown = runCli(['session', 'show', '--session', SESSION], { env });
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout).confirmed).toBe(false);
      const mutation = await hook(env, event('PreToolUse', 'mcp__aeat__modelo_work_create', `m${round}`));
      expect(verdictOf(mutation.stdout)).toBe('deny');
    }
    expect(killed).toBeGreaterThan(0);
    // Whatever killed writers left behind was swept by the next publish: the kept window of whole
    // snapshots, and no temporary file.
    const session = join(stateDir, 'sessions', sessionKey(SESSION));
    const files = readdirSync(session);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const snapshots = files.filter((f) => f.endsWith('.json'));
    expect(snapshots.length).toBeLessThanOrEqual(KEEP_SNAPSHOTS);
    for (const f of snapshots) expect(JSON.parse(readFileSync(join(session, f), 'utf8'))).toMatchObject({ v: 1 });
  });
});
