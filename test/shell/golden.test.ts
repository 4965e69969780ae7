import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Level } from '../../src/core/levels';
import { buildPolicyIndex } from '../../src/core/policy-index';
import { makeProtectedPathCheck } from '../../src/io/protect';
import { readShellCall } from '../../src/shell/resolve-shell';
import { confirmed, pre, run, taxIndex } from '../helpers/policy';

/**
 * The reading of every line of the shell corpora, kept in test/shell/golden/readings.jsonl: what
 * the reader says a line does (its level, each invocation's program, kind and level, the effects on
 * paths, what makes it opaque or unreadable) and the verdict a shell persona gets at each ceiling.
 * A change to any row is a change of reading: made on purpose, and reviewed row by row.
 * `UPDATE_GOLDEN=1 npx vitest run test/shell/golden.test.ts` writes the file anew from the lines it holds.
 */

const FILE = join(__dirname, 'golden', 'readings.jsonl');

const CEILINGS: Level[] = ['read_only', 'workspace_write', 'process_exec', 'network'];
const base = taxIndex().policy!;
const policy = structuredClone(base);
for (const ceiling of CEILINGS)
  policy.personas[`shell-${ceiling}`] = {
    families: ['modelo', 'ledger', 'config', 'shell', 'file_read'],
    ceiling,
    agent_types: [],
    delegates: [],
    stages: [],
  };
const index = buildPolicyIndex(policy, 'sha', '/work/project/.claude/persona-gate.json');
const isProtected = makeProtectedPathCheck({
  policyPath: '/work/project/.claude/persona-gate.json',
  stateDir: '/tmp/pg-golden-state',
  prefsFile: '/tmp/pg-golden-home/.config/persona-gate/config.json',
  home: '/tmp/pg-golden-home',
  env: {},
});

interface Row {
  tool: 'Bash' | 'PowerShell';
  command: string;
  reading: unknown;
  verdicts: Record<string, string>;
}

function readingOf(tool: 'Bash' | 'PowerShell', command: string): Omit<Row, 'tool' | 'command'> {
  const event = pre(tool, { command }, { cwd: '/work/project' });
  const r = readShellCall(index, event)!;
  const reading = r.unparsable
    ? { unparsable: true }
    : {
        level: r.level,
        invocations: r.invocations.map(
          (i) => `${i.program || '(redirect)'}:${i.kind}:${i.level}${i.key ? `:${i.key}` : ''}${i.opaque ? ':opaque' : ''}`,
        ),
        matched: r.matched.map((m) => m.key),
        ...(r.unlisted.length > 0 ? { unlisted: r.unlisted.length } : {}),
        ...(r.opaque.length > 0 ? { opaque: r.opaque.length } : {}),
        ...(r.opaqueNames.length > 0 ? { opaqueNames: r.opaqueNames } : {}),
        ...(r.stdinCode.length > 0 ? { stdinCode: r.stdinCode.length } : {}),
        effects: r.effects.map((e) => `${e.effect} ${e.path}${e.pattern ? ' (pattern)' : ''}`),
        ...(r.directories.length > 0 ? { directories: r.directories } : {}),
        ...(r.gateCommands.length > 0 ? { gateCommands: r.gateCommands.length } : {}),
        ...(r.mayRearm ? { mayRearm: true } : {}),
        ...(r.confirmsIdentity ? { confirmsIdentity: true } : {}),
      };
  const verdicts: Record<string, string> = {};
  for (const persona of [null, ...CEILINGS.map((c) => `shell-${c}`)]) {
    const d = run(index, event, {
      state: confirmed(),
      env: persona ? { PERSONA_GATE_PERSONA: persona } : {},
      isProtected,
      shell: readShellCall,
    });
    verdicts[persona ?? 'unscoped'] = `${d.verdict} ${d.status} ${d.rule}`;
  }
  return { reading, verdicts };
}

const rows: Row[] = existsSync(FILE)
  ? readFileSync(FILE, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row)
  : [];

describe('the reading of the shell corpora', () => {
  if (process.env.UPDATE_GOLDEN === '1') {
    it('is written anew', () => {
      const lines = rows.map((r) => ({ ...r, ...readingOf(r.tool, r.command) }));
      writeFileSync(FILE, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    });
    return;
  }
  if (process.env.GOLDEN_REPORT) {
    // `GOLDEN_REPORT=file`: every row whose reading changed, old and new side by side, for review
    it('reports the rows that changed', () => {
      const changed = rows.flatMap((r) => {
        const now = readingOf(r.tool, r.command);
        return JSON.stringify(now) === JSON.stringify({ reading: r.reading, verdicts: r.verdicts })
          ? []
          : [{ command: r.command, was: { reading: r.reading, verdicts: r.verdicts }, now }];
      });
      writeFileSync(process.env.GOLDEN_REPORT!, changed.map((c) => JSON.stringify(c)).join('\n') + '\n');
    });
  }
  it('holds lines', () => expect(rows.length).toBeGreaterThan(800));
  it.each(rows.map((r, i) => [i + 1, r] as const))('row %i', (_n, row) => {
    expect({ command: row.command, ...readingOf(row.tool, row.command) }).toEqual({
      command: row.command,
      reading: row.reading,
      verdicts: row.verdicts,
    });
  });
});
