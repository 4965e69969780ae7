import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLine } from '../helpers/program-rows';

/**
 * Variables the line itself gives a literal value (src/shell/syntax/values.ts). Each line is read,
 * then run in bash with `git` a stub that prints its arguments, in a tree that holds files named
 * `-o` and `-x.txt`: where the reader lets `git log "$R"` through as a read, bash must hand git no
 * word that begins with `-`; where bash does hand git one, the reader must refuse the line to a
 * read-only persona.
 */

const scratch = mkdtempSync(join(tmpdir(), 'pg-values-'));
const bin = join(scratch, 'bin');
const tree = join(scratch, 'tree');
mkdirSync(bin);
mkdirSync(tree);
writeFileSync(join(tree, '-o'), '');
writeFileSync(join(tree, '-x.txt'), '');
writeFileSync(join(bin, 'git'), '#!/bin/sh\nshift\nfor a; do printf "%s\\n" "$a"; done\n');
chmodSync(join(bin, 'git'), 0o755);
writeFileSync(join(bin, 'rm'), '#!/bin/sh\nfor a; do printf "%s\\n" "$a"; done\n');
chmodSync(join(bin, 'rm'), 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The arguments bash hands git after `log` (or rm), over every start of it. */
function argv(line: string): string[] {
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', line], {
    cwd: tree,
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: scratch },
    encoding: 'utf8',
  });
  return r.stdout.split('\n').filter(Boolean);
}

const plain = [
  'R=main; git log "$R"',
  'R=main && git log "$R"',
  'R=main; git log $R',
  'R=main R2=dev; git log "$R" "$R2"',
  'R=main\ngit log "$R"',
  'for f in a b c; do git log "$f"; done',
  'for f in src "lib dir"; do git log "$f"; done',
  'R=main; if true; then git log "$R"; fi',
  'R=main; { git log "$R"; }',
  'R=main; echo hi; git log "$R"',
  'R=main; (git log "$R")',
  'R=main; echo "$(git log "$R")"',
  'R=main; echo | git log "$R"',
  'R=main; x=$(R=-o); git log "$R"',
  'R=main; cd . && git log "$R"',
  'R=main; export OTHER=-o; git log "$R"',
  'R=main; for x in 1 2; do git log "$R"; done',
  'R=main; git log "${R}"',
];

const refused = [
  'R=-o; git log "$R"',
  'R=main; R=-o; git log "$R"',
  'R=main; read R <<< -o; git log "$R"',
  'R=main; true && R=-o; git log "$R"',
  'R=main; f() { R=-o; }; f; git log "$R"',
  'R=main; eval R=-o; git log "$R"',
  'trap \'R=-o\' DEBUG; R=main; git log "$R"',
  'R=main; : $((R=-1)); git log "$R"',
  'R=main; for x in 1; do R=-o; done; git log "$R"',
  'for f in a -o; do git log "$f"; done',
  "R='a -o'; git log $R",
  "R='*'; git log $R",
  'R=; git log "$R"-o',
  'declare -i R; R=5-9; git log "$R"',
  'declare -n R=S; R=main; S=-o; git log "$R"',
  'R=main; printf -v R %s -o; git log "$R"',
  'R=main; mapfile -t R <<< -o; git log "$R"',
  'R=main; { R=-o; } && git log "$R"',
  'R=main; true && { R=-o; }; git log "$R"',
  'R=main; case a in a) R=-o;& b) git log "$R";; esac',
  'shopt -s lastpipe; R=main; echo | R=-o; git log "$R"',
  'for f in *.txt; do git log "$f"; done',
  'R=main; export R=-o; git log "$R"',
  'R=main; for R in -o; do :; done; git log "$R"',
  'R=main; while R=-o; false; do :; done; git log "$R"',
  'R=main; if R=-o; false; then :; fi; git log "$R"',
  'R=main; git log "$((R=-1))" "$R"',
  'R=main; : "${R:=x}" ; unset R; git log "${R:--o}"',
];

describe('a variable the line gives a literal value', () => {
  it.each(plain)('%j: read, and bash hands git no option', (line) => {
    const r = readLine(line);
    expect(r.opaque, JSON.stringify(r.opaque)).toEqual([]);
    expect(r.level).toBe('read_only');
    const args = argv(line);
    expect(args.length).toBeGreaterThan(0);
    expect(args.filter((a) => a.startsWith('-'))).toEqual([]);
  });

  it.each(refused)('%j: bash hands git an option, and the reader does not let it through as a read', (line) => {
    expect(argv(line).some((a) => a.startsWith('-'))).toBe(true);
    const r = readLine(line);
    expect(r.level).not.toBe('read_only');
    expect(r.level).not.toBe('none');
  });
});

describe('what else reads a word that may become an option', () => {
  it.each([
    ['for d in src lib; do find "$d" -name x; done', 'read_only'],
    ['d=src; find "$d" -type f', 'read_only'],
    ['d=-delete; find . "$d"', 'process_exec'],
  ])('%j is %s', (line, level) => {
    expect(readLine(line).level).toBe(level);
  });

  it('knows no more than a bounded number of variables, and stays correct past it', () => {
    const many = Array.from({ length: 200 }, (_, k) => `V${k}=v`).join('; ');
    expect(readLine(`${many}; R=main; git log "$R"`).level).not.toBe('read_only');
    expect(readLine(`${many}; git log "$V0"`).level).toBe('read_only');
  });
});

describe('the paths of a word the line gives literal values', () => {
  // each invocation is read once for each value: what rm is handed is what the reader says it removes
  it.each([
    'for target in /tmp/a /tmp/b; do rm -r -f "$target"; done',
    'for t in a b; do rm -f $t; done',
    'R=/tmp/x; rm -rf "$R"',
    'for f in "a b" c; do rm -f "$f"; done',
    'for d in x y; do for f in 1 2; do rm "$d" "$f"; done; done',
  ])('%j', (line) => {
    const r = readLine(line);
    expect(r.unparsable).toBeUndefined();
    const removed = r.effects.filter((e) => e.effect === 'destroy').map((e) => e.path);
    expect(new Set(removed)).toEqual(new Set(argv(line).filter((a) => !a.startsWith('-'))));
  });

  it.each([
    // split or globbed unquoted, changed in the body, read at run time, or an option: not known
    'for f in "a b" c; do rm -f $f; done',
    'for t in a b; do t=$RANDOM; rm "$t"; done',
    'for t in a b; do read t; rm "$t"; done',
    'for t in -rf x; do rm "$t"; done',
    'rm -f "$OUTSIDE"',
  ])('%j: unreadable', (line) => {
    expect(readLine(line).unparsable).toBeDefined();
  });

  it('writes each value a redirection names', () => {
    const r = readLine('for f in a.txt b.txt; do echo x > "$f"; done');
    expect(r.effects.map((e) => `${e.effect} ${e.path}`).sort()).toEqual(['write a.txt', 'write b.txt']);
  });
});
