import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { describeConfined, runConfined } from './support/loopback-only';

/**
 * The confinement every agent host runs in: the forwards reach the model, and nothing else does —
 * not this machine's other loopback ports, not its other addresses, not the npm registry. The same
 * probe run unconfined reaches those ports and addresses, so a confinement that let it through
 * would fail here.
 */

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

/** A server that greets every connection with `name`, on a TCP port of HOST or on a Unix socket. */
async function greeter(name: string, where: { host: string } | { socket: string }): Promise<number> {
  const server: Server = createServer((c) => c.end(name));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('socket' in where) server.listen(where.socket, resolve);
    else server.listen(0, where.host, resolve);
  });
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return 'socket' in where ? 0 : (server.address() as { port: number }).port;
}

// Connects to each target (`host:port`, or a name to look up), prints what each gave: the greeting or the error code.
const PROBE = `
const net = require('node:net');
const dns = require('node:dns');
const targets = JSON.parse(process.argv[1]);
const out = {};
let left = targets.length;
const done = (t, v) => { out[t] = v; if (--left === 0) { process.stdout.write(JSON.stringify(out)); process.exit(0); } };
for (const t of targets) {
  if (!t.includes(':')) { dns.lookup(t, (e, a) => done(t, e ? e.code : 'resolved ' + a)); continue; }
  const i = t.lastIndexOf(':');
  const s = net.connect({ host: t.slice(0, i), port: Number(t.slice(i + 1)), timeout: 5000 });
  let got = '';
  s.on('data', (d) => (got += d));
  s.on('end', () => done(t, got || 'connected'));
  s.on('connect', () => { if (!got) setTimeout(() => { s.destroy(); done(t, got || 'connected'); }, 1000); });
  s.on('timeout', () => { s.destroy(); done(t, 'ETIMEDOUT'); });
  s.on('error', (e) => done(t, e.code));
}
`;

function externalAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return undefined;
}

describeConfined('the loopback-only confinement of agent hosts', () => {
  it('reaches the forwarded port and socket, and nothing else: not the other loopback ports, the machine’s addresses or the npm registry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-confine-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const model = await greeter('model', { host: '127.0.0.1' });
    const other = await greeter('other', { host: '127.0.0.1' });
    await greeter('socket-model', { socket: join(dir, 'model.sock') });
    const external = externalAddress();
    const anyAddress = await greeter('any-address', { host: '0.0.0.0' });
    // The registry by address as well as by name: a namespace with no resolver would fail the name alone.
    const registryIp = await lookup('registry.npmjs.org', { family: 4 }).then(
      (r) => r.address,
      () => '104.16.0.35',
    );
    const SOCKET_PORT = 8089;
    const targets = [
      `127.0.0.1:${model}`,
      `127.0.0.1:${SOCKET_PORT}`,
      `127.0.0.1:${other}`,
      `127.0.0.1:${anyAddress}`,
      ...(external ? [`${external}:${anyAddress}`] : []),
      `${registryIp}:443`,
      'registry.npmjs.org',
    ];

    // Unconfined, the probe reaches this machine's other ports (so it can tell a reachable one).
    // (Asynchronously: the servers answer from this process.)
    const outside = JSON.parse(
      (await promisify(execFile)(process.execPath, ['-e', PROBE, JSON.stringify(targets)], { encoding: 'utf8', timeout: 30_000 })).stdout,
    );
    expect(outside[`127.0.0.1:${other}`]).toBe('other');
    expect(outside[`127.0.0.1:${anyAddress}`]).toBe('any-address');
    if (external) expect(outside[`${external}:${anyAddress}`]).toBe('any-address');

    const run = await runConfined(process.execPath, ['-e', PROBE, JSON.stringify(targets)], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      forward: [model, { port: SOCKET_PORT, socket: join(dir, 'model.sock') }],
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const inside = JSON.parse(run.stdout);
    expect(inside[`127.0.0.1:${model}`]).toBe('model');
    expect(inside[`127.0.0.1:${SOCKET_PORT}`]).toBe('socket-model');
    // This process's loopback is not the namespace's: its other ports are not there.
    expect(inside[`127.0.0.1:${other}`]).toBe('ECONNREFUSED');
    expect(inside[`127.0.0.1:${anyAddress}`]).toBe('ECONNREFUSED');
    // No route anywhere else.
    if (external) expect(inside[`${external}:${anyAddress}`]).toBe('ENETUNREACH');
    expect(inside[`${registryIp}:443`]).toBe('ENETUNREACH');
    expect(inside['registry.npmjs.org']).toMatch(/^E/);
  });

  it('passes the exit code on, and kills the whole process group: at the timeout, and when the command exits first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-confine-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const opts = { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, forward: [], timeoutMs: 60_000 };
    // Gone, or dead and waiting for its parent to reap it.
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };

    expect((await runConfined('sh', ['-c', 'exit 3'], opts)).code).toBe(3);

    // Exits at once, leaving a child behind in its group.
    const left = await runConfined('sh', ['-c', `sleep 60 & echo $! > ${dir}/left.pid`], opts);
    expect(left.code).toBe(0);
    expect(left.timedOut).toBe(false);
    const leftPid = Number(readFileSync(join(dir, 'left.pid'), 'utf8'));
    await expect.poll(() => alive(leftPid), { timeout: 5_000 }).toBe(false);

    // Runs past its timeout, with a child.
    const hung = await runConfined('sh', ['-c', `sleep 60 & echo $! > ${dir}/hung.pid; wait`], { ...opts, timeoutMs: 1_500 });
    expect(hung.timedOut).toBe(true);
    expect(hung.ms).toBeLessThan(30_000);
    const hungPid = Number(readFileSync(join(dir, 'hung.pid'), 'utf8'));
    await expect.poll(() => alive(hungPid), { timeout: 5_000 }).toBe(false);
  });
});
