import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLine } from '../helpers/program-rows';
import { installed } from '../helpers/programs';

/**
 * The wrappers' specs against the programs themselves: each line runs for real under bash, with
 * `/bin/echo MARK …` as the command, and what echo printed — the words the wrapper handed it — is
 * compared with what the reader says runs. A line the reader reads through must run echo with
 * exactly those words; a line it keeps opaque (or cannot read) is refused, whatever it runs. A
 * program that is not installed (test/programs.txt), or that cannot run here (no privileges), checks
 * only the reading.
 */

const dir = mkdtempSync(join(tmpdir(), 'pg-wrapper-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const root = process.getuid?.() === 0;

/** [line, 'read' (read through to echo) or 'opaque' (refused as unreadable or opaque)] */
const LINES: [string, 'read' | 'opaque'][] = [
  ['env -i /bin/echo MARK x', 'read'],
  ['env -u HOME /bin/echo MARK x', 'read'],
  ['env -iu HOME /bin/echo MARK x', 'read'],
  ['env -vu HOME /bin/echo MARK x', 'read'],
  ['env - A=1 /bin/echo MARK x', 'read'],
  ['env -C / /bin/echo MARK x', 'read'],
  ['env --chdir=/ /bin/echo MARK x', 'read'],
  ['env -- /bin/echo MARK x', 'read'],
  ["env -S '/bin/echo MARK x'", 'read'],
  ['env --uns HOME /bin/echo MARK x', 'opaque'],
  ['nice -n 5 /bin/echo MARK x', 'read'],
  ['nice -n5 /bin/echo MARK x', 'read'],
  ['nice -5 /bin/echo MARK x', 'read'],
  ['nice --adjustment=3 /bin/echo MARK x', 'read'],
  ['timeout 5 /bin/echo MARK x', 'read'],
  ['timeout -k 1 5 /bin/echo MARK x', 'read'],
  ['timeout -sKILL -k1 5 /bin/echo MARK x', 'read'],
  ['timeout --preserve-status --signal=TERM 5 /bin/echo MARK x', 'read'],
  ['timeout 5 --foreground /bin/echo MARK x', 'opaque'],
  ['stdbuf -oL /bin/echo MARK x', 'read'],
  ['stdbuf -oL -e0 /bin/echo MARK x', 'read'],
  ['stdbuf --output=L /bin/echo MARK x', 'read'],
  ['nohup /bin/echo MARK x', 'read'],
  ['setsid -w /bin/echo MARK x', 'read'],
  ['/usr/bin/time -p /bin/echo MARK x', 'read'],
  ['/usr/bin/time -f %e /bin/echo MARK x', 'read'],
  ['/usr/bin/time -pf %e /bin/echo MARK x', 'read'],
  ['/usr/bin/time -ao t.txt /bin/echo MARK x', 'read'],
  ['/usr/bin/time --output=t.txt /bin/echo MARK x', 'read'],
  ['xargs -0 /bin/echo MARK x < /dev/null', 'read'],
  ['xargs -n 1 -P 2 /bin/echo MARK x < /dev/null', 'read'],
  ['xargs -E END /bin/echo MARK x < /dev/null', 'read'],
  ['xargs -e /bin/echo MARK x < /dev/null', 'read'],
  ['xargs -l /bin/echo MARK x < /dev/null', 'read'],
  ['xargs -s 1000 -t /bin/echo MARK x < /dev/null', 'read'],
  ['xargs -a /dev/null --max-args=1 /bin/echo MARK x', 'read'],
  ['xargs -0n1 /bin/echo MARK x < /dev/null', 'read'],
  ['flock lockf /bin/echo MARK x', 'read'],
  ['flock -n lockf /bin/echo MARK x', 'read'],
  ['flock -nw 1 lockf /bin/echo MARK x', 'read'],
  ["flock lockf -c '/bin/echo MARK x'", 'read'],
  ["flock -c '/bin/echo MARK x' lockf", 'opaque'],
  ['flock --time 1 lockf /bin/echo MARK x', 'opaque'],
  ['ionice -c 3 /bin/echo MARK x', 'read'],
  ['ionice -c2 -n7 /bin/echo MARK x', 'read'],
  ['ionice -t -c 3 /bin/echo MARK x', 'read'],
  ['taskset -c 0 /bin/echo MARK x', 'read'],
  ['taskset 1 /bin/echo MARK x', 'read'],
  ['chrt -o 0 /bin/echo MARK x', 'read'],
  ['chrt --other 0 /bin/echo MARK x', 'read'],
  ['prlimit --nofile=1024 /bin/echo MARK x', 'read'],
  ['prlimit -n1024 /bin/echo MARK x', 'read'],
  ["script -qc '/bin/echo MARK x' /dev/null", 'read'],
  ["script -q -c '/bin/echo MARK x' log.txt", 'read'],
  ["script log.txt -q -c '/bin/echo MARK x'", 'read'],
  ['exec /bin/echo MARK x', 'read'],
  ['exec -a foo /bin/echo MARK x', 'read'],
  ['exec -c /bin/echo MARK x', 'read'],
  ['command /bin/echo MARK x', 'read'],
  ['command -p /bin/echo MARK x', 'read'],
  ['sudo -n /bin/echo MARK x', 'read'],
  ['sudo -np prompt /bin/echo MARK x', 'read'],
  ['sudo -u root -H /bin/echo MARK x', 'read'],
  ['sudo -s /bin/echo MARK x', 'opaque'],
  ["su root -c '/bin/echo MARK x'", 'read'],
  ["su -lc '/bin/echo MARK x' root", 'read'],
  ["su - root -c '/bin/echo MARK x'", 'read'],
  ["su root -l -c '/bin/echo MARK x'", 'read'],
  ["sg root -c '/bin/echo MARK x'", 'read'],
  ['sg root /bin/echo MARK x', 'read'],
  ['runuser -u root -- /bin/echo MARK x', 'opaque'],
  ['unshare -r /bin/echo MARK x', 'read'],
  ['strace -qqo /dev/null /bin/echo MARK x', 'read'],
  ['strace -f -e trace=none -o /dev/null /bin/echo MARK x', 'read'],
  ['parallel /bin/echo MARK x ::: a', 'read'],
  ["parallel '/bin/echo MARK' x ::: a", 'read'],
  ['parallel -k -j 2 /bin/echo MARK {2} {1} ::: a ::: b', 'read'],
  ['parallel /bin/echo MARK {.} {/} {//} ::: d/a.txt', 'read'],
  ['parallel -I XX /bin/echo MARK XX.y ::: a', 'read'],
  ['parallel -q /bin/echo MARK x ::: a', 'read'],
  ["parallel '/bin/echo MARK $HOME' ::: a", 'opaque'],
  ['parallel -- /bin/echo MARK x', 'opaque'],
];

/** The words echo printed, when it ran. */
function ran(line: string): string[] | null {
  const r = spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 10_000, input: '' });
  const marked = (r.stdout ?? '')
    .replace(/\r/g, '')
    .split('\n')
    .find((l) => l.startsWith('MARK'));
  return marked === undefined ? null : marked.split(' ');
}

describe('each wrapper line against the program itself', () => {
  it.each(LINES)('%j', (line, expected) => {
    const reading = readLine(line);
    const refused = reading.unparsable !== undefined || reading.opaque.length > 0;
    expect(refused ? 'opaque' : 'read').toBe(expected);
    const program = line.split(' ')[0]!.replace(/^.*\//, '');
    if (!installed(program) && program !== 'exec' && program !== 'command') return;
    if ((program === 'su' || program === 'sg') && !root) return;
    const words = ran(line);
    if (refused || words === null) return;
    const echo = reading.invocations.filter((i) => i.program === 'echo');
    expect(echo.map((i) => i.args)).toEqual([words]);
  });

  // read as running nothing: each must fail at once, reading no start-up file (each file leaves a mark)
  it.each(['bash -c', 'bash -lc', 'bash -ic', 'sh -c', 'sh -ic', 'sh -lc'])('%j runs nothing', (line) => {
    expect(readLine(line)).toMatchObject({ level: 'none', invocations: [] });
    const home = join(dir, 'home');
    mkdirSync(home, { recursive: true });
    const mark = join(home, 'started');
    for (const f of ['.bashrc', '.bash_profile', '.profile', 'env.sh']) writeFileSync(join(home, f), `touch ${mark}\n`);
    const [shell, ...args] = line.split(' ');
    const r = spawnSync(shell!, args, {
      cwd: dir,
      encoding: 'utf8',
      timeout: 10_000,
      input: 'touch stdin-ran\n',
      env: { PATH: process.env.PATH, HOME: home, ENV: join(home, 'env.sh'), BASH_ENV: join(home, 'env.sh') },
    });
    expect([r.status, existsSync(mark), existsSync(join(dir, 'stdin-ran'))]).toEqual([2, false, false]);
  });

  it('ran most lines for real here', () => {
    const verified = LINES.filter(([line, expected]) => expected === 'read' && ran(line) !== null);
    expect(verified.length).toBeGreaterThan(LINES.length / 2);
  });
});
