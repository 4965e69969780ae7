import { describe, expect, it } from 'vitest';
import { readShellCall } from '../../src/shell/resolve-shell';
import { labelText } from '../../src/shell/reasons';
import { UNREADABLE_IDS, unreadableText } from '../../src/shell/unreadable';
import { pre, taxIndex } from '../helpers/policy';

const read = (line: string, locale: 'en' | 'es') => readShellCall(taxIndex(), pre('Bash', { command: line }), { locale })!;

describe('why a line cannot be read, in every locale', () => {
  it('has words for every id in Spanish, none of them the English ones, keeping what the line says', () => {
    for (const id of UNREADABLE_IDS) {
      const u = { id, subject: 'S1', detail: 'D2' };
      const english = unreadableText(u);
      const spanish = unreadableText(u, 'es');
      expect(spanish, id).not.toBe(english);
      expect(spanish.includes('S1'), id).toBe(english.includes('S1'));
    }
  });

  it.each([
    ['ls |', 'a command is missing at the end', 'falta una orden al final'],
    ['(; ls)', 'unexpected ";"', '";" inesperado'],
    ["echo 'a", 'an unterminated single quote', 'una comilla simple sin cerrar'],
    ['echo `x', 'an unterminated backquote', 'una comilla invertida sin cerrar'],
    ['if then fi', 'an empty if condition', 'una condición de if vacía'],
    ['for 1 in a; do :; done', 'for needs a variable name', 'for necesita un nombre de variable'],
    ['set -k; ls', 'set -k, which changes how later words are read', 'set -k, que cambia cómo se leen las palabras siguientes'],
    ['cat < $F > out', 'a redirection from a path computed at run time ($F)', 'una redirección desde una ruta calculada al ejecutar ($F)'],
    [
      'cd "$D"; rm x',
      'a relative path used after a change to a directory known only at run time',
      'una ruta relativa usada tras un cambio',
    ],
    [
      'aeat modelo $VERB',
      'an argument computed at run time (aeat modelo $VERB could be aeat modelo',
      'un argumento calculado al ejecutar (aeat modelo $VERB podría ser aeat modelo',
    ],
  ])('%s', (line, english, spanish) => {
    expect(read(line, 'en').unparsable).toContain(english);
    expect(read(line, 'es').unparsable).toContain(spanish);
  });

  it('names what a guarded path is handed to, and persona-gate state a line changes, in the locale', () => {
    expect(read('persona-gate stage set x', 'es').gateCommands).toEqual([labelText('gate_state', 'es', 'persona-gate stage set x')]);
    expect(read('persona-gate stage set x', 'en').gateCommands).toEqual(["persona-gate's own state (persona-gate stage set x)"]);
    const handed = read('cat < ~/.claude/settings.json | python3 x.py', 'es').effects.map((e) => e.program);
    expect(handed).toContain(labelText('read_redirect', 'es'));
  });
});
