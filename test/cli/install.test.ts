import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli';
import { cliEn } from '../../src/cli/messages';
import { ROOT } from '../helpers/policy';

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    timeout: 600_000,
  });

/**
 * A fresh project installs the package (from a tarball, or from a git URL), runs init and doctor
 * with the installed binary, and the command init registered decides a call from another directory.
 */
function checkInstalled(project: string): void {
  const env = cleanEnv({
    HOME: project,
    PERSONA_GATE_STATE_DIR: join(project, 'state'),
    PERSONA_GATE_CONFIG_HOME: join(project, 'prefs'),
    PATH: process.env.PATH!,
  });
  const bin = join(project, 'node_modules', '.bin', 'persona-gate');
  const init = spawnSync(bin, ['init'], { cwd: project, env, encoding: 'utf8' });
  expect(init.status).toBe(0);
  // with the sandbox on, init says what write-denying an installation inside the project costs
  const sandbox = ['bwrap', 'socat'].every((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0);
  const note = cliEn.initSandboxInstallInside(join(project, 'node_modules', 'persona-gate'));
  if (sandbox) expect(init.stdout).toContain(note);
  else expect(init.stdout).not.toContain(note);
  const settings = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
  expect(settings).not.toContain(project);
  const command = JSON.parse(settings).hooks.PreToolUse[0].hooks[0].command as string;
  expect(command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/persona-gate hook');
  expect(JSON.parse(readFileSync(join(project, '.claude', 'persona-gate.json'), 'utf8')).$schema).toBe(
    '../node_modules/persona-gate/schema.json',
  );
  const doctor = spawnSync(bin, ['doctor'], { cwd: project, env, encoding: 'utf8' });
  expect(doctor.stdout).toContain(`ok    the hook command exists: ${join(project, 'node_modules', '.bin', 'persona-gate')}`);
  expect(doctor.stdout).toContain('ok    the policy');
  expect(doctor.status).toBe(0);
  const elsewhere = tempDir('pg-elsewhere-');
  const event = JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'installed',
    tool_name: 'mcp__aeat__modelo_export',
    tool_input: {},
    tool_use_id: 'toolu_1',
    cwd: elsewhere,
  });
  const r = spawnSync('/bin/sh', ['-c', command], {
    cwd: elsewhere,
    input: event,
    encoding: 'utf8',
    env: { ...env, CLAUDE_PROJECT_DIR: project, PERSONA_GATE_PERSONA: 'coordinator' },
  });
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
}

function freshProject(): string {
  const project = tempDir('pg-install-');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', private: true }));
  return project;
}

describe('installing the package', () => {
  it('from the npm pack tarball: init, doctor and the registered hook work', () => {
    const out = tempDir('pg-pack-');
    // dist/ is built already (npm test builds first); packing must not rebuild it under other tests.
    npm(['pack', '--ignore-scripts', '--pack-destination', out], ROOT);
    const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'))!;
    const project = freshProject();
    npm(['install', '--prefer-offline', join(out, tarball)], project);
    checkInstalled(project);
  }, 600_000);

  // npm installs the repository's devDependencies (about 85 MB) to run `prepare`.
  it('from a git URL: prepare builds dist/', () => {
    const clone = tempDir('pg-clone-');
    const branch = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    execFileSync('git', ['clone', '--quiet', '--branch', branch, ROOT, join(clone, 'persona-gate')]);
    const project = freshProject();
    npm(['install', '--prefer-offline', `git+file://${join(clone, 'persona-gate')}`], project);
    checkInstalled(project);
  }, 1_200_000);
});
