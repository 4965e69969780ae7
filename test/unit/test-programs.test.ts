import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeRun, notFound, PROGRAMS } from '../helpers/programs';

/** The rule for programs the tests run for real (test/programs.txt, .ci/run, test/global-setup.ts). */
describe('programs the tests run for real', () => {
  const here = (installed: string[], listed: Record<string, string> = { rsync: 'rsync', pwsh: '-' }) => ({
    listed: new Map(Object.entries(listed)),
    installed: (p: string) => installed.includes(p),
  });

  it('reads what bash, sh, env and xargs say they could not find', () => {
    expect(notFound('bash: line 1: rsync: command not found\n')).toEqual(['rsync']);
    expect(notFound('sh: 1: zstd: not found\n')).toEqual(['zstd']);
    expect(notFound("env: 'rsync': No such file or directory\n")).toEqual(['rsync']);
    expect(notFound('xargs: strace: No such file or directory\n')).toEqual(['strace']);
    expect(notFound('ls: cannot access x: No such file or directory\n')).toEqual([]);
  });

  it('fails a real run that needs a program the list does not name, naming it', () => {
    expect(() => judgeRun('frob x', 'bash: line 1: frob: command not found\n', [], here([]))).toThrow(
      /needs frob, which is not installed here and not listed in test\/programs.txt/,
    );
    expect(() => judgeRun('x', '', ['frob'], here([]))).toThrow(/needs frob/);
  });

  it('skips, with its reason, a real run whose listed program is not installed here', () => {
    expect(judgeRun('rsync -a x/ .claude', 'bash: line 1: rsync: command not found\n', [], here([]))).toEqual({
      skipped: 'rsync is not installed (apt-get install rsync)',
    });
    expect(judgeRun('pwsh -c 1', '', ['pwsh'], here([]))).toEqual({ skipped: 'pwsh is not installed (no Debian package provides it)' });
  });

  it('lets a run through whose programs are all here, and leaves names no program has to the line', () => {
    expect(judgeRun('rsync -a x/ y', '', ['rsync'], here(['rsync']))).toBeNull();
    expect(judgeRun('./x.sh', 'bash: line 1: ./x.sh: No such file or directory\n', [], here([]))).toBeNull();
    expect(judgeRun('Z', 'bash: line 1: Z: command not found\n', [], here([]))).toBeNull();
  });

  it('lists the programs the real-run rows use, rsync among them, each with a package', () => {
    for (const program of [
      'rsync',
      'strace',
      'valgrind',
      'xxd',
      'xz',
      'zstd',
      'patch',
      'curl',
      'python3',
      'rg',
      'sudo',
      'git',
      'bwrap',
      'socat',
      'unshare',
      'ip',
      'script',
    ]) {
      expect(PROGRAMS.get(program), program).toMatch(/^[a-z0-9.+-]+$/);
    }
    // .ci/run reads the same list
    expect(readFileSync(join(__dirname, '..', '..', '.ci', 'run'), 'utf8')).toContain('done < test/programs.txt');
  });
});
