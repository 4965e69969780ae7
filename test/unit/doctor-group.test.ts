import { describe, expect, it } from 'vitest';
import { groupHardened } from '../../src/cli/commands/doctor';
import { cliEn, cliEs } from '../../src/cli/messages';

describe("doctor's hardened deployment in one line", () => {
  it('is ok when every part is in place', () => {
    expect(
      groupHardened(
        [
          { level: 'ok', text: 'a' },
          { level: 'ok', text: 'b' },
        ],
        cliEn,
        'npx persona-gate',
      ),
    ).toEqual({ level: 'ok', text: 'all 2 parts are in place' });
  });

  it('counts the parts not in place, and says how to list them in the form this install runs', () => {
    const parts = [
      { level: 'ok' as const, text: 'a' },
      { level: 'warn' as const, text: 'b', fix: 'x' },
      { level: 'warn' as const, text: 'c', fix: 'y' },
    ];
    expect(groupHardened(parts, cliEn, 'npx persona-gate')).toEqual({
      level: 'warn',
      text: "2 of its 3 parts are not in place: the agent's shell can reach what the hook alone guards",
      fix: 'npx persona-gate doctor --hardened lists each part and its fix',
    });
    expect(groupHardened(parts, cliEs, 'persona-gate').fix).toBe('persona-gate doctor --hardened muestra cada parte y cómo arreglarla');
  });

  it('fails when a part fails', () => {
    expect(
      groupHardened(
        [
          { level: 'fail', text: 'a' },
          { level: 'warn', text: 'b' },
        ],
        cliEn,
        'persona-gate',
      ).level,
    ).toBe('fail');
  });
});
