import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';

/**
 * The one way an end-to-end suite runs an agent host: with no network but loopback. The host runs
 * inside a new network namespace (`unshare -n`, or `unshare -rn` where user namespaces are the only
 * way in), whose loopback is brought up and whose 127.0.0.1:PORT, for each forward, is piped to
 * the scripted model: to the same port on this process's 127.0.0.1, or to a Unix socket (sockets
 * are files, and cross network namespaces). Nothing else is reachable: the namespace has no other
 * interface, and this process's own 127.0.0.1 is not its 127.0.0.1.
 *
 * A host is never run unconfined: where no namespace can be made, `describeConfined` skips the
 * suite (and fails it when CI is set, so that CI never passes by skipping), and `runConfined` throws.
 */

export interface ConfinedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** How long the run took, in milliseconds. */
  ms: number;
}

/**
 * What the namespace's 127.0.0.1:PORT leads to. A number: the same port on this process's
 * 127.0.0.1. `{port, socket}`: the Unix socket at that path (for a model that listens on one).
 */
export type Forward = number | { port: number; socket: string };

let probed: string[] | null | undefined;

/** The unshare arguments that work here, or null when no network namespace can be made. */
export function confinement(): string[] | null {
  if (probed !== undefined) return probed;
  probed = null;
  for (const flags of [['-n'], ['-rn']]) {
    // Loopback comes up, and no interface but loopback holds an address.
    const r = spawnSync('unshare', [...flags, 'sh', '-c', 'ip link set lo up && ip -o addr show | grep -v " lo " | wc -l'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (r.status === 0 && r.stdout.trim() === '0') {
      probed = flags;
      break;
    }
  }
  return probed;
}

const NO_NAMESPACE =
  'no network namespace can be made here (unshare -n and unshare -rn both fail), and an agent host is never run with more network than loopback';

/**
 * A suite that runs an agent host: run where the host can be confined to loopback; skipped, with
 * the reason, where it cannot; failed instead when CI is set.
 */
export function describeConfined(name: string, body: () => void): void {
  if (confinement() !== null) {
    describe(name, body);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      throw new Error(`${NO_NAMESPACE}; CI is set, so the suite fails rather than skip`);
    });
    return;
  }
  console.warn(`skipped "${name}": ${NO_NAMESPACE}`);
  describe.skip(`${name} (skipped: ${NO_NAMESPACE})`, body);
}

// Runs inside the namespace: loopback up, one listener per forward (to its Unix socket), then the
// host, whose exit code it passes on.
const INSIDE = `
const { execFileSync, spawn } = require('node:child_process');
const net = require('node:net');
const [spec, cmd, ...args] = process.argv.slice(1);
execFileSync('ip', ['link', 'set', 'lo', 'up']);
const forwards = JSON.parse(spec);
let pending = forwards.length;
const start = () => {
  const child = spawn(cmd, args, { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write(String(e) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
};
for (const { port, socket } of forwards) {
  net.createServer((c) => {
    const u = net.connect(socket);
    c.pipe(u); u.pipe(c);
    c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  }).listen(port, '127.0.0.1', () => { if (--pending === 0) start(); });
}
if (forwards.length === 0) start();
`;

/**
 * Runs `command args` confined to loopback, in a process group of its own, with a timeout after
 * which the whole group is killed (and whatever the host left in it goes when it exits).
 */
export async function runConfined(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; forward: Forward[]; timeoutMs: number },
): Promise<ConfinedRun> {
  const flags = confinement();
  if (!flags) throw new Error(NO_NAMESPACE);
  const sockDir = mkdtempSync(join(tmpdir(), 'pg-net-'));
  const bridges: Server[] = [];
  const open = new Set<Socket>();
  const forwards: { port: number; socket: string }[] = [];
  for (const f of opts.forward) {
    if (typeof f !== 'number') {
      forwards.push(f);
      continue;
    }
    // A TCP port of this process's loopback: served on a Unix socket the namespace can reach.
    const socket = join(sockDir, `${f}.sock`);
    const bridge = createServer((c: Socket) => {
      const t = connect(f, '127.0.0.1');
      open.add(c).add(t);
      c.on('close', () => open.delete(c));
      t.on('close', () => open.delete(t));
      c.pipe(t);
      t.pipe(c);
      c.on('error', () => t.destroy());
      t.on('error', () => c.destroy());
    });
    await new Promise<void>((resolve) => bridge.listen(socket, resolve));
    bridges.push(bridge);
    forwards.push({ port: f, socket });
  }
  const started = Date.now();
  try {
    return await new Promise<ConfinedRun>((resolve, reject) => {
      const child = spawn('unshare', [...flags, process.execPath, '-e', INSIDE, JSON.stringify(forwards), command, ...args], {
        cwd: opts.cwd,
        env: opts.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, opts.timeoutMs);
      // Whatever the host left running in its group (an MCP server, a hook) goes with it, even
      // what still holds its output open.
      const killGroup = () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // the group is gone
        }
      };
      child.on('error', reject);
      child.on('exit', killGroup);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        killGroup();
        resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
      });
    });
  } finally {
    for (const s of open) s.destroy();
    for (const b of bridges) await new Promise<void>((resolve) => b.close(() => resolve()));
    rmSync(sockDir, { recursive: true, force: true });
  }
}
