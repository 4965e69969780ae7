import { z } from 'zod';
import { LEVELS, TIERS } from '../core/levels';
import type { Pinned } from '../mcp/types';

/** Bumped whenever the meaning of a validated policy changes, so cached validations expire. */
export const POLICY_FORMAT = 1;

const name = z.string().min(1);
const Level = z.enum(LEVELS);
const Tier = z.enum(TIERS);

/**
 * Every property carries a description: schema.json is generated from this schema (npm run
 * schema), and an editor shows each description as the property's help.
 */
const LADDER = 'none < read_only < workspace_write < process_exec < network';
const level = (what: string) => Level.describe(`${what} (${LADDER})`);
const description = (what: string) => z.string().optional().describe(`what ${what} is for, in words, for the people who read the policy`);

const Family = z.strictObject({
  description: description('this family'),
  level: level('the highest side-effect level any command of the family may have; a tool the family reaches by a glob has this level'),
  tools: z
    .array(name)
    .default([])
    .describe(
      'tool-name globs (* only) that belong to the family as a whole, for a server whose operations are not listed one by one: mcp__github__*',
    ),
});

const Command = z.strictObject({
  description: description('this command'),
  level: level("the command's side-effect level; default: its family's").optional(),
  confirm: Tier.optional().describe(
    'auto: runs; confirm: the user is asked first; block: refused to every agent. Default: defaults.confirm for its level, else auto',
  ),
  owner: name
    .optional()
    .describe('the one persona that may run it (a handoff); every other persona is refused with a message naming this one'),
  tools: z.array(name).default([]).describe('exact tool names that are this command: mcp__server__tool'),
  bash: z
    .array(name)
    .default([])
    .describe(
      'shell command prefixes, matched word by word, that are this command wherever they appear in a shell line: "npm publish", "gh release create"',
    ),
});

/** One option of a program the policy declares (`catalog.programs`): its names, whether it takes a value, and what it does. */
const ProgramOption = z
  .strictObject({
    names: z
      .array(z.string().regex(/^--?[^-\s=][^\s=]*$/, 'an option name starts with - or -- (-o, --output)'))
      .min(1)
      .describe('its names: -o, --output'),
    arg: z
      .enum(['none', 'required', 'optional'])
      .optional()
      .describe('whether it takes a value: none (default), required (attached or the next word), optional (attached only)'),
    role: z
      .enum(['writes', 'destroys', 'into', 'chdir', 'runs', 'reads'])
      .optional()
      .describe(
        'what its value is: a file it writes, a path it removes, a directory it writes files into, a directory it works in, a program it runs (the call is opaque), a file it reads',
      ),
    level: Level.optional().describe('the level a call that uses it has, at least'),
  })
  .describe('an option of the program');

export interface ProgramCommandInput {
  description?: string;
  level?: z.input<typeof Level>;
  options?: z.input<typeof ProgramOption>[];
  operands?: 'reads' | 'writes' | 'destroys' | 'none';
  subcommands?: Record<string, ProgramCommandInput>;
}

const OPERANDS = z
  .enum(['reads', 'writes', 'destroys', 'none'])
  .optional()
  .describe(
    'what its operands are: files it reads (default), writes, or removes; none: it takes none, and a call that gives one is not this command (the program may read it as another)',
  );

/** A command of a program the policy declares: its level, options, what its operands are, its subcommands. */
const ProgramCommand: z.ZodType<ProgramCommandInput> = z.lazy(() =>
  z
    .strictObject({
      description: z.string().optional().describe('what it does, for people'),
      level: Level.optional().describe("its level (default: its parent's)"),
      options: z.array(ProgramOption).optional().describe('its own options'),
      operands: OPERANDS,
      subcommands: z.record(name, ProgramCommand).optional().describe('its subcommands, by name'),
    })
    .describe('a subcommand of the program'),
);

/**
 * A program's shell grammar (SPEC §2 `catalog.programs`), for a program the built-in registry does
 * not know or reads otherwise: what is given replaces the registry's (options, subcommands,
 * level); `closed` refuses an invocation that matches none of its catalogued commands.
 */
const Program = z
  .strictObject({
    description: z.string().optional().describe('what it is, for people'),
    level: Level.optional().describe(
      'its level without a subcommand (default: process_exec, opaque, for a program the registry does not know)',
    ),
    options: z
      .array(ProgramOption)
      .optional()
      .describe('its options, before its subcommands (and after them too, unless persistent is false)'),
    operands: OPERANDS,
    subcommands: z.record(name, ProgramCommand).optional().describe('its subcommands, by name, each with its level'),
    persistent: z.boolean().optional().describe('whether its options may stand after its subcommands too (default true; git: false)'),
    closed: z
      .boolean()
      .default(false)
      .describe('true: an invocation that matches none of its catalogued commands is refused (unlisted_command); for a domain CLI'),
  })
  .describe("a program's shell grammar");

/** How a server's tools become one family's commands: by name prefix, by glob, or one by one. */
const McpFamilyRule = z.strictObject({
  description: description('this family'),
  /** The family's level: at least every member's level (default: the highest of them). */
  level: level("the family's level: at least every member's (default: the highest of them)").optional(),
  prefix: name.optional().describe("the server's tools whose names start with this become the family's commands"),
  glob: name.optional().describe("the server's tools whose names match this glob (* only) become the family's commands"),
  /** Tool name → command key (in this family). */
  tools: z.record(name, name).optional().describe('tool name → command key in this family, one by one'),
});

/** What the policy adds to one tool from the lock; `level` may raise the manifest's, never lower it. */
const McpTool = z.strictObject({
  description: description('this tool'),
  level: level("raises the level the server's annotations give (never lowers it)").optional(),
  confirm: Tier.optional().describe(
    'auto, confirm or block (default: confirm for a destructive tool, else defaults.confirm for its level)',
  ),
  owner: name.optional().describe('the one persona that may run it (a handoff)'),
  bash: z.array(name).default([]).describe('shell command prefixes that are this command too'),
});

const McpServer = z.strictObject({
  families: z.record(name, McpFamilyRule).default({}).describe("families made of the server's tools, by rule"),
  tools: z
    .record(name, McpTool)
    .default({})
    .describe('what the policy adds to single tools of the server: owner, tier, a higher level, shell prefixes'),
  /** Tools of the lock the policy does not take as commands. */
  exclude: z.array(name).default([]).describe('tools of the lock the policy does not take as commands'),
});

/** Commands taken from the MCP lock (`persona-gate.lock.json` beside the policy). */
const Mcp = z.strictObject({
  servers: z
    .record(name, McpServer)
    .describe(
      'servers pinned in .claude/persona-gate.lock.json (persona-gate pin) whose tools become commands, with the levels their annotations give',
    ),
});

const Stage = z.strictObject({
  name: name.describe('the stage name, unique within the persona: persona-gate stage enter NAME, or the stage_env variable'),
  allowed_tools: z
    .array(name)
    .optional()
    .describe(
      "what the stage allows: tool names, command keys or families, within the persona's families. Omitted: all the persona may; []: nothing",
    ),
  side_effect_level: level("the stage's ceiling: the lower of it and the persona's applies").optional(),
  max_iterations: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('calls let through per visit to the stage; past it every call is refused until the stage exits'),
  on_exit: z
    .strictObject({
      on_complete: name.optional().describe('the stage entered after persona-gate stage exit --outcome complete (omitted: no stage)'),
      on_failure: name.optional().describe('the stage entered after persona-gate stage exit --outcome failure (omitted: no stage)'),
    })
    .optional()
    .describe('where persona-gate stage exit goes next'),
});

/**
 * `enforce` (default): refusals are answered. `audit`: every call is decided and its receipt
 * written as usual, with the refusal it would have been given in `would`, but answered as if it
 * had passed; self-protection (gate 0) always enforces. For rolling a policy out without
 * stopping work.
 */
const Enforcement = z.enum(['enforce', 'audit']);
const enforcement = (what: string) =>
  Enforcement.optional().describe(
    `${what}. enforce: refusals are answered; audit: every call is decided and logged with the refusal it would get (persona-gate log --would), but answered as if it passed. Self-protection always enforces`,
  );

const Persona = z.strictObject({
  description: z.string().optional().describe('what this persona is for, in words; persona-gate list shows it'),
  families: z
    .array(name)
    .min(1)
    .describe(
      'the families whose tools and commands the persona may use (at least one; each must exist in the catalog, built-in ones included: file_read, file_write, shell, web, agents, session)',
    ),
  ceiling: level('the highest side-effect level the persona may reach; a shell line is judged by what it runs'),
  agent_types: z
    .array(name)
    .default([])
    .describe('subagent types bound to this persona: a call made by such a subagent is judged as this persona'),
  delegates: z.array(name).default([]).describe('personas whose bound agent types this persona may launch with the Agent tool'),
  stages: z.array(Stage).default([]).describe('stages that narrow the persona for a while (research → edit → verify); never widen it'),
  /**
   * `strict`: no shell code persona-gate cannot read (interpreters, scripts, shells reading stdin,
   * unknown programs). `open` (default): such code is refused only when it names a catalogued
   * program or a guarded path.
   */
  shell: z
    .enum(['open', 'strict'])
    .optional()
    .describe(
      'open (default): shell code persona-gate cannot read is refused only when it names a catalogued program or a guarded path; strict: it is always refused',
    ),
  /** Overrides `defaults.enforcement` for this persona's calls. */
  enforcement: enforcement("this persona's enforcement, over defaults.enforcement"),
});

const Label = z.discriminatedUnion('from', [
  z.strictObject({
    from: z.literal('response').describe("read the label from the identity read's tool response"),
    path: name.describe(
      "a dot path into the response; numeric segments index arrays (0.text is the text of an MCP tool's first content block)",
    ),
  }),
  z.strictObject({
    from: z.literal('env').describe('read the label from an environment variable'),
    name: name.describe('the environment variable that holds the label'),
  }),
]);

const ProfileState = z.union([
  z.strictObject({
    file: name.describe(
      'a file whose content is the active profile: absolute, from the home directory (~/…), or relative to the policy file',
    ),
  }),
  z.strictObject({
    command: z
      .array(name)
      .min(1)
      .describe(
        'a read-only command, run by persona-gate without a shell, whose output names the active profile: ["aeat", "whoami", "--json"]',
      ),
    path: name.optional().describe("a dot path into the command's JSON output (as for label); omitted: the whole output"),
  }),
]);

const Identity = z.strictObject({
  reads: z
    .array(name)
    .default([])
    .describe('command keys that read which profile is active (whoami): one must run before the first state-changing call of a session'),
  switches: z
    .array(name)
    .default([])
    .describe('command keys that switch the active profile: once let through, the next state-changing call waits for a read again'),
  label: Label.optional().describe("where the active profile's label comes from, for the confirmation question ([Active profile: …])"),
  profile_state: ProfileState.optional().describe(
    'where the domain keeps its active profile: the gate records it when an identity read confirms, and re-arms when it differs at a later state-changing call, however it changed',
  ),
});

const Defaults = z.strictObject({
  confirm: z.partialRecord(Level, Tier).default({}).describe('the tier of a command that sets none, by its level: {"network": "confirm"}'),
  unknown_tools: z
    .enum(['allow', 'ask', 'deny'])
    .default('ask')
    .describe(
      'the verdict for a tool the catalog cannot resolve in an unscoped session (default ask); under a persona an unknown tool is always denied',
    ),
  on_pass: z
    .enum(['abstain', 'allow'])
    .default('abstain')
    .describe(
      "what a passing call gets: abstain (default: nothing is printed, the host's own permission rules still decide) or allow (approved)",
    ),
  /** `enforce` when omitted. */
  enforcement: enforcement('the enforcement of every persona that sets none (default enforce)'),
});

export const PolicySchema = z.strictObject({
  $schema: z.string().optional().describe("the JSON Schema of this file, for editors: persona-gate's schema.json"),
  version: z.literal(1).describe('the policy format: 1'),
  catalog: z
    .strictObject({
      include: z
        .array(z.enum(['claude-code']))
        .default([])
        .describe(
          "built-in catalogs: claude-code maps the host's own tools into the families file_read, file_write, shell, web, agents and session",
        ),
      families: z
        .record(name, Family)
        .default({})
        .describe("the policy's families: a command key's first segment is its family (npm.publish is in npm)"),
      commands: z
        .record(name, Command)
        .default({})
        .describe('each operation by its dotted key (family.….leaf): its level, tier, owner and the tools and shell prefixes that are it'),
      meta_tools: z
        .record(name, name)
        .default({})
        .describe('a tool that carries the command key in one of its input fields → that field: {"mcp__aeat__execute": "command"}'),
      programs: z
        .record(z.string().regex(/^[^\s/]+$/, 'a program name, without a path or spaces'), Program)
        .default({})
        .describe(
          "programs' shell grammar, by name: for an in-house CLI, or one the built-in registry reads otherwise; closed: only its catalogued commands may run",
        ),
      mcp: Mcp.optional().describe('commands taken from the MCP lock beside the policy (persona-gate pin), grouped into families by rules'),
    })
    .describe('what every operation is: families, commands, their levels and tiers, and how tool calls resolve to them'),
  personas: z
    .record(name, Persona)
    .default({})
    .describe('the roles an agent can run as, by name: each with its families, ceiling and optional stages'),
  identity: Identity.optional().describe(
    'the identity gate: per session, no state-changing call until an identity read has run; omitted: no gate',
  ),
  defaults: Defaults.default({ confirm: {}, unknown_tools: 'ask', on_pass: 'abstain' }).describe(
    'what applies where a command or persona says nothing',
  ),
  persona_env: name
    .default('PERSONA_GATE_PERSONA')
    .describe('the environment variable that names the persona (default PERSONA_GATE_PERSONA)'),
  stage_env: name.default('PERSONA_GATE_STAGE').describe('the environment variable that names the stage (default PERSONA_GATE_STAGE)'),
  locale: z
    .enum(['en', 'es'])
    .optional()
    .describe('the language of the refusals the model reads: en or es (PERSONA_GATE_LOCALE overrides it)'),
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
  const schema = z.toJSONSchema(PolicySchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return { ...schema, title: 'persona-gate policy' };
}
