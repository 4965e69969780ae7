import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { SOFTWARE_POLICY_PATH } from '../helpers/policy';

// SPEC §9.2: with the host's OS sandbox write-denying every guarded path (`hook --sandboxed`,
// written by init where it turned the sandbox on), gate 0 refuses only what it can see writes a
// guarded path; a line that merely may touch one runs, and the kernel stops the write if it comes.
// Without the flag, the caution stays. The project tracks .claude/settings.json, as many do.

function project() {
  const dir = tempDir();
  mkdirSync(join(dir, '.claude'));
  copyFileSync(SOFTWARE_POLICY_PATH, join(dir, '.claude', 'persona-gate.json'));
  writeFileSync(join(dir, '.claude', 'settings.json'), '{}\n');
  const git = (...args: string[]) => spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir });
  git('init', '-q', '.');
  git('add', '-A');
  git('commit', '-qm', 'start');
  const home = join(dir, 'home');
  mkdirSync(home);
  const env = cleanEnv({ HOME: home, PERSONA_GATE_STATE_DIR: join(dir, 'state'), PERSONA_GATE_PERSONA: 'implementer' });
  const verdict = (command: string, sandboxed: boolean): string => {
    const r = runCli(['hook', ...(sandboxed ? ['--sandboxed'] : [])], { input: preEvent('Bash', { command }, { cwd: dir }), env });
    expect(r.code).toBe(0);
    return r.stdout === '' ? 'pass' : (JSON.parse(r.stdout).hookSpecificOutput.permissionDecision as string);
  };
  return { dir, verdict };
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
];

const PLAINLY_WRITES = [
  'echo {} > .claude/settings.json',
  "sed -i 's/a/b/' .claude/persona-gate.json",
  'rm -rf .claude',
  'mv .claude old',
  'ln -sf /tmp/x .claude/persona-gate.json',
  "ln -s .claude/agents d && sed -i 's/a/b/' d/../persona-gate.json",
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

  it('resolves a link before the .. that follows it, as the kernel does', () => {
    const p = project();
    mkdirSync(join(p.dir, '.claude', 'agents'));
    symlinkSync('.claude/agents', join(p.dir, 'agents-link'));
    expect(p.verdict("sed -i 's/a/b/' agents-link/../persona-gate.json", true)).toBe('deny');
    expect(p.verdict("sed -i 's/a/b/' agents-link/../notes.md", true)).toBe('pass');
  });
});
