import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { HOST_ADAPTERS } from '../../src/hosts';
import type { HostName } from '../../src/hosts/host';
import { processEvent } from '../../src/hook/run';
import type { HookResponse } from '../../src/hook/output';
import { ROOT } from './policy';

/** The events a host really sent a recording hook (test/fixtures/hosts/<host>/<name>.json), and its adapter's reading of them. */
export function hostFixtures(host: HostName) {
  const dir = join(ROOT, 'test', 'fixtures', 'hosts', host);
  const adapter = HOST_ADAPTERS[host];
  const fixture = (name: string): Record<string, any> => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
  /** The fixture as the adapter reads it; throws when the adapter refuses it. */
  const read = (name: string): any => {
    const parsed = adapter.readEvent(fixture(name));
    if (!parsed.ok) throw new Error(`${name}: ${parsed.detail}`);
    return parsed.event;
  };
  return { dir, adapter, fixture, read };
}

/**
 * Recorded events through the whole hook (`processEvent` with `--host`) over `policy`, written into
 * a state directory of its own that is removed after the suite: call it inside a describe.
 * `hook` runs a fixture, changed first by `change`, under a persona.
 */
export function recordedEventsHook(host: HostName, policy: unknown) {
  const { fixture } = hostFixtures(host);
  const state = mkdtempSync(join(tmpdir(), `pg-${host}-unit-`));
  afterAll(() => rmSync(state, { recursive: true, force: true }));
  const policyPath = join(state, 'policy.json');
  writeFileSync(policyPath, JSON.stringify(policy));
  const env = (persona: string) => ({
    PERSONA_GATE_CONFIG: policyPath,
    PERSONA_GATE_STATE_DIR: state,
    PERSONA_GATE_PERSONA: persona,
    HOME: state,
  });
  const hook = (name: string, persona: string, change: (e: any) => void = () => {}): HookResponse => {
    const e = fixture(name);
    change(e);
    return processEvent(JSON.stringify(e), ['--host', host], env(persona));
  };
  /** The reason of a JSON deny on stdout. */
  const reason = (r: { stdout: string }) => JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason as string;
  return { state, policyPath, hook, reason };
}
