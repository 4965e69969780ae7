import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { cleanEnv, denyJson, preEvent, runCli, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

// SPEC §9.4 through the built hook: the tax example names ~/.aeat/active-profile as the domain's
// profile state. A plain write to that file, by any route, re-arms the gate.
describe('the hook follows the domain’s profile state', () => {
  it('refuses a mutation after the profile file changed, until the identity read runs again', () => {
    const dir = tempDir();
    const home = join(dir, 'home');
    mkdirSync(join(home, '.aeat'), { recursive: true });
    const profile = join(home, '.aeat', 'active-profile');
    writeFileSync(profile, 'Erika Example (NIF 00000000T)\n');
    const stateDir = join(dir, 'state');
    const env = cleanEnv({
      HOME: home,
      PERSONA_GATE_CONFIG: TAX_POLICY_PATH,
      PERSONA_GATE_STATE_DIR: stateDir,
      PERSONA_GATE_PERSONA: 'modelo-preparer',
    });
    const hook = (event: string) => runCli(['hook'], { input: event, env });
    let n = 0;
    const read = () => {
      const id = `toolu_read${++n}`;
      expect(hook(preEvent('mcp__aeat__whoami', {}, { tool_use_id: id, cwd: dir }))).toMatchObject({ stdout: '', code: 0 });
      const post = preEvent(
        'mcp__aeat__whoami',
        {},
        { tool_use_id: id, cwd: dir, hook_event_name: 'PostToolUse', tool_response: [{ type: 'text', text: 'Erika' }] },
      );
      expect(hook(post)).toMatchObject({ stdout: '', code: 0 });
    };
    const mutate = () => hook(preEvent('mcp__aeat__modelo_work_create', {}, { tool_use_id: `toolu_m${++n}`, cwd: dir }));

    expect(mutate()).toMatchObject({ stdout: denyJson(en.identityRequired()), code: 0 });
    read();
    expect(mutate()).toMatchObject({ stdout: '', code: 0 });
    // The profile switched outside any catalogued switch: the state differs from the one confirmed.
    writeFileSync(profile, 'Someone Else (NIF 11111111H)\n');
    expect(mutate()).toMatchObject({ stdout: denyJson(en.profileChanged('~/.aeat/active-profile')), code: 0 });
    expect(mutate().stdout).toBe(denyJson(en.profileChanged('~/.aeat/active-profile')));
    read();
    expect(mutate()).toMatchObject({ stdout: '', code: 0 });

    const file = readdirSync(join(stateDir, 'receipts'))[0]!;
    const rules = readFileSync(join(stateDir, 'receipts', file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).rule as string);
    expect(rules.filter((r) => r === 'profile_changed')).toHaveLength(2);
  });
});
