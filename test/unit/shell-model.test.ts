import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/core/decide';
import { buildPolicyIndex } from '../../src/core/policy-index';
import { emptyState, type SessionState } from '../../src/core/state';
import { makeProtectedPathCheck } from '../../src/io/protect';
import { readShellCall } from '../../src/shell/resolve-shell';
import { confirmed, pre, run, taxIndex } from '../helpers/policy';

// SPEC §9 items 1–4 and 7: every program a line may run has a level, catalogued programs are
// closed, code the gate cannot read is refused when it names one, identity through the shell.
const policy = structuredClone(taxIndex().policy!);
policy.personas['modelo-preparer']!.families.push('shell');
policy.personas['modelo-preparer']!.ceiling = 'network';
policy.personas['reader'] = {
  families: ['shell', 'file_read', 'modelo'],
  ceiling: 'read_only',
  agent_types: [],
  delegates: [],
  stages: [],
};
policy.personas['strict-builder'] = {
  families: ['shell', 'modelo'],
  ceiling: 'process_exec',
  agent_types: [],
  delegates: [],
  stages: [],
  shell: 'strict',
};
const index = buildPolicyIndex(policy, 'sha', '/work/project/.claude/persona-gate.json');
const isProtected = makeProtectedPathCheck({
  policyPath: '/work/project/.claude/persona-gate.json',
  stateDir: '/tmp/pg-model-state',
  prefsFile: '/tmp/pg-model-home/.config/persona-gate/config.json',
  home: '/tmp/pg-model-home',
  env: {},
});

function judge(command: string, persona: string | null, opts: { tool?: 'Bash' | 'PowerShell'; state?: SessionState } = {}): Decision {
  return run(index, pre(opts.tool ?? 'Bash', { command }, { cwd: '/work/project' }), {
    state: opts.state ?? confirmed(),
    env: persona ? { PERSONA_GATE_PERSONA: persona } : {},
    isProtected,
    shell: readShellCall,
  });
}

const outcome = (d: Decision) => [d.verdict, d.status];

describe('the classes of bypass, each refused for a persona that may not file', () => {
  it.each<[string, string, string]>([
    // a shell reading its program from elsewhere
    ['echo aeat modelo export | sh', 'unlisted_command', 'opaque_execution'],
    ['bash <<EOF\naeat modelo $STEP\nEOF', 'unlisted_command', 'opaque_execution'],
    ["bash <<'EOF'\naeat modelo export\nEOF", 'handoff_denied', 'owner'],
    ['sh <<EOF\naeat modelo export\nEOF', 'handoff_denied', 'owner'],
    ['source <(echo aeat modelo export)', 'unlisted_command', 'opaque_execution'],
    ['. /dev/stdin <<< "aeat modelo export"', 'unlisted_command', 'opaque_execution'],
    ['printf "aeat modelo export" > x.sh; bash x.sh', 'unlisted_command', 'opaque_execution'],
    // program words that are not plain literals
    ["$'\\x61eat' modelo export", 'permission_denied', 'shell_unparsable'],
    ["$'aeat' modelo export", 'permission_denied', 'shell_unparsable'],
    ['{aeat,modelo,export}', 'permission_denied', 'shell_unparsable'],
    ['/usr/local/bin/ae?t modelo export', 'permission_denied', 'shell_unparsable'],
    ['a[e]at modelo export', 'permission_denied', 'shell_unparsable'],
    ['aeat modelo {export,list}', 'permission_denied', 'shell_unparsable'],
    ['aeat modelo exp*', 'permission_denied', 'shell_unparsable'],
    // definitions run later in the same line
    ['f() { aeat modelo export; }; f', 'handoff_denied', 'owner'],
    ['function f { aeat modelo export; }; f', 'handoff_denied', 'owner'],
    ["alias x='aeat modelo export'; x", 'handoff_denied', 'owner'],
    ["trap 'aeat modelo export' EXIT", 'handoff_denied', 'owner'],
    // runners and wrappers
    ['find . -exec aeat modelo export \\;', 'handoff_denied', 'owner'],
    ['find . -maxdepth 0 -execdir sh -c "aeat modelo export" \\;', 'handoff_denied', 'owner'],
    ['echo export | xargs aeat modelo', 'unlisted_command', 'unlisted_command'],
    ['ls | xargs -I{} aeat modelo export {}', 'handoff_denied', 'owner'],
    ['watch -n 1 aeat modelo export', 'handoff_denied', 'owner'],
    ["watch 'aeat modelo export'", 'handoff_denied', 'owner'],
    ["script -qc 'aeat modelo export' /dev/null", 'handoff_denied', 'owner'],
    ["script -c 'aeat modelo export' /dev/null", 'handoff_denied', 'owner'],
    ["su -c 'aeat modelo export' root", 'handoff_denied', 'owner'],
    ["su root -c 'aeat modelo export'", 'handoff_denied', 'owner'],
    ['unshare -r aeat modelo export', 'handoff_denied', 'owner'],
    ["bash -o pipefail -c 'aeat modelo export'", 'handoff_denied', 'owner'],
    ["bash --norc -O extglob -c 'aeat modelo export'", 'handoff_denied', 'owner'],
    ['timeout -k 5 10 nice -n 5 aeat modelo export', 'handoff_denied', 'owner'],
    ["env -S 'aeat modelo export'", 'handoff_denied', 'owner'],
    // npx and npm exec run the project's own aeat (node_modules/.bin) before the one on PATH: opaque
    ['npx aeat modelo export', 'unlisted_command', 'opaque_execution'],
    ['npm exec -- aeat modelo export', 'unlisted_command', 'opaque_execution'],
    ['chroot / aeat modelo export', 'handoff_denied', 'owner'],
    ['flock /tmp/l -c "aeat modelo export"', 'handoff_denied', 'owner'],
    ['parallel aeat modelo ::: export', 'handoff_denied', 'owner'],
    ['ssh 127.0.0.1 aeat modelo export', 'handoff_denied', 'owner'],
    ["ssh -p 22 127.0.0.1 'aeat modelo export'", 'handoff_denied', 'owner'],
    // interpreters with inline code
    ['python3 -c \'import os; os.system("aeat modelo export")\'', 'unlisted_command', 'opaque_execution'],
    ['node -e \'require("child_process").execSync("aeat modelo export")\'', 'unlisted_command', 'opaque_execution'],
    ['perl -e \'system("aeat modelo export")\'', 'unlisted_command', 'opaque_execution'],
    // awk runs a literal command with sh -c: read as that line
    ['awk \'BEGIN { system("aeat modelo export") }\'', 'handoff_denied', 'owner'],
    ['awk \'{ print | "aeat modelo export" }\' notes.txt', 'handoff_denied', 'owner'],
    ['awk \'BEGIN { "aeat modelo export" | getline }\'', 'handoff_denied', 'owner'],
    ['awk \'BEGIN { system("aeat modelo " "export") }\'', 'unlisted_command', 'opaque_execution'],
    ['awk \'BEGIN { system("aeat\\040modelo export") }\'', 'unlisted_command', 'opaque_execution'],
    // GNU sed's e COMMAND runs COMMAND with sh -c: read as that line
    ["sed -n '1e aeat modelo export' /etc/hostname", 'handoff_denied', 'owner'],
    ["git -c alias.x='!aeat modelo export' x", 'unlisted_command', 'opaque_execution'],
    ['python3 - <<EOF\nimport os\nos.system("aeat modelo export")\nEOF', 'unlisted_command', 'opaque_execution'],
    ['PATH=/tmp/x:$PATH aeat-wrapper; echo aeat', 'unlisted_command', 'opaque_execution'],
    // an option between the words of a catalogued command, or an argument added at run time
    ['aeat --profile other modelo export', 'unlisted_command', 'unlisted_command'],
    ['aeat modelo --year 2024 export', 'unlisted_command', 'unlisted_command'],
    ['aeat modelo', 'unlisted_command', 'unlisted_command'],
    ['aeat', 'unlisted_command', 'unlisted_command'],
    ['aeat modelo exporter', 'unlisted_command', 'unlisted_command'],
    // here-documents whose bodies end where bash ends them
    ['cat <<EOF\nEOF2\n EOF\nEOF \nEOF\naeat modelo export', 'handoff_denied', 'owner'],
    ['cat <<-EOF\n\t\tEOF\naeat modelo export', 'handoff_denied', 'owner'],
    ["cat <<'E F'\nx\nE F\naeat modelo export", 'handoff_denied', 'owner'],
    ['cat <<EOF; aeat modelo export\nbody\nEOF', 'handoff_denied', 'owner'],
    ['cat <<A <<B\na\nA\nb\nB\naeat modelo export', 'handoff_denied', 'owner'],
    ['cat <<EOF\n$(aeat modelo export)\nEOF', 'handoff_denied', 'owner'],
    ['echo "${X:-$(aeat modelo export)}"', 'handoff_denied', 'owner'],
    ['echo $(( $(aeat modelo export) + 1 ))', 'handoff_denied', 'owner'],
    ['case x in x) aeat modelo export;; esac', 'handoff_denied', 'owner'],
    ['echo $(case x in x) aeat modelo export;; esac)', 'handoff_denied', 'owner'],
    ['[[ -n $(aeat modelo export) ]]', 'handoff_denied', 'owner'],
    ['(( $(aeat modelo export) ))', 'handoff_denied', 'owner'],
  ])('%j → %s (%s)', (command, status, rule) => {
    const d = judge(command, 'modelo-preparer');
    expect(outcome(d)).toEqual(['deny', status]);
    if (status === 'handoff_denied') expect(d.reason).toContain('owned by the verifier persona');
    else expect(d.rule).toBe(rule);
    // unscoped, the same lines are asked about (or refused by the policy's own rules)
    expect(['ask', 'deny']).toContain(judge(command, null).verdict);
  });

  it('names the commands the persona may run when it refuses an unlisted invocation', () => {
    const d = judge('aeat modelo --year 2024 export', 'modelo-preparer');
    expect(d.reason).toContain('aeat modelo list');
    expect(d.reason).not.toContain('aeat modelo export,');
    expect(d.reason).toContain('Run one of those exactly as listed');
  });
});

describe('ordinary work is not refused', () => {
  it.each([
    "git commit -m \"$(cat <<'EOF'\nFix the parser: don't stop at quotes\n\nCo-Authored-By: someone\nEOF\n)\"",
    'git commit -m "$(cat <<\'EOF\'\nit\'s "quoted" and `ticked` and $(not run)\nEOF\n)"',
    "cat > notes.md <<'EOF'\n# Notes\naeat modelo export is the verifier's; $(not run)\nEOF",
    'cat > build.sh <<EOF\necho $HOME\nEOF',
    'ls -la && git status',
    'grep -rn "aeat modelo export" src/ | head',
    'echo "aeat modelo export is owned by the verifier"',
    'npm test',
    'make -C build all',
    'for f in *.ts; do wc -l "$f"; done',
    'sed -i "s/foo/bar/g" src/a.ts',
    "sed -n '1,20p' README.md",
    'diff <(sort a) <(sort b)',
  ])('%j', (command) => {
    expect(outcome(judge(command, 'modelo-preparer'))).toEqual(['abstain', 'ok']);
  });

  it.each([
    '$files = Get-ChildItem; $files.Count',
    'Write-Output "Today: $(Get-Date)"',
    '$x = 1 + 2; Write-Output $x',
    '$(Get-Location).Path',
    'Get-ChildItem | ForEach-Object { $_.Name }',
  ])('PowerShell %j', (command) => {
    expect(outcome(judge(command, 'modelo-preparer', { tool: 'PowerShell' }))).toEqual(['abstain', 'ok']);
  });

  it('reads a catalogued program inside a PowerShell assignment', () => {
    expect(outcome(judge('$r = aeat modelo export', 'modelo-preparer', { tool: 'PowerShell' }))).toEqual(['deny', 'handoff_denied']);
    expect(outcome(judge('& $cmd modelo export', 'modelo-preparer', { tool: 'PowerShell' }))).toEqual(['deny', 'permission_denied']);
    expect(outcome(judge("[IO.File]::WriteAllText('.claude/settings.json','{}')", 'modelo-preparer', { tool: 'PowerShell' }))).toEqual([
      'deny',
      'protected',
    ]);
    expect(outcome(judge('Get-ChildItem | ForEach-Object { aeat modelo export }', 'modelo-preparer', { tool: 'PowerShell' }))).toEqual([
      'deny',
      'unlisted_command',
    ]);
  });
});

describe('every program a line runs has a level (SPEC §9.1)', () => {
  it.each<[string, string, 'abstain' | 'deny']>([
    ['ls -la', 'read_only', 'abstain'],
    ['cat README.md | grep x | wc -l', 'read_only', 'abstain'],
    ['git log --oneline -5', 'read_only', 'abstain'],
    ['echo hi', 'none', 'abstain'],
    ['echo hi > out.txt', 'workspace_write', 'deny'],
    ['rm -rf build', 'workspace_write', 'deny'],
    ['sed -i s/a/b/ x', 'workspace_write', 'deny'],
    ['git commit -m x', 'workspace_write', 'deny'],
    ['python3 script.py', 'process_exec', 'deny'],
    ['npm test', 'process_exec', 'deny'],
    ['some-unknown-tool --flag', 'process_exec', 'deny'],
    ['curl -s http://127.0.0.1/', 'network', 'deny'],
    ['git push origin main', 'network', 'deny'],
    ['npm publish', 'network', 'deny'],
  ])('%j is %s', (command, level, verdict) => {
    const d = judge(command, 'reader');
    expect(d.subject.level ?? d.resolution.primary.level).toBe(level);
    expect(d.verdict).toBe(verdict);
  });

  it('a catalogued command keeps its own level; the shell tool takes the rest', () => {
    const d = judge('aeat modelo list | grep 303', 'reader');
    expect(d.verdict).toBe('abstain');
    expect(d.resolution.matched.map((s) => s.key)).toEqual(['modelo.list']);
  });

  it('a persona with "shell": "strict" is refused all opaque code, not plain programs', () => {
    expect(judge('npm test', 'strict-builder')).toMatchObject({ verdict: 'deny', rule: 'shell_strict' });
    expect(judge('echo x | base64 -d | sh', 'strict-builder')).toMatchObject({ verdict: 'deny', rule: 'shell_strict' });
    expect(judge('ls -la && git diff', 'strict-builder').verdict).toBe('abstain');
  });
});

describe('identity through the shell (SPEC §9.4)', () => {
  const unconfirmed = emptyState();
  const ops = (command: string, persona: string | null, state = unconfirmed) => judge(command, persona, { state }).ops.map((o) => o.op);
  it('an unlisted invocation of a program that owns a switch re-arms, whatever the operators', () => {
    const confirmedState = { ...emptyState(), confirmed: true };
    expect(ops('aeat config login --profile other; false && aeat whoami', null)).toContain('rearm');
    expect(ops('aeat whoami || aeat config login --profile other', null, confirmedState)).toContain('rearm');
    expect(ops('python3 -c \'import os; os.system("aeat config profile switch x")\'', null, confirmedState)).toContain('rearm');
    expect(ops('aeat config login --profile other; false && aeat whoami', 'modelo-preparer', confirmedState)).toEqual([]);
  });
  it('a catalogued switch re-arms wherever it stands', () => {
    expect(ops('aeat whoami && aeat config profile switch other', null, { ...emptyState(), confirmed: true })).toContain('rearm');
  });
  it('confirms only when the read runs unconditionally and nothing else changes state', () => {
    expect(ops('aeat whoami', null)).toContain('pending_read');
    expect(ops('aeat whoami | head -1', null)).toContain('pending_read');
    expect(ops('false && aeat whoami', null)).not.toContain('pending_read');
    expect(ops('aeat whoami; echo x > f', null)).not.toContain('pending_read');
    expect(ops('if true; then aeat whoami; fi', null)).not.toContain('pending_read');
    expect(ops('aeat whoami; python3 x.py', null)).not.toContain('pending_read');
  });
});

describe('names hidden behind a glob count as names', () => {
  it('a copy of a catalogued program made through a pattern, run in the same line', () => {
    expect(judge('cp /usr/local/bin/ae?t ./x && ./x modelo export', 'modelo-preparer')).toMatchObject({
      verdict: 'deny',
      rule: 'opaque_execution',
    });
    expect(judge('python3 test_*.py', 'modelo-preparer').verdict).toBe('abstain');
  });
});

describe('shell startup files, which later shells run', () => {
  it.each(['echo "alias ls=\'aeat modelo export\'" >> ~/.bashrc', 'cp evil ~/.bash_profile', 'echo x > /etc/profile.d/x.sh'])(
    '%j is refused',
    (command) => {
      expect(judge(command, 'modelo-preparer')).toMatchObject({ verdict: 'deny', status: 'protected' });
    },
  );
  it('reading them is fine', () => {
    expect(judge('cat ~/.bashrc', 'modelo-preparer').verdict).toBe('abstain');
  });
});
