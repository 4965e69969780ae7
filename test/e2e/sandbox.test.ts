import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, afterEach, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { cleanEnv, runCli } from '../helpers/cli';
import { taxPolicyWithShell } from '../helpers/policy';
import { describeConfined } from './support/loopback-only';
import { startModel, toolResults, type ToolUse } from './support/model-server';
import { makeProject, runClaude, type Project } from './support/project';
import { hiddenWrite, sandboxUnavailable } from './support/sandbox';

// The pinned Claude Code CLI, installed into the test cache on first use (a download the first time).
beforeAll(() => {
  hostCli('claude-code');
}, 900_000);

/**
 * The hardened deployment (`persona-gate init --hardened`) inside the real Claude Code with its OS
 * sandbox on: bubblewrap on Linux.
 *
 * What is honest to show here. Gate 0 already refuses every write it can see to persona-gate's
 * files (under a persona it denies; in an unscoped session it asks, and `claude -p` has nobody to
 * answer, so the call is refused as well). The sandbox is for what the gate cannot see: the
 * residue of SPEC §9.8. The persona here has the shell family and a `process_exec` ceiling, so
 * it may run interpreters; the writes below are `node -e` programs whose target path is decoded
 * at run time from base64, a form no static reader sees. The gate lets them through — their
 * receipts say so — and the operating system refuses them. A control write of the same form to
 * an ordinary file in the project lands, and the second test runs the very same writes with the
 * sandbox switched off and sees them land, so what stops them is the sandbox, not a broken
 * command. The gate still decides every call: a catalogued command owned by another persona is
 * refused with its reason, exactly as without the sandbox.
 */

const unavailable = sandboxUnavailable();
// A skip says why, in the run's output as well as in the test's name.
if (unavailable) process.stderr.write(`test/e2e/sandbox.test.ts: skipped, ${unavailable}\n`);
const title = (t: string) => (unavailable ? `${t} (skipped: ${unavailable})` : t);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

const bash = (command: string, extra: Record<string, unknown> = {}): ToolUse[] => [{ name: 'Bash', input: { command, ...extra } }];

/** A project whose modelo-preparer may run interpreters, deployed with `init --hardened`. */
function hardenedProject(): { project: Project; userSettings: string; policyPath: string } {
  const policy = taxPolicyWithShell();
  const project = makeProject({ policy, registerInProject: false });
  cleanup.push(() => rmSync(project.dir, { recursive: true, force: true }));
  const init = runCli(['init', '--hardened', '--dir', project.dir], {
    env: cleanEnv({ HOME: project.home, PERSONA_GATE_STATE_DIR: project.stateDir }),
    cwd: project.dir,
  });
  expect(init.code, init.stderr).toBe(0);
  return {
    project,
    userSettings: join(project.home, '.claude', 'settings.json'),
    policyPath: join(project.dir, '.claude', 'persona-gate.json'),
  };
}

function preReceipts(project: Project): { tool: string; key: string; verdict: string; status: string }[] {
  const dir = join(project.stateDir, 'receipts');
  return readdirSync(dir)
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'))
    .map((l) => JSON.parse(l))
    .filter((r) => r.hook_event === 'PreToolUse')
    .map((r) => ({ tool: r.tool_name, key: r.command_key, verdict: r.verdict, status: r.status }));
}

describeConfined('the hardened deployment in the real Claude Code, with its sandbox on', () => {
  it.skipIf(unavailable !== null)(title('the OS refuses what the gate cannot see, and the gate still decides'), async () => {
    const { project, userSettings, policyPath } = hardenedProject();
    const settingsBefore = readFileSync(userSettings, 'utf8');
    const policyBefore = readFileSync(policyPath, 'utf8');
    const localSettings = join(project.dir, '.claude', 'settings.local.json');
    const model = await startModel({
      main: [
        [{ name: 'mcp__aeat__whoami', input: {} }],
        bash(`${hiddenWrite(join(project.dir, 'allowed.txt'))} && echo "sandboxed=$SANDBOX_RUNTIME"`),
        bash(hiddenWrite(join(project.stateDir, 'forged'))),
        bash(hiddenWrite(localSettings)),
        bash(hiddenWrite(userSettings)),
        bash(hiddenWrite(policyPath)),
        bash(hiddenWrite(join(project.stateDir, 'escaped')), { dangerouslyDisableSandbox: true }),
        bash('aeat modelo export --modelo 303'),
      ],
    });
    cleanup.push(() => model.close());
    const run = await runClaude(project, model.url, { env: { PERSONA_GATE_PERSONA: 'modelo-preparer' } });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults(model.requests);
    expect(results).toHaveLength(8);

    // The control: the same form of write lands where the sandbox allows it, and it ran sandboxed.
    expect(results[1]).toMatchObject({ isError: false });
    expect(results[1]!.content).toContain('sandboxed=1');
    expect(readFileSync(join(project.dir, 'allowed.txt'), 'utf8')).toBe('forged');

    // The state directory, the hook registrations and the policy: refused by the operating system,
    // also when the call asks to leave the sandbox.
    for (const r of results.slice(2, 7)) {
      expect(r.isError, r.content).toBe(true);
      expect(r.content).toMatch(/EROFS: read-only file system|EACCES: permission denied/);
    }
    expect(existsSync(join(project.stateDir, 'forged'))).toBe(false);
    expect(existsSync(join(project.stateDir, 'escaped'))).toBe(false);
    expect(existsSync(localSettings)).toBe(false);
    expect(readFileSync(userSettings, 'utf8')).toBe(settingsBefore);
    expect(readFileSync(policyPath, 'utf8')).toBe(policyBefore);

    // The gate decided every call: it let the writes through (it cannot see them) and refused the
    // handoff, its reason reaching the model.
    expect(results[7]!.content).toContain(
      'the modelo-preparer persona may not run modelo.export: it is an irreversible handoff owned by the verifier persona',
    );
    expect(preReceipts(project)).toEqual([
      { tool: 'mcp__aeat__whoami', key: 'config.profile.status', verdict: 'abstain', status: 'ok' },
      ...Array.from({ length: 6 }, () => ({ tool: 'Bash', key: 'Bash', verdict: 'abstain', status: 'ok' })),
      { tool: 'Bash', key: 'modelo.export', verdict: 'deny', status: 'handoff_denied' },
    ]);
  });

  it.skipIf(unavailable !== null)(title('the same writes land when the sandbox is switched off'), async () => {
    const { project, userSettings } = hardenedProject();
    const settings = JSON.parse(readFileSync(userSettings, 'utf8'));
    settings.sandbox.enabled = false;
    writeFileSync(userSettings, JSON.stringify(settings, null, 2));
    const localSettings = join(project.dir, '.claude', 'settings.local.json');
    const model = await startModel({
      main: [
        [{ name: 'mcp__aeat__whoami', input: {} }],
        bash(hiddenWrite(join(project.stateDir, 'forged'))),
        bash(hiddenWrite(localSettings)),
      ],
    });
    cleanup.push(() => model.close());
    const run = await runClaude(project, model.url, { env: { PERSONA_GATE_PERSONA: 'modelo-preparer' } });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(model.requests).map((r) => r.isError)).toEqual([false, false, false]);
    expect(readFileSync(join(project.stateDir, 'forged'), 'utf8')).toBe('forged');
    expect(readFileSync(localSettings, 'utf8')).toBe('forged');
  });
});
