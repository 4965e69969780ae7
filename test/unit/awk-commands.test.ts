import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { awkProgram } from '../../src/shell/registry/readers/awk-program';
import { readLine } from '../helpers/program-rows';
import { expectStartsAsRun } from '../helpers/redteam';

/**
 * The command lines an awk program runs (`system("…")`, `print | "…"`, `"…" | getline`) are read
 * as shell lines: what the reader says `aeat` is started with must be what the real awk starts it
 * with, through `sh -c`. The stub `aeat` logs its arguments, one start per line.
 */
const LINES = [
  `awk 'BEGIN { system("aeat modelo work create") }'`,
  `echo x | awk '{ print | "aeat modelo\\tlist" }'`,
  `awk 'BEGIN { "aeat whoami --json" | getline; print }'`,
  `awk 'BEGIN { system("true\\naeat modelo export") }'`,
  `awk 'BEGIN { system("aeat say \\"hi there\\"") }'`,
  `awk 'BEGIN { system( "aeat  modelo   export " ) }'`,
  `awk 'BEGIN { x = getline / 2; system("aeat modelo export"); y = 1 / 1 }' </dev/null`,
  `echo x | awk '{ printf "%s\\n", $1 | "aeat sort -k2"; close("aeat sort -k2") }'`,
];

describe('awk: the commands the reader reads are the ones awk runs', () => {
  it.each(LINES)('%s', (line) => {
    expectStartsAsRun(line, readLine(line));
  });

  it('reads no escape it cannot decode as every awk does', () => {
    expect(awkProgram('BEGIN { system("ls\\/x") }')).toBe('not_read');
    expect(awkProgram('BEGIN { system("ls\\073x") }')).toBe('not_read');
    expect(awkProgram('BEGIN { system("ls\\tx") }')).toEqual({ writes: [], commands: ['ls\tx'], readsInput: false });
  });
});

/**
 * A program of BEGIN rules only is level none: awk exits after them and never opens its file
 * operands. The real awk is given a file that does not exist: it must succeed exactly when the
 * reader says the program reads no input.
 */
describe('awk: a program of BEGIN rules only opens none of its files', () => {
  const PROGRAMS = [
    'BEGIN {print sin(0.5)}',
    'BEGIN { # c\nprint }',
    'function f(a, b) { return a + b }\nBEGIN { print f(1, 2) }',
    'BEGIN { print "{" }; BEGIN { print 2 }',
    'BEGIN{x} {print}',
    'BEGIN{x} $1',
    'END{print NR}',
    'BEGIN{print}\nEND{}',
    'BEGIN{getline < "no-such-file"; print}',
    'BEGIN{getline; print}',
  ];
  // awk is in test/programs.txt: under CI a missing one fails the run before any test
  const awk = spawnSync('awk', ['BEGIN{}'], { stdio: 'ignore' });
  it.skipIf(awk.error !== undefined).each(PROGRAMS)('%j', (program) => {
    const found = awkProgram(program);
    if (typeof found === 'string') throw new Error(`not read: ${found}`);
    const readsInput = found.readsInput;
    const read = readLine(`awk '${program.replace(/'/g, "'\\''")}' no-such-file`);
    expect(read.level).toBe(readsInput ? 'read_only' : 'none');
    const ran = spawnSync('awk', [program, 'no-such-file'], { input: '', encoding: 'utf8' });
    // reading its input, awk fails on the file it cannot open (mawk, gawk: status 2); `getline < FILE` returns -1
    if (readsInput && !/getline </.test(program)) expect(ran.status).not.toBe(0);
    if (!readsInput) expect([ran.status, ran.stderr]).toEqual([0, '']);
  });
});
