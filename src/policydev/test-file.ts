import { z } from 'zod';
import type { GateName, Status, Verdict } from '../core/types';

/**
 * Policy test files (`persona-gate test`): each case a persona, an optional stage and earlier
 * calls, one tool call, and the verdict (and optionally status, gate, rule, reason) expected.
 * The JSON Schema shipped as test-schema.json is generated from this zod schema.
 */

const VERDICTS = ['allow', 'deny', 'ask', 'abstain'] as const satisfies readonly Verdict[];

/** The statuses a decision can end in (the hook's own failures aside). */
const STATUSES = [
  'ok',
  'protected',
  'config_error',
  'permission_denied',
  'handoff_denied',
  'scope_violation',
  'iteration_limit',
  'unlisted_command',
  'not_pinned',
  'identity_required',
  'blocked',
  'confirmation_required',
  'unknown_tool',
] as const satisfies readonly Status[];

const GATES = [
  'self_protection',
  'pin',
  'persona',
  'scope',
  'delegation',
  'handoff',
  'stage',
  'identity',
  'confirmation',
  'unknown_tool',
  'pass',
] as const satisfies readonly GateName[];

// Every gate a decision can name is listed (a new gate must be added here).
type MissingGate = Exclude<GateName, (typeof GATES)[number] | 'hook'>;
const gatesComplete: MissingGate extends never ? true : false = true;
void gatesComplete;

const name = z.string().min(1);

const Call = z.strictObject({
  tool: name.describe('the tool name, as the host sends it (mcp__aeat__whoami, Bash, Read …)'),
  input: z.record(z.string(), z.unknown()).default({}).describe('the tool input'),
  agent_type: name.optional().describe('the subagent type making the call (bound agent types choose their persona)'),
});

const EarlierCall = Call.extend({
  response: z
    .unknown()
    .optional()
    .describe('the tool response fed to the PostToolUse step when the call is let through (an identity read takes its label from it)'),
});

const Expect = z.strictObject({
  verdict: z.enum(VERDICTS).describe('the verdict the policy gives (in audit mode: the verdict it would give)'),
  status: z.enum(STATUSES).optional().describe('the status it ends in: ok, permission_denied, handoff_denied, confirmation_required …'),
  gate: z.enum(GATES).optional().describe('the gate that decided: scope, handoff, stage, identity, confirmation …'),
  rule: name.optional().describe("the gate's rule that decided (persona-gate explain shows it): ceiling, family, owner …"),
  reason: z.string().optional().describe('text the reason must contain'),
});

const Case = z.strictObject({
  name: name.describe('what the case checks, in words: printed with ok or FAIL'),
  persona: name.optional().describe("the session's persona (as persona_env would set it); omitted: unscoped"),
  stage: name.optional().describe("the session's stage (as stage_env would set it)"),
  env: z
    .record(z.string(), z.string())
    .optional()
    .describe('the environment the decision sees (PERSONA_GATE_LOCALE, a label variable …); a case sees no other'),
  sandbox: z
    .boolean()
    .optional()
    .describe(
      "judge as under Claude Code's OS sandbox as init sets it up, every guarded path write-denied: gate 0 refuses only what it can see writes one, and a file tool writing outside the project and the sandbox's temporary directory is refused; default: without it",
    ),
  before: z
    .array(EarlierCall)
    .default([])
    .describe('earlier calls of the same session, decided in order; those let through run (PostToolUse)'),
  call: Call.describe('the tool call under test'),
  expect: Expect.describe('what the policy must answer'),
});

export const TestFileSchema = z.strictObject({
  $schema: z.string().optional().describe("the JSON Schema of this file, for editors: persona-gate's test-schema.json"),
  policy: z
    .string()
    .min(1)
    .optional()
    .describe(
      'the policy under test, relative to this file; default: --config, else NAME.json beside this NAME.test.json, else the policy found as usual',
    ),
  cases: z.array(Case).min(1).describe('the cases, each decided in a fresh session'),
});

export type TestFile = z.output<typeof TestFileSchema>;
export type TestCase = TestFile['cases'][number];
export type TestCall = TestCase['call'];
export type EarlierTestCall = TestCase['before'][number];
export type Expectation = TestCase['expect'];

export function testFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(TestFileSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return { ...schema, title: 'persona-gate policy tests' };
}

export type TestFileParse = { ok: true; file: TestFile } | { ok: false; problems: { path: string; message: string }[] };

export function parseTestFile(value: unknown): TestFileParse {
  const result = TestFileSchema.safeParse(value);
  if (result.success) return { ok: true, file: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({
      path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)',
      message: issue.message,
    })),
  };
}
