import type { Policy } from './schema';

/**
 * The validated form of a policy the validator has already accepted, byte for byte: the parsed
 * JSON with the schema's defaults filled in (schema.ts), without loading the validator. The shape
 * is checked only as far as filling the defaults needs; anything unexpected throws, and the caller
 * then validates in full. test/unit/policy-defaults.test.ts checks the result against the
 * validator's on every example policy and on generated ones.
 */
type Obj = Record<string, unknown>;

function object(value: unknown, where: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} is not an object`);
  return value as Obj;
}

function fill(target: Obj, key: string, value: () => unknown): void {
  if (target[key] === undefined) target[key] = value();
}

function eachValue(record: unknown, where: string, visit: (value: Obj) => void): void {
  const obj = object(record, where);
  for (const key of Object.keys(obj)) visit(object(obj[key], `${where}.${key}`));
}

export function policyWithDefaults(parsed: unknown): Policy {
  const policy = object(parsed, 'the policy');
  const catalog = object(policy.catalog, 'catalog');
  fill(catalog, 'include', () => []);
  fill(catalog, 'families', () => ({}));
  fill(catalog, 'commands', () => ({}));
  fill(catalog, 'meta_tools', () => ({}));
  eachValue(catalog.families, 'catalog.families', (family) => fill(family, 'tools', () => []));
  eachValue(catalog.commands, 'catalog.commands', (command) => {
    fill(command, 'tools', () => []);
    fill(command, 'bash', () => []);
  });
  fill(policy, 'personas', () => ({}));
  eachValue(policy.personas, 'personas', (persona) => {
    fill(persona, 'agent_types', () => []);
    fill(persona, 'delegates', () => []);
    fill(persona, 'stages', () => []);
  });
  if (policy.identity !== undefined) {
    const identity = object(policy.identity, 'identity');
    fill(identity, 'reads', () => []);
    fill(identity, 'switches', () => []);
  }
  fill(policy, 'defaults', () => ({ confirm: {}, unknown_tools: 'ask', on_pass: 'abstain' }));
  const defaults = object(policy.defaults, 'defaults');
  fill(defaults, 'confirm', () => ({}));
  fill(defaults, 'unknown_tools', () => 'ask');
  fill(defaults, 'on_pass', () => 'abstain');
  fill(policy, 'persona_env', () => 'PERSONA_GATE_PERSONA');
  fill(policy, 'stage_env', () => 'PERSONA_GATE_STAGE');
  return policy as unknown as Policy;
}
