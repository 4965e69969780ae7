// The launcher's start cost: one start of a program through dist/persona-gate-exec.cjs (ticket
// taken, receipt written, bwrap), against the program alone, bubblewrap's confinement alone and a
// bare Node start. Runs interleaved, so that the machine's load falls on every path alike.
// The launcher is run as the excluded command runs it: node by its absolute path.
// Usage: npm run build && node scripts/exec-bench.mjs [runs]
import { buildSync } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { refused } from './refused.mjs';

const runs = Number(process.argv[2] ?? 40);
const work = mkdtempSync(join(tmpdir(), 'pg-exec-bench-'));
const require = createRequire(import.meta.url);
try {
  // The ticket and confinement code, from the sources.
  buildSync({
    entryPoints: ['src/exec/tickets.ts', 'src/exec/confine.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outdir: join(work, 'lib'),
    logLevel: 'warning',
  });
  const { leaveTicket } = require(join(work, 'lib', 'tickets.js'));
  const { bwrapArgs } = require(join(work, 'lib', 'confine.js'));
  const stateDir = join(work, 'state');
  const project = join(work, 'project');
  const bin = join(work, 'opt', 'stub', 'bin');
  mkdirSync(stateDir, { mode: 0o700 });
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(bin, { recursive: true });
  const stub = join(bin, 'stub');
  writeFileSync(stub, '#!/bin/sh\nexit 0\n');
  chmodSync(stub, 0o755);
  const launcher = resolve('dist/persona-gate-exec.cjs');
  writeFileSync(
    join(stateDir, 'exec.json'),
    JSON.stringify({ v: 1, runtime: process.execPath, launcher, programs: { stub }, readOnly: [stateDir] }),
    { mode: 0o600 },
  );
  const env = { ...process.env, PERSONA_GATE_STATE_DIR: stateDir, HOME: work };
  const ticket = () =>
    leaveTicket(stateDir, {
      v: 1,
      program: stub,
      args: ['x'],
      project,
      session_id: 'bench',
      tool_use_id: null,
      agent_id: null,
      agent_type: null,
      persona: null,
      stage: null,
      command_key: 'stub',
      policy_sha256: null,
      locale: 'en',
      expires: Date.now() + 60_000,
    });
  const confined = bwrapArgs({ project, cwd: project, readOnly: [stateDir], tmpdir: null, program: stub, args: ['x'], exists: existsSync });
  const paths = {
    'the program alone': () => execFileSync(stub, ['x'], { cwd: project }),
    'bwrap + the program': () => execFileSync('bwrap', confined, { cwd: project }),
    'node -e 0 (one Node start)': () => execFileSync(process.execPath, ['-e', '0']),
    'launcher, allowed start': () => {
      execFileSync(process.execPath, [launcher, stub, `--persona-gate-ticket=${ticket()}`, 'x'], { cwd: project, env });
    },
    'launcher, refused (no ticket)': () =>
      refused(() => execFileSync(process.execPath, [launcher, stub, 'x'], { cwd: project, env, stdio: 'ignore' })),
  };
  const times = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  for (let i = 0; i < runs + 3; i++) {
    for (const [name, fn] of Object.entries(paths)) {
      const t0 = process.hrtime.bigint();
      fn();
      if (i >= 3) times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  const q = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))];
  console.log(
    `${runs} interleaved runs each, node ${process.version}, load ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const [name, a] of Object.entries(times))
    console.log(`${name.padEnd(32)} median ${q(a, 0.5).toFixed(1).padStart(6)} ms   p90 ${q(a, 0.9).toFixed(1).padStart(6)} ms`);
  const m = (k) => q(times[k], 0.5);
  console.log(
    `launcher over bwrap + program: ${(m('launcher, allowed start') - m('bwrap + the program')).toFixed(1)} ms; one Node start over the program: ${(m('node -e 0 (one Node start)') - m('the program alone')).toFixed(1)} ms`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
