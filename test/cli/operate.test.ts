import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
