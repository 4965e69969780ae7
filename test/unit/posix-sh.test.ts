import { describe, expect, it } from 'vitest';
import { readLine } from '../helpers/program-rows';
import { bashRuns, whenRan } from '../helpers/redteam';

/**
 * A command string that POSIX sh runs (`sh -c`, dash, awk's `system()`, `flock -c`) is read with
 * bash's grammar; a construct only bash has is read otherwise by sh, so such a string is not read
 * at all. Each line below starts the stub `aeat` when dash runs it, where bash would not.
 */
const RUN_BY_SH = [
  `dash -c '((aeat modelo export))'`,
  `sh -c 'echo &>/dev/null aeat modelo export'`,
  `awk 'BEGIN { system("((aeat modelo export))") }'`,
  `awk 'BEGIN { system("echo &>/dev/null aeat modelo export") }'`,
  `echo x | awk '{ print | "[[ a > out ]]; aeat modelo export" }'`,
];

describe('a command string POSIX sh runs is not read as bash', () => {
  it.each(RUN_BY_SH)('%s', (line) => {
    expect(readLine(line).unparsable).toContain('POSIX sh');
    // dash really starts what bash would not (sh is dash where the tests run: test/programs.txt)
    whenRan(bashRuns(line), (logged) => expect(logged).toContain('aeat modelo export'));
  });

  it('reads such a string when it holds nothing only bash has, and bash -c as bash', () => {
    for (const line of [`sh -c 'ls && cat notes.txt'`, `bash -c '[[ -f x ]] && cat x'`, `awk 'BEGIN { system("ls") }'`]) {
      const read = readLine(line);
      expect(read.unparsable).toBeUndefined();
      expect(read.level).toBe('read_only');
    }
    for (const [line, construct] of [
      [`sh -c '[[ a > f ]]'`, '[['],
      [`sh -c 'tee <<< x'`, '<<<'],
      [`sh -c "cat <(ls)"`, '<(…)'],
      [`sh -c "echo $'\\\\x41'"`, "$'…'"],
      [`sh -c 'for ((i=0;i<1;i++)); do :; done'`, 'for (('],
      [`sh -c 'a=(x y)'`, '=(…)'],
      [`sh -c 'echo $(( 1 )) "$( [[ -f x ]] )"'`, '[['],
      [`flock /tmp/l -c '((aeat modelo export))'`, '(('],
      [`sh -c 'x[1/1]=y'`, 'x[…]='],
      [`sh -c 'x+=./y'`, 'x+='],
      [`sh -c 'echo a | tee 10>/dev/null'`, '10>'],
      // dash runs \`function\` as a command (not found) and then the body's lines
      [`sh -c 'function f {\naeat modelo export\n}'`, 'function'],
    ] as const)
      expect(readLine(line).unparsable, line).toContain(`${construct} in a command string`);
  });

  it('a start-up file bash runs before its string is code the line does not show', () => {
    for (const line of ['bash --rcfile x -i -c true', 'bash --init-file x -ic true', "sh -c 'bash --rcfile x -i -c true'"]) {
      const read = readLine(line);
      expect(read.level, line).toBe('process_exec');
      expect(read.opaque.join(' '), line).toContain('runs the script file x');
    }
  });
});
