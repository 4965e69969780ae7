import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { SOFTWARE_POLICY_PATH } from '../helpers/policy';

// SPEC §9.2: with Claude Code's OS sandbox write-denying every guarded path (the project's local
// settings, as init writes them), gate 0 refuses only what it can see writes a guarded path; a
// line that merely may touch one runs, and the kernel stops the write if it comes. Without the
// sandbox, or with one that has a way out, the caution stays. The project tracks
// .claude/settings.json, as many do.

function project() {
  const dir = tempDir();
  mkdirSync(join(dir, '.claude'));
  copyFileSync(SOFTWARE_POLICY_PATH, join(dir, '.claude', 'persona-gate.json'));
  writeFileSync(join(dir, '.claude', 'settings.json'), '{}\n');
  const git = (...args: string[]) => spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir });
  git('init', '-q', '.');
  git('add', '-A');
  git('commit', '-qm', 'start');
  // the home apart from the project, as it is: what the sandbox lets the shell write is the project
  const home = tempDir();
  const env = cleanEnv({ HOME: home, PERSONA_GATE_STATE_DIR: join(dir, 'state'), PERSONA_GATE_PERSONA: 'implementer' });
  const policy = join(dir, '.claude', 'persona-gate.json');
  const local = (sandbox: Record<string, unknown> | null) => {
    if (sandbox === null) rmSync(join(dir, '.claude', 'settings.local.json'), { force: true });
    else writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify({ sandbox }));
  };
  const SANDBOX = {
    enabled: true,
    failIfUnavailable: true,
    allowUnsandboxedCommands: false,
    filesystem: { denyWrite: [policy, join(dir, 'state')] },
  };
  const answer = (tool: string, input: Record<string, unknown>, sandboxed: boolean | Record<string, unknown>) => {
    local(sandboxed === false ? null : sandboxed === true ? SANDBOX : sandboxed);
    const r = runCli(['hook'], { input: preEvent(tool, input, { cwd: dir }), env });
    expect(r.code).toBe(0);
    return r.stdout === '' ? null : JSON.parse(r.stdout).hookSpecificOutput;
  };
  // the hook's verdict: deny, ask, or pass (it printed nothing, or allow)
  const decision = (tool: string, input: Record<string, unknown>, sandboxed: boolean | Record<string, unknown>): string =>
    (answer(tool, input, sandboxed)?.permissionDecision as string | undefined) ?? 'pass';
  const verdict = (command: string, sandboxed: boolean | Record<string, unknown>): string => decision('Bash', { command }, sandboxed);
  // the dry run in the same project, with the same environment: its verdict, and the sandbox it read
  const explain = (tool: string, input: Record<string, unknown>, sandboxed: boolean) => {
    local(sandboxed ? SANDBOX : null);
    const r = runCli(['explain', '--json', tool, JSON.stringify(input)], { env, cwd: dir });
    expect([0, 2, 3]).toContain(r.code);
    const receipt = JSON.parse(r.stdout) as { verdict: string; sandbox?: { holds: boolean } };
    return {
      verdict: receipt.verdict === 'abstain' || receipt.verdict === 'allow' ? 'pass' : receipt.verdict,
      holds: receipt.sandbox?.holds,
    };
  };
  return { dir, home, env, verdict, decision, answer, explain, SANDBOX };
}

const MAY_TOUCH = [
  'tar -xf release.tar',
  'unzip -o assets.zip',
  'git apply fix.diff',
  'patch -p1 < fix.diff',
  'cp -r templates/. .',
  'git reset --hard HEAD~1',
  'git checkout main',
  'git merge topic',
  'git stash pop',
  'git clean -fd',
  "find . -name '*.tmp' -delete",
  'rm $(git ls-files -d)',
  'npm test 2>&1 | tee "test-$(date +%F).log"',
  'mkdir -p "$(dirname build/out/app.js)"',
  // a guarded file handed to a program that could write it, or opened by a redirection
  'python3 -m json.tool < .claude/settings.json',
  "jq '.hooks' < .claude/settings.json > hooks.json",
  'node scripts/check-config.js .claude/settings.json',
  // persona-gate's own files named beside code the gate cannot read: paths, not the program
  'python3 -m json.tool < .claude/settings.json > /dev/null && echo parsed && head -3 .claude/persona-gate.json',
];

const PLAINLY_WRITES = [
  'echo {} > .claude/settings.json',
  "sed -i 's/a/b/' .claude/persona-gate.json",
  'rm -rf .claude',
  'mv .claude old',
  'ln -sf /tmp/x .claude/persona-gate.json',
  "ln -s .claude/agents d && sed -i 's/a/b/' d/../persona-gate.json",
];

/** Every line of both tables, and a Write outside the sandbox's directories and one inside: what the dry runs must judge as the hook does. */
const CALLS: [string, Record<string, unknown>][] = [
  ...[...MAY_TOUCH, ...PLAINLY_WRITES].map((command): [string, Record<string, unknown>] => ['Bash', { command }]),
  ['Write', { file_path: '/etc/ld.so.preload', content: 'x' }],
  ['Write', { file_path: 'src/a.ts', content: 'x' }],
];

describe('gate 0 under the OS sandbox', () => {
  it.each(MAY_TOUCH)('runs what only may touch a guarded path: %s', (command) => {
    const p = project();
    expect(p.verdict(command, false)).toBe('deny');
    expect(p.verdict(command, true)).toBe('pass');
  });

  it.each(PLAINLY_WRITES)('still refuses what it can see writes one: %s', (command) => {
    const p = project();
    expect(p.verdict(command, false)).toBe('deny');
    expect(p.verdict(command, true)).toBe('deny');
  });

  it('keeps the caution when the sandbox has a way out, may run unsandboxed, or leaves the policy or the state writable', () => {
    const p = project();
    const command = 'tar -xf release.tar';
    expect(p.verdict(command, true)).toBe('pass');
    expect(p.verdict(command, { ...p.SANDBOX, allowUnsandboxedCommands: true })).toBe('deny');
    expect(p.verdict(command, { ...p.SANDBOX, failIfUnavailable: false })).toBe('deny');
    expect(p.verdict(command, { ...p.SANDBOX, enabled: false })).toBe('deny');
    expect(p.verdict(command, { ...p.SANDBOX, filesystem: { denyWrite: [] } })).toBe('deny');
    // the state directory, where the session's confirmations live, must be write-denied too
    expect(p.verdict(command, { ...p.SANDBOX, filesystem: { denyWrite: [p.SANDBOX.filesystem.denyWrite[0]] } })).toBe('deny');
  });

  it('resolves a link before the .. that follows it, as the kernel does', () => {
    const p = project();
    mkdirSync(join(p.dir, '.claude', 'agents'));
    symlinkSync('.claude/agents', join(p.dir, 'agents-link'));
    expect(p.verdict("sed -i 's/a/b/' agents-link/../persona-gate.json", true)).toBe('deny');
    expect(p.verdict("sed -i 's/a/b/' agents-link/../notes.md", true)).toBe('pass');
  });

  // The file tools run outside the sandbox: a Write to ~/.local/bin/bwrap (the sandbox's own
  // program, found on PATH) or to /etc/ld.so.preload would escape it.
  it('holds the file tools to the directories the sandbox lets the shell write', () => {
    const p = project();
    mkdirSync(join(p.home, '.local', 'bin'), { recursive: true });
    symlinkSync(join(p.home, '.local', 'bin'), join(p.dir, 'bin-link'));
    const write = (file_path: string, sandboxed: boolean | Record<string, unknown> = true) =>
      p.answer('Write', { file_path, content: 'x' }, sandboxed)?.permissionDecision ?? 'pass';
    for (const outside of [
      join(p.home, '.local', 'bin', 'bwrap'),
      '~/.config/systemd/user/x.service',
      '/etc/ld.so.preload',
      'bin-link/bwrap',
      join(p.dir, '..', 'sibling.txt'),
      '/tmp/scratch.py',
    ]) {
      expect([outside, write(outside)]).toEqual([outside, 'deny']);
      // without the sandbox there is no bound to keep: the level and gate 0 decide as before
      expect([outside, write(outside, false)]).not.toEqual([outside, 'deny']);
    }
    const refusal = p.answer('Write', { file_path: '/etc/ld.so.preload', content: 'x' }, true);
    expect(refusal.permissionDecisionReason).toContain('outside the directories the sandbox lets the agent');
    // the sandbox's own TMPDIR is writable; the rest of /tmp is not
    const sandboxTmp = `/tmp/claude-${process.getuid?.() ?? 0}/scratch.py`;
    for (const inside of ['src/a.ts', join(p.dir, 'docs', 'x.md'), sandboxTmp]) expect([inside, write(inside)]).toEqual([inside, 'pass']);
    // what the settings let the shell write, the file tools may write too
    const extra = join(p.dir, '..', 'shared-out');
    expect(write(join(extra, 'x.txt'), { ...p.SANDBOX, filesystem: { ...p.SANDBOX.filesystem, allowWrite: [extra] } })).toBe('pass');
  });

  // explain is the dry run a user debugging a refusal reads: it must read the sandbox as the hook does
  it('explain gives the hook’s verdict, with the sandbox and without, and says which it read', () => {
    const p = project();
    const calls: [string, Record<string, unknown>][] = [
      ...CALLS,
      ['Write', { file_path: join(p.home, '.local', 'bin', 'bwrap'), content: 'x' }],
    ];
    for (const sandboxed of [true, false])
      for (const [tool, input] of calls) {
        const hook = p.decision(tool, input, sandboxed);
        const dry = p.explain(tool, input, sandboxed);
        expect([tool, input, sandboxed, dry.verdict]).toEqual([tool, input, sandboxed, hook]);
        // a call gate 0 judged by the sandbox names what it read
        if (tool === 'Bash' && MAY_TOUCH.includes(input.command as string)) expect(dry.holds).toBe(sandboxed);
      }
    // and in text, the line that says so
    p.explain('Bash', { command: 'tar -xf release.tar' }, true);
    const text = runCli(['explain', 'Bash', JSON.stringify({ command: 'tar -xf release.tar' })], { env: p.env, cwd: p.dir });
    expect(text.stdout).toContain("sandbox: Claude Code's sandbox write-denies persona-gate's files here");
  });

  // a policy test case says whether it is judged under the sandbox; it then gets the hook's verdict with the sandbox init sets up
  it('a test case with "sandbox": true gets the hook’s verdict under the sandbox, one without it the verdict without', () => {
    const p = project();
    const cases = [true, false].flatMap((sandboxed) =>
      CALLS.map(([tool, input], i) => {
        const hook = p.decision(tool, input, sandboxed);
        return {
          name: `${sandboxed ? 'sandboxed' : 'plain'} ${i}`,
          persona: 'implementer',
          ...(sandboxed ? { sandbox: true } : {}),
          call: { tool, input },
          expect: { verdict: hook === 'pass' ? 'abstain' : hook },
        };
      }),
    );
    expect(cases.filter((c) => c.expect.verdict === 'abstain').length).toBeGreaterThan(MAY_TOUCH.length);
    // the machine's own settings are not what a case reads: none here
    rmSync(join(p.dir, '.claude', 'settings.local.json'), { force: true });
    const file = join(p.dir, '.claude', 'sandbox.test.json');
    writeFileSync(file, JSON.stringify({ policy: 'persona-gate.json', cases }));
    const r = runCli(['test', file], { env: p.env, cwd: p.dir });
    expect(r.stdout.trim().split('\n').pop()).toBe(`${cases.length} passed, 0 failed`);
    expect(r.code).toBe(0);
  });

  // replay answers "what would the hook have said to these calls here": it must read the sandbox as the hook does
  it('replay gives the hook’s verdicts, with the sandbox and without, and says which it read', () => {
    const p = project();
    const file = join(p.dir, 'session.jsonl');
    writeFileSync(
      file,
      CALLS.map(([name, input], i) =>
        JSON.stringify({
          type: 'assistant',
          sessionId: 'sess-1',
          cwd: p.dir,
          timestamp: `2026-01-01T10:00:${String(i).padStart(2, '0')}Z`,
          message: { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name, input }] },
        }),
      ).join('\n') + '\n',
    );
    for (const sandboxed of [true, false]) {
      const hook = CALLS.map(([tool, input]) => p.decision(tool, input, sandboxed));
      const r = runCli(['replay', file, '--json'], { env: p.env, cwd: p.dir });
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as { sandbox?: { holds: boolean }; calls: { verdict: string }[] };
      const replayed = report.calls.map((c) => (c.verdict === 'abstain' || c.verdict === 'allow' ? 'pass' : c.verdict));
      expect(replayed).toEqual(hook);
      expect(report.sandbox).toEqual({ holds: sandboxed });
      if (sandboxed) expect(hook).toContain('pass');
      const text = runCli(['replay', file], { env: p.env, cwd: p.dir });
      expect(text.stdout).toContain(
        sandboxed ? "sandbox: Claude Code's sandbox write-denies" : "sandbox: Claude Code's settings here do not hold",
      );
    }
  });
});
