// Runs the built hook, as Claude Code would, on the example tax-filing policy over
// examples/demo-events.json (one session), and prints tool call → verdict → reason.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const events = JSON.parse(readFileSync(join(root, 'examples', 'demo-events.json'), 'utf8'));
const stateDir = mkdtempSync(join(tmpdir(), 'persona-gate-demo-'));
const policy = join(root, 'examples', 'tax-filing.json');
const width = process.stdout.columns && process.stdout.columns > 100 ? process.stdout.columns : 160;

const rows = [];
for (const [i, item] of events.entries()) {
  const event = { session_id: 'demo-session', tool_use_id: `toolu_demo_${i}`, cwd: root, ...item.event };
  const env = { ...process.env, PERSONA_GATE_STATE_DIR: stateDir, PERSONA_GATE_CONFIG: policy, PERSONA_GATE_PERSONA: item.persona ?? '', PERSONA_GATE_STAGE: item.stage ?? '' };
  const r = spawnSync(process.execPath, [join(root, 'dist', 'persona-gate.cjs'), 'hook'], { input: JSON.stringify(event), env, encoding: 'utf8' });
  let verdict;
  let reason = '';
  if (r.status === 2) [verdict, reason] = ['deny', r.stderr.trim()];
  else if (r.stdout.trim() === '') verdict = event.hook_event_name === 'PreToolUse' ? 'abstain' : '(recorded)';
  else {
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    [verdict, reason] = [out.permissionDecision, out.permissionDecisionReason];
  }
  const who = item.persona ? `${item.persona}${item.stage ? `/${item.stage}` : ''}` : '(unscoped)';
  const input = JSON.stringify(event.tool_input);
  const call = `${event.hook_event_name === 'PreToolUse' ? '' : `${event.hook_event_name} `}${event.tool_name} ${input.length > 40 ? `${input.slice(0, 39)}…` : input}`;
  rows.push([who, call, verdict, reason.replace(/^persona-gate: /, '')]);
}
rmSync(stateDir, { recursive: true, force: true });

const w = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length), ['persona', 'tool call', 'verdict'][c].length));
const line = (r) => {
  const head = `${r[0].padEnd(w[0])}  ${r[1].padEnd(w[1])}  ${r[2].padEnd(w[2])}  `;
  const room = Math.max(30, width - head.length);
  return head + (r[3].length > room ? `${r[3].slice(0, room - 1)}…` : r[3]);
};
console.log(line(['persona', 'tool call', 'verdict', 'reason']));
console.log(line([w[0], w[1], w[2]].map((n) => '-'.repeat(n)).concat('-'.repeat(6))));
for (const r of rows) console.log(line(r));
