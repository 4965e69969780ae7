// Worst-case command lines of about 1 MiB for each construct the shell reader reads (SPEC §9.7),
// each decided by the built hook; prints the time of the decision itself (the receipt's elapsed_ms,
// which covers reading the event, the policy, the state and the decision) and the verdict.
// Usage: node scripts/shell-worst-case.mjs [--json]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MiB = 1024 * 1024;
/** Repeats `unit` to fill about 1 MiB of command text, leaving room for the JSON around it. */
const fill = (unit, head = '', tail = '') =>
  head + unit.repeat(Math.floor((MiB - 4096 - head.length - tail.length) / Math.max(1, JSON.stringify(unit).length - 2))) + tail;

const CASES = [
  ['many simple commands', 'Bash', fill('ls;')],
  ['one long word', 'Bash', fill('a')],
  ['many quoted words', 'Bash', fill("'a' ", 'echo ')],
  ['many double-quoted expansions', 'Bash', fill('"$a" ', 'echo ')],
  ['many substitutions', 'Bash', fill('$(a) ', 'echo ')],
  ['deeply nested substitutions', 'Bash', fill('$(', 'echo ')],
  ['many backticks', 'Bash', fill('`a` ', 'echo ')],
  ['nested ${', 'Bash', fill('${a:-', 'echo ')],
  ['nested arithmetic', 'Bash', fill('$((1+', 'echo ')],
  ['arithmetic commands', 'Bash', fill('((a++));')],
  ['many here-documents', 'Bash', fill('cat <<E\nE\n')],
  ['one long here-document', 'Bash', fill('x\n', 'cat <<EOF\n', 'EOF\n')],
  ['unterminated here-document with substitutions', 'Bash', fill('$(a)\n', 'cat <<EOF\n')],
  ['line continuations', 'Bash', fill('\\\n', 'echo ')],
  ['many pipes', 'Bash', fill('cat|')],
  ['many redirections', 'Bash', fill('>f ', 'echo ')],
  ['directories and redirections', 'Bash', fill('cd a && echo x > f; ')],
  ['brace patterns', 'Bash', fill('{a,b}', 'echo ')],
  ['unclosed braces', 'Bash', fill('{,', 'echo ')],
  ['glob patterns written', 'Bash', fill('*/', 'rm ')],
  ['paths in opaque code', 'Bash', fill('/p/a ', "python3 -c '", "'")],
  ['catalogued names in opaque code', 'Bash', fill('aeat ', "python3 -c '", "'")],
  ['a long sed script', 'Bash', fill('s/a/b/;', "sed -e '", "' f")],
  ['case patterns', 'Bash', fill('a|', 'case x in ', 'b) ls;; esac')],
  ['functions', 'Bash', fill('f(){ ls; };')],
  ['wrappers', 'Bash', fill('sudo ', '', 'ls')],
  ['bash -c nesting', 'Bash', fill("bash -c '", '', 'ls')],
  ['PowerShell block comments', 'PowerShell', fill('<#')],
  ['PowerShell backticks', 'PowerShell', fill('`a')],
  ['PowerShell here-string', 'PowerShell', fill('x\n', "@'\n", "\n'@")],
];

const work = mkdtempSync(join(tmpdir(), 'pg-worst-'));
const json = process.argv.includes('--json');
const rows = [];
try {
  const policy = JSON.parse(readFileSync('examples/tax-filing.json', 'utf8'));
  policy.personas['modelo-preparer'].families.push('shell');
  policy.personas['modelo-preparer'].ceiling = 'network';
  const policyPath = join(work, 'policy.json');
  writeFileSync(policyPath, JSON.stringify(policy));
  const stateDir = join(work, 'state');
  const env = {
    ...process.env,
    PERSONA_GATE_STATE_DIR: stateDir,
    PERSONA_GATE_CONFIG: policyPath,
    PERSONA_GATE_PERSONA: 'modelo-preparer',
    HOME: work,
    PERSONA_GATE_DEADLINE_MS: '60000',
  };
  mkdirSync(join(work, 'project'));
  for (const [name, tool, command] of CASES) {
    const session = `worst-${rows.length}`;
    const event = JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: session,
      tool_name: tool,
      tool_input: { command },
      tool_use_id: 't',
      cwd: join(work, 'project'),
    });
    const started = process.hrtime.bigint();
    let stdout = '';
    try {
      stdout = execFileSync(process.execPath, ['dist/persona-gate.cjs', 'hook'], { input: event, env, maxBuffer: 16 * MiB }).toString();
    } catch (err) {
      stdout = `exit ${err.status}: ${String(err.stderr).slice(0, 80)}`;
    }
    const wall = Number(process.hrtime.bigint() - started) / 1e6;
    const receipts = join(stateDir, 'receipts');
    let elapsed = null;
    for (const file of readdirSync(receipts)) {
      for (const line of readFileSync(join(receipts, file), 'utf8').trim().split('\n')) {
        const r = JSON.parse(line);
        if (r.session_id === session) elapsed = r.elapsed_ms;
      }
    }
    const verdict = /"permissionDecision":"(\w+)"/.exec(stdout)?.[1] ?? (stdout === '' ? 'abstain' : stdout.slice(0, 40));
    rows.push({ name, bytes: Buffer.byteLength(event), decision_ms: elapsed, wall_ms: Math.round(wall), verdict });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (json) console.log(JSON.stringify(rows, null, 2));
else {
  console.log('| construct | event bytes | decision ms | wall ms | verdict |\n|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.bytes} | ${r.decision_ms} | ${r.wall_ms} | ${r.verdict} |`);
  const worst = Math.max(...rows.map((r) => r.decision_ms ?? Infinity));
  console.log(`\nworst decision: ${worst} ms (budget 100 ms)`);
}
