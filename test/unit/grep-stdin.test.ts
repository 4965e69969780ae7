import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli';
import { readLine } from '../helpers/program-rows';
import { installed } from '../helpers/programs';

/**
 * grep is level none exactly when it opens nothing of the workspace: the real grep, run under
 * strace in a directory that holds files, with its pattern on stdin's side. A line read as none
 * must open no file there; one read as read_only opens one (or tries to).
 */
const LINES = [
  'grep hi',
  'grep -i -n -C 2 -m3 --color=auto "for SHELL in"',
  'egrep -v "^#"',
  'fgrep -x -- -n',
  'grep -e a -e b',
  'grep --regexp=a -c',
  'grep -5 -H hi',
  'grep hi notes.txt',
  'grep -e hi notes.txt',
  'grep -f patterns.txt',
  'grep --file=patterns.txt',
  'grep -r hi',
  'grep -R hi',
  'grep -d recurse hi',
  'grep --exclude-from=list hi',
  'grep -rl hi',
];

describe.skipIf(!installed('strace'))('grep on stdin alone opens no file', () => {
  it.each(LINES)('%s', (line) => {
    const dir = tempDir('pg-grep-');
    writeFileSync(join(dir, 'notes.txt'), 'hi\n');
    writeFileSync(join(dir, 'patterns.txt'), 'hi\n');
    writeFileSync(join(dir, 'list'), 'x\n');
    mkdirSync(join(dir, 'sub'));
    const log = join(tempDir('pg-grep-log-'), 'strace.log');
    const ran = spawnSync('strace', ['-f', '-qq', '-e', 'trace=open,openat,openat2', '-o', log, 'bash', '-c', line], {
      cwd: dir,
      input: 'hi\n',
      encoding: 'utf8',
    });
    expect(ran.error).toBeUndefined();
    // what grep opened by a name relative to the working directory, or inside it
    const opened = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => /open/.test(l) && !/execve/.test(l))
      .map((l) => /"([^"]*)"/.exec(l)?.[1] ?? '')
      .filter((p) => p !== '' && (!p.startsWith('/') || p.startsWith(dir)));
    expect(opened.length > 0, `${line}: opened ${JSON.stringify(opened)}`).toBe(readLine(line).level !== 'none');
  });
});
