import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli, tempDir } from '../helpers/cli';
import { ROOT } from '../helpers/policy';

/** init, doctor and uninstall --host H: each host's registration file, written, checked and removed. */

function project(opts: { installed?: boolean } = {}) {
  const dir = tempDir('pg-hostreg-');
  const home = join(dir, 'home');
  mkdirSync(home);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(join(ROOT, 'dist', 'persona-gate.cjs'), join(bin, 'persona-gate'));
  if (opts.installed) {
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(join(ROOT, 'dist', 'persona-gate.cjs'), join(dir, 'node_modules', '.bin', 'persona-gate'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ devDependencies: { 'persona-gate': '*' } }));
  }
  const env = cleanEnv({
    HOME: home,
    PATH: `${bin}:${process.env.PATH}`,
    PERSONA_GATE_STATE_DIR: join(dir, 'state'),
    CODEX_HOME: join(home, '.codex'),
  });
  return { dir, home, env };
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const entry = (command: string, timeout: number) => ({ type: 'command', command, timeout });

describe('init --host', () => {
  it('gemini: BeforeTool and AfterTool in the project settings, the timeout in milliseconds, the folder trusted', () => {
    const p = project();
    const r = runCli(['init', '--host', 'gemini', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(0);
    expect(json(join(p.dir, '.gemini', 'settings.json'))).toEqual({
      hooks: {
        BeforeTool: [{ matcher: '.*', hooks: [entry('persona-gate hook --host gemini', 10000)] }],
        AfterTool: [{ matcher: '.*', hooks: [entry('persona-gate hook --host gemini', 10000)] }],
        SessionStart: [{ hooks: [entry('persona-gate hook --host gemini', 10000)] }],
      },
    });
    expect(json(join(p.home, '.gemini', 'trustedFolders.json'))).toEqual({ [p.dir]: 'TRUST_FOLDER' });
    expect(existsSync(join(p.dir, '.claude', 'persona-gate.json'))).toBe(true);
    expect(r.stdout).toContain(`trusted ${p.dir} in ${join(p.home, '.gemini', 'trustedFolders.json')}`);
    expect(r.stdout).toContain('what Gemini CLI lets through');
  });

  it('droid: the events at the top level of hooks.json, no {"hooks": …} wrapper', () => {
    const p = project();
    expect(runCli(['init', '--host', 'droid', '--dir', p.dir], { env: p.env }).code).toBe(0);
    const file = json(join(p.dir, '.factory', 'hooks.json'));
    expect(file.hooks).toBeUndefined();
    expect(file.PreToolUse[0].hooks[0].command).toBe('persona-gate hook --host droid');
  });

  it('copilot: a file of its own with the version field and PascalCase events, the folder trusted (keeping the rest of config.json)', () => {
    const p = project();
    mkdirSync(join(p.home, '.copilot'));
    writeFileSync(join(p.home, '.copilot', 'config.json'), JSON.stringify({ theme: 'dark', trustedFolders: ['/srv/other'] }));
    expect(runCli(['init', '--host', 'copilot', '--dir', p.dir], { env: p.env }).code).toBe(0);
    const file = json(join(p.dir, '.github', 'hooks', 'persona-gate.json'));
    expect(file.version).toBe(1);
    expect(Object.keys(file.hooks)).toEqual(['PreToolUse', 'PostToolUse']);
    expect(json(join(p.home, '.copilot', 'config.json'))).toEqual({ theme: 'dark', trustedFolders: ['/srv/other', p.dir] });
    expect(runCli(['doctor', '--host', 'copilot', '--dir', p.dir], { env: p.env, cwd: p.dir }).code).toBe(0);
    // A project setting that switches every hook off, and a trust taken back: doctor fails on both.
    mkdirSync(join(p.dir, '.github', 'copilot'));
    writeFileSync(join(p.dir, '.github', 'copilot', 'settings.local.json'), JSON.stringify({ disableAllHooks: true }));
    writeFileSync(join(p.home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [] }));
    const r = runCli(['doctor', '--host', 'copilot', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `FAIL  ${p.dir} is not a trusted folder in ${join(p.home, '.copilot', 'config.json')}: Copilot skips the project's .github/hooks`,
    );
    expect(r.stdout).toContain(`FAIL  ${join(p.dir, '.github', 'copilot', 'settings.local.json')} switches every Copilot hook off`);
  });

  it('a project install: the portable command where the host sets CLAUDE_PROJECT_DIR', () => {
    const p = project({ installed: true });
    expect(runCli(['init', '--host', 'qwen', '--dir', p.dir], { env: p.env }).code).toBe(0);
    expect(json(join(p.dir, '.qwen', 'settings.json')).hooks.PreToolUse[0].hooks[0]).toEqual(
      entry('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/persona-gate hook --host qwen', 10000),
    );
  });

  it('keeps every other setting and hook, and is idempotent', () => {
    const p = project();
    const path = join(p.dir, '.qwen', 'settings.json');
    mkdirSync(join(p.dir, '.qwen'));
    const theirs = { matcher: 'run_shell_command', hooks: [{ type: 'command', command: './audit.sh', timeout: 3000 }] };
    writeFileSync(path, JSON.stringify({ model: { name: 'qwen3' }, hooks: { PreToolUse: [theirs] } }));
    runCli(['init', '--host', 'qwen', '--dir', p.dir], { env: p.env });
    const once = readFileSync(path, 'utf8');
    const second = runCli(['init', '--host', 'qwen', '--dir', p.dir], { env: p.env });
    expect(second.stdout).toContain(`${path} already registers the hook: unchanged`);
    expect(readFileSync(path, 'utf8')).toBe(once);
    const file = JSON.parse(once);
    expect(file.model).toEqual({ name: 'qwen3' });
    expect(file.hooks.PreToolUse[0]).toEqual(theirs);
    expect(file.hooks.PreToolUse[1].hooks[0].command).toBe('persona-gate hook --host qwen');
  });

  it('repairs an entry registered without --host (Claude JSON, which the host may ignore)', () => {
    const p = project();
    const path = join(p.dir, '.gemini', 'settings.json');
    mkdirSync(join(p.dir, '.gemini'));
    writeFileSync(
      path,
      JSON.stringify({
        hooks: { BeforeTool: [{ matcher: '.*', hooks: [{ type: 'command', command: 'persona-gate hook', timeout: 10000 }] }] },
      }),
    );
    const r = runCli(['init', '--host', 'gemini', '--dir', p.dir], { env: p.env });
    expect(r.stdout).toContain('replaced the hook command persona-gate hook');
    expect(json(path).hooks.BeforeTool[0].hooks[0].command).toBe('persona-gate hook --host gemini');
  });

  it('refuses a settings file it cannot parse, and writes nothing', () => {
    const p = project();
    mkdirSync(join(p.dir, '.gemini'));
    writeFileSync(join(p.dir, '.gemini', 'settings.json'), '{ nope');
    const r = runCli(['init', '--host', 'gemini', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not valid JSON');
    expect(readFileSync(join(p.dir, '.gemini', 'settings.json'), 'utf8')).toBe('{ nope');
  });

  it('an unknown host, or --hardened with another host: a usage error', () => {
    const p = project();
    expect(runCli(['init', '--host', 'cursor', '--dir', p.dir], { env: p.env })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--host takes claude-code, codex, copilot, gemini, qwen, droid, not cursor'),
    });
    expect(runCli(['init', '--host', 'gemini', '--hardened', '--dir', p.dir], { env: p.env })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--hardened is for Claude Code'),
    });
  });

  it('a misspelt host: the nearest one is named', () => {
    const p = project();
    for (const command of ['init', 'doctor', 'uninstall']) {
      expect(runCli([command, '--host', 'claude', '--dir', p.dir], { env: p.env })).toMatchObject({
        code: 1,
        stdout: '',
        stderr: 'persona-gate: --host takes claude-code, codex, copilot, gemini, qwen, droid, not claude (did you mean claude-code?)\n',
      });
    }
    expect(runCli(['init', '--host', 'qwn', '--dir', p.dir], { env: { ...p.env, PERSONA_GATE_LOCALE: 'es' } }).stderr).toContain(
      'no qwn (¿quería decir qwen?)',
    );
  });
});

describe('doctor --host', () => {
  it('passes after init, and names what the host lets through', () => {
    const p = project();
    runCli(['init', '--host', 'droid', '--dir', p.dir], { env: p.env });
    const r = runCli(['doctor', '--host', 'droid', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain(`ok    the hook is registered for Droid PreToolUse (${join(p.dir, '.factory', 'hooks.json')})`);
    expect(r.stdout).toContain('What Droid lets through, whatever persona-gate answers:');
    expect(r.stdout).toContain('all checks passed');
    expect(r.code).toBe(0);
  });

  it('fails without the registration, without the trust, with a timeout too short, or with an entry lacking --host', () => {
    const p = project();
    const none = runCli(['doctor', '--host', 'gemini', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('FAIL  the hook is not registered for Gemini CLI BeforeTool');
    expect(none.stdout).toContain(`FAIL  ${p.dir} is not a trusted folder`);
    mkdirSync(join(p.dir, '.gemini'));
    writeFileSync(
      join(p.dir, '.gemini', 'settings.json'),
      JSON.stringify({
        hooks: { BeforeTool: [{ matcher: '.*', hooks: [{ type: 'command', command: 'persona-gate hook', timeout: 10 }] }] },
      }),
    );
    const bad = runCli(['doctor', '--host', 'gemini', '--dir', p.dir, '--json'], { env: p.env, cwd: p.dir });
    const body = JSON.parse(bad.stdout);
    expect(body.ok).toBe(false);
    expect(body.checks.map((c: { text: string }) => c.text)).toEqual(
      expect.arrayContaining([
        'the hook command persona-gate hook does not say --host gemini: its answers are in a form gemini may not honour',
        "the hook's timeout is 10 ms: not above persona-gate's own 5 s deadline, so the host may give up first and run the tool",
      ]),
    );
    expect(body.lets_through.length).toBeGreaterThan(0);
  });

  it('gemini: a trust that covers a parent counts; settings that switch hooks off fail; a stripped environment warns', () => {
    const p = project();
    runCli(['init', '--host', 'gemini', '--dir', p.dir], { env: p.env });
    writeFileSync(join(p.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [join(p.dir, '..')]: 'TRUST_FOLDER' }));
    const ok = runCli(['doctor', '--host', 'gemini', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(ok.stdout).toContain(`ok    ${p.dir} is a trusted folder`);
    writeFileSync(
      join(p.home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [join(p.dir, '..')]: 'TRUST_FOLDER', [p.dir]: 'DO_NOT_TRUST' }),
    );
    const settings = join(p.dir, '.gemini', 'settings.json');
    writeFileSync(settings, JSON.stringify({ ...json(settings), hooksConfig: { enabled: false } }));
    const off = runCli(['doctor', '--host', 'gemini', '--dir', p.dir], { env: { ...p.env, GITHUB_SHA: 'abc' }, cwd: p.dir });
    expect(off.code).toBe(1);
    expect(off.stdout).toContain(`FAIL  ${p.dir} is not a trusted folder`);
    expect(off.stdout).toContain(`FAIL  ${settings} switches every Gemini hook off (hooksConfig.enabled: false)`);
    expect(off.stdout).toContain("warn  Gemini strips the hook's environment here");
  });
});

describe('codex: the trust Codex needs before it runs a hook', () => {
  // The trust alone (--no-sandbox): the sandbox profile is the next test's.
  it('init records it in the user config.toml (keeping the rest), doctor checks it, uninstall takes it back', () => {
    const p = project();
    const config = join(p.home, '.codex', 'config.toml');
    mkdirSync(join(p.home, '.codex'), { recursive: true });
    writeFileSync(config, 'model = "x"\n\n[projects."/srv/a"]\ntrust_level = "trusted"\n');
    const r = runCli(['init', '--host', 'codex', '--dir', p.dir, '--no-sandbox'], { env: p.env });
    expect(r.stdout).toContain(`recorded the trust of persona-gate's 3 hook entries in ${config}`);
    const hooksPath = join(p.home, '.codex', 'hooks.json');
    const toml = readFileSync(config, 'utf8');
    expect(toml.startsWith('model = "x"\n\n[projects."/srv/a"]\ntrust_level = "trusted"\n')).toBe(true);
    // The hash Codex 0.171.0 computes for this entry (read back from its own hook listing).
    expect(toml).toContain(
      `[hooks.state."${hooksPath}:pre_tool_use:0:0"]\ntrusted_hash = "sha256:4f80dda5f0b4dcebffcb487e29401bad2140fed13284560c75fa606a601a2900"`,
    );
    expect(runCli(['init', '--host', 'codex', '--dir', p.dir, '--no-sandbox'], { env: p.env }).stdout).toContain(
      `${config} already trusts persona-gate's hook entries`,
    );
    const ok = runCli(['doctor', '--host', 'codex', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(ok.stdout).toContain(`ok    Codex trusts the hook ${hooksPath}:pre_tool_use:0:0`);
    expect(ok.code).toBe(0);
    // A changed timeout is another hook for Codex: skipped until trusted again.
    const hooks = json(hooksPath);
    hooks.hooks.PreToolUse[0].hooks[0].timeout = 30;
    writeFileSync(hooksPath, JSON.stringify(hooks));
    const modified = runCli(['doctor', '--host', 'codex', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(modified.code).toBe(1);
    expect(modified.stdout).toContain(
      `FAIL  the trust recorded for the hook ${hooksPath}:pre_tool_use:0:0 in ${config} is for another command, timeout or matcher`,
    );
    writeFileSync(config, `${readFileSync(config, 'utf8')}\n[hooks.state."${hooksPath}:post_tool_use:0:0"]\nenabled = false\n`);
    const off = runCli(['doctor', '--host', 'codex', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(off.stdout).toContain(`FAIL  ${config} switches the hook ${hooksPath}:post_tool_use:0:0 off (enabled = false)`);
    runCli(['init', '--host', 'codex', '--dir', p.dir, '--no-sandbox'], { env: p.env });
    expect(runCli(['doctor', '--host', 'codex', '--dir', p.dir], { env: p.env, cwd: p.dir }).code).toBe(0);
    runCli(['uninstall', '--host', 'codex', '--dir', p.dir], { env: p.env });
    expect(readFileSync(config, 'utf8')).toBe('model = "x"\n\n[projects."/srv/a"]\ntrust_level = "trusted"\n');
  });
});

describe('codex: the sandbox profile init writes into config.toml', () => {
  const user = 'model = "x"\n\n[projects."/srv/a"]\ntrust_level = "trusted"\n';
  it('selects it before the first table, appends the profile, keeps the rest, and uninstall restores the file byte for byte', () => {
    const p = project();
    const config = join(p.home, '.codex', 'config.toml');
    mkdirSync(join(p.home, '.codex'), { recursive: true });
    writeFileSync(config, user);
    const r = runCli(['init', '--host', 'codex', '--dir', p.dir], { env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`turned on Codex's sandbox in ${config}`);
    const toml = readFileSync(config, 'utf8');
    const lines = toml.split('\n');
    // default_permissions is a top-level key: before the first table, or TOML puts it in that table.
    expect(lines.indexOf('default_permissions = "persona-gate"')).toBeGreaterThan(0);
    expect(lines.indexOf('default_permissions = "persona-gate"')).toBeLessThan(lines.indexOf('[projects."/srv/a"]'));
    expect(toml).toContain('[permissions."persona-gate".filesystem]\n":root" = "read"');
    expect(toml).toContain(`${JSON.stringify(join(p.dir, '.claude'))} = "read"`);
    expect(toml).toContain('[permissions."persona-gate".filesystem.":workspace_roots"]\n"." = "write"');
    // Again: the same file.
    expect(runCli(['init', '--host', 'codex', '--dir', p.dir], { env: p.env }).stdout).toContain(
      `${config} already holds persona-gate's sandbox profile`,
    );
    expect(readFileSync(config, 'utf8')).toBe(toml);
    const u = runCli(['uninstall', '--host', 'codex', '--dir', p.dir], { env: p.env });
    expect(u.stdout).toContain(`removed persona-gate's sandbox profile from ${config}`);
    expect(readFileSync(config, 'utf8')).toBe(user);
  });

  it("keeps the user's own choice of profile and sandbox_mode, and says what they mean", () => {
    const p = project();
    const config = join(p.home, '.codex', 'config.toml');
    mkdirSync(join(p.home, '.codex'), { recursive: true });
    writeFileSync(config, 'default_permissions = ":workspace"\nsandbox_mode = "danger-full-access"\n');
    const r = runCli(['init', '--host', 'codex', '--dir', p.dir], { env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${config} already chooses the permissions profile :workspace`);
    expect(r.stdout).toContain(`${config} sets sandbox_mode = "danger-full-access"`);
    expect(readFileSync(config, 'utf8').match(/default_permissions/g)).toHaveLength(1);
    const d = runCli(['doctor', '--host', 'codex', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(d.stdout).toContain(`warn  ${config} sets sandbox_mode = "danger-full-access"`);
  });

  it('changes nothing when config.toml cannot be read, and --no-sandbox writes no profile', () => {
    const p = project();
    const config = join(p.home, '.codex', 'config.toml');
    mkdirSync(join(p.home, '.codex'), { recursive: true });
    const broken = 'model = "x"\n[projects."/srv/a"\ntrust_level = "trusted"\n';
    writeFileSync(config, broken);
    const r = runCli(['init', '--host', 'codex', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot read ${config} as TOML (line 2: a table header is not closed): nothing was changed`);
    expect(readFileSync(config, 'utf8')).toBe(broken);
    expect(existsSync(join(p.home, '.codex', 'hooks.json'))).toBe(false);
    writeFileSync(config, user);
    const off = runCli(['init', '--host', 'codex', '--dir', p.dir, '--no-sandbox'], { env: p.env });
    expect(off.stdout).toContain("Codex's sandbox was left as it is (--no-sandbox)");
    expect(readFileSync(config, 'utf8')).not.toContain('persona-gate sandbox');
    expect(runCli(['doctor', '--host', 'codex', '--dir', p.dir], { env: p.env, cwd: p.dir }).stdout).toContain(
      `warn  no permissions profile is chosen in ${config}`,
    );
  });
});

describe('doctor --host qwen', () => {
  it('fails where a project switches every hook off, passes where the system settings pin them on', () => {
    const p = project();
    runCli(['init', '--host', 'qwen', '--dir', p.dir], { env: p.env });
    const settings = join(p.dir, '.qwen', 'settings.json');
    const plain = runCli(['doctor', '--host', 'qwen', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(plain.stdout).toContain("warn  nothing pins Qwen Code's hooks on");
    writeFileSync(settings, JSON.stringify({ ...json(settings), disableAllHooks: true }));
    const off = runCli(['doctor', '--host', 'qwen', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(off.code).toBe(1);
    expect(off.stdout).toContain(`FAIL  ${settings} switches every Qwen Code hook off (disableAllHooks: true)`);
    const system = join(p.dir, 'system-settings.json');
    writeFileSync(system, JSON.stringify({ disableAllHooks: false }));
    const pinned = runCli(['doctor', '--host', 'qwen', '--dir', p.dir], {
      env: { ...p.env, QWEN_CODE_SYSTEM_SETTINGS_PATH: system },
      cwd: p.dir,
    });
    expect(pinned.stdout).toContain(`ok    ${system} pins disableAllHooks to false`);
    expect(pinned.code).toBe(0);
  });
});

describe('uninstall --host', () => {
  it('removes exactly what init added, keeping the rest; a file left empty goes', () => {
    const p = project();
    const path = join(p.dir, '.qwen', 'settings.json');
    mkdirSync(join(p.dir, '.qwen'));
    writeFileSync(path, JSON.stringify({ model: { name: 'qwen3' } }));
    runCli(['init', '--host', 'qwen', '--dir', p.dir], { env: p.env });
    const r = runCli(['uninstall', '--host', 'qwen', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(0);
    expect(json(path)).toEqual({ model: { name: 'qwen3' } });
    runCli(['init', '--host', 'copilot', '--dir', p.dir], { env: p.env });
    runCli(['uninstall', '--host', 'copilot', '--dir', p.dir, '--purge'], { env: p.env });
    expect(existsSync(join(p.dir, '.github', 'hooks', 'persona-gate.json'))).toBe(false);
    expect(existsSync(join(p.dir, '.claude', 'persona-gate.json'))).toBe(false);
  });
});
