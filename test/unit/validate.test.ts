import { describe, expect, it } from 'vitest';
import { validatePolicy } from '../../src/policy/validate';
import { readJson, TAX_POLICY_PATH, MERGE_POLICY_PATH } from '../helpers/policy';

type Mutate = (p: any) => void;

function problemsAfter(mutate: Mutate, base = TAX_POLICY_PATH) {
  const policy = readJson(base);
  mutate(policy);
  const result = validatePolicy(policy);
  return result.ok ? [] : result.problems;
}

describe('policy validation', () => {
  it.each([TAX_POLICY_PATH, MERGE_POLICY_PATH])('accepts the example %s', (path) => {
    expect(validatePolicy(readJson(path)).ok).toBe(true);
  });

  it.each<[string, Mutate, string, RegExp]>([
    [
      'an unknown level name',
      (p) => (p.catalog.families.modelo.level = 'write'),
      'catalog.families.modelo.level',
      /^"write" is not one of "none", "read_only", "workspace_write", "process_exec", "network"$/,
    ],
    [
      'an unknown ceiling',
      (p) => (p.personas.verifier.ceiling = 'admin'),
      'personas.verifier.ceiling',
      /^"admin" is not one of "none", "read_only"/,
    ],
    [
      'a misspelt stage level',
      (p) => (p.personas.verifier.stages[0].side_effect_level = 'readonly'),
      'personas.verifier.stages[0].side_effect_level',
      /is not one of .* \(did you mean "read_only"\?\)$/,
    ],
    [
      'a misspelt tier',
      (p) => (p.catalog.commands['modelo.export'].confirm = 'confrim'),
      'catalog.commands["modelo.export"].confirm',
      /^"confrim" is not one of "auto", "confirm", "block" \(did you mean "confirm"\?\)$/,
    ],
    [
      'a misspelt label source',
      (p) => (p.identity.label.from = 'respons'),
      'identity.label.from',
      /^"respons" is not one of "response", "env" \(did you mean "response"\?\)$/,
    ],
    [
      'a required member missing',
      (p) => delete p.personas.verifier.ceiling,
      'personas.verifier.ceiling',
      /^"ceiling" is missing, and is required: one of "none", "read_only"/,
    ],
    [
      'a misspelt owner',
      (p) => (p.catalog.commands['modelo.export'].owner = 'verifer'),
      'catalog.commands["modelo.export"].owner',
      /^owner "verifer" is not a declared persona \(did you mean "verifier"\?\)$/,
    ],
    [
      'a misspelt family',
      (p) => p.personas.classifier.families.push('ledgr'),
      'personas.classifier.families[3]',
      /^family "ledgr" does not exist in the catalog \(did you mean "ledger"\?\)$/,
    ],
    [
      'a misspelt delegate',
      (p) => p.personas.coordinator.delegates.push('verifer'),
      'personas.coordinator.delegates[6]',
      /\(did you mean "verifier"\?\)$/,
    ],
    [
      'a misspelt on_exit stage',
      (p) => (p.personas.verifier.stages[0].on_exit.on_complete = 'fiel'),
      'personas.verifier.stages[0].on_exit.on_complete',
      /^stage "fiel" is not a stage of persona "verifier" \(did you mean "file"\?\)$/,
    ],
    [
      'a misspelt stage tool',
      (p) => p.personas.verifier.stages[0].allowed_tools.push('file_raed'),
      'personas.verifier.stages[0].allowed_tools[5]',
      /\(did you mean "file_read"\?\)$/,
    ],
    [
      'a misspelt identity read',
      (p) => (p.identity.reads[0] = 'config.profile.stauts'),
      'identity.reads[0]',
      /\(did you mean "config.profile.status"\?\)$/,
    ],
    [
      'a persona family that does not exist',
      (p) => p.personas.classifier.families.push('payroll'),
      'personas.classifier.families[3]',
      /family "payroll" does not exist/,
    ],
    [
      'a command above its family',
      (p) => (p.catalog.commands['modelo.list'].level = 'network'),
      'catalog.commands["modelo.list"].level',
      /above its family's level workspace_write/,
    ],
    [
      'a command of an undeclared family',
      (p) => (p.catalog.commands['payroll.run'] = { level: 'read_only' }),
      'catalog.commands["payroll.run"]',
      /family "payroll"/,
    ],
    [
      'a command key without a dot',
      (p) => (p.catalog.commands.whoami = { level: 'read_only' }),
      'catalog.commands.whoami',
      /must be dotted/,
    ],
    [
      'an owner that is not a persona',
      (p) => (p.catalog.commands['modelo.export'].owner = 'filer'),
      'catalog.commands["modelo.export"].owner',
      /owner "filer" is not a declared persona/,
    ],
    [
      'a delegate that is not a persona',
      (p) => p.personas.coordinator.delegates.push('auditor'),
      'personas.coordinator.delegates[6]',
      /delegate "auditor"/,
    ],
    [
      'an agent type bound to two personas',
      (p) => p.personas.classifier.agent_types.push('verifier'),
      'personas.verifier.agent_types[0]',
      /already bound to persona "classifier"/,
    ],
    [
      'a tool claimed by two commands',
      (p) => p.catalog.commands['modelo.show'].tools.push('mcp__aeat__modelo_list'),
      'catalog.commands["modelo.show"].tools[1]',
      /already the command "modelo.list"/,
    ],
    [
      'an identity read that is not a command',
      (p) => p.identity.reads.push('config.whoami'),
      'identity.reads[1]',
      /not a declared command/,
    ],
    ['two stages with one name', (p) => (p.personas.verifier.stages[1].name = 'review'), 'personas.verifier.stages[1].name', /used twice/],
    [
      'a stage tool outside the persona',
      (p) => p.personas.verifier.stages[0].allowed_tools.push('ledger.list'),
      'personas.verifier.stages[0].allowed_tools[5]',
      /outside the persona's families/,
    ],
    [
      'a stage tool unknown to the catalog',
      (p) => p.personas.verifier.stages[0].allowed_tools.push('mcp__aeat__nothing'),
      'personas.verifier.stages[0].allowed_tools[5]',
      /not a tool, command or family known/,
    ],
    [
      'an on_exit target that does not exist',
      (p) => (p.personas.verifier.stages[0].on_exit.on_complete = 'submit'),
      'personas.verifier.stages[0].on_exit.on_complete',
      /stage "submit" is not a stage/,
    ],
    [
      'an unknown field (a typo)',
      (p) => (p.personas.verifier.celing = 'read_only'),
      'personas.verifier.celing',
      /^unknown key "celing" \(did you mean "ceiling"\?\); accepted here: "description", "families", "ceiling",/,
    ],
    ['an unknown field at the top', (p) => (p.defualts = {}), 'defualts', /^unknown key "defualts" \(did you mean "defaults"\?\)/],
    [
      'an unknown field in a record member',
      (p) => (p.catalog.commands['modelo.export'].onwer = 'verifier'),
      'catalog.commands["modelo.export"].onwer',
      /\(did you mean "owner"\?\)/,
    ],
    [
      'an unknown field of a label',
      (p) => (p.identity.label.pth = 'x'),
      'identity.label.pth',
      /^unknown key "pth" \(did you mean "path"\?\)/,
    ],
    [
      'an unknown field with nothing near it',
      (p) => (p.personas.verifier.zzzzzz = 1),
      'personas.verifier.zzzzzz',
      /^unknown key "zzzzzz"; accepted here:/,
    ],
    ['a persona with no families', (p) => (p.personas.verifier.families = []), 'personas.verifier.families', /Too small/],
    ['a wrong version', (p) => (p.version = 2), 'version', /Invalid input/],
    [
      'a non-positive max_iterations',
      (p) => (p.personas.verifier.stages[1].max_iterations = 0),
      'personas.verifier.stages[1].max_iterations',
      /Too small/,
    ],
  ])('reports %s with its JSON path', (_name, mutate, path, message) => {
    const problems = problemsAfter(mutate);
    const match = problems.find((p) => p.path === path);
    expect(match, JSON.stringify(problems)).toBeDefined();
    expect(match!.message).toMatch(message);
  });

  it('speaks Spanish', () => {
    const messages = (mutate: Mutate) => {
      const policy = readJson(TAX_POLICY_PATH) as any;
      mutate(policy);
      const result = validatePolicy(policy, 'es');
      return result.ok ? [] : result.problems.map((p) => p.message);
    };
    expect(messages((p) => (p.catalog.commands['modelo.export'].owner = 'verifer'))).toEqual([
      'el propietario "verifer" no es una persona declarada (¿quería decir "verifier"?)',
    ]);
    expect(messages((p) => (p.personas.verifier.celing = 'read_only'))[0]).toMatch(
      /^clave desconocida "celing" \(¿quería decir "ceiling"\?\); aquí se aceptan:/,
    );
    expect(messages((p) => (p.personas.verifier.ceiling = 'netwrok'))[0]).toMatch(
      /^"netwrok" no es uno de .* \(¿quería decir "network"\?\)$/,
    );
  });

  it('reports every problem, not only the first', () => {
    const problems = problemsAfter((p) => {
      p.catalog.commands['modelo.export'].owner = 'filer';
      p.personas.coordinator.delegates.push('auditor');
      p.personas.verifier.stages[0].on_exit.on_complete = 'submit';
    });
    expect(problems.map((p) => p.path).sort()).toEqual([
      'catalog.commands["modelo.export"].owner',
      'personas.coordinator.delegates[6]',
      'personas.verifier.stages[0].on_exit.on_complete',
    ]);
  });

  it('reports the merge captain stage path with an index', () => {
    const problems = problemsAfter((p) => (p.personas.merge_captain.stages[2].on_exit.on_failure = 'rollback'), MERGE_POLICY_PATH);
    expect(problems.map((p) => p.path)).toEqual(['personas.merge_captain.stages[2].on_exit.on_failure']);
  });
});
