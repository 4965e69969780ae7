import { describe, expect, it } from 'vitest';
import { awkProgram } from '../../src/shell/registry/readers/awk-program';
import { readLine } from '../helpers/program-rows';
import { bashRuns, whenRan } from '../helpers/redteam';

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
  `echo x | awk '{ printf "%s\\n", $1 | "aeat sort -k2"; close("aeat sort -k2") }'`,
];

describe('awk: the commands the reader reads are the ones awk runs', () => {
  it.each(LINES)('%s', (line) => {
    const read = readLine(line);
    expect(read.unparsable).toBeUndefined();
    expect(read.opaque).toEqual([]);
    const starts = read.invocations.filter((i) => i.program === 'aeat').map((i) => ['aeat', ...i.args].join(' '));
    expect(starts.length).toBeGreaterThan(0);
    whenRan(bashRuns(line), (logged) => expect(logged.split('\n')).toEqual(starts));
  });

  it('reads no escape it cannot decode as every awk does', () => {
    expect(awkProgram('BEGIN { system("ls\\/x") }')).toBeNull();
    expect(awkProgram('BEGIN { system("ls\\073x") }')).toBeNull();
    expect(awkProgram('BEGIN { system("ls\\tx") }')).toEqual({ writes: [], commands: ['ls\tx'] });
  });
});
