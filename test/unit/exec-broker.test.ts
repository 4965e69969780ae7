import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/core/decide';
import { buildPolicyIndex } from '../../src/core/policy-index';
import { brokeredPrefix, parseStartRequest, unbrokered } from '../../src/exec/brokered';
import { CALL_TTL_MS, callsDir, dropCall, leaveCall, liveCalls, readCall, type CallRecord } from '../../src/exec/calls';
import { parseExecMap } from '../../src/exec/map';
import { readShellCall } from '../../src/shell/resolve-shell';
import { tempDir } from '../helpers/cli';
import { confirmed, pre, run, taxIndex } from '../helpers/policy';

const call = (over: Partial<CallRecord> = {}): CallRecord => ({
  v: 1,
  session_id: 's1',
  tool_use_id: 'toolu_1',
  agent_id: null,
  agent_type: null,
  project: '/work/project',
  argv: ['hook'],
  env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
  expires: Date.now() + CALL_TTL_MS,
  ...over,
});

describe('the call records the broker reads', () => {
  it('a record is read by its secret until it is dropped or expires', () => {
    const state = tempDir('pg-calls-');
    const secret = leaveCall(state, call());
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(readCall(state, secret)).toMatchObject({ session_id: 's1', argv: ['hook'] });
    // read, not taken: a call may start programs many times
    expect(readCall(state, secret)).not.toBeNull();
    expect(liveCalls(state)).toBe(1);
    expect(readCall(state, secret, Date.now() + CALL_TTL_MS + 1)).toBeNull();
    dropCall(state, secret);
    expect(readCall(state, secret)).toBeNull();
    expect(liveCalls(state)).toBe(0);
  });

  it('a secret that is not one, a void record and a record that is not one read as none', () => {
    const state = tempDir('pg-calls-');
    for (const bad of ['', '../x', 'F'.repeat(32), 'f'.repeat(31)]) expect(readCall(state, bad)).toBeNull();
    const old = leaveCall(state, call({ expires: Date.now() - 1 }));
    expect(readCall(state, old)).toBeNull();
    writeFileSync(join(callsDir(state), `${'a'.repeat(32)}.json`), '{"v":1}', { mode: 0o600 });
    expect(readCall(state, 'a'.repeat(32))).toBeNull();
    // void ones go when counted
    expect(liveCalls(state)).toBe(0);
  });
});

describe('the rewrite of a call for the broker', () => {
  const paths = { shims: '/state dir/shims' };
  it('puts the shims first on PATH and the secret in the environment, and reads back exactly the call', () => {
    const secret = 'b'.repeat(32);
    const command = 'make test\necho "$PATH"';
    const rewritten = `${brokeredPrefix(paths, secret)}${command}`;
    expect(rewritten).toBe(`export PATH='/state dir/shims':"$PATH" PERSONA_GATE_CALL=${secret}\n${command}`);
    expect(unbrokered(rewritten, paths)).toEqual({ command, secret });
  });
  it('a call not rewritten so is not read as one', () => {
    for (const command of [
      'make test',
      `export PATH='/other/shims':"$PATH" PERSONA_GATE_CALL=${'b'.repeat(32)}\nmake`,
      `export PATH='/state dir/shims':"$PATH" PERSONA_GATE_CALL=xyz\nmake`,
    ])
      expect(unbrokered(command, paths)).toBeNull();
  });
  it("a shim's request is read only in its one shape", () => {
    expect(parseStartRequest('{"v":1,"name":"aeat","args":["whoami"],"cwd":"/p","call":""}')).toEqual({
      v: 1,
      name: 'aeat',
      args: ['whoami'],
      cwd: '/p',
      call: '',
    });
    for (const bad of [
      '',
      'null',
      '{"v":2,"name":"aeat","args":[],"cwd":"/p","call":""}',
      '{"v":1,"name":"aeat","args":[1],"cwd":"/p","call":""}',
    ])
      expect(parseStartRequest(bad)).toBeNull();
  });
  it('the map names the broker only with absolute paths', () => {
    const base = { v: 1, runtime: '/usr/bin/node', launcher: '/pg/exec.cjs', programs: { aeat: '/opt/aeat' } };
    const broker = { broker: '/pg/broker.cjs', shims: '/s/shims', requests: '/s/broker/requests' };
    expect(parseExecMap(JSON.stringify({ ...base, broker }))?.broker).toEqual(broker);
    expect(parseExecMap(JSON.stringify({ ...base, broker: { ...broker, shims: 'shims' } }))?.broker).toBeUndefined();
  });
});

describe('code that names a program whose starts are judged where they happen', () => {
  const policy = structuredClone(taxIndex().policy!);
  policy.personas['modelo-preparer']!.families.push('shell');
  policy.personas['modelo-preparer']!.ceiling = 'process_exec';
  const index = buildPolicyIndex(policy, 'sha', '/work/project/.claude/persona-gate.json');
  const judge = (command: string, startChecked?: (p: string) => boolean): Decision =>
    run(index, pre('Bash', { command }, { cwd: '/work/project' }), {
      state: confirmed(),
      env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
      shell: readShellCall,
      ...(startChecked ? { options: { startChecked } } : {}),
    });
  const lines = [
    'sh x.sh aeat',
    `python3 -c 'import os; os.system("aeat modelo export")'`,
    'printf "aeat modelo export" > x.sh; bash x.sh',
  ];

  it.each(lines)('%s: refused when its starts go unjudged, let through (and not re-arming) when each is judged', (line) => {
    const unchecked = judge(line);
    expect([unchecked.verdict, unchecked.rule]).toEqual(['deny', 'opaque_execution']);
    const checked = judge(line, (p) => p === 'aeat');
    expect(checked.verdict).not.toBe('deny');
    expect(checked.ops).not.toContainEqual({ op: 'rearm' });
  });

  it('another program named in the code keeps the refusal', () => {
    const d = judge(lines[1]!, (p) => p === 'git');
    expect([d.verdict, d.rule]).toEqual(['deny', 'opaque_execution']);
  });

  it('what the reader sees is judged as ever: the export itself is refused', () => {
    expect(judge('aeat modelo export', () => true).verdict).toBe('deny');
  });
});
