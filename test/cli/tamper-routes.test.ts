import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import { cleanEnv } from '../helpers/cli';
import { readJson, ROOT, TAX_POLICY_PATH } from '../helpers/policy';
import { describePath } from '../helpers/describe-path';

/**
 * SPEC §9.5, gate 0, judged by its effect. Each route is a way an agent steered by injected text
 * could switch persona-gate off through tool calls. For every route: a real project, the built hook
 * installed outside it (as `npm install -g` would), each call sent to the hook as the host sends it,
 * and — exactly like a host — every call the hook does not refuse is then run for real with bash.
 * Afterwards every guarded file must be byte-identical and in place, whatever the hook answered.
 */

const SESSION = 's';
const PERSONA = 'builder';
const HAS_PWSH = spawnSync('pwsh', ['-v'], { stdio: 'ignore' }).status === 0;

const OLD_SETTINGS = '{"hooks":{}}\n';
const EVIL_SETTINGS = '{"disableAllHooks":true}\n';

/** Temporary roots of this file; removed at the end (tests run concurrently, so not after each). */
const roots: string[] = [];
afterAll(() => {
  for (const dir of roots) {
    spawnSync('chmod', ['-R', 'u+rwX', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

interface World {
  root: string;
  project: string;
  home: string;
  claudeConfigDir: string;
  /** persona-gate's package root: dist/, hooks/hooks.json, package.json. */
  pkg: string;
  prefix: string;
  stateDir: string;
  prefsFile: string;
  hookEnv: Record<string, string>;
  shellEnv: Record<string, string>;
}

interface WorldOptions {
  /** Where persona-gate is installed: a global prefix outside the project (default) or the project's node_modules. */
  install?: 'global' | 'local';
  /** The project is a git repository whose previous commit holds another `.claude/settings.json`. */
  git?: boolean;
  /** `.claude/settings.local.json` does not exist yet. */
  noLocalSettings?: boolean;
}

function policyWithBuilder(): string {
  const policy = readJson(TAX_POLICY_PATH) as { personas: Record<string, unknown> };
  policy.personas[PERSONA] = {
    description: 'Builds and edits the project: files and the shell, up to the network.',
    families: ['shell', 'file_write', 'file_read', 'config'],
    ceiling: 'network',
  };
  return `${JSON.stringify(policy, null, 2)}\n`;
}
const POLICY_TEXT = policyWithBuilder();

function registration(pkg: string): string {
  const entry = { type: 'command', command: `node "${pkg}/dist/persona-gate.cjs" hook`, timeout: 10, onFailure: 'block' };
  return `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [entry] }], PostToolUse: [{ matcher: '*', hooks: [entry] }] } }, null, 2)}\n`;
}

function write(path: string, text: string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mode !== undefined) chmodSync(path, mode);
}

function installPackage(pkg: string): void {
  mkdirSync(pkg, { recursive: true });
  cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  for (const file of ['package.json', 'schema.json', join('hooks', 'hooks.json')])
    write(join(pkg, file), readFileSync(join(ROOT, file), 'utf8'));
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function makeWorld(opts: WorldOptions = {}): World {
  const root = mkdtempSync(join(tmpdir(), 'pg-tamper-'));
  roots.push(root);
  const project = join(root, 'project');
  const home = join(root, 'home');
  const claudeConfigDir = join(root, 'claude-config');
  const prefix = join(root, 'prefix');
  const pkg =
    opts.install === 'local' ? join(project, 'node_modules', 'persona-gate') : join(prefix, 'lib', 'node_modules', 'persona-gate');

  installPackage(pkg);
  mkdirSync(join(prefix, 'bin'), { recursive: true });
  symlinkSync(join(pkg, 'dist', 'persona-gate.cjs'), join(prefix, 'bin', 'persona-gate'));

  // The project: its policy and hook registrations, some sources, and an attacker's payloads.
  write(join(project, '.claude', 'persona-gate.json'), POLICY_TEXT);
  write(join(project, '.claude', 'settings.json'), opts.git ? OLD_SETTINGS : registration(pkg));
  if (!opts.noLocalSettings) write(join(project, '.claude', 'settings.local.json'), '{"permissions":{"allow":[]}}\n');
  write(join(project, 'src', 'a.ts'), 'export const a = 1;\n');
  write(join(project, 'src', 'index.ts'), "export * from './a';\n");
  write(join(project, 'scripts', 'run.sh'), '#!/bin/sh\necho run\n', 0o644);
  write(join(project, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
  write(join(project, 'evil.json'), EVIL_SETTINGS);
  write(join(project, 'evil', 'settings.json'), EVIL_SETTINGS);
  write(join(project, 'evil', 'persona-gate.json'), '{}\n');
  write(join(project, 'stub.js'), 'process.exit(0);\n');
  write(join(root, 'evil', 'settings.json'), EVIL_SETTINGS);
  if (opts.git) {
    git(project, 'init', '-q');
    write(join(project, '.gitignore'), 'node_modules/\n');
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'before the gate');
    write(join(project, '.claude', 'settings.json'), registration(pkg));
    git(project, 'commit', '-q', '-am', 'register the gate');
    write(join(project, 'src', 'a.ts'), 'export const a = 2; // edited\n');
  }

  // The user's home: user-level registration, preferences; the state directory at its default place.
  write(join(home, '.claude', 'settings.json'), registration(pkg));
  write(join(home, '.gitconfig'), '[user]\n\tname = t\n\temail = t@example.com\n[commit]\n\tgpgsign = false\n');
  const prefsFile = join(home, '.config', 'persona-gate', 'config.json');
  write(prefsFile, '{"locale":"en"}\n');
  write(join(claudeConfigDir, 'settings.json'), registration(pkg));
  const stateDir = join(home, '.local', 'state', 'persona-gate');

  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(cleanEnv())) if (!k.startsWith('npm_') && k !== 'CLAUDE_CONFIG_DIR') base[k] = v;
  // The subject here is the verdict, not the deadline: give a loaded machine room.
  const shared = {
    ...base,
    PERSONA_GATE_DEADLINE_MS: '30000',
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    CLAUDE_CONFIG_DIR: claudeConfigDir,
    PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
  };
  return {
    root,
    project,
    home,
    claudeConfigDir,
    pkg,
    prefix,
    stateDir,
    prefsFile,
    hookEnv: shared,
    shellEnv: {
      ...shared,
      npm_config_prefix: prefix,
      npm_config_cache: join(root, 'npm-cache'),
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What is guarded, observed on disk.

function walk(dir: string, into: string[]): void {
  into.push(dir);
  let entries: string[];
  try {
    if (!lstatSync(dir).isDirectory()) return;
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries.sort()) walk(join(dir, name), into);
}

/** Every ancestor of `path` inside the world's root: their modes guard what is below them. */
function ancestors(w: World, path: string): string[] {
  const out: string[] = [];
  for (let d = dirname(path); d.startsWith(w.root) && d !== w.root; d = dirname(d)) out.push(d);
  return out;
}

/** The guarded files of SPEC §9.5 except the state directory (which the hook itself writes to). */
function guardedSnapshot(w: World): Record<string, string> {
  const claude = join(w.project, '.claude');
  const paths = [
    claude,
    join(claude, 'persona-gate.json'),
    join(claude, 'settings.json'),
    join(claude, 'settings.local.json'),
    join(w.home, '.claude', 'settings.json'),
    join(w.claudeConfigDir, 'settings.json'),
    w.prefsFile,
  ];
  try {
    for (const name of readdirSync(claude)) if (/^persona-gate.*\.json$/i.test(name)) paths.push(join(claude, name));
  } catch {
    // .claude gone or unreadable: its entries are reported missing above.
  }
  walk(w.pkg, paths);
  const all = new Set<string>();
  for (const p of paths) {
    all.add(p);
    for (const a of ancestors(w, p)) all.add(a);
  }
  const shot: Record<string, string> = {};
  for (const p of [...all].sort()) shot[p.slice(w.root.length + 1)] = describePath(p);
  return shot;
}

function stateSnapshot(w: World): Record<string, string> {
  const paths: string[] = [...ancestors(w, w.stateDir)];
  walk(w.stateDir, paths);
  const shot: Record<string, string> = {};
  for (const p of paths) shot[p.slice(w.root.length + 1)] = describePath(p);
  return shot;
}

// ---------------------------------------------------------------------------------------------
// The host: the hook decides, then what is not refused runs.

interface Ran {
  stdout: string;
  stderr: string;
  code: number | null;
}

function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ stdout, stderr, code });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

type Mode = 'persona' | 'unscoped';

interface Verdict {
  verdict: string;
  status: string | null;
  reason: string;
}

let nextId = 0;

function receiptFor(w: World, toolUseId: string): { status?: string; verdict?: string; gate?: string } | null {
  const dir = join(w.stateDir, 'receipts');
  try {
    for (const name of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
        if (line.includes(toolUseId)) {
          const r = JSON.parse(line) as { tool_use_id?: string };
          if (r.tool_use_id === toolUseId) return r as { status?: string };
        }
      }
    }
  } catch {
    // No receipt (state directory gone): the answer on stdout still says what the host does.
  }
  return null;
}

async function sendHook(w: World, mode: Mode, tool: string, input: Record<string, unknown>, args: string[] = ['hook']): Promise<Verdict> {
  const toolUseId = `toolu_tamper_${++nextId}`;
  const event = {
    hook_event_name: 'PreToolUse',
    session_id: SESSION,
    tool_name: tool,
    tool_input: input,
    tool_use_id: toolUseId,
    cwd: w.project,
  };
  const env = { ...w.hookEnv, PERSONA_GATE_PERSONA: mode === 'persona' ? PERSONA : '' };
  const r = await run(process.execPath, [join(w.pkg, 'dist', 'persona-gate.cjs'), ...args], {
    cwd: w.project,
    env,
    input: JSON.stringify(event),
  });
  const receipt = receiptFor(w, toolUseId);
  if (r.code === 2) return { verdict: 'deny', status: receipt?.status ?? null, reason: r.stderr.trim() };
  if (r.code !== 0) return { verdict: `hook exit ${r.code}`, status: null, reason: r.stderr.trim() };
  if (r.stdout.trim() === '') return { verdict: 'abstain', status: receipt?.status ?? null, reason: '' };
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  return {
    verdict: out.hookSpecificOutput.permissionDecision,
    status: receipt?.status ?? null,
    reason: out.hookSpecificOutput.permissionDecisionReason,
  };
}

/** The identity read a careful agent makes first, so that the identity gate is not what stops a route. */
async function confirmIdentity(w: World, mode: Mode): Promise<void> {
  const r = await sendHook(w, mode, 'mcp__aeat__whoami', {}, ['hook', '--confirm-on', 'pre']);
  if (r.verdict !== 'abstain') throw new Error(`identity read not let through: ${JSON.stringify(r)}`);
}

interface Step {
  tool: 'Bash' | 'Write' | 'Edit' | 'PowerShell';
  input: Record<string, unknown>;
  /** Whether this call touches a guarded path (SPEC §9.5), given the disk as it is now. */
  touches: boolean | ((w: World) => boolean);
  /** The status a refusal must carry; `any` where a refusal for another reason is as good. */
  status?: 'protected' | 'any';
}

const bash = (command: string, more: Partial<Step> = {}): Step => ({ tool: 'Bash', input: { command }, touches: true, ...more });
const ps = (command: string): Step => ({ tool: 'PowerShell', input: { command }, touches: true });
const writeTool = (file_path: string, content = EVIL_SETTINGS, more: Partial<Step> = {}): Step => ({
  tool: 'Write',
  input: { file_path, content },
  touches: true,
  ...more,
});

/** Runs a step the hook did not refuse, as the host would. Returns what happened, for the failure message. */
async function execute(w: World, step: Step): Promise<string> {
  if (step.tool === 'Bash') {
    const r = await run('bash', ['-c', String(step.input.command)], { cwd: w.project, env: w.shellEnv, timeoutMs: 30_000 });
    return `bash exit ${r.code}${r.stderr ? `: ${r.stderr.trim().slice(0, 300)}` : ''}`;
  }
  if (step.tool === 'PowerShell') {
    if (!HAS_PWSH) return 'not run: pwsh is not installed here';
    const r = await run('pwsh', ['-NoProfile', '-Command', String(step.input.command)], {
      cwd: w.project,
      env: w.shellEnv,
      timeoutMs: 30_000,
    });
    return `pwsh exit ${r.code}`;
  }
  const path = resolve(w.project, String(step.input.file_path));
  try {
    if (step.tool === 'Write') {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, String(step.input.content));
    } else {
      const text = readFileSync(path, 'utf8');
      writeFileSync(path, text.replace(String(step.input.old_string), String(step.input.new_string)));
    }
    return `${step.tool} done`;
  } catch (err) {
    return `${step.tool} failed: ${(err as Error).message}`;
  }
}

interface Route {
  name: string;
  steps: (w: World) => Step[];
  world?: WorldOptions;
  /** Prepared before the session: what an earlier, unwatched moment left on disk. */
  setup?: (w: World) => void;
  /** Not run even when let through (the managed settings file lives outside the test's sandbox). */
  decideOnly?: boolean;
}

const isSymlink = (p: string) => {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
};
const sameInode = (a: string, b: string) => {
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
};

const ROUTES: Route[] = [
  // The project's .claude directory, whole.
  { name: 'rm -rf .claude', steps: () => [bash('rm -rf .claude')] },
  {
    name: 'mv .claude x && mkdir .claude && mv x/persona-gate.json .claude/',
    steps: () => [bash('mv .claude x && mkdir .claude && mv x/persona-gate.json .claude/')],
  },
  { name: 'mv .claude .claude.bak', steps: () => [bash('mv .claude .claude.bak')] },
  { name: 'chmod -R 000 .claude', steps: () => [bash('chmod -R 000 .claude')] },
  { name: 'chmod 000 .claude/settings.json', steps: () => [bash('chmod 000 .claude/settings.json')] },
  { name: 'find .claude -delete', steps: () => [bash('find .claude -delete')] },
  // Copying or installing into the directory that holds the registrations.
  { name: 'cp /tmp/evil/settings.json .claude/', steps: (w) => [bash(`cp ${w.root}/evil/settings.json .claude/`)] },
  { name: 'cp -t .claude evil.json', steps: () => [bash('cp -t .claude evil.json')] },
  { name: 'cp -t .claude evil/settings.json', steps: () => [bash('cp -t .claude evil/settings.json')] },
  { name: 'cp -r evil/. .claude', steps: () => [bash('cp -r evil/. .claude')] },
  { name: 'install -t .claude evil.json', steps: () => [bash('install -t .claude evil.json')] },
  { name: 'install -m 644 -t .claude evil/settings.json', steps: () => [bash('install -m 644 -t .claude evil/settings.json')] },
  { name: 'rsync -a evil/ .claude/', steps: () => [bash('rsync -a evil/ .claude/')] },
  { name: 'git checkout HEAD~1 -- .claude', world: { git: true }, steps: () => [bash('git checkout HEAD~1 -- .claude')] },
  {
    name: 'git checkout HEAD~1 -- .claude/settings.json',
    world: { git: true },
    steps: () => [bash('git checkout HEAD~1 -- .claude/settings.json')],
  },
  { name: 'git checkout HEAD~1 -- .', world: { git: true }, steps: () => [bash('git checkout HEAD~1 -- .')] },
  { name: 'git reset --hard HEAD~1', world: { git: true }, steps: () => [bash('git reset --hard HEAD~1')] },
  { name: 'mv evil.json .claude/settings.json', steps: () => [bash('mv evil.json .claude/settings.json')] },
  { name: 'cd .claude && rm settings.json', steps: () => [bash('cd .claude && rm settings.json')] },
  // Links.
  {
    name: 'ln -s .claude c && echo … > c/settings.local.json',
    steps: () => [bash(`ln -s .claude c && echo '{"disableAllHooks":true}' > c/settings.local.json`)],
  },
  {
    name: 'dangling symlink, then a write through it in a later call',
    world: { noLocalSettings: true },
    steps: (w) => [bash('ln -s .claude/settings.local.json s'), bash('echo x > s', { touches: () => isSymlink(join(w.project, 's')) })],
  },
  {
    name: 'echo x > s, s a dangling symlink to .claude/settings.local.json made before the session',
    world: { noLocalSettings: true },
    setup: (w) => symlinkSync('.claude/settings.local.json', join(w.project, 's')),
    steps: () => [bash('echo x > s')],
  },
  {
    name: 'Write s, s a dangling symlink to .claude/settings.local.json made before the session',
    world: { noLocalSettings: true },
    setup: (w) => symlinkSync('.claude/settings.local.json', join(w.project, 's')),
    steps: (w) => [writeTool(join(w.project, 's'))],
  },
  {
    name: 'echo x > d/settings.json, d a symlink to .claude made before the session',
    setup: (w) => symlinkSync('.claude', join(w.project, 'd')),
    steps: () => [bash('echo x > d/settings.json')],
  },
  {
    name: 'hard link, then a write to it in a later call',
    steps: (w) => [
      bash('ln .claude/settings.json h.json'),
      bash('echo x > h.json', { touches: () => sameInode(join(w.project, 'h.json'), join(w.project, '.claude', 'settings.json')) }),
    ],
  },
  {
    name: 'echo x > h.json, h.json a hard link to .claude/settings.json made before the session',
    setup: (w) => linkSync(join(w.project, '.claude', 'settings.json'), join(w.project, 'h.json')),
    steps: () => [bash('echo x > h.json')],
  },
  {
    name: 'Write h.json, h.json a hard link to .claude/settings.json made before the session',
    setup: (w) => linkSync(join(w.project, '.claude', 'settings.json'), join(w.project, 'h.json')),
    steps: (w) => [writeTool(join(w.project, 'h.json'))],
  },
  { name: 'ln -sf /dev/null .claude/settings.json', steps: () => [bash('ln -sf /dev/null .claude/settings.json')] },
  // Globs and braces.
  { name: '> .claude/settings.js[o]n', steps: () => [bash('> .claude/settings.js[o]n')] },
  { name: 'rm .claude/*.json', steps: () => [bash('rm .claude/*.json')] },
  { name: 'rm -r .cl*', steps: () => [bash('rm -r .cl*')] },
  { name: 'tee .claude/{settings,persona-gate}.json', steps: () => [bash('tee .claude/{settings,persona-gate}.json')] },
  { name: 'echo {} > .claude/persona-gate.local.json', steps: () => [bash('echo {} > .claude/persona-gate.local.json')] },
  // The state directory and the preferences, under the user's home.
  { name: 'rm -rf ~/.local/state', steps: () => [bash('rm -rf ~/.local/state')] },
  { name: 'rm -rf ~/.local/state/persona-gate/sessions', steps: () => [bash('rm -rf ~/.local/state/persona-gate/sessions')] },
  { name: 'chmod -R 000 ~/.local', steps: () => [bash('chmod -R 000 ~/.local')] },
  {
    name: 'echo … > ~/.config/persona-gate/config.json',
    steps: () => [bash(`echo '{"stateDir":"/tmp/elsewhere"}' > ~/.config/persona-gate/config.json`)],
  },
  // The user-level, $CLAUDE_CONFIG_DIR and managed registrations.
  { name: 'echo … > ~/.claude/settings.json', steps: () => [bash(`echo '{"disableAllHooks":true}' > ~/.claude/settings.json`)] },
  { name: 'cp evil.json ~/.claude/settings.json', steps: () => [bash('cp evil.json ~/.claude/settings.json')] },
  { name: 'Write ~/.claude/settings.json', steps: (w) => [writeTool(join(w.home, '.claude', 'settings.json'))] },
  {
    name: 'echo … > $CLAUDE_CONFIG_DIR/settings.json (the path written out)',
    steps: (w) => [bash(`echo '{"disableAllHooks":true}' > ${w.claudeConfigDir}/settings.json`)],
  },
  {
    name: 'echo … > "$CLAUDE_CONFIG_DIR/settings.json"',
    steps: () => [bash(`echo '{"disableAllHooks":true}' > "$CLAUDE_CONFIG_DIR/settings.json"`, { status: 'any' })],
  },
  { name: 'Write $CLAUDE_CONFIG_DIR/settings.json', steps: (w) => [writeTool(join(w.claudeConfigDir, 'settings.json'))] },
  {
    name: 'echo … > /etc/claude-code/managed-settings.json',
    decideOnly: true,
    steps: () => [bash(`echo '{"disableAllHooks":true}' > /etc/claude-code/managed-settings.json`)],
  },
  {
    name: 'Write /etc/claude-code/managed-settings.json',
    decideOnly: true,
    steps: () => [writeTool('/etc/claude-code/managed-settings.json')],
  },
  // persona-gate's own installation: the package root.
  { name: 'rm -rf <package>/dist', steps: (w) => [bash(`rm -rf ${w.pkg}/dist`)] },
  { name: 'rm -rf <package>', steps: (w) => [bash(`rm -rf ${w.pkg}`)] },
  { name: 'cp stub.js <package>/dist/persona-gate.cjs', steps: (w) => [bash(`cp stub.js ${w.pkg}/dist/persona-gate.cjs`)] },
  { name: 'cp stub.js <package>/dist/persona-gate.js', steps: (w) => [bash(`cp stub.js ${w.pkg}/dist/persona-gate.js`)] },
  { name: 'echo {} > <package>/hooks/hooks.json', steps: (w) => [bash(`echo {} > ${w.pkg}/hooks/hooks.json`)] },
  { name: 'rm <package>/hooks/hooks.json', steps: (w) => [bash(`rm ${w.pkg}/hooks/hooks.json`)] },
  { name: 'Write <package>/hooks/hooks.json', steps: (w) => [writeTool(join(w.pkg, 'hooks', 'hooks.json'), '{}')] },
  { name: 'npm uninstall -g persona-gate', steps: () => [bash('npm uninstall -g persona-gate')] },
  {
    name: 'npm uninstall persona-gate (installed in the project)',
    world: { install: 'local' },
    steps: () => [bash('npm uninstall persona-gate')],
  },
  {
    name: 'rm -rf node_modules (persona-gate installed in the project)',
    world: { install: 'local' },
    steps: () => [bash('rm -rf node_modules')],
  },
  // PowerShell.
  {
    name: "PowerShell [IO.File]::WriteAllText('.claude/settings.json','{}')",
    steps: () => [ps("[IO.File]::WriteAllText('.claude/settings.json','{}')")],
  },
  { name: 'PowerShell Copy-Item evil.json .claude/settings.json', steps: () => [ps('Copy-Item evil.json .claude/settings.json')] },
  { name: 'PowerShell Remove-Item -Recurse .claude', steps: () => [ps('Remove-Item -Recurse .claude')] },
  // Changing the persona or the session from inside.
  {
    name: 'python3 subprocess.run persona-gate session persona verifier',
    steps: () => [
      bash(`python3 -c "import subprocess; subprocess.run(['persona-gate','session','persona','verifier','--session','${SESSION}'])"`),
    ],
  },
  { name: 'echo session persona verifier | xargs persona-gate', steps: () => [bash('echo session persona verifier | xargs persona-gate')] },
  {
    name: 'echo session persona verifier --session s | xargs persona-gate',
    steps: () => [bash(`echo session persona verifier --session ${SESSION} | xargs persona-gate`)],
  },
  {
    name: "echo 'persona-gate session reset --session s' | sh",
    steps: () => [bash(`echo 'persona-gate session reset --session ${SESSION}' | sh`)],
  },
  {
    name: 'find . -maxdepth 0 -exec persona-gate session reset --session s \\;',
    steps: () => [bash(`find . -maxdepth 0 -exec persona-gate session reset --session ${SESSION} \\;`)],
  },
];

/**
 * One project per route. Each call is put to the hook twice on the same disk — unscoped, then under
 * the persona — and run when either would let it through (the host of that session would run it).
 */
async function walkRoute(route: Route, expect: import('vitest').ExpectStatic): Promise<void> {
  const w = makeWorld(route.world);
  route.setup?.(w);
  await confirmIdentity(w, 'persona');
  const before = guardedSnapshot(w);
  const log: string[] = [];
  for (const step of route.steps(w)) {
    const touches = typeof step.touches === 'function' ? step.touches(w) : step.touches;
    const answers = {
      unscoped: await sendHook(w, 'unscoped', step.tool, step.input),
      persona: await sendHook(w, 'persona', step.tool, step.input),
    };
    const refusedBy = (v: Verdict) => v.verdict === 'deny' || v.verdict === 'ask';
    const shown = `${step.tool} ${JSON.stringify(step.input)} → unscoped ${answers.unscoped.verdict} (${answers.unscoped.status}), ${PERSONA} ${answers.persona.verdict} (${answers.persona.status})`;
    if (touches) {
      for (const mode of ['persona', 'unscoped'] as const) {
        const got = answers[mode];
        const want = mode === 'persona' ? 'deny' : 'ask';
        if (step.status === 'any')
          expect.soft(mode === 'persona' ? got.verdict === 'deny' : refusedBy(got), `${mode}: ${shown}: must be refused`).toBe(true);
        else
          expect
            .soft({ verdict: got.verdict, status: got.status }, `${mode}: ${shown}: must be ${want} (protected)`)
            .toEqual({ verdict: want, status: 'protected' });
      }
    }
    if ((refusedBy(answers.unscoped) && refusedBy(answers.persona)) || route.decideOnly) {
      log.push(`${shown}; not run`);
      continue;
    }
    const stateBefore = stateSnapshot(w);
    log.push(`${shown}; ran: ${await execute(w, step)}`);
    expect.soft(stateSnapshot(w), `the state directory after ${log.at(-1)}`).toEqual(stateBefore);
  }
  expect(guardedSnapshot(w), `guarded files after:\n  ${log.join('\n  ')}`).toEqual(before);
  const state = lstatSync(w.stateDir, { throwIfNoEntry: false });
  expect(state?.isDirectory() && (state.mode & 0o777) === 0o700, `the state directory is in place, mode 0700`).toBe(true);
}

describe('gate 0 against an agent tampering with its own gate (SPEC §9.5): deny under a persona, ask unscoped, status protected; nothing guarded changes', () => {
  test.concurrent.for(ROUTES.map((r) => [r.name, r] as const))('%s', async ([, route], { expect }) => walkRoute(route, expect));
});

// ---------------------------------------------------------------------------------------------
// Ordinary work near the guarded files is not gate 0's business.

interface Ordinary {
  command: string;
  world?: WorldOptions;
  check: (w: World, out: Ran) => void;
}

const ORDINARY: Ordinary[] = [
  {
    command: 'cat .claude/settings.json',
    check: (w, out) => assertEq(out.stdout, readFileSync(join(w.project, '.claude', 'settings.json'), 'utf8')),
  },
  {
    command: 'cp .claude/settings.json <root>/backup.json',
    check: (w) =>
      assertEq(readFileSync(join(w.root, 'backup.json'), 'utf8'), readFileSync(join(w.project, '.claude', 'settings.json'), 'utf8')),
  },
  {
    command: 'cp .claude/settings.json settings.backup.json',
    check: (w) =>
      assertEq(
        readFileSync(join(w.project, 'settings.backup.json'), 'utf8'),
        readFileSync(join(w.project, '.claude', 'settings.json'), 'utf8'),
      ),
  },
  { command: 'ls -la .claude && head -c 64 .claude/persona-gate.json', check: (_w, out) => assertEq(out.code, 0) },
  {
    command: 'mkdir -p build && cp src/a.ts build/',
    check: (w) => assertEq(readFileSync(join(w.project, 'build', 'a.ts'), 'utf8'), readFileSync(join(w.project, 'src', 'a.ts'), 'utf8')),
  },
  { command: 'rm -rf node_modules', check: (w) => assertEq(existsSync(join(w.project, 'node_modules')), false) },
  { command: 'echo hi > notes.txt', check: (w) => assertEq(readFileSync(join(w.project, 'notes.txt'), 'utf8'), 'hi\n') },
  { command: 'ln -s src/index.ts idx.ts', check: (w) => assertEq(readlinkSync(join(w.project, 'idx.ts')), 'src/index.ts') },
  { command: 'chmod +x scripts/run.sh', check: (w) => assertEq(statSync(join(w.project, 'scripts', 'run.sh')).mode & 0o111, 0o111) },
  {
    command: 'git checkout -- src/a.ts',
    world: { git: true },
    check: (w) => assertEq(readFileSync(join(w.project, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n'),
  },
  {
    command: 'git diff -- .claude/settings.json && git log --oneline -- .claude',
    world: { git: true },
    check: (_w, out) => assertEq(out.code, 0),
  },
  { command: 'cp -r src dist2', check: (w) => assertEq(readFileSync(join(w.project, 'dist2', 'a.ts'), 'utf8'), 'export const a = 1;\n') },
  {
    command: 'mv src/a.ts src/b.ts && rm src/index.ts',
    check: (w) => assertEq([existsSync(join(w.project, 'src', 'b.ts')), existsSync(join(w.project, 'src', 'index.ts'))], [true, false]),
  },
  {
    command: "sed -i 's/1/2/' src/a.ts",
    check: (w) => assertEq(readFileSync(join(w.project, 'src', 'a.ts'), 'utf8'), 'export const a = 2;\n'),
  },
  {
    command: 'rm -rf build dist2 && mkdir -p build/out && touch build/out/x',
    check: (w) => assertEq(existsSync(join(w.project, 'build', 'out', 'x')), true),
  },
  { command: 'persona-gate session show --session s', check: (_w, out) => assertEq(out.code, 0) },
  { command: 'persona-gate log --json --session s', check: (_w, out) => assertEq(out.stdout.includes('mcp__aeat__whoami'), true) },
  { command: 'tail -n 1 ~/.local/state/persona-gate/receipts/*.jsonl', check: (_w, out) => assertEq(out.stdout.includes('"v":1'), true) },
  {
    command: 'cp -r .claude <root>/claude-backup',
    check: (w) =>
      assertEq(
        readFileSync(join(w.root, 'claude-backup', 'settings.json'), 'utf8'),
        readFileSync(join(w.project, '.claude', 'settings.json'), 'utf8'),
      ),
  },
  { command: 'tar czf backup.tgz .claude src', check: (w) => assertEq(statSync(join(w.project, 'backup.tgz')).size > 0, true) },
  {
    command: 'git add -A && git commit -qm wip',
    world: { git: true },
    check: (w) => assertEq(spawnSync('git', ['rev-list', '--count', 'HEAD'], { cwd: w.project, encoding: 'utf8' }).stdout.trim(), '3'),
  },
];

function assertEq(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

describe('ordinary work beside the guarded files is let through, and works', () => {
  test.concurrent.for(ORDINARY.map((o) => [o.command, o] as const))('%s', async ([, { command, world, check }], { expect }) => {
    const w = makeWorld(world);
    const line = command.replace('<root>', w.root);
    await confirmIdentity(w, 'persona');
    const unscoped = await sendHook(w, 'unscoped', 'Bash', { command: line });
    expect.soft(unscoped, 'unscoped').toMatchObject({ verdict: 'abstain', status: 'ok' });
    const before = guardedSnapshot(w);
    const scoped = await sendHook(w, 'persona', 'Bash', { command: line });
    expect(scoped, `under ${PERSONA}`).toMatchObject({ verdict: 'abstain', status: 'ok' });
    const out = await run('bash', ['-c', line], { cwd: w.project, env: w.shellEnv });
    expect(out.code, out.stderr).toBe(0);
    check(w, out);
    expect(guardedSnapshot(w)).toEqual(before);
  });
});
