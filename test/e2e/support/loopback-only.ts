import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs an agent host with no network but loopback: inside a new network namespace (`unshare -n`,
 * or `unshare -rn` where user namespaces are the only way in), whose loopback is brought up and
 * whose 127.0.0.1:PORT for each given port is piped, through a Unix socket, to the same port on
 * this process's 127.0.0.1 (where the scripted model listens). Nothing else is reachable: the
 * namespace has no other interface.
 */

export interface ConfinedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

let probed: string[] | null | undefined;

/** The unshare arguments that work here, or null when no network namespace can be made. */
export function confinement(): string[] | null {
  if (probed !== undefined) return probed;
  probed = null;
  for (const flags of [['-n'], ['-rn']]) {
    const r = spawnSync('unshare', [...flags, 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore', timeout: 10_000 });
    if (r.status === 0) {
      probed = flags;
      break;
    }
  }
  return probed;
}

// Runs inside the namespace: loopback up, one listener per forwarded port, then the host, whose
// exit code (or signal) it passes on.
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

/** Runs `command args` confined to loopback, with a timeout after which the whole process group is killed. */
export async function runConfined(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; ports: number[]; timeoutMs: number },
): Promise<ConfinedRun> {
  const flags = confinement();
  if (!flags) throw new Error('no network namespace can be made here (unshare -n and unshare -rn both fail)');
  const sockDir = mkdtempSync(join(tmpdir(), 'pg-net-'));
  const bridges: Server[] = [];
  const open = new Set<Socket>();
  const forwards: { port: number; socket: string }[] = [];
  for (const port of opts.ports) {
    const socket = join(sockDir, `${port}.sock`);
    const bridge = createServer((c: Socket) => {
      const t = connect(port, '127.0.0.1');
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
    forwards.push({ port, socket });
  }
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
      child.on('error', reject);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        // Whatever the host left running in its group (an MCP server, a hook) goes with it.
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // the group is gone
        }
        resolve({ code, signal, stdout, stderr, timedOut });
      });
    });
  } finally {
    for (const s of open) s.destroy();
    for (const b of bridges) await new Promise<void>((resolve) => b.close(() => resolve()));
    rmSync(sockDir, { recursive: true, force: true });
  }
}
