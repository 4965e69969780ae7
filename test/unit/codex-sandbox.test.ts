import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli';
import { codexDenyPoints, scanToml, withoutCodexSandbox } from '../../src/cli/commands/codex-sandbox';
import type { Guarded } from '../../src/cli/commands/hardened';

const file = (path: string, what: Guarded['what'] = 'policy'): Guarded => ({ path, tree: false, what });

describe('where the Codex profile denies each guarded path', () => {
  it('from the top directory under each writable root that holds it; node_modules entries as themselves; only existing paths', () => {
    const tmp = realpathSync(tempDir('pg-codexdeny-'));
    const project = join(tmp, 'work', 'project');
    const state = join(tmp, 'state', 'sessions');
    for (const d of [join(project, '.claude'), join(project, 'node_modules', 'persona-gate'), state]) mkdirSync(d, { recursive: true });
    writeFileSync(join(project, '.claude', 'persona-gate.json'), '{}');
    const points = codexDenyPoints(
      [
        file(join(project, '.claude', 'persona-gate.json')),
        file(join(project, '.claude', 'persona-gate.lock.json')),
        { path: join(project, 'node_modules', 'persona-gate'), tree: true, what: 'install' },
        { path: state, tree: true, what: 'state' },
        file(join(tmp, 'absent', 'prefs.json'), 'prefs'),
        file('/etc/hostname', 'install'),
      ],
      [project, tmp],
      project,
    );
    expect(points).toEqual(
      [
        '/etc/hostname',
        // the temp root holds the project: denied, with the project (a writable root) still writable inside it
        join(tmp, 'state'),
        join(tmp, 'work'),
        join(project, '.claude'),
        join(project, 'node_modules', 'persona-gate'),
      ].sort(),
    );
  });
});

describe('the light TOML read of config.toml', () => {
  it('finds top-level keys and the first table, through multi-line strings and arrays', () => {
    const scan = scanToml('a = """\n[not.a.table]\n"""\nb = [\n  1,\n  2,\n]\n# c\n[t]\nd = 1\n');
    expect(scan.problem).toBeNull();
    expect([...scan.topKeys.keys()]).toEqual(['a', 'b']);
    expect(scan.firstHeader).toBe(8);
  });

  it.each([
    ['[t', 'line 1: a table header is not closed'],
    ['just words', 'line 1: not a key = value line'],
    ['a = """\nopen', 'a multi-line string is not closed'],
    ['a = [1,\n2', 'a multi-line value is not closed'],
  ])('names what it cannot read: %j', (text, problem) => {
    expect(scanToml(text).problem).toBe(problem);
  });

  it('takes out only the marked blocks', () => {
    expect(
      withoutCodexSandbox(
        'x = 1\n# >>> persona-gate sandbox (added by `persona-gate init --host codex`; `persona-gate uninstall --host codex` removes it)\ny = 2\n# <<< persona-gate sandbox\n\n[t]\n',
      ),
    ).toBe('x = 1\n[t]\n');
  });
});
