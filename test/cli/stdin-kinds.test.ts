// The hook reads its event from whatever stdin a host gives it: a socket (Claude Code, like any
// Node host, spawns hooks with a unix socket on stdin), a pipe, a file or a terminal; on the Node
// running the tests and on Node 22 (installed from npm into a cache folder on first use).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  constants,
  copyFileSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { BIN, cleanEnv, preEvent, tempDir, type Ran } from '../helpers/cli';
import { wrapBundle } from '../../src/io/code-cache';
import { installedNode, NODE22_VERSION } from '../helpers/node-runtime';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';

const EVENT = preEvent('mcp__aeat__modelo_work_create');
const REASON = /^persona-gate: the coordinator persona may not run modelo\.work\.create: /;

function setup(extra: Record<string, string> = {}) {
  const dir = tempDir();
  const policyPath = join(dir, 'policy.json');
  writeFileSync(policyPath, readFileSync(TAX_POLICY_PATH, 'utf8'));
  const env = cleanEnv({
    PERSONA_GATE_STATE_DIR: join(dir, 'state'),
    PERSONA_GATE_CONFIG: policyPath,
    PERSONA_GATE_PERSONA: 'coordinator',
    HOME: dir,
    ...extra,
  });
  for (const key of Object.keys(env)) if (key.startsWith('NODE_')) delete env[key];
  return { dir, env };
}

/** Collects a child's output; resolves when it has exited and its pipes are closed. */
function collect(child: ChildProcess, started: number, onExit: () => void = () => {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', onExit);
    child.on('close', (code) => resolve({ stdout, stderr, code, ms: Date.now() - started }));
  });
}

function expectDeny(r: Ran) {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout).hookSpecificOutput;
  expect(out.permissionDecision).toBe('deny');
  expect(out.permissionDecisionReason).toMatch(REASON);
}

/** What kind of stdin a child gets from each way of spawning it, seen from inside. */
const KIND_PROBE = `const fs=require('fs');const s=fs.fstatSync(0);process.stdout.write(s.isSocket()?'socket':s.isFIFO()?'fifo':s.isFile()?'file':require('tty').isatty(0)?'tty':'other')`;

/** Spawns through a terminal: python3's pty module gives the child a pseudo-terminal as stdin. */
const PTY_RUNNER = `
import json, os, pty, subprocess, sys
master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[2:], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=json.loads(os.environ['PG_CHILD_ENV']))
os.close(slave)
os.write(master, sys.argv[1].encode() + b'\\n')
out, err = child.communicate(timeout=60)
os.close(master)
sys.stdout.write(json.dumps({'stdout': out.decode(), 'stderr': err.decode(), 'code': child.returncode}))
`;

function viaPty(cmd: string[], env: Record<string, string>, input: string): Ran {
  const started = Date.now();
  const r = spawnSync('python3', ['-c', PTY_RUNNER, input, ...cmd], {
    env: { ...process.env, PG_CHILD_ENV: JSON.stringify(env) },
    encoding: 'utf8',
    timeout: 90_000,
    cwd: ROOT,
  });
  if (r.status !== 0) throw new Error(`pty runner failed: ${r.stderr}`);
  return { ...(JSON.parse(r.stdout) as Omit<Ran, 'ms'>), ms: Date.now() - started };
}

/** A socket on stdin, as a Node host spawns: the event written, stdin ended unless `keepOpen`. */
function viaSocket(cmd: string[], env: Record<string, string>, input: string, keepOpen = false): Promise<Ran> {
  const started = Date.now();
  const child = spawn(cmd[0]!, cmd.slice(1), { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.on('error', () => {});
  child.stdin!.write(input);
  if (!keepOpen) child.stdin!.end();
  return collect(child, started, () => child.stdin!.destroy());
}

/** A named FIFO on stdin whose writer stays open (never an end of input). */
function viaOpenFifo(cmd: string[], env: Record<string, string>, input: string): Promise<Ran> {
  const fifo = join(tempDir(), 'event.fifo');
  const made = spawnSync('mkfifo', [fifo]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  writeSync(writer, input);
  const started = Date.now();
  const child = spawn(cmd[0]!, cmd.slice(1), { env, cwd: ROOT, stdio: [reader, 'pipe', 'pipe'] });
  closeSync(reader);
  return collect(child, started, () => closeSync(writer));
}

/** An anonymous pipe on stdin, as a shell pipeline gives: `cat event | hook`. */
function viaShellPipe(cmd: string[], env: Record<string, string>, input: string): Promise<Ran> {
  const file = join(tempDir(), 'event.json');
  writeFileSync(file, input);
  const started = Date.now();
  const child = spawn('/bin/sh', ['-c', 'cat "$0" | "$@"', file, ...cmd], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child, started);
}

/** A regular file on stdin: `hook < event.json`. */
function viaFile(cmd: string[], env: Record<string, string>, input: string): Promise<Ran> {
  const file = join(tempDir(), 'event.json');
  writeFileSync(file, input);
  const fd = openSync(file, 'r');
  const started = Date.now();
  const child = spawn(cmd[0]!, cmd.slice(1), { env, cwd: ROOT, stdio: [fd, 'pipe', 'pipe'] });
  closeSync(fd);
  return collect(child, started);
}

/** Stdin and stdout one socket: a host that hands the hook both ends of one connection. */
async function viaSharedSocket(cmd: string[], env: Record<string, string>, input: string): Promise<Ran> {
  const path = join(tempDir(), 'host.sock');
  let hostSide: Socket | undefined;
  const server = createServer((s) => (hostSide = s));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const client = connect(path);
  await new Promise<void>((resolve) => client.on('connect', resolve));
  while (!hostSide) await new Promise((r) => setTimeout(r, 5));
  let answer = '';
  hostSide.on('data', (d) => (answer += d));
  const started = Date.now();
  const child = spawn(cmd[0]!, cmd.slice(1), { env, cwd: ROOT, stdio: [client, client, 'pipe'] });
  hostSide.write(input);
  const r = await collect(child, started);
  // The host still holds its end of the connection: the answer is whatever arrived before exit.
  await new Promise((resolve) => setTimeout(resolve, 50));
  client.destroy();
  hostSide.destroy();
  server.close();
  return { ...r, stdout: answer };
}

describe('the ways of spawning used below give the stdin they claim', () => {
  const probe = [process.execPath, '-e', KIND_PROBE];
  it.each([
    ['socket', () => viaSocket(probe, cleanEnv(), '')],
    ['fifo', () => viaShellPipe(probe, cleanEnv(), '')],
    ['fifo', () => viaOpenFifo(probe, cleanEnv(), '')],
    ['file', () => viaFile(probe, cleanEnv(), '')],
    ['tty', async () => viaPty(probe, cleanEnv(), '')],
  ])('%s', async (kind, run) => {
    expect((await run()).stdout).toBe(kind);
  });
});

const linuxX64 = process.platform === 'linux' && process.arch === 'x64';
const runtimes: { name: string; node: () => string; permissionFlag: string }[] = [
  {
    name: `Node ${process.version} (running the tests)`,
    node: () => process.execPath,
    permissionFlag: Number(process.versions.node.split('.')[0]) >= 22 ? '--permission' : '--experimental-permission',
  },
];
if (process.version !== `v${NODE22_VERSION}` && linuxX64)
  runtimes.push({ name: `Node v${NODE22_VERSION}`, node: () => installedNode(NODE22_VERSION), permissionFlag: '--permission' });

describe.each(runtimes)('hook stdin on $name', (runtime) => {
  let node = '';
  // A copy of dist: on a Node other than the one that built them, the hook replaces the code caches.
  let dist = '';
  beforeAll(() => {
    node = runtime.node();
    dist = mkdtempSync(join(tmpdir(), 'pg-dist-'));
    for (const f of readdirSync(join(BIN, '..'))) copyFileSync(join(BIN, '..', f), join(dist, f));
  }, 300_000);
  afterAll(() => rmSync(dist, { recursive: true, force: true }));
  const hook = () => [node, join(dist, 'persona-gate.cjs'), 'hook'];

  it('answers with the event on a socket that the host ends', async () => {
    expectDeny(await viaSocket(hook(), setup().env, EVENT));
  });

  it('answers as soon as the event is whole when the host keeps the socket open', async () => {
    // The deadline is far away: waiting for the end of input would end in the deadline's message.
    expectDeny(await viaSocket(hook(), setup({ PERSONA_GATE_DEADLINE_MS: '30000' }).env, EVENT, true));
  });

  it('answers an event written in pieces on a socket that is never ended', async () => {
    const { env } = setup();
    const child = spawn(node, hook().slice(1), { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const ran = collect(child, Date.now(), () => child.stdin!.destroy());
    const bytes = Buffer.from(EVENT);
    for (let i = 0; i < bytes.length; i += 40) {
      child.stdin!.write(bytes.subarray(i, i + 40));
      await new Promise((r) => setTimeout(r, 15));
    }
    expectDeny(await ran);
  });

  it('denies at the deadline when a socket never closes and the event never completes', async () => {
    const r = await viaSocket(hook(), setup({ PERSONA_GATE_DEADLINE_MS: '300' }).env, EVENT.slice(0, 60), true);
    expect(r).toMatchObject({ stdout: '', stderr: `${en.deadline(300)}\n`, code: 2 });
    expect(r.ms).toBeLessThan(10_000);
  });

  it('answers with the event on a pipe', async () => {
    expectDeny(await viaShellPipe(hook(), setup().env, EVENT));
  });

  it('answers as soon as the event is whole on a FIFO whose writer stays open', async () => {
    expectDeny(await viaOpenFifo(hook(), setup({ PERSONA_GATE_DEADLINE_MS: '30000' }).env, EVENT));
  });

  it('denies at the deadline when a FIFO never closes and the event never completes', async () => {
    const r = await viaOpenFifo(hook(), setup({ PERSONA_GATE_DEADLINE_MS: '300' }).env, EVENT.slice(0, 60));
    expect(r).toMatchObject({ stdout: '', stderr: `${en.deadline(300)}\n`, code: 2 });
    expect(r.ms).toBeLessThan(10_000);
  });

  it('answers with the event in a file', async () => {
    expectDeny(await viaFile(hook(), setup().env, EVENT));
  });

  // No host hands a hook a terminal: on one, a person is at the keyboard, and the hook shows its help at once.
  it('shows its help at once on a terminal, whatever is typed, and exits 0', () => {
    const r = viaPty(hook(), setup({ PERSONA_GATE_DEADLINE_MS: '30000' }).env, EVENT);
    expect(r.stdout).toMatch(/^Usage: persona-gate hook/);
    expect(r.stdout).not.toContain('permissionDecision');
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(20_000);
  });

  it('answers through process.stdin when the raw socket path is not available (permission model)', async () => {
    const cmd = [node, runtime.permissionFlag, '--allow-fs-read=*', '--allow-fs-write=*', ...hook().slice(1)];
    const r = await viaSocket(cmd, setup({ PERSONA_GATE_DEADLINE_MS: '30000' }).env, EVENT, true);
    // The permission model announces itself on stderr as experimental; the answer is on stdout.
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(REASON);
  });

  it('answers through process.stdin when stdin and stdout are one socket', async () => {
    expectDeny(await viaSharedSocket(hook(), setup({ PERSONA_GATE_DEADLINE_MS: '30000' }).env, EVENT));
  });

  it('after its first calls, runs from code caches this Node accepts', async () => {
    // A first call (the policy validated), a Bash call, another host's call: each bundle has run once on this Node.
    const { env } = setup();
    expectDeny(await viaSocket(hook(), env, EVENT));
    expect((await viaSocket(hook(), env, preEvent('Bash', { command: 'aeat modelo list' }))).code).toBe(0);
    expectDeny(await viaSocket([...hook(), '--host', 'codex'], env, EVENT));
    for (const bundle of ['hook.js', 'shell.js', 'policy-validate.js', 'hosts.js']) {
      const wrapped = join(tempDir(), 'wrapped.js');
      writeFileSync(wrapped, wrapBundle(readFileSync(join(dist, bundle), 'utf8')));
      const check = `const fs=require('fs');const vm=require('vm');const s=new vm.Script(fs.readFileSync(process.argv[1],'utf8'),{filename:process.argv[2],cachedData:fs.readFileSync(process.argv[2]+'.cache')});process.stdout.write(String(s.cachedDataRejected))`;
      const r = spawnSync(node, ['-e', check, wrapped, join(dist, bundle)], { encoding: 'utf8' });
      expect([bundle, r.stdout]).toEqual([bundle, 'false']);
    }
  });
});
