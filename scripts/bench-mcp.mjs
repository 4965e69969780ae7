// node scripts/bench-mcp.mjs: the hook with the tax-filing policy written by hand, next to the same
// policy taking its commands from the MCP lock (examples/tax-filing-mcp), and bare `node -e 0`;
// interleaved, the same event through the same stdin redirection. Prints medians and p90s in ms.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const work = mkdtempSync(join(tmpdir(), 'persona-gate-bench-mcp-'));
const bin = join(root, 'dist', 'persona-gate.cjs');
const event = join(work, 'event.json');
writeFileSync(
  event,
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'bench',
    tool_name: 'mcp__aeat__modelo_list',
    tool_input: {},
    tool_use_id: 'toolu_bench',
    cwd: work,
  }),
);
const base = { ...process.env, HOME: work };
for (const key of Object.keys(base)) if (key.startsWith('PERSONA_GATE_') || key === 'CLAUDE_PROJECT_DIR') delete base[key];
const hookEnv = (policy, state) => ({
  ...base,
  PERSONA_GATE_CONFIG: policy,
  PERSONA_GATE_STATE_DIR: join(work, state),
  PERSONA_GATE_PERSONA: 'coordinator',
});
const subjects = [
  { name: 'node -e 0', args: ['-e', '0'], env: base },
  { name: 'hook: hand-written policy', args: [bin, 'hook'], env: hookEnv(join(root, 'examples', 'tax-filing.json'), 'state-hand') },
  {
    name: 'hook: lock-backed policy',
    args: [bin, 'hook'],
    env: hookEnv(join(root, 'examples', 'tax-filing-mcp', '.claude', 'persona-gate.json'), 'state-lock'),
  },
];
const run = (s) => {
  const fd = openSync(event, 'r');
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, s.args, { stdio: [fd, 'pipe', 'pipe'], env: s.env });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  closeSync(fd);
  if (r.status !== 0 || r.stdout.length !== 0) throw new Error(`${s.name}: exit ${r.status}, ${r.stdout}${r.stderr}`);
  return ms;
};
for (const s of subjects) for (let i = 0; i < 3; i++) run(s);
const times = subjects.map(() => []);
for (let i = 0; i < RUNS; i++) subjects.forEach((s, k) => times[k].push(run(s)));
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
console.log(`${RUNS} interleaved runs each, node ${process.version}`);
subjects.forEach((s, k) =>
  console.log(
    `${s.name.padEnd(28)} median ${q(times[k], 0.5).toFixed(1).padStart(6)} ms   p90 ${q(times[k], 0.9).toFixed(1).padStart(6)} ms`,
  ),
);
rmSync(work, { recursive: true, force: true });
