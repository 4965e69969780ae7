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
    ['an unknown level name', (p) => (p.catalog.families.modelo.level = 'write'), 'catalog.families.modelo.level', /Invalid option/],
    ['an unknown ceiling', (p) => (p.personas.verifier.ceiling = 'admin'), 'personas.verifier.ceiling', /Invalid option/],
    ['an unknown stage level', (p) => (p.personas.verifier.stages[0].side_effect_level = 'readonly'), 'personas.verifier.stages[0].side_effect_level', /Invalid option/],
    ['a persona family that does not exist', (p) => p.personas.classifier.families.push('payroll'), 'personas.classifier.families[3]', /family "payroll" does not exist/],
    ['a command above its family', (p) => (p.catalog.commands['modelo.list'].level = 'network'), 'catalog.commands["modelo.list"].level', /above its family's level workspace_write/],
    ['a command of an undeclared family', (p) => (p.catalog.commands['payroll.run'] = { level: 'read_only' }), 'catalog.commands["payroll.run"]', /family "payroll"/],
    ['a command key without a dot', (p) => (p.catalog.commands.whoami = { level: 'read_only' }), 'catalog.commands.whoami', /must be dotted/],
    ['an owner that is not a persona', (p) => (p.catalog.commands['modelo.export'].owner = 'filer'), 'catalog.commands["modelo.export"].owner', /owner "filer" is not a declared persona/],
    ['a delegate that is not a persona', (p) => p.personas.coordinator.delegates.push('auditor'), 'personas.coordinator.delegates[6]', /delegate "auditor"/],
    ['an agent type bound to two personas', (p) => p.personas.classifier.agent_types.push('verifier'), 'personas.verifier.agent_types[0]', /already bound to persona "classifier"/],
    ['a tool claimed by two commands', (p) => p.catalog.commands['modelo.show'].tools.push('mcp__aeat__modelo_list'), 'catalog.commands["modelo.show"].tools[1]', /already the command "modelo.list"/],
    ['an identity read that is not a command', (p) => p.identity.reads.push('config.whoami'), 'identity.reads[1]', /not a declared command/],
    ['two stages with one name', (p) => (p.personas.verifier.stages[1].name = 'review'), 'personas.verifier.stages[1].name', /used twice/],
    ['a stage tool outside the persona', (p) => p.personas.verifier.stages[0].allowed_tools.push('ledger.list'), 'personas.verifier.stages[0].allowed_tools[5]', /outside the persona's families/],
    ['a stage tool unknown to the catalog', (p) => p.personas.verifier.stages[0].allowed_tools.push('mcp__aeat__nothing'), 'personas.verifier.stages[0].allowed_tools[5]', /not a tool, command or family known/],
    ['an on_exit target that does not exist', (p) => (p.personas.verifier.stages[0].on_exit.on_complete = 'submit'), 'personas.verifier.stages[0].on_exit.on_complete', /stage "submit" is not a stage/],
    ['an unknown field (a typo)', (p) => (p.personas.verifier.celing = 'read_only'), 'personas.verifier', /Unrecognized key/],
    ['a persona with no families', (p) => (p.personas.verifier.families = []), 'personas.verifier.families', /Too small/],
    ['a wrong version', (p) => (p.version = 2), 'version', /Invalid input/],
    ['a non-positive max_iterations', (p) => (p.personas.verifier.stages[1].max_iterations = 0), 'personas.verifier.stages[1].max_iterations', /Too small/],
  ])('reports %s with its JSON path', (_name, mutate, path, message) => {
    const problems = problemsAfter(mutate);
    const match = problems.find((p) => p.path === path);
    expect(match, JSON.stringify(problems)).toBeDefined();
    expect(match!.message).toMatch(message);
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
