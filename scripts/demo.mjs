// Runs the built hook, as Claude Code would, on the example tax-filing policy over
// examples/demo-events.json (one session), and prints each call with its verdict and its full
// reason, as persona-gate log shows decisions: fitted to the terminal, coloured on one.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const cli = createRequire(import.meta.url)(join(root, 'dist', 'cli.js'));
const events = JSON.parse(readFileSync(join(root, 'examples', 'demo-events.json'), 'utf8'));
const stateDir = mkdtempSync(join(tmpdir(), 'persona-gate-demo-'));
const policy = join(root, 'examples', 'tax-filing.json');
const session = 'demo-session';
const t = cli.cliMessages(process.env);

const rows = [];
try {
  for (const [i, item] of events.entries()) {
    const event = { session_id: session, tool_use_id: `toolu_demo_${i}`, cwd: root, ...item.event };
    const env = {
      ...process.env,
      PERSONA_GATE_STATE_DIR: stateDir,
      PERSONA_GATE_CONFIG: policy,
      PERSONA_GATE_PERSONA: item.persona ?? '',
      PERSONA_GATE_STAGE: item.stage ?? '',
    };
    const r = spawnSync(process.execPath, [join(root, 'dist', 'persona-gate.cjs'), 'hook'], {
      input: JSON.stringify(event),
      env,
      encoding: 'utf8',
    });
    let verdict;
    let reason = '';
    if (r.status === 2) [verdict, reason] = ['deny', r.stderr.trim()];
    else if (r.stdout.trim() === '') verdict = event.hook_event_name === 'PreToolUse' ? 'abstain' : '(recorded)';
    else {
      const out = JSON.parse(r.stdout).hookSpecificOutput;
      [verdict, reason] = [out.permissionDecision, out.permissionDecisionReason];
    }
    const pre = event.hook_event_name === 'PreToolUse';
    rows.push({
      time: null,
      session: null,
      who: item.persona ? `${item.persona}${item.stage ? `/${item.stage}` : ''}` : t.viewUnscoped(),
      verdict,
      call: `${pre ? '' : `${event.hook_event_name} `}${event.tool_name} ${JSON.stringify(event.tool_input)}`,
      detail: reason.replace(/^persona-gate: /, ''),
    });
  }
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}

const title = `persona-gate demo: the ${rows.length} events of examples/demo-events.json (tool calls, and what the host reports after one) sent to the built hook as Claude Code sends them, under examples/tax-filing.json; each with the verdict and the reason the model reads.`;
process.stdout.write(cli.renderDecisions(rows, cli.viewFor(process.stdout, process.env), t, { title, oneSession: session }));
