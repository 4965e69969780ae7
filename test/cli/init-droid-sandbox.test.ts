import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEn as en } from '../../src/cli/messages';
import { BIN, cleanEnv, runCli, tempDir } from '../helpers/cli';
import { ROOT } from '../helpers/policy';

// `init --host droid` in the default deployment: Droid's sandbox on in the user's
// ~/.factory/settings.json (a project cannot turn it off there, and this machine's paths stay out of
// the project), persona-gate's files write-denied, the project's .claude and .factory denied whole,
// the state directory writable (Droid runs the hook inside the sandbox too).

function project(programs: boolean) {
  const dir = tempDir('pg-dsbx-');
  const home = tempDir('pg-dsbx-home-');
  const bin = tempDir('pg-dsbx-bin-');
  if (programs) for (const p of ['bwrap', 'socat']) writeFileSync(join(bin, p), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  symlinkSync(BIN, join(bin, 'persona-gate'));
  const state = join(home, 'state');
  const env = cleanEnv({
    HOME: home,
    PERSONA_GATE_STATE_DIR: state,
    PERSONA_GATE_CONFIG_HOME: join(home, 'prefs'),
    PATH: programs ? `${bin}:/usr/bin:/bin` : bin,
  });
  const settings = join(home, '.factory', 'settings.json');
  const userSettings = (text: string) => {
    mkdirSync(join(home, '.factory'), { recursive: true });
    writeFileSync(settings, text);
  };
  const init = (...extra: string[]) => runCli(['init', '--host', 'droid', '--dir', dir, ...extra], { env, cwd: dir });
  const doctor = () => runCli(['doctor', '--host', 'droid', '--dir', dir], { env, cwd: dir });
  return { dir, home, state, env, settings, userSettings, init, doctor };
}

const onLinux = process.platform === 'linux';

describe('init --host droid: the sandbox in the default deployment', () => {
  it.skipIf(!onLinux)('turns it on in the user settings, denies the guarded paths, lets the hook write its state, and says so', () => {
    const p = project(true);
    // the user's own settings are kept
    runCli(['init', '--host', 'droid', '--dir', p.dir, '--no-sandbox'], { env: p.env, cwd: p.dir });
    p.userSettings(JSON.stringify({ enableTelemetry: false, sandbox: { filesystem: { denyWrite: ['/srv/secret'] } } }));
    const r = p.init();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(en.droidSandbox(p.settings));
    expect(r.stdout).toContain(en.droidReadOnlyDirs(join(p.dir, '.claude'), join(p.dir, '.factory')));
    expect(r.stdout).toContain(en.droidStateWritable(p.state));
    const s = JSON.parse(readFileSync(p.settings, 'utf8'));
    expect(s.enableTelemetry).toBe(false);
    expect(s.sandbox.enabled).toBe(true);
    // per-command, Droid's default: whole-process is not asked for
    expect(s.sandbox.mode).toBeUndefined();
    const deny: string[] = s.sandbox.filesystem.denyWrite;
    for (const path of [
      '/srv/secret',
      join(p.dir, '.claude'),
      join(p.dir, '.factory'),
      p.settings,
      join(p.home, '.factory', 'hooks.json'),
      ROOT,
    ])
      expect(deny).toContain(path);
    // nothing under a denied directory is named again (Droid would make it as an empty placeholder)
    expect(deny.filter((d) => d.startsWith(`${join(p.dir, '.claude')}/`))).toEqual([]);
    // the hook, sandboxed too, writes its state: never denied, always allowed, and made before the session
    expect(deny.some((d) => p.state === d || p.state.startsWith(`${d}/`))).toBe(false);
    expect(s.sandbox.filesystem.allowWrite).toEqual([p.state]);
    expect(existsSync(p.state)).toBe(true);
    // Droid cannot make these under a read-only .claude
    for (const d of ['commands', 'agents']) expect(existsSync(join(p.dir, '.claude', d))).toBe(true);
    // the project's files hold no path of this machine
    expect(readFileSync(join(p.dir, '.factory', 'hooks.json'), 'utf8')).not.toContain(p.home);
    const d = p.doctor();
    expect(d.stdout).toContain(en.droidSandboxOn(p.settings));
    expect(d.stdout).toContain(en.hardGuarded(en.hardWhatPolicy(), join(p.dir, '.claude', 'persona-gate.json')));
    expect(d.stdout).toContain(en.droidStateWritable(p.state));
    // again: nothing new
    const again = p.init();
    expect(again.stdout).toContain(en.droidSandboxKept(p.settings));
    expect(again.stdout).toContain(en.initGuardedKept(p.settings));
    expect(readFileSync(p.settings, 'utf8')).toBe(`${JSON.stringify(s, null, 2)}\n`);
  });

  it.skipIf(!onLinux)('doctor says what breaks: a denied state directory, a missing .claude/commands', () => {
    const p = project(true);
    p.init();
    const s = JSON.parse(readFileSync(p.settings, 'utf8'));
    s.sandbox.filesystem.denyWrite.push(p.state);
    writeFileSync(p.settings, JSON.stringify(s));
    rmSync(join(p.dir, '.claude', 'commands'), { recursive: true });
    const d = p.doctor();
    expect(d.code).toBe(1);
    expect(d.stdout).toContain(en.droidStateDenied(p.state));
    expect(d.stdout).toContain(en.droidPlaceholderMissing(join(p.dir, '.claude', 'commands')));
  });

  it('--no-sandbox leaves the user settings alone, and says what that lets through', () => {
    const p = project(true);
    const r = p.init('--no-sandbox');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(en.droidSandboxOptedOut());
    expect(existsSync(p.settings)).toBe(false);
    expect(p.doctor().stdout).toContain(en.droidSandboxOff(p.settings));
  });

  it.skipIf(!onLinux)('without bwrap and socat nothing is turned on, and init says what is missing', () => {
    const p = project(false);
    const r = p.init();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(en.initSandboxMissing('bwrap, socat'));
    expect(existsSync(p.settings)).toBe(false);
  });

  it.skipIf(!onLinux)('a user settings file that cannot be merged changes nothing at all', () => {
    const p = project(true);
    runCli(['init', '--host', 'droid', '--dir', p.dir, '--no-sandbox'], { env: p.env, cwd: p.dir });
    rmSync(join(p.dir, '.factory'), { recursive: true });
    p.userSettings('{ "sandbox": [] }');
    const r = p.init();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(en.initNotObject(p.settings, 'sandbox'));
    expect(existsSync(join(p.dir, '.factory', 'hooks.json'))).toBe(false);
  });

  it('other hosts are unchanged: init --host qwen writes no Droid settings', () => {
    const p = project(true);
    expect(runCli(['init', '--host', 'qwen', '--dir', p.dir], { env: p.env, cwd: p.dir }).code).toBe(0);
    expect(existsSync(join(p.home, '.factory'))).toBe(false);
  });
});
