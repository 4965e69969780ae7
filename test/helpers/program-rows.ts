import { describe, expect, it } from 'vitest';
import type { Level } from '../../src/core/levels';
import { readShellCall } from '../../src/shell/resolve-shell';
import { pre, taxIndex } from './policy';

/**
 * The rows of a program's test file (test/shell/programs/<name>.test.ts): a line and what the
 * reader must say of it — the line's level, the kind of the program's invocation, its effects on
 * paths (`write x`, `destroy y`, …, in any order), whether it is opaque, unreadable, or matched a
 * catalogued command. test/shell/programs.meta.test.ts checks that every program of the registry
 * has rows, and every option its spec gives a role appears in one.
 */
export interface Expect {
  level?: Level;
  kind?: 'builtin' | 'reader' | 'writer' | 'network' | 'exec' | 'catalogued' | 'unlisted' | 'gate';
  /** `effect path` strings, as the reader reports them (`write out.txt`, `destroy .`); [] for none. Paths merely handed to a program (`mention`) are not compared. */
  effects?: string[];
  /** true: the line runs code persona-gate cannot read; a string: the reason's text contains it. */
  opaque?: boolean | string;
  unparsable?: boolean | string;
  /** Read as the PowerShell tool's line. */
  powershell?: boolean;
}

export type Row = [line: string, expect: Expect];

const index = taxIndex();

export function readLine(line: string, powershell = false) {
  return readShellCall(index, pre(powershell ? 'PowerShell' : 'Bash', { command: line }, { cwd: '/work/project' }))!;
}

/** One describe block of rows for a program (or a family of programs sharing a spec). */
export function programRows(program: string, rows: Row[]): void {
  describe(`the registry's reading of ${program}`, () => {
    it.each(rows)('%j', (line, want) => {
      const r = readLine(line, want.powershell === true);
      if (want.unparsable !== undefined) {
        if (want.unparsable === false) expect(r.unparsable).toBeUndefined();
        else
          expect(r.unparsable).toEqual(typeof want.unparsable === 'string' ? expect.stringContaining(want.unparsable) : expect.any(String));
        if (want.unparsable !== false) return;
      }
      expect(r.unparsable, r.unparsable).toBeUndefined();
      if (want.level !== undefined) expect(r.level).toBe(want.level);
      if (want.kind !== undefined) expect(r.invocations.map((i) => i.kind)).toContain(want.kind);
      if (want.effects !== undefined)
        expect(
          r.effects
            .filter((e) => e.effect !== 'mention')
            .map((e) => `${e.effect} ${e.path}`)
            .sort(),
        ).toEqual([...want.effects].sort());
      if (want.opaque === false) expect(r.opaque).toEqual([]);
      else if (want.opaque === true) expect(r.opaque.length).toBeGreaterThan(0);
      else if (typeof want.opaque === 'string') expect(r.opaque.join('\n')).toContain(want.opaque);
    });
  });
}
