import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';

function project(settings?: string) {
  const dir = tempDir();
  mkdirSync(join(dir, '.claude'));
  if (settings !== undefined) writeFileSync(join(dir, '.claude', 'settings.json'), settings);
  const env = cleanEnv({ HOME: dir, PERSONA_GATE_STATE_DIR: join(dir, 'state'), PERSONA_GATE_CONFIG_HOME: join(dir, 'prefs'), PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}` });
  return { dir, env, settingsPath: join(dir, '.claude', 'settings.json'), policyPath: join(dir, '.claude', 'persona-gate.json') };
}

describe('init', () => {
  it('writes a starter policy and registers the three hooks with onFailure: block', () => {
    const p = project();
    const r = runCli(['init', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(0);
    const settings = JSON.parse(readFileSync(p.settingsPath, 'utf8'));
    for (const event of ['PreToolUse', 'PostToolUse', 'SessionStart']) {
      expect(settings.hooks[event]).toHaveLength(1);
      expect(settings.hooks[event][0].hooks[0]).toEqual({ type: 'command', command: `node ${JSON.stringify(join(ROOT, 'dist', 'persona-gate.js'))} hook`, timeout: 10, onFailure: 'block' });
    }
    expect(runCli(['validate', '--config', p.policyPath], { env: p.env }).code).toBe(0);
  });

  it('changes nothing when run twice', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    const settings = readFileSync(p.settingsPath, 'utf8');
    const policy = readFileSync(p.policyPath, 'utf8');
    const again = runCli(['init', '--dir', p.dir], { env: p.env });
    expect(again.stdout).toContain('already registers the hook: unchanged');
    expect(readFileSync(p.settingsPath, 'utf8')).toBe(settings);
    expect(readFileSync(p.policyPath, 'utf8')).toBe(policy);
  });

  it('keeps the user\'s own settings and hooks', () => {
    const own = { model: 'opus', permissions: { allow: ['Read'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard' }] }], Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }] } };
    const p = project(JSON.stringify(own));
    runCli(['init', '--dir', p.dir, '--example', 'merge-captain'], { env: p.env });
    const settings = JSON.parse(readFileSync(p.settingsPath, 'utf8'));
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ allow: ['Read'] });
    expect(settings.hooks.Stop).toEqual(own.hooks.Stop);
    expect(settings.hooks.PreToolUse[0]).toEqual(own.hooks.PreToolUse[0]);
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    expect(JSON.parse(readFileSync(p.policyPath, 'utf8')).personas.merge_captain).toBeDefined();
  });

  it('adds onFailure to an existing persona-gate entry that lacks it', () => {
    const p = project(JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'npx persona-gate hook' }] }] } }));
    runCli(['init', '--dir', p.dir], { env: p.env });
    const settings = JSON.parse(readFileSync(p.settingsPath, 'utf8'));
    expect(settings.hooks.PreToolUse).toEqual([{ matcher: '*', hooks: [{ type: 'command', command: 'npx persona-gate hook', onFailure: 'block', timeout: 10 }] }]);
  });

  it('refuses to touch a settings file it cannot parse, and writes nothing', () => {
    const p = project('{ "hooks": { ');
    const r = runCli(['init', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not valid JSON');
    expect(readFileSync(p.settingsPath, 'utf8')).toBe('{ "hooks": { ');
    expect(() => readFileSync(p.policyPath)).toThrow();
  });

  it('refuses hooks that are not an object', () => {
    const p = project('{ "hooks": [] }');
    expect(runCli(['init', '--dir', p.dir], { env: p.env }).code).toBe(1);
  });
});

describe('doctor', () => {
  it('passes after init, with the pinned Claude Code on PATH', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    const r = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain('Claude Code 2.1.332 honours "onFailure": "block"');
    expect(r.stdout).toContain('all checks passed');
    expect(r.code).toBe(0);
  });

  it('reports each missing piece with its fix', () => {
    const p = project(JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'node /nowhere/persona-gate.js hook' }] }] } }));
    const r = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL  the hook is not registered for PostToolUse\n      fix: run persona-gate init');
    expect(r.stdout).toContain('warn  the PreToolUse registration has no "onFailure": "block"');
    expect(r.stdout).toContain('FAIL  the hook command does not exist: /nowhere/persona-gate.js');
    expect(r.stdout).toContain('FAIL  no policy found');
  });

  it('reports an invalid policy and a host too old for onFailure', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    writeFileSync(p.policyPath, '{"version": 2}');
    const fakeClaude = join(p.dir, 'claude-old');
    writeFileSync(fakeClaude, '#!/bin/sh\necho "2.1.197 (Claude Code)"\n', { mode: 0o755 });
    const r = runCli(['doctor', '--dir', p.dir], { env: { ...p.env, PERSONA_GATE_CLAUDE_BIN: fakeClaude }, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL  the policy .* has \d+ problems?/);
    expect(r.stdout).toContain('warn  Claude Code 2.1.197 ignores "onFailure": "block"');
  });
});

/** A project and a separate home, with programs named bwrap and socat on PATH when `sandboxPrograms`. */
function hardenedProject(opts: { sandboxPrograms?: boolean } = {}) {
  const dir = tempDir('pg-hard-');
  const home = tempDir('pg-home-');
  const bin = tempDir('pg-bin-');
  mkdirSync(join(dir, '.claude'));
  if (opts.sandboxPrograms !== false) for (const p of ['bwrap', 'socat']) writeFileSync(join(bin, p), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const env = cleanEnv({ HOME: home, PERSONA_GATE_STATE_DIR: join(home, 'state'), PERSONA_GATE_CONFIG_HOME: join(home, 'prefs'), PATH: `${bin}:${join(ROOT, 'node_modules', '.bin')}` });
  delete env.CLAUDE_CONFIG_DIR;
  return { dir, home, env, userSettings: join(home, '.claude', 'settings.json'), projectSettings: join(dir, '.claude', 'settings.json'), policyPath: join(dir, '.claude', 'persona-gate.json') };
}

describe('init --hardened', () => {
  it('registers at user level, turns the sandbox on with no way out, and guards persona-gate\'s files', () => {
    const p = hardenedProject();
    const r = runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(0);
    expect(existsSync(p.projectSettings)).toBe(false);
    const settings = JSON.parse(readFileSync(p.userSettings, 'utf8'));
    const command = `node ${JSON.stringify(join(ROOT, 'dist', 'persona-gate.js'))} hook`;
    for (const event of ['PreToolUse', 'PostToolUse', 'SessionStart']) expect(settings.hooks[event][0].hooks).toEqual([{ type: 'command', command, timeout: 10, onFailure: 'block' }]);
    expect(settings.sandbox).toMatchObject({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false });
    const guarded = [join(p.home, 'state'), p.policyPath, p.userSettings, p.projectSettings, join(p.dir, '.claude', 'settings.local.json'), join(p.home, 'prefs', 'config.json'), ROOT];
    expect(settings.sandbox.filesystem.denyWrite).toEqual(guarded);
    expect(settings.permissions.deny).toEqual(guarded.map((g) => `Edit(/${g}${g === ROOT || g.endsWith('state') ? '/**' : ''})`));
    expect(statSync(join(p.home, 'state')).mode & 0o777).toBe(0o700);
    expect(runCli(['validate', '--config', p.policyPath], { env: p.env }).code).toBe(0);
    expect(r.stdout).toContain('needs an administrator (init does not do these):\n  - copy the "hooks", "sandbox" and "permissions" entries of');
    expect(r.stdout).toContain('/etc/claude-code/managed-settings.json');
  });

  it('changes nothing when run twice, and keeps the user\'s own settings', () => {
    const p = hardenedProject();
    mkdirSync(join(p.home, '.claude'));
    const own = { model: 'opus', sandbox: { network: { allowedDomains: ['example.com'] }, filesystem: { denyWrite: ['~/secrets'] } }, permissions: { allow: ['Read'], deny: ['Bash(rm -rf:*)'] } };
    writeFileSync(p.userSettings, JSON.stringify(own));
    runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    const first = readFileSync(p.userSettings, 'utf8');
    const settings = JSON.parse(first);
    expect(settings.model).toBe('opus');
    expect(settings.sandbox.network).toEqual(own.sandbox.network);
    expect(settings.sandbox.filesystem.denyWrite[0]).toBe('~/secrets');
    expect(settings.permissions.allow).toEqual(['Read']);
    expect(settings.permissions.deny[0]).toBe('Bash(rm -rf:*)');
    const again = runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already registers the hook: unchanged');
    expect(again.stdout).toContain('already turns the sandbox on, with no way out of it: unchanged');
    expect(again.stdout).toContain("already guards persona-gate's files: unchanged");
    expect(readFileSync(p.userSettings, 'utf8')).toBe(first);
  });

  it('turns back on a sandbox the user settings had turned off, and writes to $CLAUDE_CONFIG_DIR when set', () => {
    const p = hardenedProject();
    const configDir = tempDir('pg-ccdir-');
    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ sandbox: { enabled: false, allowUnsandboxedCommands: true } }));
    const r = runCli(['init', '--hardened', '--dir', p.dir], { env: { ...p.env, CLAUDE_CONFIG_DIR: configDir }, cwd: p.dir });
    expect(r.stdout).toContain(`turned on Claude Code's sandbox in ${join(configDir, 'settings.json')} (sandbox.enabled: true, sandbox.failIfUnavailable: true, sandbox.allowUnsandboxedCommands: false)`);
    expect(JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).sandbox).toMatchObject({ enabled: true, allowUnsandboxedCommands: false });
    expect(existsSync(p.userSettings)).toBe(false);
  });

  it('refuses user settings it cannot parse, and writes nothing', () => {
    const p = hardenedProject();
    mkdirSync(join(p.home, '.claude'));
    writeFileSync(p.userSettings, '{ "sandbox": ');
    const r = runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not valid JSON');
    expect(readFileSync(p.userSettings, 'utf8')).toBe('{ "sandbox": ');
    expect(existsSync(p.policyPath)).toBe(false);
    writeFileSync(p.userSettings, JSON.stringify({ sandbox: { filesystem: { denyWrite: 'x' } } }));
    expect(runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir }).stderr).toContain('"sandbox.filesystem.denyWrite" is not an object');
  });

  it('speaks Spanish', () => {
    const p = hardenedProject();
    const r = runCli(['init', '--hardened', '--dir', p.dir], { env: { ...p.env, PERSONA_GATE_LOCALE: 'es' }, cwd: p.dir });
    expect(r.stdout).toContain(`activado el sandbox de Claude Code en ${p.userSettings}`);
    expect(r.stdout).toContain('requiere un administrador (init no lo hace):');
  });
});

describe('doctor --hardened', () => {
  it('fails each missing part of a project-level deployment, with its fix', () => {
    const p = hardenedProject();
    runCli(['init', '--dir', p.dir], { env: p.env, cwd: p.dir });
    const r = runCli(['doctor', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL  the hook is not registered at user level (${p.userSettings}): only a project file starts it\n      fix: run persona-gate init --hardened`);
    expect(r.stdout).toContain("FAIL  Claude Code's sandbox is off: the agent's shell can write whatever this user can");
    expect(r.stdout).toContain('FAIL  a command can leave the sandbox through dangerouslyDisableSandbox');
    expect(r.stdout).toContain(`FAIL  persona-gate's state directory ${join(p.home, 'state')} is not guarded from the sandboxed shell and the edit tools`);
    expect(r.stdout).toContain(`FAIL  the policy ${p.policyPath} is not guarded`);
    expect(r.stdout).toContain(`ok    persona-gate runs from ${ROOT}, outside the workspace`);
  });

  it('warns, without failing, when plain doctor finds the same project-level deployment', () => {
    const p = hardenedProject();
    runCli(['init', '--dir', p.dir], { env: p.env, cwd: p.dir });
    const r = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("hardened deployment (what the agent cannot switch off):\nok    persona-gate runs from");
    expect(r.stdout).toContain("warn  Claude Code's sandbox is off");
  });

  it('passes after init --hardened, warning only about what needs an administrator', () => {
    const p = hardenedProject();
    runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    const r = runCli(['doctor', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain(`ok    the hook is registered at user level (${p.userSettings})`);
    expect(r.stdout).toContain("ok    Claude Code's sandbox is on (sandbox.enabled)");
    expect(r.stdout).toContain('ok    sandboxed commands have no way out (sandbox.allowUnsandboxedCommands: false)');
    expect(r.stdout).toContain(`ok    the policy ${p.policyPath} is not writable from the sandboxed shell or the edit tools`);
    expect(r.stdout).toContain(`ok    the user settings file ${p.userSettings} is not writable from the sandboxed shell or the edit tools`);
    expect(r.stdout).toContain('warn  the hook is not registered in managed settings (/etc/claude-code/managed-settings.json)');
    expect(r.stdout).not.toContain('FAIL');
    expect(r.code).toBe(0);
  });

  it('fails when a project file turns the sandbox off, or the sandbox\'s programs are missing', () => {
    const p = hardenedProject({ sandboxPrograms: false });
    runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    writeFileSync(join(p.dir, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: false } }));
    const r = runCli(['doctor', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL  the project's settings turn Claude Code's sandbox off (${join(p.dir, '.claude', 'settings.local.json')})`);
    expect(r.stdout).toContain("FAIL  the sandbox's programs are missing: bwrap, socat\n      fix: apt-get install bubblewrap socat");
  });
});

describe('config', () => {
  it('sets, gets and lists preferences, which the hook reads without conf', () => {
    const p = project();
    // A policy that leaves the locale to the user.
    const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    delete policy.locale;
    const policyPath = join(p.dir, 'policy.json');
    writeFileSync(policyPath, JSON.stringify(policy));
    expect(runCli(['config', 'set', 'locale', 'es'], { env: p.env })).toMatchObject({ code: 0, stdout: 'locale = es\n' });
    expect(runCli(['config', 'set', 'policy', policyPath], { env: p.env }).code).toBe(0);
    expect(runCli(['config', 'get', 'locale'], { env: p.env }).stdout).toBe('es\n');
    expect(runCli(['config', 'list'], { env: p.env }).stdout).toBe(`locale = es\npolicy = ${policyPath}\n`);
    // The hook finds the default policy and speaks Spanish.
    const r = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create', {}, { cwd: p.dir }), env: p.env, cwd: p.dir });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/^persona-gate: esta sesión aún no ha confirmado/);
  });

  it('refuses unknown keys and invalid values', () => {
    const p = project();
    expect(runCli(['config', 'set', 'colour', 'red'], { env: p.env }).code).toBe(1);
    expect(runCli(['config', 'set', 'locale', 'fr'], { env: p.env }).code).toBe(1);
    expect(runCli(['config', 'get', 'policy'], { env: p.env })).toMatchObject({ code: 1, stderr: 'policy is not set\n' });
  });

  it('takes the state directory from the preferences', () => {
    const p = project();
    const stateDir = join(p.dir, 'from-prefs');
    runCli(['config', 'set', 'stateDir', stateDir], { env: p.env });
    const env = { ...p.env, PERSONA_GATE_STATE_DIR: '', PERSONA_GATE_CONFIG: TAX_POLICY_PATH };
    runCli(['hook'], { input: preEvent('mcp__aeat__whoami'), env });
    expect(runCli(['session', 'show', '--session', 'cli-session'], { env }).stdout).toContain('"seq": 1');
  });
});

describe('log', () => {
  it('shows receipts as a table, filtered by persona and status', () => {
    const p = project();
    const env = { ...p.env, PERSONA_GATE_CONFIG: TAX_POLICY_PATH };
    runCli(['hook'], { input: preEvent('mcp__aeat__modelo_list'), env: { ...env, PERSONA_GATE_PERSONA: 'coordinator' } });
    runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env: { ...env, PERSONA_GATE_PERSONA: 'coordinator' } });
    runCli(['hook'], { input: preEvent('mcp__aeat__modelo_export'), env: { ...env, PERSONA_GATE_PERSONA: 'modelo-preparer' } });
    const all = runCli(['log'], { env }).stdout.trim().split('\n');
    expect(all).toHaveLength(3);
    const denied = runCli(['log', '--status', 'permission_denied'], { env }).stdout.trim().split('\n');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatch(/coordinator +deny +permission_denied +mcp__aeat__modelo_work_create → modelo\.work\.create/);
    expect(runCli(['log', '--persona', 'modelo-preparer', '--json'], { env }).stdout.trim().split('\n').map((l) => JSON.parse(l).status)).toEqual(['handoff_denied']);
  });
});

describe('Spanish', () => {
  it('speaks Spanish in the CLI outputs', () => {
    const p = project();
    const env = { ...p.env, PERSONA_GATE_LOCALE: 'es', PERSONA_GATE_CONFIG: TAX_POLICY_PATH };
    expect(runCli(['explain', '--persona', 'coordinator', 'mcp__aeat__modelo_work_create'], { env }).stdout).toMatch(/^veredicto: deny[\s\S]*puertas:[\s\S]*scope +rechaza +persona-gate: la persona coordinator no puede ejecutar/);
    expect(runCli(['list', '--persona', 'verifier'], { env }).stdout).toMatch(/^persona verifier: techo workspace_write/);
    expect(runCli(['validate'], { env }).stdout).toMatch(/válida \(7 personas, 22 órdenes\)/);
    const bad = join(p.dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ version: 1, catalog: { families: { modelo: { level: 'escritura' } } } }));
    const invalid = runCli(['validate', '--config', bad], { env });
    expect(invalid.stderr).toContain('catalog.families.modelo.level: Opción inválida');
    expect(invalid.stderr).toContain('1 problema');
    expect(runCli(['session', 'reset', '--session', 's'], { env }).stdout).toBe('sesión s: reiniciada\n');
    expect(runCli(['init', '--dir', p.dir], { env }).stdout).toContain('registrado el hook para');
  });

  it('gives help and usage errors in Spanish', () => {
    const env = { ...project().env, PERSONA_GATE_LOCALE: 'es' };
    const help = runCli(['stage', 'enter', '--help'], { env });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toBe(
      [
        'Uso: persona-gate stage enter [opciones] <nombre>',
        '',
        'entra en una etapa de la persona de la sesión',
        '',
        'Argumentos:',
        '  nombre           nombre de la etapa',
        '',
        'Opciones:',
        '  --session <id>   el identificador de la sesión',
        '  --config <ruta>  fichero de política',
        '  -h, --help       muestra la ayuda del comando',
        '',
      ].join('\n'),
    );
    const missing = runCli(['session', 'show'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: falta la opción obligatoria '--session <id>'\n\nUso: persona-gate session show \[opciones\]\n/);
    expect(runCli(['lst'], { env }).stderr).toMatch(/^error: comando desconocido 'lst'\n\(¿Quería decir list\?\)\n/);
  });
});
