import type { CommandDef, FamilyDef, IdentityDef, PersonaDef, Policy } from './schema';

/**
 * The validated form of a policy the validator has already accepted, byte for byte: the parsed
 * JSON with the schema's defaults filled in (schema.ts), without loading the validator. The shape
 * is checked only as far as filling the defaults needs; anything unexpected throws, and the caller
 * then validates in full. The same functions fill each member read on its own from the policy's
 * bytes (a command, a family, a persona, the identity and defaults sections), so that a member
 * read alone equals the one in the whole policy. test/unit/private-state.test.ts checks the result
 * against the validator's on every example policy and on generated ones, member by member too.
 */
type Obj = Record<string, unknown>;

function object(value: unknown, where: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} is not an object`);
  return value as Obj;
}

function fill(target: Obj, key: string, value: () => unknown): void {
  if (target[key] === undefined) target[key] = value();
}

function eachValue(record: unknown, where: string, visit: (value: unknown, where: string) => void): void {
  const obj = object(record, where);
  for (const key of Object.keys(obj)) visit(obj[key], `${where}.${key}`);
}

export function familyWithDefaults(value: unknown, where = 'family'): FamilyDef {
  const family = object(value, where);
  fill(family, 'tools', () => []);
  return family as unknown as FamilyDef;
}

export function mcpServerWithDefaults(value: unknown, where = 'server'): void {
  const server = object(value, where);
  fill(server, 'families', () => ({}));
  fill(server, 'tools', () => ({}));
  fill(server, 'exclude', () => []);
  eachValue(server.tools, `${where}.tools`, (tool, at) => fill(object(tool, at), 'bash', () => []));
}

export function commandWithDefaults(value: unknown, where = 'command'): CommandDef {
  const command = object(value, where);
  fill(command, 'tools', () => []);
  fill(command, 'bash', () => []);
  return command as unknown as CommandDef;
}

export function personaWithDefaults(value: unknown, where = 'persona'): PersonaDef {
  const persona = object(value, where);
  fill(persona, 'agent_types', () => []);
  fill(persona, 'delegates', () => []);
  fill(persona, 'stages', () => []);
  return persona as unknown as PersonaDef;
}

export function identityWithDefaults(value: unknown, where = 'identity'): IdentityDef {
  const identity = object(value, where);
  fill(identity, 'reads', () => []);
  fill(identity, 'switches', () => []);
  return identity as unknown as IdentityDef;
}

export function programsWithDefaults(value: unknown = {}, where = 'catalog.programs'): Policy['catalog']['programs'] {
  eachValue(value, where, (program, at) => fill(object(program, at), 'closed', () => false));
  return value as Policy['catalog']['programs'];
}

export function defaultsWithDefaults(
  value: unknown = { confirm: {}, unknown_tools: 'ask', on_pass: 'abstain' },
  where = 'defaults',
): Policy['defaults'] {
  const defaults = object(value, where);
  fill(defaults, 'confirm', () => ({}));
  fill(defaults, 'unknown_tools', () => 'ask');
  fill(defaults, 'on_pass', () => 'abstain');
  return defaults as unknown as Policy['defaults'];
}

/** The top-level values the schema fills in when a policy leaves them out. */
export const DEFAULT_PERSONA_ENV = 'PERSONA_GATE_PERSONA';
export const DEFAULT_STAGE_ENV = 'PERSONA_GATE_STAGE';

export function policyWithDefaults(parsed: unknown): Policy {
  const policy = object(parsed, 'the policy');
  const catalog = object(policy.catalog, 'catalog');
  fill(catalog, 'include', () => []);
  fill(catalog, 'families', () => ({}));
  fill(catalog, 'commands', () => ({}));
  fill(catalog, 'meta_tools', () => ({}));
  catalog.programs = programsWithDefaults(catalog.programs ?? {});
  eachValue(catalog.families, 'catalog.families', familyWithDefaults);
  eachValue(catalog.commands, 'catalog.commands', commandWithDefaults);
  if (catalog.mcp !== undefined) eachValue(object(catalog.mcp, 'catalog.mcp').servers, 'catalog.mcp.servers', mcpServerWithDefaults);
  fill(policy, 'personas', () => ({}));
  eachValue(policy.personas, 'personas', personaWithDefaults);
  if (policy.identity !== undefined) identityWithDefaults(policy.identity);
  policy.defaults = defaultsWithDefaults(policy.defaults);
  fill(policy, 'persona_env', () => DEFAULT_PERSONA_ENV);
  fill(policy, 'stage_env', () => DEFAULT_STAGE_ENV);
  return policy as unknown as Policy;
}
