import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

/** `persona-gate programs [NAME]`: what the shell reader knows of a program, and what the policy adds. */
describe('persona-gate programs', () => {
  const env = () => cleanEnv({ HOME: tempDir() });

  it('lists every program of the registry with its level', () => {
    const r = runCli(['programs'], { env: env(), cwd: tempDir() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+ programs the shell reader knows/);
    expect(r.stdout).toMatch(/^ {2}git +read_only +the version control system$/m);
    expect(r.stdout).toMatch(/^ {2}rm +workspace_write +removes files$/m);
  });

  it('shows a program: the options that change what a call does, and each subcommand with its level', () => {
    const r = runCli(['programs', 'git'], { env: env(), cwd: tempDir() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  -c: runs code (git_runs_configured_command)');
    expect(r.stdout).toMatch(/^ {2}push +network +uploads to a remote$/m);
    expect(r.stdout).toMatch(/^ {2}status +read_only /m);
    expect(r.stdout).toContain('any other subcommand: process_exec, opaque');
    const json = JSON.parse(runCli(['programs', 'sed', '--json'], { env: env(), cwd: tempDir() }).stdout) as {
      level: string;
      reader: string;
    };
    expect(json).toMatchObject({ level: 'read_only', reader: 'sed' });
  });

  it('shows what the policy adds: a program it declares, whether it is closed, the commands it catalogues', () => {
    const r = runCli(['programs', 'aeat', '--config', TAX_POLICY_PATH], { env: env(), cwd: tempDir() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('declared by the policy, closed: only its catalogued commands may run');
    expect(r.stdout).toContain('  aeat modelo export → modelo.export');
    expect(r.stdout).toMatch(/^ {2}whoami .*prints the active profile; takes no operands/m);
    const listed = runCli(['programs', '--config', TAX_POLICY_PATH], { env: env(), cwd: tempDir() });
    expect(listed.stdout).toMatch(/^ {2}aeat .*\[the policy declares it: closed\]$/m);
  });

  it('says what to do for a program nobody knows, with the nearest name, and exits 1', () => {
    const r = runCli(['programs', 'gti'], { env: env(), cwd: tempDir() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('gti is not a program the registry or the policy knows (did you mean git?)');
    expect(r.stderr).toContain('catalog.programs');
  });

  it('stops quietly when its reader stops reading', () => {
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" programs | head -1`], {
      encoding: 'utf8',
      env: env(),
      cwd: tempDir(),
    });
    expect(r.stdout).toMatch(/^\d+ programs/);
    expect(r.stderr).toBe('');
  });
});
