// A brokered start's cost: a launched program started by another program (here `sh -c`) on a call
// the hook rewrote, through its shim and the broker (judged, receipt written, bwrap), against the
// program alone, bubblewrap's confinement alone and a bare Node start. Runs interleaved, so that
// the machine's load falls on every path alike. The deployment is made by `init --hardened` in a
// scratch home; the program is a stub.
// Usage: npm run build && node scripts/broker-bench.mjs [runs]
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { refused } from './refused.mjs';

const runs = Number(process.argv[2] ?? 40);
const work = mkdtempSync(join(tmpdir(), 'pg-broker-bench-'));
const bin = resolve('dist/persona-gate.cjs');
try {
  const project = join(work, 'project');
  const home = join(work, 'home');
  const stateDir = join(work, 'state');
  const opt = join(work, 'opt', 'aeat', 'bin');
  for (const d of [join(project, '.claude'), join(home, '.aeat'), opt]) mkdirSync(d, { recursive: true });
  const policy = JSON.parse(readFileSync('examples/tax-filing.json', 'utf8'));
  policy.personas['modelo-preparer'].families.push('shell');
  policy.personas['modelo-preparer'].ceiling = 'process_exec';
  writeFileSync(join(project, '.claude', 'persona-gate.json'), JSON.stringify(policy));
  const stub = join(opt, 'aeat');
  writeFileSync(stub, '#!/bin/sh\nexit 0\n');
  chmodSync(stub, 0o755);
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERSONA_GATE_'))),
    HOME: home,
    PERSONA_GATE_STATE_DIR: stateDir,
    CLAUDE_PROJECT_DIR: project,
    PERSONA_GATE_PERSONA: 'modelo-preparer',
    PATH: `${opt}${delimiter}${process.env.PATH}`,
  };
  const cli = (args, input = '') => spawnSync(process.execPath, [bin, ...args], { env, cwd: project, input, encoding: 'utf8' });
  if (cli(['init', '--hardened', '--dir', project]).status !== 0) throw new Error('init --hardened failed');
  const hook = (event) => {
    const out = cli(['hook'], JSON.stringify({ session_id: 'bench', cwd: project, tool_name: 'Bash', ...event })).stdout;
    return out ? JSON.parse(out).hookSpecificOutput : null;
  };
  // The identity read through the launcher, confirmed by its post event.
  const who = hook({ hook_event_name: 'PreToolUse', tool_input: { command: 'aeat whoami' }, tool_use_id: 'toolu_who' });
  const whoOut = execFileSync('bash', ['-c', who.updatedInput.command], { env, cwd: project, encoding: 'utf8' });
  hook({
    hook_event_name: 'PostToolUse',
    tool_input: who.updatedInput,
    tool_use_id: 'toolu_who',
    tool_response: { stdout: whoOut, stderr: '', interrupted: false },
  });
  // A call that runs code, rewritten for the broker; its prefix is what every brokered start below runs under.
  const call = hook({ hook_event_name: 'PreToolUse', tool_input: { command: 'sh x.sh' }, tool_use_id: 'toolu_call' });
  const prefix = call.updatedInput.command.split('\n')[0];
  // as Claude Code runs a call (a shell that evals it): bash would otherwise exec the last command in
  // place of itself, and the broker finds the call's secret in the command line of an ancestor
  const inCall = (line, opts) => execFileSync('bash', ['-c', 'eval "$1"', 'bash', `${prefix}\n${line}`], { cwd: project, env, ...opts });
  const confined = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', project, project, '--', stub, 'whoami'];
  const paths = {
    'the program alone (sh -c)': () => execFileSync('sh', ['-c', `${stub} whoami`], { cwd: project, env }),
    'bwrap + the program': () => execFileSync('bwrap', confined, { cwd: project }),
    'node -e 0 (one Node start)': () => execFileSync(process.execPath, ['-e', '0']),
    'brokered, allowed start': () => inCall(`sh -c 'aeat whoami'`),
    'brokered, refused start': () => refused(() => inCall(`sh -c 'aeat modelo export'`, { stdio: 'ignore' })),
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
    `${runs} interleaved runs each, node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const [name, a] of Object.entries(times))
    console.log(`${name.padEnd(32)} median ${q(a, 0.5).toFixed(1).padStart(6)} ms   p90 ${q(a, 0.9).toFixed(1).padStart(6)} ms`);
  const m = (k) => q(times[k], 0.5);
  console.log(
    `brokered over bwrap + program: ${(m('brokered, allowed start') - m('bwrap + the program')).toFixed(1)} ms; one Node start: ${m('node -e 0 (one Node start)').toFixed(1)} ms`,
  );
  if (!existsSync(join(stateDir, 'receipts'))) throw new Error('no receipts were written');
} finally {
  rmSync(work, { recursive: true, force: true });
}
