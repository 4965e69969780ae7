import { z } from 'zod';
import { LEVELS, TIERS } from '../core/levels';

/** Bumped whenever the meaning of a validated policy changes, so cached validations expire. */
export const POLICY_FORMAT = 1;

const name = z.string().min(1);
const Level = z.enum(LEVELS);
const Tier = z.enum(TIERS);

const Family = z.strictObject({
  description: z.string().optional(),
  level: Level,
  tools: z.array(name).default([]),
});

const Command = z.strictObject({
  description: z.string().optional(),
  level: Level.optional(),
  confirm: Tier.optional(),
  owner: name.optional(),
  tools: z.array(name).default([]),
  bash: z.array(name).default([]),
});

const Stage = z.strictObject({
  name,
  allowed_tools: z.array(name).optional(),
  side_effect_level: Level.optional(),
  max_iterations: z.number().int().positive().optional(),
  on_exit: z
    .strictObject({ on_complete: name.optional(), on_failure: name.optional() })
    .optional(),
});

/**
 * `enforce` (default): refusals are answered. `audit`: every call is decided and its receipt
 * written as usual, with the refusal it would have been given in `would`, but answered as if it
 * had passed; self-protection (gate 0) always enforces. For rolling a policy out without
 * stopping work.
 */
const Enforcement = z.enum(['enforce', 'audit']);

const Persona = z.strictObject({
  description: z.string().optional(),
  families: z.array(name).min(1),
  ceiling: Level,
  agent_types: z.array(name).default([]),
  delegates: z.array(name).default([]),
  stages: z.array(Stage).default([]),
  /**
   * `strict`: no shell code persona-gate cannot read (interpreters, scripts, shells reading stdin,
   * unknown programs). `open` (default): such code is refused only when it names a catalogued
   * program or a guarded path.
   */
  shell: z.enum(['open', 'strict']).optional(),
  /** Overrides `defaults.enforcement` for this persona's calls. */
  enforcement: Enforcement.optional(),
});

const Label = z.discriminatedUnion('from', [
  z.strictObject({ from: z.literal('response'), path: name }),
  z.strictObject({ from: z.literal('env'), name }),
]);

const Identity = z.strictObject({
  reads: z.array(name).default([]),
  switches: z.array(name).default([]),
  label: Label.optional(),
});

const Defaults = z.strictObject({
  confirm: z.partialRecord(Level, Tier).default({}),
  unknown_tools: z.enum(['allow', 'ask', 'deny']).default('ask'),
  on_pass: z.enum(['abstain', 'allow']).default('abstain'),
  /** `enforce` when omitted. */
  enforcement: Enforcement.optional(),
});

export const PolicySchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1),
  catalog: z.strictObject({
    include: z.array(z.enum(['claude-code'])).default([]),
    families: z.record(name, Family).default({}),
    commands: z.record(name, Command).default({}),
    meta_tools: z.record(name, name).default({}),
  }),
  personas: z.record(name, Persona).default({}),
  identity: Identity.optional(),
  defaults: Defaults.default({ confirm: {}, unknown_tools: 'ask', on_pass: 'abstain' }),
  persona_env: name.default('PERSONA_GATE_PERSONA'),
  stage_env: name.default('PERSONA_GATE_STAGE'),
  locale: z.enum(['en', 'es']).optional(),
});

/** A policy as validated: every default filled in. */
export type Policy = z.output<typeof PolicySchema>;
/** A policy as written in the file. */
export type PolicyInput = z.input<typeof PolicySchema>;
export type PersonaDef = Policy['personas'][string];
export type StageDef = PersonaDef['stages'][number];
export type CommandDef = Policy['catalog']['commands'][string];
export type FamilyDef = Policy['catalog']['families'][string];
export type EnforcementMode = z.output<typeof Enforcement>;
export type IdentityDef = NonNullable<Policy['identity']>;

export function policyJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(PolicySchema, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return { ...schema, title: 'persona-gate policy' };
}
