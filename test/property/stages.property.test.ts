import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/core/decide';
import { LEVELS, levelRank, type Level } from '../../src/core/levels';
import { buildPolicyIndex } from '../../src/core/policy-index';
import { emptyState } from '../../src/core/state';
import { PolicySchema } from '../../src/policy/schema';
import { pre } from '../helpers/policy';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 10_000);
/** Long runs (npm run test:property:long) need more than the default minute. */
const TIMEOUT = 60_000 + RUNS;
const level = fc.constantFrom<Level>(...LEVELS);
const atMost = (ceiling: Level) => fc.constantFrom<Level>(...LEVELS.filter((l) => levelRank(l) <= levelRank(ceiling)));

/** A random catalog of 1–4 families with 1–3 commands each, one persona over some of them, and stages. */
const scenario = fc
  .array(level, { minLength: 1, maxLength: 4 })
  .chain((familyLevels) =>
    fc.record({
      familyLevels: fc.constant(familyLevels),
      commands: fc.tuple(
        ...familyLevels.map((fl) =>
          fc.array(fc.record({ level: atMost(fl), tier: fc.constantFrom('auto', 'confirm', 'block') }), { minLength: 1, maxLength: 3 }),
        ),
      ),
      personaFamilies: fc.subarray(
        familyLevels.map((_, i) => `f${i}`),
        { minLength: 1 },
      ),
      ceiling: level,
      includeBuiltins: fc.boolean(),
    }),
  )
  .chain((base) => {
    const keys = base.commands.flatMap((cmds, f) => cmds.map((_, c) => `f${f}.c${c}`));
    const tools = keys.map((k) => `mcp__t__${k.replace('.', '_')}`);
    const entries = [...keys, ...tools, ...base.familyLevels.map((_, i) => `f${i}`), 'file_read', 'Read', 'Bash', 'shell'];
    const stage = fc.record({
      allowed_tools: fc.option(fc.subarray(entries), { nil: undefined }),
      side_effect_level: fc.option(level, { nil: undefined }),
    });
    const call = fc.constantFrom(...tools, 'Read', 'Bash', 'Write', 'mcp__unknown__x');
    return fc.record({ base: fc.constant(base), stage, call, unscopedDispatch: fc.boolean() });
  });

describe('stages only narrow', () => {
  it(
    `whatever a stage allows, the persona without the stage allows too (${RUNS} cases)`,
    () => {
      fc.assert(
        fc.property(scenario, ({ base, stage, call }) => {
          const families = Object.fromEntries(base.familyLevels.map((l, i) => [`f${i}`, { level: l }]));
          const commands: Record<string, unknown> = {};
          base.commands.forEach((cmds, f) =>
            cmds.forEach((c, i) => {
              commands[`f${f}.c${i}`] = { level: c.level, confirm: c.tier, tools: [`mcp__t__f${f}_c${i}`] };
            }),
          );
          const personaFamilies = base.includeBuiltins ? [...base.personaFamilies, 'file_read', 'shell'] : base.personaFamilies;
          const raw = {
            version: 1,
            catalog: { include: base.includeBuiltins ? ['claude-code'] : [], families, commands },
            personas: { p: { families: personaFamilies, ceiling: base.ceiling, stages: [{ name: 's', ...stage }] } },
          };
          const index = buildPolicyIndex(PolicySchema.parse(raw), 'x', '/p.json');
          const state = { ...emptyState(), confirmed: true };
          const judge = (env: Record<string, string>) =>
            decide({ event: pre(call), index, state, env, options: { confirmOn: 'post' }, isProtected: () => null });
          const withStage = judge({ PERSONA_GATE_PERSONA: 'p', PERSONA_GATE_STAGE: 's' });
          const without = judge({ PERSONA_GATE_PERSONA: 'p' });
          if (withStage.verdict !== 'deny') {
            expect(without.verdict).toBe(withStage.verdict);
          }
          // And the stage's effective ceiling is never above the persona's.
          if (withStage.scope.ceiling !== null) expect(levelRank(withStage.scope.ceiling)).toBeLessThanOrEqual(levelRank(base.ceiling));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `a registration's --allowed-tools / --side-effect-level only narrow too (${RUNS} cases)`,
    () => {
      fc.assert(
        fc.property(scenario, ({ base, stage, call }) => {
          const families = Object.fromEntries(base.familyLevels.map((l, i) => [`f${i}`, { level: l }]));
          const commands: Record<string, unknown> = {};
          base.commands.forEach((cmds, f) =>
            cmds.forEach((c, i) => (commands[`f${f}.c${i}`] = { level: c.level, confirm: c.tier, tools: [`mcp__t__f${f}_c${i}`] })),
          );
          const raw = {
            version: 1,
            catalog: { include: base.includeBuiltins ? ['claude-code'] : [], families, commands },
            defaults: { unknown_tools: 'allow' },
          };
          const index = buildPolicyIndex(PolicySchema.parse(raw), 'x', '/p.json');
          const state = { ...emptyState(), confirmed: true };
          const judge = (dispatch?: { allowedTools?: string[]; sideEffectLevel?: Level }) =>
            decide({
              event: pre(call),
              index,
              state,
              env: {},
              options: { confirmOn: 'post', ...(dispatch ? { dispatch } : {}) },
              isProtected: () => null,
            });
          const narrowed = judge({ allowedTools: stage.allowed_tools, sideEffectLevel: stage.side_effect_level });
          if (narrowed.verdict !== 'deny') expect(judge().verdict).toBe(narrowed.verdict);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
