// Replay speed: writes a Claude Code transcript of N tool calls (default 10,000) — MCP calls, shell
// lines and file reads, each with its result, identity reads and switches among them, and a
// subagent sidechain — then times `persona-gate replay` over it (best and median of a few runs).
// Usage: npm run build && node scripts/replay-bench.mjs [CALLS] [RUNS]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const calls = Number(process.argv[2] ?? 10000);
const runs = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'pg-replay-bench-'));
const session = 'bench-session';
const t0 = Date.parse('2026-01-01T00:00:00Z');

const shapes = [
  ['mcp__aeat__whoami', {}, [{ type: 'text', text: 'Erika Example (NIF 00000000T)' }]],
  ['mcp__aeat__modelo_list', {}, [{ type: 'text', text: '303, 130' }]],
  ['mcp__aeat__modelo_work_create', { modelo: '303' }, [{ type: 'text', text: 'draft created' }]],
  ['mcp__aeat__ledger_entry_add', { amount: 12.5 }, [{ type: 'text', text: 'added' }]],
  ['Read', { file_path: '/work/p/ledger.csv' }, { type: 'text', file: { filePath: '/work/p/ledger.csv', content: 'a,b' } }],
  ['Bash', { command: 'git status && git diff --stat' }, { stdout: '', stderr: '', interrupted: false }],
  ['Bash', { command: 'aeat modelo list --year 2025 | grep 303' }, { stdout: '303', stderr: '', interrupted: false }],
  ['Bash', { command: 'git commit -m "$(cat <<\'EOF\'\nUpdate ledger\nEOF\n)"' }, { stdout: '', stderr: '', interrupted: false }],
  ['mcp__aeat__profile_switch', { profile: 'Erik Example' }, [{ type: 'text', text: 'switched' }]],
  ['mcp__aeat__modelo_export', { modelo: '303' }, [{ type: 'text', text: 'exported' }]],
];

function lines(n, agentId) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const [name, input, response] = shapes[i % shapes.length];
    const id = `toolu_${agentId ?? 'main'}_${i}`;
    const at = (k) => new Date(t0 + i * 1000 + k).toISOString();
    const common = {
      sessionId: session,
      cwd: '/work/p',
      version: '2.1.332',
      ...(agentId ? { isSidechain: true, agentId } : { isSidechain: false }),
    };
    out.push(
      JSON.stringify({
        ...common,
        type: 'assistant',
        timestamp: at(0),
        message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
      }),
    );
    out.push(JSON.stringify({ ...common, type: 'attachment', timestamp: at(1), attachment: { type: 'total_tokens_reminder', text: '…' } }));
    out.push(
      JSON.stringify({
        ...common,
        type: 'user',
        timestamp: at(500),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: JSON.stringify(response) }] },
        toolUseResult: response,
      }),
    );
  }
  return `${out.join('\n')}\n`;
}

const sub = Math.floor(calls / 10);
const main = join(dir, `${session}.jsonl`);
writeFileSync(main, lines(calls - sub));
mkdirSync(join(dir, session, 'subagents'), { recursive: true });
writeFileSync(join(dir, session, 'subagents', 'agent-a1.jsonl'), lines(sub, 'a1'));
writeFileSync(join(dir, session, 'subagents', 'agent-a1.meta.json'), JSON.stringify({ agentType: 'modelo-preparer' }));
const bytes = statSync(main).size + statSync(join(dir, session, 'subagents', 'agent-a1.jsonl')).size;

const env = { ...process.env, PERSONA_GATE_STATE_DIR: join(dir, 'state'), HOME: dir };
for (const key of Object.keys(env)) if (key.startsWith('PERSONA_GATE_') && key !== 'PERSONA_GATE_STATE_DIR') delete env[key];
const args = ['dist/persona-gate.cjs', 'replay', main, '--config', 'examples/tax-filing.json', '--persona', 'coordinator', '--json'];
const times = [];
let report;
for (let r = 0; r < runs; r++) {
  const started = process.hrtime.bigint();
  const out = execFileSync(process.execPath, args, { env, maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' });
  times.push(Number(process.hrtime.bigint() - started) / 1e6);
  report ??= JSON.parse(out);
}
if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(dir);
times.sort((a, b) => a - b);
const best = times[0];
const median = times[Math.floor(times.length / 2)];
console.log(
  `replay of ${report.calls.length} tool calls (${(bytes / 1024 / 1024).toFixed(1)} MiB of transcript, ${report.lines} lines, 1 sidechain), ${runs} runs`,
);
console.log(`  verdicts: ${JSON.stringify(report.verdicts)}`);
console.log(`  whole command (node start, policy, read, decide, JSON out): best ${best.toFixed(0)} ms, median ${median.toFixed(0)} ms`);
console.log(
  `  per call: ${((median * 1000) / report.calls.length).toFixed(0)} µs (median), ${Math.round(report.calls.length / (median / 1000))} calls/s`,
);
