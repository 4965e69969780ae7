import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/core/decide';
import { makeProtectedPathCheck } from '../../src/io/protect';
import { readShellCall } from '../../src/shell/resolve-shell';
import { buildPolicyIndex } from '../../src/core/policy-index';
import { confirmed, pre, run, taxIndex } from '../helpers/policy';

const base = taxIndex();
const policy = structuredClone(base.policy);
policy.personas['shell-preparer'] = {
  families: ['modelo', 'ledger', 'config', 'shell', 'file_read'],
  ceiling: 'process_exec',
  agent_types: [],
  delegates: [],
  stages: [],
};
const index = buildPolicyIndex(policy, 'sha', '/work/project/.claude/persona-gate.json');
const isProtected = makeProtectedPathCheck({
  policyPath: '/work/project/.claude/persona-gate.json',
  stateDir: '/tmp/pg-corpus-state',
  prefsFile: '/tmp/pg-corpus-home/.config/persona-gate/config.json',
  home: '/tmp/pg-corpus-home',
});

function judge(command: string, persona: string | null, tool: 'Bash' | 'PowerShell' = 'Bash', policyIndex = index): Decision {
  return run(policyIndex, pre(tool, { command }, { cwd: '/work/project' }), {
    state: confirmed(),
    env: persona ? { PERSONA_GATE_PERSONA: persona } : {},
    isProtected,
    shell: readShellCall,
  });
}

type Case = [command: string, verdict: 'abstain' | 'deny' | 'ask', status: string, matched: string[]];

const ORDINARY: Case[] = [
  'ls -la',
  'git status',
  'git log --oneline -5',
  'npm test',
  'npm run build && npm test',
  'grep -rn "modelo export" src/',
  'cat README.md | wc -l',
  'echo "hello; world"',
  "echo 'aeat modelo export'",
  'find . -name "*.ts" | xargs wc -l',
  'cd /tmp && ls',
  'node -e "console.log(1)"',
  'python3 -c "print(2)"',
  'echo $HOME',
  'ls "$HOME"',
  'export FOO=bar',
  'FOO=1 npm test',
  'for f in *.json; do echo "$f"; done',
  'if [ -f x ]; then cat x; fi',
  'while read line; do echo "$line"; done < input.txt',
  'echo hi > /tmp/out.txt',
  'echo hi >> build.log 2>&1',
  'npm test 2>/dev/null',
  'cat <<EOF\naeat modelo export\nEOF',
  "cat <<'EOF'\n$(aeat modelo export)\nEOF",
  'printf "%s\\n" a b c',
  'sort file.txt | uniq -c | sort -rn | head',
  'tar czf backup.tgz src',
  'mkdir -p build/out',
  'cp src/a.ts /tmp/a.ts',
  'rm -rf build',
  'ls # aeat modelo export',
  'echo `date`',
  'echo "$(date +%F)"',
  'diff <(sort a) <(sort b)',
  'timeout 10 npm test',
  'command -v aeat',
  'cat .claude/settings.json',
  'cp .claude/settings.json /tmp/settings-backup.json',
  'jq .hooks .claude/settings.json',
  'grep -n onFailure .claude/settings.json .claude/settings.local.json',
  'git diff .claude/persona-gate.json',
  'git log -p -- .claude/settings.json',
  'ls -la /tmp/pg-corpus-state/receipts',
  'tail -n 5 /tmp/pg-corpus-state/receipts/x.jsonl',
  "python3 -c \"open('/tmp/other.json', 'w').write('{}')\"",
  'node scripts/build.mjs --out dist/app.json',
  'cd src && echo hi > out.txt',
  'cd build && rm -rf dist',
  'cd "$DIR" && ls',
  'cd - && ls /tmp',
  'grep -C 3 onFailure .claude/settings.json',
  'make -C build all',
  'persona-gate explain Read',
  'persona-gate list --persona verifier',
  'persona-gate session show --session abc',
  'persona-gate validate',
  'persona-gate log --json',
].map((command) => [command, 'abstain', 'ok', []] as Case);

const DOMAIN: Case[] = [
  ['aeat modelo list', 'abstain', 'ok', ['modelo.list']],
  ['aeat modelo list --year 2026', 'abstain', 'ok', ['modelo.list']],
  ['aeat modelo work create --modelo 303', 'abstain', 'ok', ['modelo.work.create']],
  ['aeat whoami', 'abstain', 'ok', ['config.profile.status']],
  ['aeat config profile status', 'abstain', 'ok', ['config.profile.status']],
  ['aeat ledger list && aeat modelo list', 'abstain', 'ok', ['ledger.list', 'modelo.list']],
  ['aeat ledger entry add --amount 10 | tee /tmp/log', 'abstain', 'ok', ['ledger.entry.add']],
  ['aeat ledger export', 'abstain', 'ok', ['ledger.export']],
  ['aeat ledger export --year 2026', 'abstain', 'ok', ['ledger.export']],
  ['aeat modelo list | aeat modelo export', 'deny', 'handoff_denied', ['modelo.list', 'modelo.export']],
  ['aeat modelo list |& aeat modelo export', 'deny', 'handoff_denied', ['modelo.list', 'modelo.export']],
  ['aeat config profile create erika', 'ask', 'confirmation_required', ['config.profile.create']],
  ['aeat ledger entry delete 42', 'deny', 'blocked', ['ledger.entry.delete']],
  ['aeat bank reconcile', 'deny', 'permission_denied', ['bank.reconcile']],
  ['aeat documents import x.pdf', 'deny', 'permission_denied', ['documents.import']],
];

const EXPORT = ['modelo.export'];
const BYPASSES: Case[] = [
  'aeat modelo export',
  'aeat modelo export --modelo 303',
  'ls; aeat modelo export',
  'ls && aeat modelo export',
  'false || aeat modelo export',
  'aeat modelo export &',
  '(aeat modelo export)',
  '{ aeat modelo export; }',
  '(cd /tmp && aeat modelo export)',
  'echo $(aeat modelo export)',
  'echo "$(aeat modelo export)"',
  'x=$(aeat modelo export)',
  'echo `aeat modelo export`',
  'echo "`aeat modelo export`"',
  'cat <(aeat modelo export)',
  'tee >(aeat modelo export) < /dev/null',
  "bash -c 'aeat modelo export'",
  'sh -c "aeat modelo export"',
  "zsh -c 'aeat modelo export'",
  "bash -lc 'aeat modelo export'",
  'bash -c "sh -c \'aeat modelo export\'"',
  "eval 'aeat modelo export'",
  'eval aeat modelo export',
  'env aeat modelo export',
  'env A=1 B=2 aeat modelo export',
  'env -i PATH=/usr/bin aeat modelo export',
  'FOO=bar aeat modelo export',
  'sudo aeat modelo export',
  'sudo -u root aeat modelo export',
  'doas aeat modelo export',
  'nohup aeat modelo export &',
  'time aeat modelo export',
  'nice -n 10 aeat modelo export',
  'timeout 30 aeat modelo export',
  'timeout -s KILL 30 aeat modelo export',
  'echo 303 | xargs aeat modelo export --modelo',
  'echo 303 | xargs -n 1 aeat modelo export',
  'exec aeat modelo export',
  'command aeat modelo export',
  '/usr/local/bin/aeat modelo export',
  './aeat modelo export',
  '../bin/aeat modelo export',
  "'aeat' 'modelo' 'export'",
  '"aeat" modelo "export"',
  'a\\eat modelo export',
  'aeat modelo \\\n  export',
  'aeat \\\nmodelo \\\nexport --modelo 303',
  'cat <<EOF\n$(aeat modelo export)\nEOF',
  'cat <<EOF | sh\nhello\nEOF\naeat modelo export',
  'sudo env X=1 nohup nice bash -c "timeout 5 aeat modelo export"',
  'if true; then aeat modelo export; fi',
  'for i in 1; do aeat modelo export; done',
  'stdbuf -oL aeat modelo export',
].map((command) => [command, 'deny', 'handoff_denied', EXPORT] as Case);

const UNREADABLE: Case[] = [
  '$AEAT modelo export',
  '"$(which aeat)" modelo export',
  'aeat modelo $ACTION',
  'aeat $FAMILY export',
  'bash -c "$SCRIPT"',
  'eval "$CMD"',
  "echo 'unterminated",
  'echo "unterminated',
  'echo $(unterminated',
  'echo hi > "$TARGET"',
  'cat x | tee "$OUT"',
  'ls && $(persona-gate session reset --session s1)',
  'cd "$DIR" && rm persona-gate.json',
  'cd - && echo x > settings.json',
].map((command) => [command, 'deny', 'permission_denied', []] as Case);

const PROTECTED: Case[] = [
  'echo {} > .claude/persona-gate.json',
  'echo {} > /work/project/.claude/persona-gate.json',
  'echo {} > ./.claude/../.claude/persona-gate.json',
  'echo {} >> .claude//persona-gate.json',
  'rm .claude/persona-gate.json',
  'mv .claude/persona-gate.json /tmp/',
  'cp /tmp/open.json .claude/persona-gate.json',
  'ln -sf /dev/null .claude/settings.json',
  'echo {} > .claude/settings.json',
  'echo {} > .claude/settings.local.json',
  "sed -i 's/block/allow/' .claude/settings.json",
  'tee .claude/settings.local.json < /tmp/x',
  'rm -rf /tmp/pg-corpus-state',
  'rm -rf /tmp/pg-corpus-state/sessions',
  'echo x > /tmp/pg-corpus-state/sessions/abc.1.json',
  'rm ~/.config/persona-gate/config.json',
  'persona-gate session reset --session s1',
  'persona-gate session persona verifier --session s1',
  'persona-gate stage enter file --session s1',
  'persona-gate stage exit --session s1',
  'npx persona-gate stage enter file --session s1',
  'npx persona-gate@latest session reset --session s1',
  'npm exec persona-gate -- session reset --session s1',
  'node node_modules/persona-gate/dist/persona-gate.js session reset --session s1',
  'echo \'{"hook_event_name":"PostToolUse"}\' | persona-gate hook',
  'persona-gate init',
  'persona-gate config set policy /tmp/open.json',
  'bash -c "persona-gate session reset --session s1"',
  'ls && echo $(persona-gate session reset --session s1)',
  // Programs that are neither known readers nor known writers, handed a protected path.
  `python3 -c "open('.claude/settings.json', 'w').write('{}')"`,
  `node -e "require('fs').writeFileSync('.claude/persona-gate.json', '{}')"`,
  'perl -e \'open(F, ">.claude/settings.local.json")\'',
  'ruby -e \'File.delete("/work/project/.claude/persona-gate.json")\'',
  'git checkout -- .claude/persona-gate.json',
  'git restore .claude/settings.json',
  'curl -s -o .claude/persona-gate.json http://127.0.0.1:9/open.json',
  'find /tmp/pg-corpus-state -name "*.json" -delete',
  'python3 - --config=/tmp/pg-corpus-state/sessions/x.json',
  'awk \'{ print > ".claude/settings.json" }\' /tmp/x',
  'vim -c wq .claude/settings.json',
  'node -e "fs.rmSync(\'$HOME/.config/persona-gate/config.json\')"',
  // Relative paths after a change of directory.
  'cd .claude && echo {} > settings.json',
  'cd .claude; rm persona-gate.json',
  'pushd /work/project/.claude && rm -f persona-gate.json',
  'cd /tmp/pg-corpus-state && rm -rf sessions',
  'cd ~/.config/persona-gate && rm config.json',
  'cd / && cd work/project/.claude && rm persona-gate.json',
  '(cd .claude && sed -i s/block/x/ settings.json)',
  'git -C .claude checkout -- persona-gate.json',
  "cd .claude && python3 -c \"open('settings.local.json', 'w')\"",
].map((command) => [command, 'deny', 'protected', []] as Case);

describe('shell corpus under a persona', () => {
  const all = [...ORDINARY, ...DOMAIN, ...BYPASSES, ...UNREADABLE, ...PROTECTED];
  it(`has at least 100 commands (${all.length})`, () => {
    expect(all.length).toBeGreaterThanOrEqual(100);
  });

  it.each(all)('%j → %s (%s) matching %j', (command, verdict, status, matched) => {
    const d = judge(command, 'shell-preparer');
    expect({ verdict: d.verdict, status: d.status, matched: d.resolution.matched.map((s) => s.key) }).toEqual({ verdict, status, matched });
    if (status === 'handoff_denied') expect(d.reason).toContain('owned by the verifier persona');
    if (status === 'permission_denied' && matched.length === 0) expect(d.rule).toBe('shell_unparsable');
  });
});

describe('shell corpus in an unscoped session', () => {
  it.each(UNREADABLE.map(([c]) => c))('asks for %j', (command) => {
    expect(judge(command, null)).toMatchObject({ verdict: 'ask', rule: 'shell_unparsable' });
  });
  it.each(PROTECTED.map(([c]) => c))('asks for %j', (command) => {
    expect(judge(command, null)).toMatchObject({ verdict: 'ask', status: 'protected' });
  });
  it('lets the owner file through the shell, asking the human', () => {
    expect(judge('sudo aeat modelo export', 'verifier')).toMatchObject({ verdict: 'deny', status: 'permission_denied' });
    const policy2 = structuredClone(policy);
    policy2.personas.verifier!.families.push('shell');
    policy2.personas.verifier!.ceiling = 'process_exec';
    const d = judge('sudo aeat modelo export', 'verifier', 'Bash', buildPolicyIndex(policy2, 's', '/p'));
    expect([d.verdict, d.status]).toEqual(['ask', 'confirmation_required']);
  });
});

describe('PowerShell, simple forms', () => {
  const ps = (command: string) => judge(command, 'shell-preparer', 'PowerShell');
  it.each<[string, string, string, string[]]>([
    ['Get-ChildItem -Path . | Select-Object -First 5', 'abstain', 'ok', []],
    ['Write-Output "aeat modelo export"', 'abstain', 'ok', []],
    ['aeat modelo list; Get-Date', 'abstain', 'ok', ['modelo.list']],
    ['aeat modelo export', 'deny', 'handoff_denied', ['modelo.export']],
    ['& "aeat" modelo export', 'deny', 'handoff_denied', ['modelo.export']],
    ['Get-Date; & aeat modelo `\n  export', 'deny', 'handoff_denied', ['modelo.export']],
    ['Invoke-Expression "aeat modelo export"', 'deny', 'handoff_denied', ['modelo.export']],
    ["iex 'aeat modelo export'", 'deny', 'handoff_denied', ['modelo.export']],
    ['Write-Output $(aeat modelo export)', 'deny', 'handoff_denied', ['modelo.export']],
    ['<# aeat modelo export #> Get-Date', 'abstain', 'ok', []],
    ['Set-Content -Path .claude\\settings.json -Value "{}"', 'deny', 'protected', []],
    ['Remove-Item .claude/persona-gate.json', 'deny', 'protected', []],
    ['"{}" | Out-File -FilePath .claude/settings.local.json', 'deny', 'protected', []],
    ['Invoke-Expression $script', 'deny', 'permission_denied', []],
    ['Set-Location .claude; Remove-Item persona-gate.json', 'deny', 'protected', []],
    ['Set-Location src; Remove-Item old.txt', 'abstain', 'ok', []],
  ])('%j → %s (%s)', (command, verdict, status, matched) => {
    const d = ps(command);
    expect({ verdict: d.verdict, status: d.status, matched: d.resolution.matched.map((s) => s.key) }).toEqual({ verdict, status, matched });
  });
});
