import { describe, expect, it } from 'vitest';
import { buildPolicyIndex } from '../../src/core/policy-index';
import { readShellCall } from '../../src/shell/resolve-shell';
import { confirmed, pre, run, taxIndex } from '../helpers/policy';

// A remover under xargs (rm, rmdir, unlink) removes what it is handed and nothing else: under the
// OS sandbox, which refuses a guarded target, it keeps its own level; elsewhere it stays opaque.
const policy = structuredClone(taxIndex().policy!);
policy.personas['writer'] = { families: ['shell'], ceiling: 'workspace_write', agent_types: [], delegates: [], stages: [] };
const index = buildPolicyIndex(policy, 'sha', '/work/project/.claude/persona-gate.json');
const judge = (command: string, sandboxed: boolean) =>
  run(index, pre('Bash', { command }, { cwd: '/work/project' }), {
    state: confirmed(),
    env: { PERSONA_GATE_PERSONA: 'writer' },
    shell: readShellCall,
    options: { sandboxed: () => sandboxed },
  });

describe('removers under xargs', () => {
  it.each(['xargs rm -f', 'git ls-files -d | xargs rm', 'echo ok | xargs rm -- -rf', 'find . -name "*.o" -print0 | xargs -0 rmdir'])(
    '%s: workspace_write under the sandbox, opaque without it',
    (line) => {
      const inside = judge(line, true);
      expect([inside.verdict, inside.resolution.primary.level]).toEqual(['abstain', 'workspace_write']);
      const outside = judge(line, false);
      expect([outside.verdict, outside.resolution.primary.level]).toEqual(['deny', 'process_exec']);
    },
  );
  it.each(['xargs sort -o out', 'xargs find . -name foo'])('%s: any other program stays opaque', (line) => {
    const d = judge(line, true);
    expect([d.verdict, d.resolution.primary.level]).toEqual(['deny', 'process_exec']);
  });
});
