import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processEvent } from '../../src/hook/run';
import { CLAUDE_CODE_CATALOG } from '../../src/core/catalog/claude-code';
import { cleanEnv, tempDir } from '../helpers/cli';
import { outcomeOf, runHooks } from '../helpers/pool';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';

/**
 * Arbitrary events, no identity read ever confirmed: whatever the event, the hook may only let a
 * call through when it is a well-formed PreToolUse of a catalogued call that changes nothing (or a
 * profile switch). Anything else — garbage, look-alikes, unknown tools, mutations — must be refused,
 * and nothing may crash. The safe set is computed from the policy file, not by the engine.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
const commands: Record<string, { level?: string; tools?: string[] }> = policy.catalog.commands;
const familyLevel = (key: string) => policy.catalog.families[key.split('.')[0]!]?.level;
const harmless = (level: string | undefined) => level === 'none' || level === 'read_only';
const safeKeys = new Set(
  Object.entries(commands)
    .filter(([k, c]) => harmless(c.level ?? familyLevel(k)) || policy.identity.switches.includes(k))
    .map(([k]) => k),
);
const safeTools = new Set([
  ...Object.entries(commands)
    .filter(([k]) => safeKeys.has(k))
    .flatMap(([, c]) => c.tools ?? []),
  ...CLAUDE_CODE_CATALOG.tools.filter(([, level]) => harmless(level)).flatMap(([, , names]) => names),
]);
const knownTools = [
  ...Object.values(commands).flatMap((c) => c.tools ?? []),
  ...CLAUDE_CODE_CATALOG.tools.flatMap(([, , names]) => names),
  'mcp__aeat__execute',
];

const mutate = (s: string) =>
  fc.constantFrom(
    s.toUpperCase(),
    s.toLowerCase(),
    `${s} `,
    `${s}\u200b`,
    s.replace('o', '\u043e'),
    s.replace('_', '-'),
    s.slice(0, -1),
    `${s}x`,
    `\u0000${s}`,
  );
const toolName = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...knownTools) },
  { weight: 3, arbitrary: fc.constantFrom(...knownTools).chain(mutate) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.anything() },
);
const metaKey = fc.oneof(fc.constantFrom(...Object.keys(commands)), fc.constantFrom(...Object.keys(commands)).chain(mutate), fc.anything());
const toolInput = fc.oneof(
  { weight: 4, arbitrary: fc.record({ command: metaKey }, { requiredKeys: [] }) },
  { weight: 2, arbitrary: fc.dictionary(fc.string(), fc.jsonValue()) },
  { weight: 1, arbitrary: fc.anything() },
);
const optionalField = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.anything() },
);
const eventValue = fc.record(
  {
    hook_event_name: fc.oneof(
      { weight: 8, arbitrary: fc.constant('PreToolUse') },
      { weight: 1, arbitrary: fc.constantFrom('PostToolUse', 'SessionStart', 'Stop', 'pretooluse') },
      { weight: 1, arbitrary: fc.anything() },
    ),
    session_id: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('fz-1', 'fz-2', '../fz') },
      { weight: 1, arbitrary: fc.string() },
      { weight: 1, arbitrary: fc.anything() },
    ),
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: optionalField,
    agent_type: fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.constantFrom('verifier', 'coordinator', 'general-purpose') },
      { weight: 1, arbitrary: fc.anything() },
    ),
    agent_id: optionalField,
    cwd: optionalField,
  },
  { requiredKeys: [] },
);
const rawInput = fc.oneof(
  { weight: 8, arbitrary: eventValue.map((v) => JSON.stringify(v) ?? '') },
  {
    weight: 1,
    arbitrary: eventValue.chain((v) =>
      fc.nat().map((n) => {
        const s = JSON.stringify(v) ?? '';
        return s.slice(0, n % (s.length + 1));
      }),
    ),
  },
  { weight: 1, arbitrary: fc.oneof(fc.string(), fc.json()) },
);

/** May this input pass (abstain/allow) at all? Only a well-formed PreToolUse of a safe call. */
function mayPass(text: string): boolean {
  let v: any;
  try {
    v = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  if (v.hook_event_name !== 'PreToolUse') return false;
  if (typeof v.session_id !== 'string' || v.session_id.length === 0 || v.session_id.length > 4096) return false;
  if (typeof v.tool_name !== 'string' || typeof v.tool_input !== 'object' || v.tool_input === null || Array.isArray(v.tool_input))
    return false;
  for (const f of ['tool_use_id', 'agent_type', 'agent_id', 'cwd'])
    if (v[f] !== undefined && v[f] !== null && typeof v[f] !== 'string') return false;
  if (v.tool_name === 'mcp__aeat__execute') return typeof v.tool_input.command === 'string' && safeKeys.has(v.tool_input.command);
  return safeTools.has(v.tool_name);
}

function setup() {
  const dir = tempDir();
  return cleanEnv({
    PERSONA_GATE_STATE_DIR: join(dir, 'state'),
    PERSONA_GATE_CONFIG: TAX_POLICY_PATH,
    HOME: dir,
    PERSONA_GATE_PERSONA: 'modelo-preparer',
  });
}

describe('generated events never fail open', () => {
  it(`in-process, ${RUNS} events`, () => {
    const env = setup();
    fc.assert(
      fc.property(rawInput, (text) => {
        const r = processEvent(text, [], env);
        expect([0, 2]).toContain(r.exitCode);
        let preToolUse = false;
        try {
          preToolUse = JSON.parse(text)?.hook_event_name === 'PreToolUse';
        } catch {
          // not JSON
        }
        const outcome = outcomeOf({ stdout: r.stdout, stderr: r.stderr, code: r.exitCode, ms: 0 }, preToolUse);
        expect(outcome).not.toBe('invalid');
        if (outcome === 'abstain' || outcome === 'allow' || outcome === 'silent') {
          if (outcome !== 'silent' || preToolUse) expect(mayPass(text), `passed: ${text.slice(0, 300)}`).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it('as processes, a sample of 60 events', async () => {
    const env = setup();
    const sample = fc.sample(rawInput, { numRuns: 60, seed: 4242 });
    const results = await runHooks(sample, env);
    sample.forEach((text, i) => {
      const r = results[i]!;
      expect(r.code === 0 || r.code === 2, `${text}: exit ${r.code}`).toBe(true);
      let pre = false;
      try {
        pre = JSON.parse(text)?.hook_event_name === 'PreToolUse';
      } catch {
        // not JSON
      }
      const outcome = outcomeOf(r, pre);
      expect(outcome).not.toBe('invalid');
      if (outcome === 'abstain' || outcome === 'allow') expect(mayPass(text), text).toBe(true);
    });
  }, 120_000);
});
