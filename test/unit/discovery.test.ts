import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { locatePolicy } from '../../src/io/policy-source';

const made: string[] = [];
afterEach(() => {
  while (made.length) rmSync(made.pop()!, { recursive: true, force: true });
});

function tree() {
  const root = mkdtempSync(join(tmpdir(), 'pg-find-'));
  made.push(root);
  const project = join(root, 'project');
  const nested = join(project, 'packages', 'app', 'src');
  mkdirSync(nested, { recursive: true });
  mkdirSync(join(project, '.claude'));
  writeFileSync(join(project, '.claude', 'persona-gate.json'), '{}');
  const other = join(root, 'other');
  mkdirSync(join(other, '.claude'), { recursive: true });
  writeFileSync(join(other, '.claude', 'persona-gate.json'), '{}');
  return { root, project, nested, other };
}

describe('policy discovery (SPEC §2 order)', () => {
  it('takes --config first, then PERSONA_GATE_CONFIG', () => {
    const t = tree();
    const env = { PERSONA_GATE_CONFIG: '/env/policy.json', CLAUDE_PROJECT_DIR: t.other };
    expect(locatePolicy({ explicit: '/flag/policy.json', env, cwd: t.nested }).path).toBe('/flag/policy.json');
    expect(locatePolicy({ env, cwd: t.nested }).path).toBe('/env/policy.json');
  });

  it('then $CLAUDE_PROJECT_DIR/.claude/persona-gate.json, then the user default, then up from cwd', () => {
    const t = tree();
    expect(locatePolicy({ env: { CLAUDE_PROJECT_DIR: t.other }, userDefault: '/prefs/policy.json', cwd: t.nested }).path).toBe(
      join(t.other, '.claude', 'persona-gate.json'),
    );
    expect(
      locatePolicy({ env: { CLAUDE_PROJECT_DIR: join(t.root, 'missing') }, userDefault: '/prefs/policy.json', cwd: t.nested }).path,
    ).toBe('/prefs/policy.json');
    expect(locatePolicy({ env: {}, cwd: t.nested }).path).toBe(join(t.project, '.claude', 'persona-gate.json'));
  });

  it('reports everything it looked at when nothing is found', () => {
    const t = tree();
    rmSync(join(t.project, '.claude'), { recursive: true });
    const found = locatePolicy({ env: {}, cwd: t.nested });
    expect(found.path).toBeNull();
    expect(found.searched[0]).toBe(join(t.nested, '.claude', 'persona-gate.json'));
    expect(found.searched).toContain(join(t.project, '.claude', 'persona-gate.json'));
    expect(found.searched[found.searched.length - 1]).toBe(join('/', '.claude', 'persona-gate.json'));
  });

  it('ignores a blank PERSONA_GATE_CONFIG', () => {
    const t = tree();
    expect(locatePolicy({ env: { PERSONA_GATE_CONFIG: '  ' }, cwd: t.nested }).path).toBe(join(t.project, '.claude', 'persona-gate.json'));
  });
});
