import { z } from 'zod';
import { LEVELS, TIERS } from '../core/levels';
import type { Pinned } from '../mcp/types';

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

/** One option of a program the policy declares (`catalog.programs`): its names, whether it takes a value, and what it does. */
const ProgramOption = z.strictObject({
  names: z.array(z.string().regex(/^--?[^-\s=][^\s=]*$/, 'an option name starts with - or -- (-o, --output)')).min(1),
  arg: z.enum(['none', 'required', 'optional']).optional(),
  /** writes/destroys/into: a path it writes, removes, writes files into; chdir: a directory it works in; runs: a program it runs (the call is opaque). */
  role: z.enum(['writes', 'destroys', 'into', 'chdir', 'runs', 'reads']).optional(),
  /** Using the option raises the call to this level. */
  level: Level.optional(),
});

export interface ProgramCommandInput {
  description?: string;
  level?: z.input<typeof Level>;
  options?: z.input<typeof ProgramOption>[];
  operands?: 'reads' | 'writes' | 'destroys';
  subcommands?: Record<string, ProgramCommandInput>;
}

/** A command of a program the policy declares: its level, options, what its operands are, its subcommands. */
const ProgramCommand: z.ZodType<ProgramCommandInput> = z.lazy(() =>
  z.strictObject({
    description: z.string().optional(),
    level: Level.optional(),
    options: z.array(ProgramOption).optional(),
    operands: z.enum(['reads', 'writes', 'destroys']).optional(),
    subcommands: z.record(name, ProgramCommand).optional(),
  }),
);

/**
 * A program's shell grammar (SPEC §2 `catalog.programs`), for a program the built-in registry does
 * not know or reads otherwise: what is given replaces the registry's (options, subcommands,
 * level); `closed` refuses an invocation that matches none of its catalogued commands.
 */
const Program = z.strictObject({
  description: z.string().optional(),
  level: Level.optional(),
  options: z.array(ProgramOption).optional(),
  operands: z.enum(['reads', 'writes', 'destroys']).optional(),
  subcommands: z.record(name, ProgramCommand).optional(),
  /** Its options stand only before its subcommands (true: they are taken after them too). */
  persistent: z.boolean().optional(),
  closed: z.boolean().default(false),
});

/** How a server's tools become one family's commands: by name prefix, by glob, or one by one. */
const McpFamilyRule = z.strictObject({
  description: z.string().optional(),
  /** The family's level: at least every member's level (default: the highest of them). */
  level: Level.optional(),
  prefix: name.optional(),
  glob: name.optional(),
  /** Tool name → command key (in this family). */
  tools: z.record(name, name).optional(),
});

/** What the policy adds to one tool from the lock; `level` may raise the manifest's, never lower it. */
const McpTool = z.strictObject({
  description: z.string().optional(),
  level: Level.optional(),
  confirm: Tier.optional(),
  owner: name.optional(),
  bash: z.array(name).default([]),
});

const McpServer = z.strictObject({
  families: z.record(name, McpFamilyRule).default({}),
  tools: z.record(name, McpTool).default({}),
  /** Tools of the lock the policy does not take as commands. */
  exclude: z.array(name).default([]),
});

/** Commands taken from the MCP lock (`persona-gate.lock.json` beside the policy). */
const Mcp = z.strictObject({
  servers: z.record(name, McpServer),
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
    programs: z.record(z.string().regex(/^[^\s/]+$/, 'a program name, without a path or spaces'), Program).default({}),
    mcp: Mcp.optional(),
  }),
  personas: z.record(name, Persona).default({}),
  identity: Identity.optional(),
  defaults: Defaults.default({ confirm: {}, unknown_tools: 'ask', on_pass: 'abstain' }),
  persona_env: name.default('PERSONA_GATE_PERSONA'),
  stage_env: name.default('PERSONA_GATE_STAGE'),
  locale: z.enum(['en', 'es']).optional(),
});

/** A policy as validated: every default filled in; `pinned` when commands were taken from the MCP lock. */
export type Policy = z.output<typeof PolicySchema> & { pinned?: Pinned };
/** A policy as written in the file. */
export type PolicyInput = z.input<typeof PolicySchema>;
export type PersonaDef = Policy['personas'][string];
export type StageDef = PersonaDef['stages'][number];
export type CommandDef = Policy['catalog']['commands'][string];
export type FamilyDef = Policy['catalog']['families'][string];
export type EnforcementMode = z.output<typeof Enforcement>;
export type IdentityDef = NonNullable<Policy['identity']>;
export type McpDef = NonNullable<Policy['catalog']['mcp']>;
export type McpServerDef = McpDef['servers'][string];
export type ProgramDef = Policy['catalog']['programs'][string];

export function policyJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(PolicySchema, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return { ...schema, title: 'persona-gate policy' };
}
