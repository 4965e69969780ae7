import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main';
import { helpEn, helpEs } from '../../src/cli/help-messages';

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

const programIn = (locale: 'en' | 'es') => buildProgram({ PERSONA_GATE_LOCALE: locale, HOME: '/nonexistent' }, () => {});

describe('CLI help', () => {
  it.each(['en', 'es'] as const)('describes every command, option and argument (%s)', (locale) => {
    for (const command of allCommands(programIn(locale))) {
      const name = command.name();
      expect(command.description(), name).not.toBe('');
      for (const option of command.options) expect(option.description, `${name} ${option.flags}`).not.toBe('');
      for (const argument of command.registeredArguments) expect(argument.description, `${name} ${argument.name()}`).not.toBe('');
    }
  });

  it('has no English left in any Spanish help page', () => {
    for (const command of allCommands(programIn('es'))) {
      const text = command.helpInformation();
      expect(text, command.name()).toMatch(/^Uso: /);
      expect(text, command.name()).not.toMatch(
        /Usage:|Arguments:|Options:|Commands:|\[options\]|\[command\]|display help|output the version|\(default:|<path>|<name>|<file>/,
      );
    }
  });

  it('has the same headings and usage tokens in both languages', () => {
    expect(Object.keys(helpEs.headings).sort()).toEqual(Object.keys(helpEn.headings).sort());
    expect(Object.keys(helpEs.usageTokens).sort()).toEqual(Object.keys(helpEn.usageTokens).sort());
  });

  // commander 14's usage errors, as it writes them, and their Spanish.
  it.each([
    ["error: missing required argument 'name'", "error: falta el argumento obligatorio 'name'"],
    ["error: option '--config <path>' argument missing", "error: falta el valor de la opción '--config <path>'"],
    ["error: required option '--session <id>' not specified", "error: falta la opción obligatoria '--session <id>'"],
    ["error: option '--format <format>' argument 'x' is invalid.", "error: el valor 'x' de la opción '--format <format>' no es válido."],
    ["error: unknown option '--bogus'", "error: opción desconocida '--bogus'"],
    ["error: unknown option '--sesion'\n(Did you mean --session?)", "error: opción desconocida '--sesion'\n(¿Quería decir --session?)"],
    [
      "error: unknown command 'lst'\n(Did you mean one of list, log?)",
      "error: comando desconocido 'lst'\n(¿Quería decir una de list, log?)",
    ],
    [
      "error: too many arguments for 'schema'. Expected 0 arguments but got 2.",
      "error: demasiados argumentos para 'schema'. Se esperaban 0 y se recibieron 2.",
    ],
    ['error: too many arguments. Expected 1 argument but got 3.', 'error: demasiados argumentos. Se esperaba 1 y se recibieron 3.'],
  ])('rewrites %j', (english, spanish) => {
    expect(helpEs.usageError!(english)).toBe(spanish);
  });
});
