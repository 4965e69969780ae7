import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli, tempDir } from '../helpers/cli';
import { taggedBlocks, type TaggedBlock } from '../helpers/markdown';
import { ROOT } from '../helpers/policy';

/**
 * The README's quick path, run as a newcomer runs it: its tagged shell blocks, in order, in one
 * bash session, in a fresh project that has persona-gate installed (linked to this checkout's
 * dist/), and each block prints exactly the output block the README shows under it. The README
 * shows the project at /home/me/my-project; the run's own directory stands for it.
 * (Installing from the tarball and from a git URL is test/cli/install.test.ts.)
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SHOWN_HOME = '/home/me';
const MARK = '@@readme-block@@';

/** A project under `<tmp>/my-project` with persona-gate in node_modules, as `npm install --save-dev` leaves it. */
function project(): { base: string; dir: string; env: Record<string, string> } {
  const base = realpathSync(tempDir('pg-readme-'));
  const dir = join(base, 'my-project');
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'my-project',
      version: '1.0.0',
      private: true,
      devDependencies: { 'persona-gate': 'file:persona-gate-0.1.0.tgz' },
    }),
  );
  symlinkSync(ROOT, join(dir, 'node_modules', 'persona-gate'));
  symlinkSync('../persona-gate/dist/persona-gate.cjs', join(dir, 'node_modules', '.bin', 'persona-gate'));
  mkdirSync(join(base, 'home'));
  const env = cleanEnv({
    HOME: join(base, 'home'),
    npm_config_cache: join(base, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  });
  delete env.CI; // the hook's output must not depend on the runner
  return { base, dir, env };
}

/** Runs the blocks in one bash session; returns each block's output (stdout and stderr, as a terminal shows them). */
function runBlocks(blocks: TaggedBlock[], cwd: string, env: Record<string, string>): string[] {
  const script = ['exec 2>&1', ...blocks.map((b) => `printf '%s\\n' '${MARK}'\n${b.code}`)].join('\n');
  const r = spawnSync('bash', ['-c', script], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  expect(r.error).toBeUndefined();
  return r.stdout.split(`${MARK}\n`).slice(1);
}

function expectShown(blocks: TaggedBlock[], outputs: string[], base: string): void {
  expect(outputs.length).toBe(blocks.length);
  blocks.forEach((block, i) => {
    if (block.output === undefined) return;
    const actual = outputs[i]!.split(base).join(SHOWN_HOME);
    expect({ line: block.line, output: actual }).toEqual({ line: block.line, output: block.output });
  });
}

describe('the README quick path', () => {
  it('runs as shown in a fresh project: init, the refusals, explain and the starter tests', () => {
    const blocks = taggedBlocks(README).filter((b) => b.tag === 'quick-path');
    expect(blocks.every((b) => b.lang === 'sh')).toBe(true);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const { base, dir, env } = project();
    expectShown(blocks, runBlocks(blocks, dir, env), base);
  }, 120_000);

  it('the team policy it shows validates, passes the tests it shows, and decides as shown', () => {
    const blocks = taggedBlocks(README).filter((b) => b.tag === 'policy');
    const policy = blocks.find((b) => b.lang === 'json')!;
    const commands = blocks.filter((b) => b.lang === 'sh');
    expect(commands.length).toBeGreaterThanOrEqual(1);
    const tests = taggedBlocks(README).find((b) => b.tag === 'policy-tests' && b.lang === 'json')!;
    const { base, dir, env } = project();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'persona-gate.json'), policy.code);
    writeFileSync(join(dir, '.claude', 'persona-gate.test.json'), tests.code);
    expectShown(commands, runBlocks(commands, dir, env), base);
  }, 120_000);
});

describe('the refusals the README shows as the model reads them in Claude Code', () => {
  // Claude Code 2.1.332 hands the model `PreToolUse:<tool> hook error: <reason>` for a hook's deny
  // (measured in its end-to-end run); the reason is the hook's, for the software-team starter.
  const texts = [...README.matchAll(/```text\n(PreToolUse:(\w+) hook error: (.*))\n```/g)].map((m) => ({ tool: m[2]!, reason: m[3]! }));
  const policy = join(ROOT, 'examples', 'software-team.json');
  const reason = (persona: string, tool: string, input: Record<string, unknown>): string => {
    const event = JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 'readme',
      tool_name: tool,
      tool_input: input,
      cwd: tempDir('pg-readme-cwd-'),
    });
    const r = runCli(['hook', '--config', policy], {
      input: event,
      env: cleanEnv({ PERSONA_GATE_PERSONA: persona, PERSONA_GATE_STATE_DIR: join(tempDir('pg-readme-state-'), 'state') }),
    });
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason as string;
  };

  it('shows two of them', () => {
    expect(texts.map((t) => t.tool)).toEqual(['Bash', 'Edit']);
  });

  it('the implementer publishing, also inside a longer line', () => {
    expect(reason('implementer', 'Bash', { command: 'npm publish' })).toBe(texts[0]!.reason);
    expect(reason('implementer', 'Bash', { command: 'cd pkg && npm publish --tag next' })).toBe(texts[0]!.reason);
    expect(README).toContain('The same refusal comes for `cd pkg && npm publish --tag next`');
  });

  it('the researcher editing', () => {
    expect(
      reason('researcher', 'Edit', { file_path: join(tempDir('pg-readme-project-'), 'package.json'), old_string: 'a', new_string: 'b' }),
    ).toBe(texts[1]!.reason);
  });
});
