import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';
import { hostCli } from '../helpers/host-cli';

/** A project, and a directory on PATH that holds `persona-gate` as a global install would. */
function project(settings?: string) {
  const dir = tempDir();
  const bin = tempDir('pg-bin-');
  symlinkSync(BIN, join(bin, 'persona-gate'));
  mkdirSync(join(dir, '.claude'));
  if (settings !== undefined) writeFileSync(join(dir, '.claude', 'settings.json'), settings);
  const env = cleanEnv({
    HOME: dir,
    PERSONA_GATE_STATE_DIR: join(dir, 'state'),
    PERSONA_GATE_CONFIG_HOME: join(dir, 'prefs'),
    PATH: `${bin}:${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`,
  });
  return { dir, bin, env, settingsPath: join(dir, '.claude', 'settings.json'), policyPath: join(dir, '.claude', 'persona-gate.json') };
}

/** Installs this checkout into the project's node_modules, as npm would (links, not copies). */
function installInProject(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'persona-gate'));
  symlinkSync(join('..', 'persona-gate', 'dist', 'persona-gate.cjs'), join(dir, 'node_modules', '.bin', 'persona-gate'));
}

/** Runs a registered hook command the way Claude Code does: through the shell, with $CLAUDE_PROJECT_DIR set, from any directory. */
function runRegistered(command: string, event: string, opts: { env: Record<string, string>; cwd: string; projectDir: string }) {
  const r = spawnSync('/bin/sh', ['-c', command], {
    input: event,
    env: { ...opts.env, CLAUDE_PROJECT_DIR: opts.projectDir },
    cwd: opts.cwd,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

/** Every string in a JSON value. */
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : typeof v === 'object' && v !== null ? Object.values(v).flatMap(strings) : [];

const registered = (settingsPath: string) =>
  JSON.parse(readFileSync(settingsPath, 'utf8'))
    .hooks.PreToolUse.flatMap((g: any) => g.hooks)
    .map((h: any) => h.command) as string[];

describe('init', () => {
  it('writes a starter policy and registers the three hooks with onFailure: block', () => {
    const p = project();
    const r = runCli(['init', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(0);
    const settings = JSON.parse(readFileSync(p.settingsPath, 'utf8'));
    for (const event of ['PreToolUse', 'PostToolUse', 'SessionStart']) {
      expect(settings.hooks[event]).toHaveLength(1);
      expect(settings.hooks[event][0].hooks[0]).toEqual({ type: 'command', command: 'persona-gate hook', timeout: 10, onFailure: 'block' });
    }
    expect(r.stdout).toContain(
      'the hook runs persona-gate hook: the persona-gate on PATH (a global install, npm i -g <a persona-gate tarball or git URL: see docs/install.md>)',
    );
    expect(r.stdout).not.toContain('persona-gate is not on PATH');
    expect(runCli(['validate', '--config', p.policyPath], { env: p.env }).code).toBe(0);
  });

  it('writes nothing that names a path of this machine, so the files work on any clone', () => {
    for (const inProject of [false, true]) {
      const p = project();
      if (inProject) installInProject(p.dir);
      expect(runCli(['init', '--dir', p.dir], { env: p.env, cwd: p.dir }).code).toBe(0);
      for (const file of [p.settingsPath, p.policyPath]) {
        const text = readFileSync(file, 'utf8');
        for (const local of [ROOT, p.dir, tmpdir(), homedir()]) expect(text).not.toContain(local);
        const json = JSON.parse(text);
        // the domain's profile file is named from each user's home (~/…): the same on every machine
        if (json.identity?.profile_state?.file !== undefined) delete json.identity.profile_state.file;
        const words = strings(json)
          .flatMap((v) => v.split(/\s+/))
          .map((w) => w.replace(/["']/g, ''));
        expect(words.filter((w) => /^(\/|~\/|[A-Za-z]:\\)/.test(w))).toEqual([]);
      }
      expect(registered(p.settingsPath)).toEqual([
        inProject ? '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/persona-gate hook' : 'persona-gate hook',
      ]);
    }
  });

  it('registers a command that runs from another directory: a project install through $CLAUDE_PROJECT_DIR, a global one from PATH', () => {
    const event = preEvent('mcp__aeat__modelo_export', {}, { cwd: tmpdir() });
    for (const inProject of [true, false]) {
      const p = project();
      if (inProject) installInProject(p.dir);
      runCli(['init', '--dir', p.dir], { env: p.env });
      const [command] = registered(p.settingsPath);
      const elsewhere = tempDir('pg-elsewhere-');
      // A global install needs persona-gate on PATH; a project install needs nothing but the project.
      const env = inProject
        ? { ...p.env, PATH: process.env.PATH!, PERSONA_GATE_PERSONA: 'coordinator' }
        : { ...p.env, PERSONA_GATE_PERSONA: 'coordinator' };
      const r = runRegistered(command!, event, { env, cwd: elsewhere, projectDir: p.dir });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
        'the coordinator persona may not run modelo.export',
      );
    }
  });

  it('replaces an entry that names a path of one machine, keeping its flags and everything else', () => {
    const old = 'node "/old/checkout/dist/persona-gate.js" hook --confirm-on pre';
    const mine = { type: 'command', command: 'my-guard' };
    const p = project(
      JSON.stringify({
        model: 'opus',
        hooks: { PreToolUse: [{ matcher: '*', hooks: [mine, { type: 'command', command: old, timeout: 10, onFailure: 'block' }] }] },
      }),
    );
    installInProject(p.dir);
    const before = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(before.stdout).toContain(
      `FAIL  the hook command does not exist: /old/checkout/dist/persona-gate.js (${p.settingsPath} names a path of another machine or of a moved checkout: every tool call is refused)\n      fix: run persona-gate init: it replaces the entry`,
    );
    const r = runCli(['init', '--dir', p.dir], { env: p.env });
    expect(r.stdout).toContain(`replaced the hook command ${old}: it names a path of one machine`);
    const settings = JSON.parse(readFileSync(p.settingsPath, 'utf8'));
    expect(settings.model).toBe('opus');
    expect(settings.hooks.PreToolUse).toEqual([
      {
        matcher: '*',
        hooks: [
          mine,
          {
            type: 'command',
            command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/persona-gate hook --confirm-on pre',
            timeout: 10,
            onFailure: 'block',
          },
        ],
      },
    ]);
    const after = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(after.stdout).toContain(`ok    the hook command exists: ${join(p.dir, 'node_modules', '.bin', 'persona-gate')}`);
    expect(after.stdout).not.toContain('a path of');
  });

  it('writes the example as it is, with a locale only when asked for', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    const example = readFileSync(join(ROOT, 'examples', 'tax-filing.json'), 'utf8').split('\n');
    const written = readFileSync(p.policyPath, 'utf8').split('\n');
    expect(written.length).toBe(example.length - 2);
    expect(written).toEqual(
      example
        .filter((l) => !l.includes('"$schema"') && !l.includes('"locale"'))
        .map((l) => (l === '  "stage_env": "PERSONA_GATE_STAGE",' ? l.slice(0, -1) : l)),
    );
    const q = project();
    runCli(['init', '--dir', q.dir, '--locale', 'es'], { env: q.env });
    expect(JSON.parse(readFileSync(q.policyPath, 'utf8')).locale).toBe('es');
    expect(runCli(['init', '--dir', q.dir, '--locale', 'fr'], { env: q.env })).toMatchObject({
      code: 1,
      stderr: 'persona-gate init: --locale takes en or es, not "fr"\n',
    });
  });

  it('says so when the command it registers cannot be found here', () => {
    const p = project();
    const r = runCli(['init', '--dir', p.dir], { env: { ...p.env, PATH: join(ROOT, 'node_modules', '.bin') } });
    expect(r.stdout).toContain('warning: persona-gate is not on PATH here, so every tool call will be refused until it is');
  });

  it('changes nothing when run twice', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    const settings = readFileSync(p.settingsPath, 'utf8');
    const policy = readFileSync(p.policyPath, 'utf8');
    const again = runCli(['init', '--dir', p.dir], { env: p.env });
    expect(again.stdout).toContain('already registers the hook: unchanged');
    expect(readFileSync(p.settingsPath, 'utf8')).toBe(settings);
    expect(readFileSync(p.policyPath, 'utf8')).toBe(policy);
  });

  it("keeps the user's own settings and hooks", () => {
    const own = {
      model: 'opus',
      permissions: { allow: ['Read'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }],
      },
    };
    const p = project(JSON.stringify(own));
    runCli(['init', '--dir', p.dir, '--example', 'merge-captain'], { env: p.env });
    const settings = JSON.parse(readFileSync(p.settingsPath, 'utf8'));
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ allow: ['Read'] });
    expect(settings.hooks.Stop).toEqual(own.hooks.Stop);
    expect(settings.hooks.PreToolUse[0]).toEqual(own.hooks.PreToolUse[0]);
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    expect(JSON.parse(readFileSync(p.policyPath, 'utf8')).personas.merge_captain).toBeDefined();
  });

  it('adds onFailure to an existing persona-gate entry that lacks it', () => {
    const p = project(
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'npx persona-gate hook' }] }] } }),
    );
    runCli(['init', '--dir', p.dir], { env: p.env });
    const settings = JSON.parse(readFileSync(p.settingsPath, 'utf8'));
    expect(settings.hooks.PreToolUse).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command: 'npx persona-gate hook', onFailure: 'block', timeout: 10 }] },
    ]);
  });

  it('writes each starter with its test file, which persona-gate test then runs against it', () => {
    for (const example of ['software-team', 'tax-filing', 'merge-captain']) {
      const p = project();
      const r = runCli(['init', '--dir', p.dir, '--example', example], { env: p.env, cwd: p.dir });
      expect(r.code).toBe(0);
      const testPath = join(p.dir, '.claude', 'persona-gate.test.json');
      expect(r.stdout).toContain(`wrote ${testPath}, the example's policy tests: persona-gate test runs them`);
      expect(JSON.parse(readFileSync(testPath, 'utf8')).cases).toEqual(
        JSON.parse(readFileSync(join(ROOT, 'examples', `${example}.test.json`), 'utf8')).cases,
      );
      const ran = JSON.parse(runCli(['test', '--json'], { env: p.env, cwd: p.dir }).stdout);
      expect(ran.files[0]).toMatchObject({ error: null, policy: '.claude/persona-gate.json' });
      expect(ran.passed).toBeGreaterThan(10);
    }
  });

  it('asked for another starter over an existing policy, says so, names --force and changes nothing', () => {
    const p = project();
    runCli(['init', '--dir', p.dir, '--example', 'software-team'], { env: p.env });
    writeFileSync(p.settingsPath, '{}\n');
    const policy = readFileSync(p.policyPath, 'utf8');
    const r = runCli(['init', '--dir', p.dir, '--example', 'merge-captain'], { env: p.env });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(
      `persona-gate init: ${p.policyPath} already exists and is not the merge-captain starter, so nothing was changed. To replace it with the merge-captain starter (and its test file), pass --force: the policy there is lost, so commit or copy it first\n`,
    );
    expect(readFileSync(p.policyPath, 'utf8')).toBe(policy);
    expect(readFileSync(p.settingsPath, 'utf8')).toBe('{}\n');
    // The same starter again, or no --example: the policy is kept, and init says how to start over.
    expect(runCli(['init', '--dir', p.dir, '--example', 'software-team'], { env: p.env }).code).toBe(0);
    const plain = runCli(['init', '--dir', p.dir], { env: p.env });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(
      `kept the existing policy ${p.policyPath} (to start over from a starter instead: persona-gate init --example NAME --force)`,
    );
    expect(
      runCli(['init', '--dir', p.dir, '--example', 'merge-captain'], { env: { ...p.env, PERSONA_GATE_LOCALE: 'es' } }).stderr,
    ).toContain('ya existe y no es el ejemplo merge-captain, así que no se ha cambiado nada');
  });

  it('replaces the policy and its test file with --force', () => {
    const p = project();
    runCli(['init', '--dir', p.dir, '--example', 'software-team'], { env: p.env });
    const r = runCli(['init', '--dir', p.dir, '--example', 'merge-captain', '--force'], { env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`replaced ${p.policyPath} with the merge-captain example (--force)`);
    expect(JSON.parse(readFileSync(p.policyPath, 'utf8')).personas.merge_captain).toBeDefined();
    expect(JSON.parse(readFileSync(join(p.dir, '.claude', 'persona-gate.test.json'), 'utf8')).cases[0].name).toBe(
      'the reviewer reads a pull request',
    );
  });

  it('names the next step in the form this install runs: npx for a project install, the bare name for one on PATH', () => {
    const global = project();
    expect(runCli(['init', '--dir', global.dir], { env: global.env }).stdout).toContain(
      'next: persona-gate doctor, then start Claude Code',
    );
    const local = project();
    installInProject(local.dir);
    const r = runCli(['init', '--dir', local.dir], { env: { ...local.env, PATH: process.env.PATH! }, cwd: local.dir });
    expect(r.stdout).toContain('next: npx persona-gate doctor, then start Claude Code');
    expect(r.stdout).toContain('npx persona-gate test runs them');
    const es = project();
    installInProject(es.dir);
    expect(runCli(['init', '--dir', es.dir], { env: { ...es.env, PERSONA_GATE_LOCALE: 'es' } }).stdout).toContain(
      'siguiente: npx persona-gate doctor',
    );
  });

  it('uninstall --purge removes the test file init wrote, and keeps one the user changed', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    const testPath = join(p.dir, '.claude', 'persona-gate.test.json');
    expect(runCli(['uninstall', '--dir', p.dir, '--purge'], { env: p.env }).stdout).toContain(`removed the policy tests ${testPath}`);
    expect(existsSync(testPath)).toBe(false);
    const q = project();
    runCli(['init', '--dir', q.dir], { env: q.env });
    const mine = join(q.dir, '.claude', 'persona-gate.test.json');
    writeFileSync(mine, JSON.stringify({ cases: [{ name: 'mine', call: { tool: 'Read' }, expect: { verdict: 'abstain' } }] }));
    expect(runCli(['uninstall', '--dir', q.dir, '--purge'], { env: q.env }).stdout).toContain(`kept the policy tests ${mine}`);
    expect(existsSync(mine)).toBe(true);
  });

  it('refuses to touch a settings file it cannot parse, and writes nothing', () => {
    const p = project('{ "hooks": { ');
    const r = runCli(['init', '--dir', p.dir], { env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not valid JSON');
    expect(readFileSync(p.settingsPath, 'utf8')).toBe('{ "hooks": { ');
    expect(() => readFileSync(p.policyPath)).toThrow();
  });

  it('refuses hooks that are not an object', () => {
    const p = project('{ "hooks": [] }');
    expect(runCli(['init', '--dir', p.dir], { env: p.env }).code).toBe(1);
  });
});

describe('doctor', () => {
  let claudeBin = '';
  // The pinned Claude Code, installed into the test cache on first use (a download the first time).
  beforeAll(() => {
    claudeBin = hostCli('claude-code');
  }, 900_000);

  it('passes after init, with the pinned Claude Code', () => {
    const p = project();
    p.env.PERSONA_GATE_CLAUDE_BIN = claudeBin;
    runCli(['init', '--dir', p.dir], { env: p.env });
    const r = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain('Claude Code 2.1.332 honours "onFailure": "block"');
    expect(r.stdout).toContain('the hook is registered for PostToolUseFailure');
    expect(r.stdout).toContain('all checks passed');
    expect(r.code).toBe(0);
  });

  it('reports each missing piece with its fix', () => {
    const p = project(
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'node /nowhere/persona-gate.js hook' }] }] },
      }),
    );
    const r = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL  the hook is not registered for PostToolUse\n      fix: run persona-gate init');
    expect(r.stdout).toContain('warn  the PreToolUse registration has no "onFailure": "block"');
    // a failed call has no PostToolUse: without this registration a brokered call's record outlives it
    expect(r.stdout).toContain('warn  the hook is not registered for PostToolUseFailure: a call rewritten for the broker that fails');
    expect(r.stdout).toContain('FAIL  the hook command does not exist: /nowhere/persona-gate.js');
    expect(r.stdout).toContain('FAIL  no policy found');
  });

  it('reports an invalid policy and a host too old for onFailure', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    writeFileSync(p.policyPath, '{"version": 2}');
    const fakeClaude = join(p.dir, 'claude-old');
    writeFileSync(fakeClaude, '#!/bin/sh\necho "2.1.197 (Claude Code)"\n', { mode: 0o755 });
    const r = runCli(['doctor', '--dir', p.dir], { env: { ...p.env, PERSONA_GATE_CLAUDE_BIN: fakeClaude }, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL  the policy .* has \d+ problems?/);
    expect(r.stdout).toContain('warn  Claude Code 2.1.197 ignores "onFailure": "block"');
  });
});

describe('doctor checks', () => {
  it('warns that a committed command naming a path of this machine breaks other clones', () => {
    const command = `node ${JSON.stringify(BIN)} hook`;
    const p = project(
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, onFailure: 'block' }] }] } }),
    );
    const r = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain(
      `warn  the hook command in ${p.settingsPath} names ${BIN}, a path of this machine: on a teammate's clone, a moved checkout or in CI every tool call is refused\n      fix: run persona-gate init`,
    );
  });

  it('fails a persona or stage the environment names that the policy does not declare', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    const typo = runCli(['doctor', '--dir', p.dir], { env: { ...p.env, PERSONA_GATE_PERSONA: 'cordinator' }, cwd: p.dir });
    expect(typo.code).toBe(1);
    expect(typo.stdout).toMatch(
      /^FAIL  PERSONA_GATE_PERSONA=cordinator is not a persona of the policy \(accepted: coordinator, .*verifier.*\): every tool call is refused\n      fix: correct or unset PERSONA_GATE_PERSONA$/m,
    );
    const good = runCli(['doctor', '--dir', p.dir], {
      env: { ...p.env, PERSONA_GATE_PERSONA: 'verifier', PERSONA_GATE_STAGE: 'review' },
      cwd: p.dir,
    });
    expect(good.stdout).toContain(
      'ok    PERSONA_GATE_PERSONA=verifier is a persona of the policy\nok    PERSONA_GATE_STAGE=review is a stage of the persona',
    );
    const stage = runCli(['doctor', '--dir', p.dir], {
      env: { ...p.env, PERSONA_GATE_PERSONA: 'verifier', PERSONA_GATE_STAGE: 'revew' },
      cwd: p.dir,
    });
    expect(stage.stdout).toContain('FAIL  PERSONA_GATE_STAGE=revew is not a stage of verifier (accepted: review, file)');
  });

  it('creates nothing, not even the state directory', () => {
    const p = project();
    // without the sandbox, init leaves the state directory to the hook too (with it, init records there what it added)
    runCli(['init', '--dir', p.dir, '--no-sandbox'], { env: p.env });
    const r = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain(
      `ok    the state directory ${join(p.dir, 'state')} does not exist yet: the hook creates it (mode 0700) on first use`,
    );
    expect(existsSync(join(p.dir, 'state'))).toBe(false);
    expect(existsSync(join(p.dir, 'prefs'))).toBe(false);
  });

  it('prints its checks as JSON', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    const r = runCli(['doctor', '--json', '--dir', p.dir], { env: { ...p.env, PERSONA_GATE_PERSONA: 'cordinator' }, cwd: p.dir });
    expect(r.code).toBe(1);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ ok: false, failed: 1 });
    expect(body.checks).toContainEqual({
      section: 'setup',
      level: 'fail',
      text: expect.stringContaining('PERSONA_GATE_PERSONA=cordinator'),
      fix: 'correct or unset PERSONA_GATE_PERSONA',
    });
    expect(body.checks).toContainEqual(expect.objectContaining({ section: 'hardened', level: 'warn' }));
  });
});

describe('validate --json', () => {
  it('prints the result, and each problem with its path', () => {
    const p = project();
    runCli(['init', '--dir', p.dir], { env: p.env });
    const ok = runCli(['validate', '--json', '--config', p.policyPath], { env: p.env });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      valid: true,
      path: p.policyPath,
      personas: expect.arrayContaining(['coordinator', 'modelo-preparer', 'verifier']),
      problems: [],
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    writeFileSync(p.policyPath, '{"version": 1, "catalog": {}, "personas": {"x": {"families": ["nope"], "ceiling": "loud"}}}');
    const bad = runCli(['validate', '--json', '--config', p.policyPath], { env: p.env });
    expect(bad.code).toBe(1);
    const body = JSON.parse(bad.stdout);
    expect(body.valid).toBe(false);
    expect(body.problems.map((x: { path: string }) => x.path)).toContain('personas.x.ceiling');
    writeFileSync(p.policyPath, '{');
    expect(JSON.parse(runCli(['validate', '--json', '--config', p.policyPath], { env: p.env }).stdout)).toMatchObject({
      valid: false,
      problems: [{ path: '' }],
    });
  });
});

/** A project and a separate home, with programs named bwrap and socat on PATH when `sandboxPrograms`. */
function hardenedProject(opts: { sandboxPrograms?: boolean } = {}) {
  const dir = tempDir('pg-hard-');
  const home = tempDir('pg-home-');
  const bin = tempDir('pg-bin-');
  mkdirSync(join(dir, '.claude'));
  if (opts.sandboxPrograms !== false)
    for (const p of ['bwrap', 'socat']) writeFileSync(join(bin, p), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  symlinkSync(BIN, join(bin, 'persona-gate'));
  const env = cleanEnv({
    HOME: home,
    PERSONA_GATE_STATE_DIR: join(home, 'state'),
    PERSONA_GATE_CONFIG_HOME: join(home, 'prefs'),
    PATH: `${bin}:${join(ROOT, 'node_modules', '.bin')}`,
  });
  delete env.CLAUDE_CONFIG_DIR;
  return {
    dir,
    home,
    env,
    userSettings: join(home, '.claude', 'settings.json'),
    projectSettings: join(dir, '.claude', 'settings.json'),
    policyPath: join(dir, '.claude', 'persona-gate.json'),
  };
}

describe('init --hardened', () => {
  it("registers at user level, turns the sandbox on with no way out, and guards persona-gate's files", () => {
    const p = hardenedProject();
    const r = runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(0);
    expect(existsSync(p.projectSettings)).toBe(false);
    const settings = JSON.parse(readFileSync(p.userSettings, 'utf8'));
    const command = `node ${JSON.stringify(join(ROOT, 'dist', 'persona-gate.cjs'))} hook`;
    for (const event of ['PreToolUse', 'PostToolUse', 'SessionStart'])
      expect(settings.hooks[event][0].hooks).toEqual([{ type: 'command', command, timeout: 10, onFailure: 'block' }]);
    expect(settings.sandbox).toMatchObject({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false });
    const beside = (name: string) => join(p.dir, '.claude', name);
    const guarded = [
      join(p.home, 'state'),
      p.policyPath,
      beside('persona-gate.lock.json'),
      beside('persona-gate.test.json'),
      p.userSettings,
      join(p.home, '.claude', 'persona-gate-launch.json'),
      p.projectSettings,
      beside('settings.local.json'),
      join(p.home, 'prefs', 'config.json'),
      ROOT,
    ];
    expect(settings.sandbox.filesystem.denyWrite).toEqual(guarded);
    expect(settings.permissions.deny).toEqual(guarded.map((g) => `Edit(/${g}${g === ROOT || g.endsWith('state') ? '/**' : ''})`));
    expect(statSync(join(p.home, 'state')).mode & 0o777).toBe(0o700);
    expect(runCli(['validate', '--config', p.policyPath], { env: p.env }).code).toBe(0);
    expect(r.stdout).toContain(
      'needs an administrator (init does not do these):\n  - copy the "hooks", "sandbox" and "permissions" entries of',
    );
    expect(r.stdout).toContain('/etc/claude-code/managed-settings.json');
  });

  it("changes nothing when run twice, and keeps the user's own settings", () => {
    const p = hardenedProject();
    mkdirSync(join(p.home, '.claude'));
    const own = {
      model: 'opus',
      sandbox: { network: { allowedDomains: ['example.com'] }, filesystem: { denyWrite: ['~/secrets'] } },
      permissions: { allow: ['Read'], deny: ['Bash(rm -rf:*)'] },
    };
    writeFileSync(p.userSettings, JSON.stringify(own));
    runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    const first = readFileSync(p.userSettings, 'utf8');
    const settings = JSON.parse(first);
    expect(settings.model).toBe('opus');
    expect(settings.sandbox.network).toEqual(own.sandbox.network);
    expect(settings.sandbox.filesystem.denyWrite[0]).toBe('~/secrets');
    expect(settings.permissions.allow).toEqual(['Read']);
    expect(settings.permissions.deny[0]).toBe('Bash(rm -rf:*)');
    const again = runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already registers the hook: unchanged');
    expect(again.stdout).toContain('already turns the sandbox on, with no way out of it: unchanged');
    expect(again.stdout).toContain("already guards persona-gate's files: unchanged");
    expect(readFileSync(p.userSettings, 'utf8')).toBe(first);
  });

  it('turns back on a sandbox the user settings had turned off, and writes to $CLAUDE_CONFIG_DIR when set', () => {
    const p = hardenedProject();
    const configDir = tempDir('pg-ccdir-');
    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ sandbox: { enabled: false, allowUnsandboxedCommands: true } }));
    const r = runCli(['init', '--hardened', '--dir', p.dir], { env: { ...p.env, CLAUDE_CONFIG_DIR: configDir }, cwd: p.dir });
    expect(r.stdout).toContain(
      `turned on Claude Code's sandbox in ${join(configDir, 'settings.json')} (sandbox.enabled: true, sandbox.failIfUnavailable: true, sandbox.allowUnsandboxedCommands: false)`,
    );
    expect(JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).sandbox).toMatchObject({
      enabled: true,
      allowUnsandboxedCommands: false,
    });
    expect(existsSync(p.userSettings)).toBe(false);
  });

  it('refuses user settings it cannot parse, and writes nothing', () => {
    const p = hardenedProject();
    mkdirSync(join(p.home, '.claude'));
    writeFileSync(p.userSettings, '{ "sandbox": ');
    const r = runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not valid JSON');
    expect(readFileSync(p.userSettings, 'utf8')).toBe('{ "sandbox": ');
    expect(existsSync(p.policyPath)).toBe(false);
    writeFileSync(p.userSettings, JSON.stringify({ sandbox: { filesystem: { denyWrite: 'x' } } }));
    expect(runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir }).stderr).toContain(
      '"sandbox.filesystem.denyWrite" is not an object',
    );
  });

  it('speaks Spanish', () => {
    const p = hardenedProject();
    const r = runCli(['init', '--hardened', '--dir', p.dir], { env: { ...p.env, PERSONA_GATE_LOCALE: 'es' }, cwd: p.dir });
    expect(r.stdout).toContain(`activado el sandbox de Claude Code en ${p.userSettings}`);
    expect(r.stdout).toContain('requiere un administrador (init no lo hace):');
  });
});

describe('doctor --hardened', () => {
  it('fails each missing part of a project-level deployment, with its fix', () => {
    const p = hardenedProject();
    runCli(['init', '--no-sandbox', '--dir', p.dir], { env: p.env, cwd: p.dir });
    const r = runCli(['doctor', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `FAIL  the hook is not registered at user level (${p.userSettings}): only a project file starts it\n      fix: run persona-gate init --hardened`,
    );
    expect(r.stdout).toContain("FAIL  Claude Code's sandbox is off: the agent's shell can write whatever this user can");
    expect(r.stdout).toContain('FAIL  a command can leave the sandbox through dangerouslyDisableSandbox');
    expect(r.stdout).toContain(
      `FAIL  persona-gate's state directory ${join(p.home, 'state')} is not guarded from the sandboxed shell and the edit tools`,
    );
    expect(r.stdout).toContain(`FAIL  the policy ${p.policyPath} is not guarded`);
    expect(r.stdout).toContain(`ok    persona-gate runs from ${ROOT}, outside the workspace`);
  });

  it('warns in one line, without failing, when plain doctor finds the same project-level deployment', () => {
    const p = hardenedProject();
    runCli(['init', '--dir', p.dir], { env: p.env, cwd: p.dir });
    const r = runCli(['doctor', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(0);
    const section = r.stdout.slice(r.stdout.indexOf('hardened deployment (what the agent cannot switch off):'));
    expect(section).toMatch(
      /^hardened deployment \(what the agent cannot switch off\):\nwarn {2}(\d+) of its (\d+) parts are not in place: the agent's shell can reach what the hook alone guards\n {6}fix: persona-gate doctor --hardened lists each part and its fix\n\n/,
    );
    expect(r.stdout).not.toContain("Claude Code's sandbox is off");
    // One warning for the whole deployment, as many as --hardened lists being missing.
    const [, missing] = /warn {2}(\d+) of its/.exec(section)!;
    const strict = runCli(['doctor', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(
      (strict.stdout.match(/^(FAIL|warn) /gm) ?? []).length -
        (r.stdout.slice(0, r.stdout.indexOf('hardened deployment')).match(/^(FAIL|warn) /gm) ?? []).length,
    ).toBe(Number(missing));
    expect(r.stdout.trimEnd().split('\n').pop()).toMatch(/^all checks passed \((\d+) warnings?\)$/);
    const es = runCli(['doctor', '--dir', p.dir], { env: { ...p.env, PERSONA_GATE_LOCALE: 'es' }, cwd: p.dir });
    expect(es.stdout).toMatch(/aviso \d+ de sus \d+ partes no están en su sitio/);
  });

  it('passes after init --hardened, warning only about what needs an administrator', () => {
    const p = hardenedProject();
    runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    const r = runCli(['doctor', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.stdout).toContain(`ok    the hook is registered at user level (${p.userSettings})`);
    expect(r.stdout).toContain("ok    Claude Code's sandbox is on (sandbox.enabled)");
    expect(r.stdout).toContain('ok    sandboxed commands have no way out (sandbox.allowUnsandboxedCommands: false)');
    expect(r.stdout).toContain(`ok    the policy ${p.policyPath} is not writable from the sandboxed shell or the edit tools`);
    expect(r.stdout).toContain(`ok    the user settings file ${p.userSettings} is not writable from the sandboxed shell or the edit tools`);
    expect(r.stdout).toContain('warn  the hook is not registered in managed settings (/etc/claude-code/managed-settings.json)');
    expect(r.stdout).not.toContain('FAIL');
    expect(r.code).toBe(0);
  });

  it("fails when a project file turns the sandbox off, or the sandbox's programs are missing", () => {
    const p = hardenedProject({ sandboxPrograms: false });
    runCli(['init', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    writeFileSync(join(p.dir, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: false } }));
    const r = runCli(['doctor', '--hardened', '--dir', p.dir], { env: p.env, cwd: p.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `FAIL  the project's settings turn Claude Code's sandbox off (${join(p.dir, '.claude', 'settings.local.json')})`,
    );
    expect(r.stdout).toContain("FAIL  the sandbox's programs are missing: bwrap, socat\n      fix: apt-get install bubblewrap socat");
  });
});

describe('config', () => {
  it('sets, gets and lists preferences, which the hook reads without conf', () => {
    const p = project();
    // A policy that leaves the locale to the user.
    const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    delete policy.locale;
    const policyPath = join(p.dir, 'policy.json');
    writeFileSync(policyPath, JSON.stringify(policy));
    expect(runCli(['config', 'set', 'locale', 'es'], { env: p.env })).toMatchObject({ code: 0, stdout: 'locale = es\n' });
    expect(runCli(['config', 'set', 'policy', policyPath], { env: p.env }).code).toBe(0);
    expect(runCli(['config', 'get', 'locale'], { env: p.env }).stdout).toBe('es\n');
    expect(runCli(['config', 'list'], { env: p.env }).stdout).toBe(`locale = es\npolicy = ${policyPath}\n`);
    // The hook finds the default policy and speaks Spanish.
    const r = runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create', {}, { cwd: p.dir }), env: p.env, cwd: p.dir });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/^persona-gate: esta sesión aún no ha confirmado/);
  });

  it('refuses unknown keys and invalid values', () => {
    const p = project();
    expect(runCli(['config', 'set', 'colour', 'red'], { env: p.env }).code).toBe(1);
    expect(runCli(['config', 'set', 'locale', 'fr'], { env: p.env }).code).toBe(1);
    expect(runCli(['config', 'get', 'policy'], { env: p.env })).toMatchObject({ code: 1, stderr: 'policy is not set\n' });
  });

  it('takes the state directory from the preferences', () => {
    const p = project();
    const stateDir = join(p.dir, 'from-prefs');
    runCli(['config', 'set', 'stateDir', stateDir], { env: p.env });
    const env = { ...p.env, PERSONA_GATE_STATE_DIR: '', PERSONA_GATE_CONFIG: TAX_POLICY_PATH };
    runCli(['hook'], { input: preEvent('mcp__aeat__whoami'), env });
    expect(runCli(['session', 'show', '--session', 'cli-session'], { env }).stdout).toContain('"seq": 1');
  });
});

describe('log', () => {
  /** Three calls of one session and one of another; the log of them as COLUMNS columns. */
  function logged(extra: Record<string, string> = {}) {
    const p = project();
    const env = { ...p.env, PERSONA_GATE_CONFIG: TAX_POLICY_PATH, COLUMNS: '72', ...extra };
    runCli(['hook'], { input: preEvent('mcp__aeat__modelo_list'), env: { ...env, PERSONA_GATE_PERSONA: 'coordinator' } });
    runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env: { ...env, PERSONA_GATE_PERSONA: 'coordinator' } });
    runCli(['hook'], { input: preEvent('mcp__aeat__modelo_export'), env: { ...env, PERSONA_GATE_PERSONA: 'modelo-preparer' } });
    return env;
  }
  const rowsOf = (text: string) => text.split('\n').filter((l) => /^\d\d:\d\d:\d\d {2}/.test(l));

  it('shows receipts as rows, filtered by persona and status', () => {
    const env = logged();
    expect(rowsOf(runCli(['log'], { env }).stdout)).toHaveLength(3);
    const denied = runCli(['log', '--status', 'permission_denied'], { env }).stdout;
    expect(rowsOf(denied)).toHaveLength(1);
    expect(rowsOf(denied)[0]).toMatch(/coordinator +deny +mcp__aeat__modelo_work_create →/);
    expect(
      runCli(['log', '--persona', 'modelo-preparer', '--json'], { env })
        .stdout.trim()
        .split('\n')
        .map((l) => JSON.parse(l).status),
    ).toEqual(['handoff_denied']);
  });

  it('fits the width, wraps every reason in full, and says what the rows and verdicts are', () => {
    const env = logged();
    const r = runCli(['log'], { env });
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(72);
    expect(lines[0]).toMatch(/^persona-gate log: 3 decisions, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d( to \d\d:\d\d:\d\d)? \(UTC\)$/);
    expect(r.stdout).toContain('All rows are one session, cli-session: what a call leaves');
    expect(r.stdout).toMatch(/^ {2}deny {5}refused: the reason under it says why and what to do instead$/m);
    expect(r.stdout).toMatch(/^ {2}abstain {2}let through: persona-gate has no objection/m);
    expect(r.stdout).not.toMatch(/^ {2}ask /m);
    // Every reason is there whole: its words, in order, across the wrapped lines.
    const receipts = runCli(['log', '--json'], { env })
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const text = r.stdout.replace(/\s+/g, ' ');
    for (const receipt of receipts.filter((x) => x.reason))
      expect(text).toContain(`${receipt.status}: ${receipt.reason.replace(/^persona-gate: /, '')}`);
    expect(r.stdout).not.toContain('…');
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('names the session of each row only when the rows are of several', () => {
    const env = logged();
    runCli(['hook'], { input: preEvent('Read', {}, { session_id: 'another-session' }), env });
    const r = runCli(['log'], { env });
    expect(r.stdout.split('\n')[0]).toContain('4 decisions in 2 sessions');
    expect(r.stdout).not.toContain('All rows are one session');
    expect(rowsOf(r.stdout).map((l) => l.split(/\s+/)[1])).toEqual(['cli-session', 'cli-session', 'cli-session', 'another-sess']);
    const es = runCli(['log'], { env: { ...env, PERSONA_GATE_LOCALE: 'es' } }).stdout;
    expect(es.split('\n')[0]).toContain('4 decisiones en 2 sesiones');
    expect(es).toContain('rechazada: el motivo debajo dice por qué');
  });

  it('--follow: the header and the full legend once, then each decision in the same columns, within the width', async () => {
    const env = logged();
    const child = spawn(process.execPath, [BIN, 'log', '--follow'], { env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    runCli(['hook'], { input: preEvent('mcp__aeat__modelo_export'), env: { ...env, PERSONA_GATE_PERSONA: 'classifier' } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill();
    expect(out.split('\n')[0]).toBe('persona-gate log --follow: each decision as it is made, until');
    for (const verdict of ['deny', 'ask', 'allow', 'abstain', '(recorded)', 'deny*'])
      expect(out).toMatch(new RegExp(`^  ${verdict.replace(/[()*]/g, '\\$&')} +\\S`, 'm'));
    for (const line of out.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(72);
    const rows = rowsOf(out);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.indexOf(r.includes('abstain') ? 'abstain' : 'deny'))).size).toBe(1);
    expect(out.replace(/\s+/g, ' ')).toContain(
      'and modelo.export is owned by the verifier persona. Finish your part and hand off to verifier',
    );
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)('colours the verdicts on a terminal only, and not under NO_COLOR', () => {
    const env = logged();
    const onTerminal = (extra: Record<string, string>) =>
      spawnSync('script', ['-qec', `${process.execPath} ${BIN} log`, '/dev/null'], {
        encoding: 'utf8',
        env: { ...env, ...extra },
        timeout: 30_000,
      }).stdout;
    expect(onTerminal({})).toContain('\u001b[31mdeny\u001b[0m');
    expect(onTerminal({ NO_COLOR: '1' })).not.toContain('\u001b[');
    expect(onTerminal({ TERM: 'dumb' })).not.toContain('\u001b[');
  });
});

describe('Spanish', () => {
  it('speaks Spanish in the CLI outputs', () => {
    const p = project();
    const env = { ...p.env, PERSONA_GATE_LOCALE: 'es', PERSONA_GATE_CONFIG: TAX_POLICY_PATH };
    expect(runCli(['explain', '--persona', 'coordinator', 'mcp__aeat__modelo_work_create'], { env }).stdout).toMatch(
      /^veredicto: deny[\s\S]*puertas:[\s\S]*scope +rechaza +persona-gate: la persona coordinator no puede ejecutar/,
    );
    expect(runCli(['list', '--persona', 'verifier'], { env }).stdout).toMatch(/^persona verifier: techo workspace_write/);
    expect(runCli(['validate'], { env }).stdout).toMatch(/válida \(7 personas, 22 órdenes\)/);
    const bad = join(p.dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ version: 1, catalog: { families: { modelo: { level: 'escritura' } } } }));
    const invalid = runCli(['validate', '--config', bad], { env });
    expect(invalid.stderr).toContain('catalog.families.modelo.level: "escritura" no es uno de "none", "read_only"');
    expect(invalid.stderr).toContain('1 problema');
    expect(runCli(['session', 'reset', '--session', 's'], { env }).stderr).toBe(
      'persona-gate: no hay ninguna sesión s (las sesiones que ha visto persona-gate: persona-gate log)\n',
    );
    runCli(['session', 'persona', 'verifier', '--session', 's'], { env });
    expect(runCli(['session', 'reset', '--session', 's'], { env }).stdout).toBe('sesión s: reiniciada\n');
    expect(runCli(['init', '--dir', p.dir], { env }).stdout).toContain('registrado el hook para');
  });

  it('gives help and usage errors in Spanish', () => {
    const env = { ...project().env, PERSONA_GATE_LOCALE: 'es' };
    const help = runCli(['stage', 'enter', '--help'], { env });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toBe(
      [
        'Uso: persona-gate stage enter [opciones] <nombre>',
        '',
        'entra en una etapa de la persona de la sesión',
        '',
        'Argumentos:',
        '  nombre           nombre de la etapa',
        '',
        'Opciones:',
        '  --session <id>   el identificador de la sesión',
        '  --config <ruta>  fichero de política',
        '  -h, --help       muestra la ayuda del comando',
        '',
      ].join('\n'),
    );
    const missing = runCli(['session', 'show'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: falta la opción obligatoria '--session <id>'\n\nUso: persona-gate session show \[opciones\]\n/);
    expect(runCli(['lst'], { env }).stderr).toMatch(/^error: comando desconocido 'lst'\n\(¿Quería decir list\?\)\n/);
  });
});
