import { describe, expect, it } from 'vitest';
import { buildPolicyIndex } from '../../src/core/policy-index';
import { emptyState } from '../../src/core/state';
import { confirmed, indexOf, MERGE_POLICY_PATH, pre, readJson, run, TAX_POLICY_PATH, taxIndex } from '../helpers/policy';
import { judge } from '../helpers/redteam';

const tax = taxIndex();
const as = (persona: string) => ({ env: { PERSONA_GATE_PERSONA: persona }, state: confirmed() });

describe('gate 2: persona scope', () => {
  it.each([
    // [persona, tool, verdict, status, rule]
    ['coordinator', 'mcp__aeat__modelo_work_create', 'deny', 'permission_denied', 'ceiling'],
    ['coordinator', 'mcp__aeat__modelo_list', 'abstain', 'ok', 'on_pass:abstain'],
    ['classifier', 'mcp__aeat__modelo_list', 'deny', 'permission_denied', 'family'],
    ['classifier', 'mcp__aeat__ledger_entry_classify', 'abstain', 'ok', 'on_pass:abstain'],
    ['onboarding', 'Bash', 'deny', 'permission_denied', 'family'],
    ['verifier', 'mcp__unknown__tool', 'deny', 'permission_denied', 'unknown_tool'],
    ['verifier', 'Read', 'abstain', 'ok', 'on_pass:abstain'],
    ['verifier', 'Write', 'deny', 'permission_denied', 'family'],
  ])('%s calling %s → %s (%s)', (persona, tool, verdict, status, rule) => {
    const d = run(tax, pre(tool), as(persona));
    expect([d.verdict, d.status, d.rule]).toEqual([verdict, status, rule]);
    if (verdict === 'deny') expect(d.gate).toBe('scope');
  });

  it('names the persona, the command and the way out in the refusal', () => {
    const d = run(tax, pre('mcp__aeat__modelo_work_create'), as('coordinator'));
    expect(d.reason).toBe(
      "persona-gate: the coordinator persona may not run modelo.work.create: it has side-effect level workspace_write, above the persona's ceiling read_only. Use a tool at read_only or below, or hand this step to a persona allowed to workspace_write.",
    );
  });

  it('names the owner of an owned command, whichever scope rule refuses it', () => {
    // The coordinator has the family but a read_only ceiling; the classifier lacks the family.
    const ceiling = run(tax, pre('mcp__aeat__modelo_export'), as('coordinator'));
    expect([ceiling.verdict, ceiling.gate, ceiling.rule]).toEqual(['deny', 'scope', 'ceiling']);
    expect(ceiling.reason).toBe(
      "persona-gate: the coordinator persona may not run modelo.export: it has side-effect level workspace_write, above the persona's ceiling read_only, and it is owned by the verifier persona. Finish your part and hand off to verifier; do not try it another way.",
    );
    const family = run(tax, pre('mcp__aeat__modelo_export'), as('classifier'));
    expect([family.verdict, family.gate, family.rule]).toEqual(['deny', 'scope', 'family']);
    expect(family.reason).toContain('and modelo.export is owned by the verifier persona. Finish your part and hand off to verifier');
    const es = run(tax, pre('mcp__aeat__modelo_export'), {
      ...as('coordinator'),
      env: { PERSONA_GATE_PERSONA: 'coordinator', PERSONA_GATE_LOCALE: 'es' },
    });
    expect(es.reason).toContain('pertenece a la persona verifier. Termina tu parte y pásalo a verifier');
  });

  it('does not speak of a handoff to a command nobody owns', () => {
    const d = run(tax, pre('mcp__aeat__modelo_work_create'), as('coordinator'));
    expect(d.reason).not.toContain('owned by');
  });

  it('fails closed when a persona names a family absent from the catalog', () => {
    const valid = indexOf(readJson(TAX_POLICY_PATH));
    const policy = structuredClone(valid.policy);
    policy.personas.classifier!.families.push('payroll');
    policy.catalog.commands['payroll.run'] = { level: 'read_only', tools: ['mcp__aeat__payroll_run'], bash: [] };
    const index = buildPolicyIndex(policy, 'x', '/p.json');
    const d = run(index, pre('mcp__aeat__payroll_run'), as('classifier'));
    expect([d.verdict, d.status, d.rule]).toEqual(['deny', 'permission_denied', 'family']);
  });
});

describe('gate 1: persona resolution', () => {
  it('refuses every call under an unknown persona, listing the accepted names', () => {
    const d = run(tax, pre('Read'), { env: { PERSONA_GATE_PERSONA: 'auditor' } });
    expect([d.verdict, d.status, d.gate]).toEqual(['deny', 'config_error', 'persona']);
    expect(d.reason).toContain('accepted: classifier, coordinator, ledger-groomer, modelo-preparer, onboarding, reconciler, verifier');
  });

  it.each(['', '   ', '\t'])('treats a blank persona %j as unscoped', (value) => {
    const d = run(tax, pre('mcp__aeat__modelo_work_create'), { env: { PERSONA_GATE_PERSONA: value }, state: confirmed() });
    expect(d.persona).toBeNull();
    expect(d.verdict).toBe('abstain');
  });

  it('binds a subagent to its persona before the session persona and the environment', () => {
    const state = { ...confirmed(), persona: 'coordinator' };
    const d = run(tax, pre('mcp__aeat__modelo_work_create', {}, { agent_type: 'modelo-preparer' }), {
      state,
      env: { PERSONA_GATE_PERSONA: 'coordinator' },
    });
    expect(d.persona).toBe('modelo-preparer');
    expect(d.verdict).toBe('abstain');
  });

  it('prefers the session persona to the environment', () => {
    const d = run(tax, pre('mcp__aeat__modelo_work_create'), {
      state: { ...confirmed(), persona: 'coordinator' },
      env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
    });
    expect([d.persona, d.verdict]).toEqual(['coordinator', 'deny']);
  });

  it('ignores an agent type bound to no persona', () => {
    const d = run(tax, pre('Read', {}, { agent_type: 'general-purpose' }), as('verifier'));
    expect(d.persona).toBe('verifier');
  });
});

describe('gate 3: delegation', () => {
  it.each([
    ['verifier', 'abstain', 'ok'],
    ['modelo-preparer', 'abstain', 'ok'],
    ['general-purpose', 'abstain', 'ok'],
  ])('the coordinator may launch %s', (agent, verdict, status) => {
    const d = run(tax, pre('Agent', { subagent_type: agent, prompt: 'x' }), as('coordinator'));
    expect([d.verdict, d.status]).toEqual([verdict, status]);
  });

  it('refuses launching an agent bound to a persona that is not a delegate', () => {
    const policy = readJson(TAX_POLICY_PATH) as { personas: Record<string, { delegates: string[] }> };
    policy.personas.coordinator!.delegates = ['verifier'];
    const index = indexOf(policy);
    const d = run(index, pre('Task', { subagent_type: 'modelo-preparer' }), as('coordinator'));
    expect([d.verdict, d.status, d.gate]).toEqual(['deny', 'permission_denied', 'delegation']);
    expect(d.reason).toContain('bound to the modelo-preparer persona');
  });
});

describe('gate 4: handoff', () => {
  const personasWithModelo = ['coordinator', 'modelo-preparer', 'reconciler'];
  it.each(personasWithModelo.filter((p) => p !== 'coordinator'))('refuses the filing to %s and names the owner', (persona) => {
    const d = run(tax, pre('mcp__aeat__modelo_export'), as(persona));
    expect([d.verdict, d.status, d.gate]).toEqual(['deny', 'handoff_denied', 'handoff']);
    expect(d.reason).toBe(
      `persona-gate: the ${persona} persona may not run modelo.export: it is an irreversible handoff owned by the verifier persona. Finish your part and hand off to verifier; do not try it another way.`,
    );
  });

  it.each(['classifier', 'onboarding', 'ledger-groomer'])('refuses the filing to %s (outside its families)', (persona) => {
    expect(run(tax, pre('mcp__aeat__modelo_export'), as(persona)).verdict).toBe('deny');
  });

  it('lets the owner through to the confirmation tier', () => {
    const d = run(tax, pre('mcp__aeat__modelo_export'), as('verifier'));
    expect([d.verdict, d.status]).toEqual(['ask', 'confirmation_required']);
  });

  it('does not catch a same-named leaf in another family', () => {
    const d = run(tax, pre('mcp__aeat__ledger_export'), as('ledger-groomer'));
    expect([d.verdict, d.status]).toEqual(['abstain', 'ok']);
  });
});

describe('gate 6: identity', () => {
  it('refuses the first mutation of a session, byte-identically for every command', () => {
    const reasons = ['mcp__aeat__modelo_work_create', 'mcp__aeat__ledger_entry_add', 'Write', 'Bash'].map((tool) => {
      const d = run(tax, pre(tool, { file_path: '/tmp/x' }));
      expect([d.verdict, d.status, d.gate]).toEqual(['deny', 'identity_required', 'identity']);
      return d.reason;
    });
    expect(new Set(reasons).size).toBe(1);
  });

  it('lets reads, switches and read-only calls through unconfirmed', () => {
    for (const tool of ['mcp__aeat__whoami', 'mcp__aeat__profile_switch', 'mcp__aeat__modelo_list', 'Read']) {
      expect(run(tax, pre(tool)).verdict).toBe('abstain');
    }
  });

  it('re-arms on a switch let through and records a read to confirm after it runs', () => {
    expect(run(tax, pre('mcp__aeat__profile_switch'), { state: confirmed() }).ops).toEqual([{ op: 'rearm' }]);
    // The tax policy names its profile state; with nothing to read it from, none is recorded.
    expect(run(tax, pre('mcp__aeat__whoami')).ops).toEqual([{ op: 'pending_read', tool_use_id: 'toolu_1', profile: null }]);
    expect(run(tax, pre('mcp__aeat__whoami'), { options: { confirmOn: 'pre' } }).ops).toEqual([
      { op: 'pending_read', tool_use_id: 'toolu_1', profile: null },
      // The tax policy names its profile state; with nothing to read it from, none is recorded.
      { op: 'confirm', label: null, profile: null },
    ]);
  });

  it('changes no state for a refused call', () => {
    const d = run(tax, pre('mcp__aeat__profile_switch'), as('coordinator'));
    expect([d.verdict, d.ops]).toEqual(['deny', []]);
  });

  // A switch re-arms before it runs: what else the same line changes runs under a profile no read confirmed.
  it.each([
    'aeat config profile switch bob && aeat modelo work create 303',
    'aeat config profile switch bob ; aeat modelo work create 303',
    'aeat modelo work create 303 && aeat config profile switch bob',
    'aeat config profile switch bob && aeat whoami && aeat modelo work create 303',
    'aeat config profile switch bob && sed -i s/a/b/ notes.txt',
  ])('%s: refused, switch in a call of its own', (line) => {
    const d = judge(line);
    expect([d.verdict, d.status, d.gate, d.rule]).toEqual(['deny', 'identity_required', 'identity', 'switch_in_call']);
    expect(d.reason).toContain('Switch in a call of its own');
    expect(d.ops).toEqual([]);
  });

  it.each(['aeat config profile switch bob', 'aeat config profile switch bob && aeat whoami', 'aeat modelo work create 303'])(
    '%s: let through',
    (line) => {
      expect(judge(line).verdict).toBe('abstain');
    },
  );
});

describe('gate 7: confirmation tier', () => {
  it('asks for a confirm command, the reason beginning with the identity echo', () => {
    const unlabeled = run(tax, pre('mcp__aeat__modelo_export'), as('verifier'));
    expect(unlabeled.reason.startsWith('[Active profile: none known] ')).toBe(true);
    const labeled = run(tax, pre('mcp__aeat__modelo_export'), {
      ...as('verifier'),
      state: { ...confirmed(), label: 'Erika Example (NIF 00000000T)' },
    });
    expect(labeled.reason.startsWith('[Active profile: Erika Example (NIF 00000000T)] persona-gate: modelo.export needs')).toBe(true);
  });

  it('asks without an identity echo when the policy has no identity gate', () => {
    const merge = indexOf(readJson(MERGE_POLICY_PATH));
    const d = run(merge, pre('mcp__github__add_issue_comment', { body: 'LGTM' }), as('reviewer'));
    expect([d.verdict, d.status]).toEqual(['ask', 'confirmation_required']);
    expect(d.reason).toBe("persona-gate: github.pr.comment needs the user's confirmation before it runs.");
    const es = run(merge, pre('mcp__github__add_issue_comment'), {
      ...as('reviewer'),
      env: { PERSONA_GATE_PERSONA: 'reviewer', PERSONA_GATE_LOCALE: 'es' },
    });
    expect(es.reason).toBe('persona-gate: github.pr.comment necesita la confirmación del usuario antes de ejecutarse.');
  });

  it('denies a block command for everyone', () => {
    const d = run(tax, pre('mcp__aeat__ledger_entry_delete'), as('ledger-groomer'));
    expect([d.verdict, d.status, d.gate]).toEqual(['deny', 'blocked', 'confirmation']);
  });

  it('takes the tier from defaults.confirm by level', () => {
    const d = run(tax, pre('WebFetch', { url: 'http://127.0.0.1/' }), { state: confirmed() });
    expect([d.verdict, d.status]).toEqual(['ask', 'confirmation_required']);
  });
});

describe('gate 8 and on_pass', () => {
  const withDefaults = (defaults: Record<string, unknown>) => {
    const policy = readJson(TAX_POLICY_PATH);
    policy.defaults = defaults;
    return indexOf(policy);
  };
  it.each([
    [{ unknown_tools: 'ask' }, 'ask'],
    [{ unknown_tools: 'deny' }, 'deny'],
    [{ unknown_tools: 'allow' }, 'allow'],
  ])('an unknown tool in an unscoped session gets %j', (defaults, verdict) => {
    const d = run(withDefaults(defaults), pre('mcp__other__read_thing'), { state: confirmed() });
    expect([d.verdict, d.status, d.gate]).toEqual([verdict, 'unknown_tool', 'unknown_tool']);
  });

  it('treats an unknown tool as state-changing for the identity gate', () => {
    const d = run(withDefaults({ unknown_tools: 'allow' }), pre('mcp__other__read_thing'));
    expect(d.status).toBe('identity_required');
  });

  it('prints allow when on_pass is allow', () => {
    expect(run(withDefaults({ on_pass: 'allow' }), pre('Read')).verdict).toBe('allow');
  });
});

describe('meta tools', () => {
  it.each([
    ['modelo-preparer', 'modelo.export'],
    ['coordinator', 'modelo.work.create'],
    ['verifier', 'modelo.export'],
    ['classifier', 'ledger.entry.classify'],
  ])('%s: %s through the meta tool decides exactly as the direct call', (persona, key) => {
    const tool = tax.policy.catalog.commands[key]!.tools[0]!;
    const direct = run(tax, pre(tool), as(persona));
    const meta = run(tax, pre('mcp__aeat__execute', { command: key }), as(persona));
    const { resolution: r1, subject: s1, ...d1 } = direct;
    const { resolution: r2, subject: s2, ...d2 } = meta;
    expect(d2).toEqual(d1);
    expect({ ...s2, via: 'x' }).toEqual({ ...s1, via: 'x' });
    void r1;
    void r2;
  });

  it.each([[{ command: 'modelo.nonexistent' }], [{ command: 42 }], [{ command: '' }], [{}]])(
    'an undeclared or malformed key %j is an unknown tool',
    (input) => {
      expect(run(tax, pre('mcp__aeat__execute', input), as('verifier')).rule).toBe('unknown_tool');
      expect(run(tax, pre('mcp__aeat__execute', input), { state: confirmed() }).status).toBe('unknown_tool');
    },
  );
});

describe('gate 0: self-protection (file tools)', () => {
  const isProtected = (p: string) => (p === '/work/project/.claude/persona-gate.json' ? 'the persona-gate policy' : null);
  it('denies a write to the policy under a persona and asks unscoped', () => {
    const event = pre('Write', { file_path: '/work/project/.claude/persona-gate.json', content: '{}' });
    const scoped = run(tax, event, { ...as('verifier'), isProtected });
    expect([scoped.verdict, scoped.status, scoped.gate]).toEqual(['deny', 'protected', 'self_protection']);
    const unscoped = run(tax, event, { state: confirmed(), isProtected });
    expect([unscoped.verdict, unscoped.status]).toEqual(['ask', 'protected']);
  });
  it('leaves other writes to the later gates', () => {
    const d = run(tax, pre('Write', { file_path: '/work/project/notes.md' }), { state: confirmed(), isProtected });
    expect(d.status).toBe('ok');
  });
});

describe('receipt scope', () => {
  it('carries the persona, families and ceiling', () => {
    const d = run(tax, pre('Read'), { env: { PERSONA_GATE_PERSONA: 'coordinator' }, state: emptyState() });
    expect(d.scope).toEqual({
      persona: 'coordinator',
      stage: null,
      families: ['modelo', 'ledger', 'bank', 'documents', 'config', 'file_read', 'agents', 'session'],
      allowed_tools: null,
      ceiling: 'read_only',
    });
  });
});
