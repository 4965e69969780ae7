import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decide } from '../../src/core/decide';
import { decidePost } from '../../src/core/post';
import { applyOps, emptyState, parseState, type SessionState } from '../../src/core/state';
import type { ProfileObservation } from '../../src/core/types';
import { profileFilePath, profileStateReader } from '../../src/io/profile-state';
import { pre, taxIndex } from '../helpers/policy';

// SPEC §9.4: where the policy names the domain's profile state, the session confirms the state the
// identity read left, and a state-changing call is refused once that state differs, however it
// changed. The tax example names ~/.aeat/active-profile.
const tax = taxIndex();
const MUTATION = 'mcp__aeat__modelo_work_create';
const env = { PERSONA_GATE_PERSONA: 'modelo-preparer' };

function call(state: SessionState, tool: string, seen: ProfileObservation | undefined) {
  return decide({
    event: pre(tool),
    index: tax,
    state,
    env,
    options: { confirmOn: 'post' },
    isProtected: () => null,
    ...(seen ? { profileState: () => seen } : {}),
  });
}

/** A session after the identity read, with the profile state as the read found it and as it left it. */
function confirmedWith(seen: ProfileObservation, after: ProfileObservation = seen): SessionState {
  const pending = call(emptyState(), 'mcp__aeat__whoami', seen);
  const afterPre = applyOps(emptyState(), pending.ops);
  const post = decidePost(
    tax,
    { ...pre('mcp__aeat__whoami'), hook_event_name: 'PostToolUse', tool_response: [{ type: 'text', text: 'Erika' }] },
    env,
    undefined,
    () => after,
  );
  return applyOps(afterPre, post.ops);
}

const A: ProfileObservation = { ok: true, fingerprint: 'file:aaaa' };
const B: ProfileObservation = { ok: true, fingerprint: 'file:bbbb' };

describe('identity.profile_state: the gate follows the domain’s state', () => {
  it('records the state the read left, and lets a mutation through while it holds', () => {
    const state = confirmedWith(A);
    expect(state).toMatchObject({ confirmed: true, profile: 'file:aaaa', label: 'Erika' });
    expect(call(state, MUTATION, A)).toMatchObject({ verdict: 'abstain', status: 'ok' });
  });

  it.each([
    ['another profile', B, 'profile_changed', 'is not the one this session confirmed'],
    ['a state that cannot be read', { ok: false, detail: 'EACCES' } as ProfileObservation, 'profile_unreadable', 'EACCES'],
  ])('refuses a mutation once the state is %s', (_what, now, rule, words) => {
    const d = call(confirmedWith(A), MUTATION, now);
    expect([d.verdict, d.status, d.gate, d.rule]).toEqual(['deny', 'identity_required', 'identity', rule]);
    expect(d.reason).toContain('~/.aeat/active-profile');
    expect(d.reason).toContain(words);
  });

  it('still lets reads and read-only calls through after a change, and a new read confirms the new state', () => {
    const state = confirmedWith(A);
    expect(call(state, 'mcp__aeat__modelo_list', B).verdict).toBe('abstain');
    const again = confirmedWith(B);
    expect(call(again, MUTATION, B).verdict).toBe('abstain');
    expect(call(again, MUTATION, A).rule).toBe('profile_changed');
  });

  it('confirms nothing that can be checked later when the state could not be read at the read', () => {
    const state = confirmedWith({ ok: false, detail: 'EIO' });
    expect(state.profile).toBeNull();
    expect(call(state, MUTATION, A).rule).toBe('profile_changed');
  });

  // A state that changes while the read runs (a job left in the background rewriting it): what the
  // read showed may not be the profile now active, so it confirms nothing.
  it('confirms nothing when the state changed while the read ran', () => {
    const state = confirmedWith(A, B);
    expect(state).toMatchObject({ confirmed: false, profile: null, pending_reads: {}, pending_profiles: {} });
    expect(call(state, MUTATION, B)).toMatchObject({ verdict: 'deny', rule: 'first_mutation' });
    // the read let through records the state it found, beside its epoch
    expect(applyOps(emptyState(), call(emptyState(), 'mcp__aeat__whoami', A).ops)).toMatchObject({
      pending_reads: { toolu_1: 0 },
      pending_profiles: { toolu_1: 'file:aaaa' },
    });
  });

  it('a switch clears the recorded state with the confirmation', () => {
    const state = confirmedWith(A);
    const switched = applyOps(state, call(state, 'mcp__aeat__profile_switch', A).ops);
    expect(switched).toMatchObject({ confirmed: false, profile: null });
  });

  it('reads a state file written before profile_state existed as no profile seen', () => {
    const { profile: _dropped, ...old } = { ...emptyState(), confirmed: true };
    expect(parseState(old)).toMatchObject({ confirmed: true, profile: null });
    expect(parseState({ ...old, profile: 7 })).toBeNull();
    // nor did pending reads keep the profile they found
    expect(parseState({ ...old, pending_reads: { t: 0 }, pending_profiles: undefined })).toMatchObject({ pending_profiles: {} });
    expect(parseState({ ...old, pending_reads: { t: 0 }, pending_profiles: { t: 3 } })).toBeNull();
    // and a profile kept for a read no longer pending goes
    expect(parseState({ ...old, pending_profiles: { gone: 'file:aaaa' } })).toMatchObject({ pending_profiles: {} });
  });
});

describe('reading the profile state at the edge', () => {
  const made: string[] = [];
  afterEach(() => {
    while (made.length > 0) rmSync(made.pop()!, { recursive: true, force: true });
  });
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'pg-profile-'));
    made.push(d);
    return d;
  };
  const reader = (def: Parameters<typeof profileStateReader>[0], home: string) =>
    profileStateReader(def, {
      policyPath: join(home, 'p', 'persona-gate.json'),
      env: { HOME: home, PATH: process.env.PATH },
      cwd: home,
      deadline: Date.now() + 10_000,
    });

  it('finds the file from the home directory, absolutely, or beside the policy', () => {
    expect(profileFilePath('~/.aeat/active-profile', '/x/.claude/persona-gate.json', { HOME: '/home/u' })).toBe(
      '/home/u/.aeat/active-profile',
    );
    expect(profileFilePath('/etc/aeat', '/x/.claude/persona-gate.json', {})).toBe('/etc/aeat');
    expect(profileFilePath('state/profile', '/x/.claude/persona-gate.json', {})).toBe('/x/.claude/state/profile');
  });

  it('tells contents apart, and an absent file from an empty one', () => {
    const home = dir();
    mkdirSync(join(home, '.aeat'));
    const at = () => reader({ file: '~/.aeat/active-profile' }, home)();
    const absent = at();
    writeFileSync(join(home, '.aeat', 'active-profile'), '');
    const empty = at();
    writeFileSync(join(home, '.aeat', 'active-profile'), 'erika\n');
    const erika = at();
    writeFileSync(join(home, '.aeat', 'active-profile'), 'other\n');
    const other = at();
    const prints = [absent, empty, erika, other].map((o) => (o.ok ? o.fingerprint : o.detail));
    expect(new Set(prints).size).toBe(4);
    writeFileSync(join(home, '.aeat', 'active-profile'), 'erika\n');
    expect(at()).toEqual(erika);
  });

  it('cannot tell a state that is not a regular file', () => {
    const home = dir();
    mkdirSync(join(home, '.aeat'));
    symlinkSync('/dev/zero', join(home, '.aeat', 'active-profile'));
    expect(reader({ file: '~/.aeat/active-profile' }, home)()).toEqual({ ok: false, detail: 'not a regular file' });
  });

  it('runs a command without a shell, reading a path of its JSON output', () => {
    const home = dir();
    const script = join(home, 'whoami.js');
    writeFileSync(
      script,
      'process.stdout.write(JSON.stringify({ label: require("fs").readFileSync(process.argv[2], "utf8"), at: Date.now() }))',
    );
    writeFileSync(join(home, 'profile'), 'erika');
    const def = { command: [process.execPath, script, join(home, 'profile')], path: 'label' };
    const first = reader(def, home)();
    expect(first.ok).toBe(true);
    // The time in the output is not part of the state: only the path is.
    expect(reader(def, home)()).toEqual(first);
    writeFileSync(join(home, 'profile'), 'other');
    expect(reader(def, home)()).not.toEqual(first);
    expect(reader({ command: [process.execPath, '-e', 'process.exit(3)'] }, home)()).toEqual({ ok: false, detail: 'exit code 3' });
    expect(reader({ command: [process.execPath, script, join(home, 'profile')], path: 'nope' }, home)()).toEqual({
      ok: false,
      detail: 'no nope in its output',
    });
  });

  it('reads the state once per call, however many gates ask', () => {
    const home = dir();
    writeFileSync(join(home, 'profile'), 'erika');
    const read = reader({ file: join(home, 'profile') }, home);
    const first = read();
    writeFileSync(join(home, 'profile'), 'other');
    expect(read()).toEqual(first);
  });
});
