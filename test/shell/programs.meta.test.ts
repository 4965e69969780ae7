import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { subcommandOf } from '../../src/shell/read/classify';
import { programNames, programSpec } from '../../src/shell/registry';
import type { CommandSpec, OptionSpec } from '../../src/shell/registry/types';
import { ONLY_READ_WHATEVER_THEY_ARE_HANDED, TAKES_COMMANDS } from '../../src/shell/programs';

/**
 * Every program the registry knows has rows in test/shell/programs/ (a file named after it, or a
 * file of its family), and every option its spec gives a role, a level, a mode or a reason — the
 * options that change what a line does — appears in a row of that program.
 */

const DIR = join(__dirname, 'programs');
const files = readdirSync(DIR).filter((f) => f.endsWith('.test.ts'));
/** Every row's line, by file: the first element of each `[line, { … }]` row. */
const lines = files.flatMap((f) => {
  const text = readFileSync(join(DIR, f), 'utf8');
  return [...text.matchAll(/^\s*\[\s*(['"`])((?:\\.|(?!\1).)*)\1\s*,\s*\{/gm)].map((m) => ({
    file: f,
    line: m[2]!.replace(/\\(['"`\\])/g, '$1'),
  }));
});

/** The program a row's line runs first (after assignments). */
function programOf(line: string): string {
  const words = line
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  return (words[0] ?? '').replace(/^.*\//, '');
}

function optionsThatDo(spec: CommandSpec, seen = new Set<CommandSpec>()): OptionSpec[] {
  if (seen.has(spec)) return [];
  seen.add(spec);
  const own = (spec.options ?? []).filter(
    (o) => o.role !== undefined || o.level !== undefined || o.opaque !== undefined || o.mode !== undefined,
  );
  const subs = Object.keys(spec.subcommands ?? {}).flatMap((name) => {
    const sub = subcommandOf(spec, name);
    return sub ? optionsThatDo(sub, seen) : [];
  });
  return [...own, ...subs];
}

describe('the program registry and its tests', () => {
  const names = programNames();
  it('has rows for every program', () => {
    const covered = new Set(lines.map((l) => programOf(l.line)));
    expect(names.filter((n) => !covered.has(n))).toEqual([]);
  });

  it.each(names)('%s: every option that changes what a line does appears in a row', (name) => {
    const rows = lines.filter((l) => programOf(l.line) === name).map((l) => l.line);
    const missing = optionsThatDo(programSpec(name)!).filter(
      (o) => !rows.some((r) => o.names.some((n) => new RegExp(`(^|\\s)${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(=|\\s|$)`).test(r))),
    );
    expect(missing.map((o) => o.names.join('/'))).toEqual([]);
  });
});

describe('the programs a pager, editor or preprocessor setting may name', () => {
  it('none of them takes commands at a terminal (a pager with shell escapes is not one)', () => {
    expect([...ONLY_READ_WHATEVER_THEY_ARE_HANDED].filter((name) => TAKES_COMMANDS.has(name))).toEqual([]);
  });
});
