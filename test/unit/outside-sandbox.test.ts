import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsideSandboxCheck } from '../../src/io/sandbox-state';
import { tempDir } from '../helpers/cli';

/**
 * Where a file tool's write lands, as the kernel resolves it, against the directories the sandbox
 * lets the shell write: links followed (dangling ones too), a link before `..` first, `~` the home.
 */
describe('the file tools against the sandbox bounds', () => {
  function fixture() {
    const project = tempDir();
    const home = tempDir();
    mkdirSync(join(home, '.local', 'bin'), { recursive: true });
    mkdirSync(join(project, 'sub'));
    // what the sandboxed shell can make inside the project: links that point out of it
    symlinkSync(join(home, '.local', 'bin', 'bwrap'), join(project, 'dangling'));
    symlinkSync(join(home, '.local'), join(project, 'local'));
    return { project, home, check: outsideSandboxCheck(() => [project], home) };
  }

  it.each([
    ['dangling', '.local/bin/bwrap'],
    ['local/bin/x', '.local/bin/x'],
    ['sub/../dangling', '.local/bin/bwrap'],
    ['local/../x', 'x'],
    ['~/x', 'x'],
  ])('%s lands outside, at HOME/%s', (path, landing) => {
    const { project, home, check } = fixture();
    expect(check(path, project)?.landing).toBe(join(home, landing));
  });

  it('lets a write inside the project through, a new directory included', () => {
    const { project, check } = fixture();
    for (const path of ['ok.txt', join(project, 'sub', 'a.ts'), 'sub/new/deeper/file']) expect(check(path, project)).toBeNull();
  });

  it('counts a path whose landing cannot be known now as outside', () => {
    const { project, check } = fixture();
    expect(check('missing/../ok.txt', project)).not.toBeNull();
  });

  it('holds nothing back when the sandbox does not hold', () => {
    const { project, home } = fixture();
    expect(outsideSandboxCheck(() => null, home)('/etc/ld.so.preload', project)).toBeNull();
  });
});
