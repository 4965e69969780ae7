import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_MESSAGES } from '../../src/cli/messages';
import { cleanEnv, runCli, tempDir } from '../helpers/cli';
import { taxPolicyWithShell } from '../helpers/policy';

// SPEC §9.8: what a persona that runs opaque code can still reach is stated, not hidden.
function policyWith(shell?: 'strict') {
  const dir = tempDir();
  const policy = taxPolicyWithShell('network');
  delete policy.$schema;
  const preparer = policy.personas['modelo-preparer'];
  if (shell) preparer.shell = shell;
  const path = join(dir, 'policy.json');
  writeFileSync(path, JSON.stringify(policy));
  return { path, env: cleanEnv({ HOME: dir, PERSONA_GATE_STATE_DIR: join(dir, 'state') }) };
}

const REACH = [
  'aeat modelo export',
  'aeat modelo record',
  'aeat ledger entry delete',
  'aeat bank statement list',
  'aeat bank statement import',
  'aeat bank reconcile',
  'aeat documents list',
  'aeat documents import',
];

describe('the residue, stated', () => {
  it('validate warns, and still says the policy is valid', () => {
    const p = policyWith();
    const r = runCli(['validate', '--config', p.path], { env: p.env });
    expect(r).toMatchObject({
      stdout: `${CLI_MESSAGES.en.valid(p.path, 7, 22)}\n`,
      stderr: `${CLI_MESSAGES.en.residueWarning('modelo-preparer', REACH)}\n`,
      code: 0,
    });
  });

  it('a strict shell closes it: no warning', () => {
    const p = policyWith('strict');
    expect(runCli(['validate', '--config', p.path], { env: p.env })).toMatchObject({ stderr: '', code: 0 });
  });

  it('list and explain name the commands reachable that way', () => {
    const p = policyWith();
    const list = runCli(['list', '--config', p.path, '--persona', 'modelo-preparer'], { env: p.env });
    expect(list.stdout).toContain(
      CLI_MESSAGES.en.residueLine(
        REACH.map(
          (c, k) =>
            `${c} (${['modelo.export', 'modelo.record', 'ledger.entry.delete', 'bank.statement.list', 'bank.statement.import', 'bank.reconcile', 'documents.list', 'documents.import'][k]})`,
        ),
      ),
    );
    const explain = runCli(
      ['explain', '--config', p.path, '--persona', 'modelo-preparer', 'Bash', '{"command":"echo aeat modelo export | sh"}'],
      { env: p.env },
    );
    expect(explain.code).toBe(2);
    expect(explain.stdout).toContain('rule opaque_execution');
    expect(explain.stdout).toContain(CLI_MESSAGES.en.residueLine(REACH));
    const json = JSON.parse(
      runCli(['list', '--config', p.path, '--persona', 'modelo-preparer', '--format', 'json'], { env: p.env }).stdout,
    );
    expect(json.reachable_through_opaque_code.map((c: { key: string }) => c.key)).toContain('modelo.export');
  });
});
