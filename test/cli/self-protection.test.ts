import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { cleanEnv, denyJson, runCli, tempDir } from '../helpers/cli';
import { MERGE_POLICY_PATH } from '../helpers/policy';

/** A project with its policy in .claude/, a merge captain that may write files and run commands. */
function project() {
  const dir = tempDir();
  mkdirSync(join(dir, '.claude'));
  const policyPath = join(dir, '.claude', 'persona-gate.json');
  writeFileSync(policyPath, readFileSync(MERGE_POLICY_PATH));
  writeFileSync(join(dir, '.claude', 'settings.json'), '{"hooks":{}}');
  const stateDir = join(dir, 'state');
  const env = cleanEnv({ PERSONA_GATE_STATE_DIR: stateDir, CLAUDE_PROJECT_DIR: dir, HOME: dir, PERSONA_GATE_PERSONA: 'merge_captain' });
  const call = (tool: string, input: Record<string, unknown>) =>
    runCli(['hook'], {
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 'agent-session',
        tool_name: tool,
        tool_input: input,
        tool_use_id: 't',
        cwd: dir,
      }),
      env,
      cwd: dir,
    });
  return { dir, policyPath, stateDir, env, call };
}

describe('the agent cannot switch its own gate off', () => {
  it.each([
    ['Write', { file_path: '.claude/persona-gate.json', content: '{}' }, 'the persona-gate policy'],
    ['Edit', { file_path: '.claude/settings.json', old_string: 'hooks', new_string: 'x' }, 'the hook registration (settings.json)'],
    ['MultiEdit', { file_path: '.claude/settings.local.json', edits: [] }, 'the hook registration (settings.local.json)'],
    ['Write', { file_path: 'state/sessions/x.json', content: '{}' }, "persona-gate's state directory"],
    ['Bash', { command: 'rm -rf state' }, "persona-gate's state directory"],
    ['Bash', { command: 'echo {} > .claude/persona-gate.json' }, 'the persona-gate policy'],
    [
      'Bash',
      { command: 'persona-gate session reset --session agent-session' },
      "persona-gate's own state (persona-gate session reset --session agent-session)",
    ],
    // npx may run a project's own persona-gate: the line is opaque, and names persona-gate
    [
      'Bash',
      { command: 'npx persona-gate stage enter apply_repair --session agent-session' },
      "persona-gate's own state (persona-gate named in code persona-gate cannot read: npx runs the project's own programs (node_modules/.bin) before any on PATH)",
    ],
  ])('%s %j is denied under a persona', (tool, input, what) => {
    const p = project();
    expect(p.call(tool, input)).toMatchObject({ stdout: denyJson(en.protectedTarget(what)), code: 0 });
  });

  it.each([
    [`python3 -c "import json; open('.claude/settings.json', 'w').write('{}')"`, 'the hook registration (settings.json)', 'python3'],
    [`node -e "require('fs').rmSync('state', { recursive: true })" && ls state/`, "persona-gate's state directory", 'ls'],
  ])('%j is denied: a protected path handed to a program that could change it, named in its words', (command, what, program) => {
    const p = project();
    // The last case: `state` alone is no path, but the line runs code persona-gate cannot read and names `state/`.
    if (program === 'ls') {
      expect(p.call('Bash', { command }).stdout).toBe(
        denyJson(en.protectedMention(what, "`node -e \"require('fs').rmSync('state', { recursive: true })\"`")),
      );
      expect(p.call('Bash', { command: `node -e "require('fs').rmSync('state/', { recursive: true })"` }).stdout).toBe(
        denyJson(en.protectedMention(what, "`node -e \"require('fs').rmSync('state/', { recursive: true })\"`")),
      );
      return;
    }
    expect(p.call('Bash', { command })).toMatchObject({ stdout: denyJson(en.protectedMention(what, `\`${command}\``)), code: 0 });
  });

  it('denies restoring a guarded file from history: git checkout replaces its path operands', () => {
    const p = project();
    expect(p.call('Bash', { command: 'git checkout -- .claude/persona-gate.json' })).toMatchObject({
      stdout: denyJson(en.protectedTarget('the persona-gate policy')),
      code: 0,
    });
  });

  it('follows a symlink to the policy', () => {
    const p = project();
    runCli(['hook'], { input: '{}', env: p.env });
    const link = join(p.dir, 'innocent.json');
    require('node:fs').symlinkSync(p.policyPath, link);
    expect(p.call('Write', { file_path: link, content: '{}' }).stdout).toBe(denyJson(en.protectedTarget('the persona-gate policy')));
  });

  it('asks instead of denying in an unscoped session', () => {
    const p = project();
    const r = runCli(['hook'], {
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's',
        tool_name: 'Write',
        tool_input: { file_path: join(p.dir, '.claude/settings.json') },
        cwd: p.dir,
      }),
      env: { ...p.env, PERSONA_GATE_PERSONA: '' },
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
  });

  it('lets ordinary writes and read-only persona-gate calls through', () => {
    const p = project();
    expect(p.call('Write', { file_path: 'src/app.ts', content: 'x' }).stdout).toBe('');
    expect(p.call('Bash', { command: 'persona-gate explain Read && persona-gate session show --session agent-session' }).stdout).toBe('');
  });
});
