import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEn as en } from '../../src/cli/messages';
import { BIN, cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { ROOT, taxPolicyWithShell } from '../helpers/policy';

// SPEC §9.2, the default deployment: init turns Claude Code's sandbox on where the machine has it,
// with persona-gate's files write-denied in the project's local settings (this machine's paths,
// never committed), and the hook, reading the same settings, then lets through what only may touch
// a guarded path. Where the sandbox programs are missing, or with --no-sandbox, nothing is turned
// on and the hook keeps its caution.

function project(programs: boolean) {
  const dir = tempDir('pg-sbx-');
  const home = tempDir('pg-sbx-home-');
  const bin = tempDir('pg-sbx-bin-');
  if (programs) for (const p of ['bwrap', 'socat']) writeFileSync(join(bin, p), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  symlinkSync(BIN, join(bin, 'persona-gate'));
  mkdirSync(join(dir, '.claude'));
  const env = cleanEnv({
    HOME: home,
    PERSONA_GATE_STATE_DIR: join(home, 'state'),
    PERSONA_GATE_CONFIG_HOME: join(home, 'prefs'),
    PATH: programs ? `${bin}:/usr/bin:/bin` : bin,
  });
  delete env.CLAUDE_CONFIG_DIR;
  const local = join(dir, '.claude', 'settings.local.json');
  const tar = () => {
    const r = runCli(['hook'], {
      input: preEvent('Bash', { command: 'tar -xf release.tar' }, { cwd: dir }),
      env: { ...env, PERSONA_GATE_PERSONA: 'implementer' },
    });
    return r.stdout === '' ? 'pass' : (JSON.parse(r.stdout).hookSpecificOutput.permissionDecision as string);
  };
  return { dir, home, env, local, tar };
}

describe('init: the sandbox in the default deployment', () => {
  it('turns it on in the local settings, guards the policy there, and the hook reads it', () => {
    const p = project(true);
    const r = runCli(['init', '--example', 'software-team', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      en.initSandbox(p.local, 'sandbox.enabled: true, sandbox.failIfUnavailable: true, sandbox.allowUnsandboxedCommands: false'),
    );
    const local = JSON.parse(readFileSync(p.local, 'utf8'));
    expect(local.sandbox).toMatchObject({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false });
    const policy = join(p.dir, '.claude', 'persona-gate.json');
    for (const guarded of [policy, join(p.dir, '.claude', 'settings.json'), p.local, join(p.home, 'state'), ROOT])
      expect(local.sandbox.filesystem.denyWrite).toContain(guarded);
    expect(local.permissions.deny).toContain(`Edit(/${policy})`);
    // the committed settings hold no path of this machine
    expect(readFileSync(join(p.dir, '.claude', 'settings.json'), 'utf8')).not.toContain(p.home);
    const launch = JSON.parse(readFileSync(join(p.home, '.claude', 'persona-gate-launch.json'), 'utf8'));
    expect(launch.sandbox).toMatchObject({ enabled: true, allowUnsandboxedCommands: false });
    expect(p.tar()).toBe('pass');
    expect(runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir }).stdout).toContain(en.checkSandboxHolds());
    // run again: nothing new
    expect(runCli(['init', '--example', 'software-team', '--dir', p.dir], { env: p.env, cwd: p.dir }).stdout).toContain(
      en.initSandboxKept(p.local),
    );
  });

  it('starts a closed program only through the launcher, and leaves an open one where it is', () => {
    const p = project(true);
    const tools = tempDir('pg-sbx-tools-');
    const aeat = join(tools, 'aeat');
    writeFileSync(aeat, '#!/bin/sh\necho "$@"\n', { mode: 0o755 });
    for (const name of ['gh', 'npm']) writeFileSync(join(tools, name), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const env = { ...p.env, PATH: `${tools}:${p.env.PATH}` };
    // the tax policy declares aeat closed: it is excluded through the launcher and hidden from the
    // sandboxed shell (its preparer given the shell here, which the example's has not)
    writeFileSync(join(p.dir, '.claude', 'persona-gate.json'), JSON.stringify(taxPolicyWithShell()));
    const r = runCli(['init', '--dir', p.dir], { env, cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(en.initLaunched('aeat', aeat));
    const local = JSON.parse(readFileSync(p.local, 'utf8'));
    expect(local.sandbox.excludedCommands).toEqual([expect.stringMatching(new RegExp(`^/\\S+ /\\S+persona-gate-exec\\.cjs ${aeat} \\*$`))]);
    expect(local.sandbox.filesystem.denyRead).toContain(aeat);
    expect(local.permissions.deny).toContain(`Read(/${aeat})`);
    // the domain's active profile (identity.profile_state) changes only through the launched program
    const profile = join(p.home, '.aeat', 'active-profile');
    expect(r.stdout).toContain(en.initProfileGuarded(profile));
    expect(local.sandbox.filesystem.denyWrite).toContain(profile);
    expect(local.permissions.deny).toContain(`Edit(/${profile})`);
    // and in the file `persona-gate launch` passes, whose sandbox lists Claude Code takes over the project's
    const launch = JSON.parse(readFileSync(join(p.home, '.claude', 'persona-gate-launch.json'), 'utf8'));
    expect(launch.sandbox.excludedCommands).toEqual(local.sandbox.excludedCommands);
    expect(launch.sandbox.filesystem.denyRead).toContain(aeat);
    expect(launch.sandbox.filesystem.denyWrite).toContain(profile);
    const map = JSON.parse(readFileSync(join(p.home, 'state', 'exec.json'), 'utf8'));
    expect(map.programs).toEqual({ aeat });
    // the hook now rewrites an allowed start to the launcher form, and refuses the program's path in a line it cannot judge
    const hook = (command: string) =>
      JSON.parse(
        runCli(['hook'], { input: preEvent('Bash', { command }, { cwd: p.dir }), env: { ...env, PERSONA_GATE_PERSONA: 'modelo-preparer' } })
          .stdout || '{}',
      );
    expect(hook('aeat whoami').hookSpecificOutput?.updatedInput?.command).toContain('persona-gate-exec.cjs');
    expect(hook(`x=$(${aeat} whoami); echo $x`).hookSpecificOutput?.permissionDecision).toBe('deny');

    // another project of the same user keeps what this one launched
    const other = tempDir('pg-sbx-other-');
    expect(runCli(['init', '--example', 'software-team', '--dir', other], { env, cwd: other }).code).toBe(0);
    expect(JSON.parse(readFileSync(join(p.home, 'state', 'exec.json'), 'utf8')).programs).toEqual({ aeat });

    // a project whose policy closes no program launches none: gh and npm stay where other programs find them
    const q = project(true);
    const qenv = { ...q.env, PATH: `${tools}:${q.env.PATH}` };
    expect(runCli(['init', '--example', 'software-team', '--dir', q.dir], { env: qenv, cwd: q.dir }).code).toBe(0);
    expect(JSON.parse(readFileSync(q.local, 'utf8')).sandbox.excludedCommands).toBeUndefined();
    expect(existsSync(join(q.home, 'state', 'exec.json'))).toBe(false);
  });

  it('says what is missing, and turns nothing on, without bubblewrap and socat', () => {
    const p = project(false);
    const r = runCli(['init', '--example', 'software-team', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain(en.initSandboxMissing('bwrap, socat'));
    expect(existsSync(p.local)).toBe(false);
    expect(p.tar()).toBe('deny');
    expect(runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir }).stdout).toContain(en.checkSandboxOff());
  });

  it('leaves it off with --no-sandbox, and says what that costs', () => {
    const p = project(true);
    const r = runCli(['init', '--no-sandbox', '--example', 'software-team', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain(en.initSandboxOptedOut());
    expect(existsSync(p.local)).toBe(false);
    expect(p.tar()).toBe('deny');
  });
});
