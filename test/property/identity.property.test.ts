import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/core/decide';
import { decidePost, decideSessionStart } from '../../src/core/post';
import { applyOps, emptyState, type SessionState } from '../../src/core/state';
import { pre, taxIndex } from '../helpers/policy';

/**
 * SPEC §6 as a reference model, written independently of the engine: a session is confirmed by an
 * identity read that ran in the current epoch; a switch let through re-arms it; read-only calls
 * never need it; anything else does.
 */
class ReferenceModel {
  confirmed = false;
  label: string | null = null;
  epoch = 0;
  pending = new Map<string, number>();

  constructor(readonly confirmOn: 'pre' | 'post') {}

  /** `pass` is what a call let through prints: abstain, or ask for a confirm-tier command. */
  pre(kind: Kind, id: string, pass: 'abstain' | 'ask'): 'abstain' | 'ask' | 'deny' {
    switch (kind) {
      case 'switch':
        this.confirmed = false;
        this.label = null;
        this.epoch += 1;
        this.pending.clear();
        return pass;
      case 'read':
        this.pending.set(id, this.epoch);
        if (this.confirmOn === 'pre' && pass !== 'ask') this.confirmed = true;
        return pass;
      case 'readonly':
        return pass;
      case 'mutate':
        return this.confirmed ? pass : 'deny';
    }
  }

  post(kind: Kind, id: string, label: string): void {
    if (kind !== 'read') return;
    if (this.pending.get(id) === this.epoch) {
      this.confirmed = true;
      this.label = label;
      this.pending.delete(id);
    }
  }

  clear(): void {
    this.confirmed = false;
    this.label = null;
    this.epoch += 1;
    this.pending.clear();
  }
}

type Kind = 'read' | 'switch' | 'readonly' | 'mutate';
const TOOLS: Record<Kind, string[]> = {
  read: ['mcp__aeat__whoami'],
  switch: ['mcp__aeat__profile_switch', 'mcp__aeat__profile_create'],
  readonly: ['mcp__aeat__modelo_list', 'Read', 'mcp__aeat__ledger_export'],
  mutate: ['mcp__aeat__modelo_work_create', 'mcp__aeat__ledger_entry_add', 'Write', 'Bash'],
};

type Step =
  | { t: 'pre'; kind: Kind; tool: number; id: number; viaMeta: boolean }
  | { t: 'post'; kind: Kind; tool: number; id: number; label: string }
  | { t: 'start'; source: 'clear' | 'startup' | 'resume' | 'compact' };

const kind = fc.constantFrom<Kind>('read', 'switch', 'readonly', 'mutate');
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('pre' as const), kind, tool: fc.nat(3), id: fc.nat(6), viaMeta: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('post' as const),
      kind,
      tool: fc.nat(3),
      id: fc.nat(6),
      label: fc.constantFrom('Erik', 'Erika', 'Erik S.L.'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('start' as const),
      source: fc.constantFrom('clear' as const, 'startup' as const, 'resume' as const, 'compact' as const),
    }),
  },
);

/** The commands of the example policy whose tier is confirm. */
const CONFIRM_TIER = new Set(['mcp__aeat__profile_create']);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 10_000);
/** Long runs (npm run test:property:long) need more than the default minute. */
const TIMEOUT = 60_000 + RUNS;
const index = taxIndex();

function toolFor(k: Kind, n: number): string {
  const list = TOOLS[k];
  return list[n % list.length]!;
}

function commandKey(tool: string): string | undefined {
  return Object.entries(index.policy.catalog.commands).find(([, def]) => def.tools.includes(tool))?.[0];
}

function runSequence(steps: Step[], confirmOn: 'pre' | 'post'): void {
  const model = new ReferenceModel(confirmOn);
  let state: SessionState = emptyState();
  steps.forEach((s, i) => {
    if (s.t === 'start') {
      state = applyOps(state, decideSessionStart({ hook_event_name: 'SessionStart', session_id: 'p', source: s.source }).ops);
      if (s.source === 'clear') model.clear();
    } else {
      const tool = toolFor(s.kind, s.tool);
      const key = commandKey(tool);
      const useMeta = s.t === 'pre' && s.viaMeta && key !== undefined;
      const event = useMeta
        ? pre('mcp__aeat__execute', { command: key }, { tool_use_id: `id${s.id}` })
        : pre(tool, { file_path: '/tmp/f', command: 'ls' }, { tool_use_id: `id${s.id}` });
      if (s.t === 'pre') {
        const d = decide({ event, index, state, env: {}, options: { confirmOn }, isProtected: () => null });
        const expected = model.pre(s.kind, `id${s.id}`, CONFIRM_TIER.has(tool) ? 'ask' : 'abstain');
        expect(d.verdict, `step ${i} ${JSON.stringify(s)}`).toBe(expected);
        if (expected === 'deny') expect(d.status).toBe('identity_required');
        state = applyOps(state, d.ops);
      } else {
        const post = { ...event, hook_event_name: 'PostToolUse' as const, tool_response: [{ type: 'text', text: s.label }] };
        state = applyOps(state, decidePost(index, post, {}).ops);
        model.post(s.kind, `id${s.id}`, s.label);
      }
    }
    expect(state.confirmed, `confirmed after step ${i}`).toBe(model.confirmed);
    expect(state.label, `label after step ${i}`).toBe(model.label);
  });
}

describe('identity gate against the reference model (SPEC §6)', () => {
  it(
    `agrees on ${RUNS} random sequences with --confirm-on post`,
    () => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => runSequence(steps, 'post')),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `agrees on ${RUNS} random sequences with --confirm-on pre`,
    () => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => runSequence(steps, 'pre')),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
