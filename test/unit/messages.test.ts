import { describe, expect, it } from 'vitest';
import { en, messagesFor, type Messages } from '../../src/core/messages';

const es = messagesFor('es');

describe('messages', () => {
  it('has every key in both English and Spanish', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  });

  it('gives a different, non-empty Spanish text for every refusal', () => {
    // one-element arrays stand in for both strings and lists
    const args = [['a'], ['b'], ['c'], ['d'], ['e']];
    for (const key of Object.keys(en) as (keyof Messages)[]) {
      const english = (en[key] as (...a: unknown[]) => string)(...args);
      const spanish = (es[key] as (...a: unknown[]) => string)(...args);
      expect(spanish.length).toBeGreaterThan(0);
      if (!['dispatchStage'].includes(key)) expect(spanish, key).not.toBe(english);
    }
  });

  it.each([
    ['missing', 'no such file', 'el fichero no existe'],
    ['not_regular', 'not a regular file', 'no es un fichero regular'],
    ['too_large', 'larger than 64 MiB', 'mayor de 64 MiB'],
    ['EACCES', 'permission denied', 'permiso denegado'],
    ['EIO', 'EIO', 'EIO'],
  ])('says why the policy cannot be read (%s) in the language of the refusal', (detail, english, spanish) => {
    expect(en.unreadablePolicy('/p.json', detail)).toContain(`(${english})`);
    expect(es.unreadablePolicy('/p.json', detail)).toContain(`(${spanish})`);
  });

  it('are tables without a prototype: no message is inherited, and __proto__ is not one of them', () => {
    for (const table of [en, es]) {
      expect(Object.getPrototypeOf(table)).toBeNull();
      expect(Object.keys(table)).not.toContain('__proto__');
      expect('toString' in table).toBe(false);
    }
  });

  it('has no interpolation in the identity refusal', () => {
    expect(en.identityRequired.length).toBe(0);
    expect(es.identityRequired.length).toBe(0);
  });
});

describe('CLI and validation messages', () => {
  it('has every CLI message key in both languages', async () => {
    const { cliEn, cliEs } = await import('../../src/cli/messages');
    expect(Object.keys(cliEs).sort()).toEqual(Object.keys(cliEn).sort());
    const { RULE_MESSAGES } = await import('../../src/policy/rule-messages');
    const { en: ruleMessagesEn, es: ruleMessagesEs } = RULE_MESSAGES;
    expect(Object.keys(ruleMessagesEs).sort()).toEqual(Object.keys(ruleMessagesEn).sort());
    for (const key of Object.keys(ruleMessagesEn) as (keyof typeof ruleMessagesEn)[]) {
      expect((ruleMessagesEs[key] as (...a: string[]) => string)('a', 'b')).not.toBe(
        (ruleMessagesEn[key] as (...a: string[]) => string)('a', 'b'),
      );
    }
  });
});
