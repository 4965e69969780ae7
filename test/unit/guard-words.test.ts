import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardWordsFor } from '../../src/core/guard-words';
import { makeProtectedPathCheck } from '../../src/io/protect';
import { tempDir } from '../helpers/cli';

function check(locale: 'en' | 'es') {
  const home = tempDir();
  const project = join(home, 'project');
  mkdirSync(join(project, '.claude'), { recursive: true });
  const policyPath = join(project, '.claude', 'persona-gate.json');
  writeFileSync(policyPath, '{}');
  const isProtected = makeProtectedPathCheck({
    policyPath,
    stateDir: join(home, 'state'),
    prefsFile: join(home, 'prefs.json'),
    home,
    env: { HOME: home },
    locale,
  });
  return { isProtected, home, project };
}

describe('the names gate 0 gives guarded paths', () => {
  it('has every name in every language, and no Spanish name is the English one', () => {
    const en = guardWordsFor('en');
    const es = guardWordsFor('es');
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      const args = ['X1', 'X2'] as [string, string];
      const english = (en[key] as (...a: string[]) => string)(...args);
      const spanish = (es[key] as (...a: string[]) => string)(...args);
      expect(spanish, key).not.toBe(english);
      // The arguments it is given appear in both.
      for (const a of args) expect(spanish.includes(a), `${key}: ${a}`).toBe(english.includes(a));
    }
  });

  it.each([
    [
      'en',
      'the persona-gate policy',
      "persona-gate's state directory",
      'the user-level hook registration (settings.json)',
      'a shell startup file (~/.bashrc), which later shells run',
    ],
    [
      'es',
      'la política de persona-gate',
      'el directorio de estado de persona-gate',
      'el registro del hook del usuario (settings.json)',
      'un fichero de arranque del shell (~/.bashrc), que ejecutan los shells siguientes',
    ],
  ] as const)('names them in %s', (locale, policy, state, registration, startup) => {
    const { isProtected, home, project } = check(locale);
    expect(isProtected(join(project, '.claude', 'persona-gate.json'), project)).toBe(policy);
    expect(isProtected(join(home, 'state', 'sessions.json'), project)).toBe(state);
    expect(isProtected(join(home, '.claude', 'settings.json'), project)).toBe(registration);
    expect(isProtected(join(home, '.bashrc'), project)).toBe(startup);
    // Names built from another name keep both in the language asked for.
    expect(isProtected(join(home, 'state'), project, 'destroy')).toBe(guardWordsFor(locale).stateDir());
    expect(isProtected(home, project, 'destroy')).toMatch(locale === 'es' ? /\(dentro de / : /\(inside /);
    expect(isProtected('d/../x', project)).toBe(guardWordsFor(locale).dotDotUnknown('d/../x'));
  });
});
