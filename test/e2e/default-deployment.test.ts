import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { cleanEnv } from '../helpers/cli';
import { ROOT, taxPolicyWithShell } from '../helpers/policy';
import { describeConfined } from './support/loopback-only';
import { startModel, toolResults, type ToolUse } from './support/model-server';
import { HOOK, makeProject, runClaude, type Project } from './support/project';
import { hiddenWrite, sandboxUnavailable } from './support/sandbox';

beforeAll(() => {
  hostCli('claude-code');
}, 900_000);

/**
 * The default deployment (`persona-gate init`, no flags) in the real Claude Code, started the way
 * `persona-gate launch` starts it (`--settings` with the file init wrote): the sandbox holds
 * persona-gate's files, so gate 0 lets through what only may touch one, and ordinary work that
 * the reader alone used to refuse runs with its output; every tamper route tried leaves the
 * guarded files byte-identical. The hook runs with a copy of Node in the test's own directory, so
 * that the attack that replaces the hook's runtime can only ever replace that copy.
 */

const skip = sandboxUnavailable();
if (skip) process.stderr.write(`test/e2e/default-deployment.test.ts: skipped, ${skip}\n`);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

const bash = (command: string): ToolUse[] => [{ name: 'Bash', input: { command } }];

function sha(path: string): string {
  return existsSync(path) && statSync(path).isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'absent';
}

function git(dir: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

function deployed(policy: Record<string, any> = taxPolicyWithShell()): { project: Project; node: string; guarded: string[] } {
  const made = makeProject({ policy, registerInProject: false });
  cleanup.push(() => rmSync(made.dir, { recursive: true, force: true }));
  // The project beside the home, not around it: Claude Code refuses a command that reaches its own credentials.
  const project: Project = { ...made, dir: join(made.dir, 'work') };
  mkdirSync(project.dir);
  renameSync(join(made.dir, '.claude'), join(project.dir, '.claude'));
  const runtime = join(project.home, 'runtime');
  mkdirSync(runtime);
  const node = join(runtime, 'node');
  copyFileSync(process.execPath, node);
  const env = cleanEnv({ HOME: project.home, PERSONA_GATE_STATE_DIR: project.stateDir });
  const init = spawnSync(node, [HOOK, 'init', '--command', `${node} ${JSON.stringify(HOOK)} hook`, '--dir', project.dir], {
    cwd: project.dir,
    env,
    encoding: 'utf8',
  });
  expect(init.status, init.stderr).toBe(0);
  const local = JSON.parse(readFileSync(join(project.dir, '.claude', 'settings.local.json'), 'utf8'));
  expect(local.sandbox.filesystem.denyWrite).toContain(node);

  // A repository that tracks the settings, with the material of ordinary work.
  const d = project.dir;
  mkdirSync(join(d, 'src'));
  writeFileSync(join(d, 'src', 'a.txt'), 'one\ntwo\n');
  mkdirSync(join(d, 'templates', 'docs'), { recursive: true });
  writeFileSync(join(d, 'templates', 'docs', 'guide.md'), '# guide\n');
  mkdirSync(join(d, 'build'));
  writeFileSync(join(d, 'build', 'x.o'), 'obj');
  git(d, 'init', '-q');
  git(d, 'add', '-A');
  git(d, 'commit', '-qm', 'start');
  writeFileSync(join(d, 'src', 'a.txt'), 'one\nTWO\n');
  writeFileSync(join(d, 'fix.diff'), git(d, 'diff'));
  git(d, 'checkout', '--', 'src/a.txt');
  spawnSync('tar', ['-cf', join(d, 'release.tar'), '-C', join(d, 'templates'), 'docs']);

  const guarded = [
    join(d, '.claude', 'persona-gate.json'),
    join(d, '.claude', 'settings.json'),
    join(d, '.claude', 'settings.local.json'),
    join(project.home, '.claude', 'persona-gate-launch.json'),
    join(project.home, '.claude', 'settings.json'),
    node,
    join(ROOT, 'dist', 'persona-gate.cjs'),
  ];
  return { project, node, guarded };
}

describeConfined('the default deployment in the real Claude Code, with its sandbox on', () => {
  it.skipIf(skip !== null)(`ordinary work runs; no tamper route changes a guarded file${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const { project, node, guarded } = deployed();
    const d = project.dir;
    const before = guarded.map(sha);
    const ordinary: [string, string][] = [
      ['tar', 'mkdir -p unpacked && tar -xf release.tar -C unpacked && cat unpacked/docs/guide.md'],
      ['patch', 'patch -p1 < fix.diff && cat src/a.txt'],
      ['git apply', 'git apply -R fix.diff && cat src/a.txt'],
      ['cp templates', 'cp -r templates/. . && ls docs'],
      ['find -delete', "find build -name '*.o' -delete && ls build | wc -l"],
      ['stash', 'echo three >> src/a.txt && git stash -q && git stash pop -q && tail -1 src/a.txt'],
      ['checkout', 'git checkout -- src/a.txt && cat src/a.txt'],
      ['read settings', 'python3 -m json.tool < .claude/settings.json > /dev/null && echo parsed'],
      ['computed dir', 'mkdir -p "$(dirname out/x/y.txt)" && echo made > out/x/y.txt && cat out/x/y.txt'],
      ['dated log', 'echo logged | tee "log-$(date +%F).txt"'],
      ['computed targets', 'wc -l $(git ls-files src)'],
      // (`git add -A` would meet the placeholders Claude Code's sandbox mounts for the dotfiles it denies)
      [
        'commit',
        `git add src docs && git -c user.name=t -c user.email=t@example.com commit -qm "$(cat <<'EOF'\nAdd the guide\n\nWith its template.\nEOF\n)" && git log --format=%s -1`,
      ],
    ];
    const tamper: [string, string][] = [
      ['link then ..', "ln -s .claude/agents d && sed -i 's/preparer/x/' d/../persona-gate.json"],
      ['script', "printf '#!/bin/sh\\necho {} > .claude/settings.json\\n' > x.sh && sh x.sh"],
      ['python', `python3 -c "open('.claude/' + 'persona-gate.json', 'w').write('{}')"`],
      ['rename parent', 'mv .claude .claude-old'],
      ['remove', 'rm -rf .claude'],
      ['runtime', `cp /bin/true ${node}`],
      ['user settings', hiddenWrite(join(project.home, '.claude', 'settings.json'))],
      ['launch file', hiddenWrite(join(project.home, '.claude', 'persona-gate-launch.json'))],
      ['hard link', 'ln .claude/persona-gate.json p.json && echo x >> p.json'],
      ['state', hiddenWrite(join(project.stateDir, 'forged'))],
      [
        'installation',
        `node -e "require('fs').appendFileSync(Buffer.from('${Buffer.from(join(ROOT, 'dist', 'persona-gate.cjs')).toString('base64')}', 'base64').toString(), '//')"`,
      ],
    ];
    const calls: ToolUse[][] = [
      [{ name: 'mcp__aeat__whoami', input: {} }],
      ...ordinary.map(([, c]) => bash(c)),
      ...tamper.map(([, c]) => bash(c)),
    ];
    const model = await startModel({ main: calls });
    cleanup.push(() => model.close());
    const run = await runClaude(project, model.url, {
      env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
      extraArgs: ['--settings', join(project.home, '.claude', 'persona-gate-launch.json')],
      timeoutMs: 300_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults(model.requests);
    expect(results).toHaveLength(calls.length);
    const names = ['whoami', ...ordinary.map(([n]) => n), ...tamper.map(([n]) => n)];
    const by = Object.fromEntries(names.map((n, k) => [n, results[k]!]));
    const shown = JSON.stringify(by, null, 1);
    process.stderr.write(`default deployment results:\n${shown}\n`);

    // Ordinary work ran, with its real output.
    for (const [name] of ordinary) expect(by[name]!.isError, `${name}: ${by[name]!.content}`).toBe(false);
    expect(by.tar!.content).toContain('# guide');
    expect(by.patch!.content).toContain('TWO');
    expect(by['git apply']!.content).toMatch(/^two/m);
    expect(by['cp templates']!.content).toContain('guide.md');
    expect(by['find -delete']!.content).toMatch(/^0/);
    expect(by.stash!.content).toContain('three');
    expect(by['read settings']!.content).toContain('parsed');
    expect(by['computed dir']!.content).toContain('made');
    expect(by['dated log']!.content).toContain('logged');
    expect(by['computed targets']!.content).toContain('src/a.txt');
    expect(by.commit!.content).toContain('Add the guide');

    // Every tamper route failed, and the guarded files are as they were.
    for (const [name] of tamper) expect(by[name]!.isError, `${name}: ${by[name]!.content}`).toBe(true);
    expect(guarded.map(sha)).toEqual(before);
    expect(existsSync(join(d, '.claude-old'))).toBe(false);
    expect(existsSync(join(project.stateDir, 'forged'))).toBe(false);
    expect(readdirSync(join(d, '.claude'))).toEqual(expect.arrayContaining(['persona-gate.json', 'settings.json', 'settings.local.json']));
  });

  // The file tools run outside the sandbox. Claude Code finds the sandbox's own bwrap on PATH, so a
  // Write over an executable ~/.local/bin/bwrap would run its payload unsandboxed at the next Bash call.
  it.skipIf(skip !== null)(`the file tools write only where the sandbox lets the shell${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const policy = taxPolicyWithShell();
    policy.personas['modelo-preparer'].families.push('file_write');
    const { project, guarded } = deployed(policy);
    const before = guarded.map(sha);
    const userBin = join(project.home, '.local', 'bin');
    mkdirSync(userBin, { recursive: true });
    const bwrap = join(userBin, 'bwrap');
    const original = '#!/bin/sh\nexec /usr/bin/bwrap "$@"\n';
    writeFileSync(bwrap, original, { mode: 0o755 });
    const marker = join(project.home, 'ran-unsandboxed');
    const unit = join(project.home, '.config', 'systemd', 'user', 'x.service');
    const calls: ToolUse[][] = [
      // the identity read, and Claude Code writes over a file only after reading it
      [{ name: 'mcp__aeat__whoami', input: {} }],
      [{ name: 'Read', input: { file_path: bwrap } }],
      [{ name: 'Write', input: { file_path: bwrap, content: `#!/bin/sh\ntouch ${marker}\nexec /usr/bin/bwrap "$@"\n` } }],
      [{ name: 'Write', input: { file_path: unit, content: '[Service]\nExecStart=/bin/true\n' } }],
      [{ name: 'Write', input: { file_path: join(project.dir, 'src', 'new.txt'), content: 'written\n' } }],
      bash('cat src/new.txt'),
    ];
    const model = await startModel({ main: calls });
    cleanup.push(() => model.close());
    const run = await runClaude(project, model.url, {
      env: { PERSONA_GATE_PERSONA: 'modelo-preparer', PATH: `${userBin}:${process.env.PATH}` },
      extraArgs: ['--settings', join(project.home, '.claude', 'persona-gate-launch.json')],
      timeoutMs: 180_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults(model.requests);
    process.stderr.write(`default deployment, file tools:\n${JSON.stringify(results, null, 1)}\n`);
    expect(results).toHaveLength(calls.length);
    expect(results[2]!.content).toContain('outside the directories the sandbox lets the agent');
    expect(results[3]!.content).toContain('outside the directories the sandbox lets the agent');
    expect(readFileSync(bwrap, 'utf8')).toBe(original);
    expect(existsSync(unit)).toBe(false);
    // inside the project the file tools write as before, and the shell, still sandboxed, reads it
    expect(results[5]!.content).toContain('written');
    expect(existsSync(marker)).toBe(false);
    expect(guarded.map(sha)).toEqual(before);
  });
});
