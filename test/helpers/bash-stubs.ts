import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * Runs command lines through the real bash with every program replaced by a stub that records its
 * name and arguments: what bash really runs for a line, to compare with what the shell reader says
 * it runs.
 *
 * - PATH holds the stub directory only. A program with no stub is recorded too, through bash's
 *   `command_not_found_handle` (defined via BASH_ENV in every bash the line starts), and fails 127.
 * - A record is NUL-separated fields appended with one write to the line's own log: the program, its
 *   arguments (exact: spaces, quotes, newlines survive), an id, and the ids of the recorded programs
 *   it runs under (passed down in the environment, so background jobs and process substitutions
 *   keep them) — enough to tell what a wrapper or a shell ran. Stubs that only record are POSIX sh.
 * - Plain stubs print nothing and exit with the line's chosen status (0 by default, 1 to take the
 *   `||` branches). Filters that only read (cat, echo, printf, grep, head, tail, sort without -o,
 *   sed without -i and sandboxed, tr, cut, wc) pass their input on through the real program after
 *   recording, so that `cat <<EOF | sh` or `echo … | tee | bash` feed the shell what they would;
 *   tee copies its input and writes no file.
 * - Wrappers record themselves, then run their command: env, timeout, nohup, nice, ionice, stdbuf
 *   and xargs are the real programs (their option parsing and PATH search are the truth); sudo,
 *   doas, time, setsid, chronic, unbuffer, unshare, su, script, watch, ssh and find are stubs that run what
 *   the real one would, once, locally: `watch CMD` as `sh -c "$*"`, `ssh host CMD` and `su -c` as
 *   `bash -c`, `script -c` as `sh -c`, `find … -exec CMD {} \;` once with `{}` replaced by `.` (find
 *   itself is a stub: a real find could walk or delete anything a line names).
 * - sh, bash, dash, zsh and ksh record themselves and exec the real /bin/bash with the same
 *   arguments, so `| sh`, `bash -c`, `bash <<EOF` really run their code (sh is bash here, not dash);
 *   startup files are not read (`bash -l` would run what the machine's /etc/profile runs).
 * - Each line runs as `bash -c LINE` with stdin /dev/null, in a fresh empty directory, HOME a
 *   temporary directory, FUNCNEST=4 (a function that calls itself, even in a pipeline, stops soon);
 *   its log is complete when every process holding the line's marker pipe has exited, so background
 *   jobs are waited for. Many lines run per driver process (test/helpers/bash-stubs-driver.sh), a
 *   driver per core; a line that makes no progress within the time limit has its process group
 *   killed.
 * - What bash does by itself still happens: a redirection to an absolute path writes that file.
 */

export interface RanProgram {
  program: string;
  args: string[];
  /** This record's id. */
  id: string;
  /** Ids of the recorded programs this one runs under (wrappers, shells, runners), outermost first. */
  via: string[];
  /** bash (or a wrapper stub) could not find it: it did not run, but the line tried to. */
  notFound: boolean;
}

export interface StubRun {
  ran: RanProgram[];
  /** Exit status of `bash -c LINE`; 137 when the timeout killed it. */
  status: number;
  timedOut: boolean;
}

export interface StubLine {
  line: string;
  /** Exit status of the plain stubs for this line (0: every program succeeds; 1: every one fails). */
  stubStatus?: 0 | 1;
}

/** Programs whose stub records its call and does nothing else. */
export const PLAIN_STUBS = [
  'aeat',
  'gh',
  'git',
  'npm',
  'npx',
  'node',
  'python3',
  'python',
  'make',
  'curl',
  'wget',
  'ls',
  'rm',
  'cp',
  'mv',
  'mkdir',
  'touch',
  'chmod',
  'ln',
  'jq',
  'date',
  'tar',
  'diff',
  'awk',
  'perl',
  'ruby',
  'vim',
  'uniq',
  'persona-gate',
  'sleep',
  'kill',
  'pwd',
  'test',
  '[',
  'which',
  'id',
  'whoami',
  'stat',
  'rg',
  'yarn',
  'pnpm',
  'docker',
  'ssh-add',
  'scp',
  'rsync',
  'sqlite3',
] as const;
/** Filters: recorded, then the real program copies its input through (tee: cat, writing no file). */
export const PASS_THROUGH = ['cat', 'tee', 'echo', 'printf', 'grep', 'head', 'tail', 'sort', 'sed', 'tr', 'cut', 'wc'] as const;
/** Real wrappers: recorded, then the real program runs its command (found on the stub PATH). */
export const REAL_WRAPPERS = ['env', 'timeout', 'nohup', 'nice', 'ionice', 'stdbuf', 'xargs'] as const;
/** Stubbed runners: recorded, then they run what the real one would. */
export const RUNNER_STUBS = [
  'sudo',
  'doas',
  'time',
  'setsid',
  'chronic',
  'unbuffer',
  'unshare',
  'su',
  'script',
  'watch',
  'ssh',
  'find',
] as const;
export const SHELL_STUBS = ['bash', 'sh', 'dash', 'zsh', 'ksh'] as const;
export const STUBBED: ReadonlySet<string> = new Set<string>([
  ...PLAIN_STUBS,
  ...PASS_THROUGH,
  ...REAL_WRAPPERS,
  ...RUNNER_STUBS,
  ...SHELL_STUBS,
  'true',
  'false',
]);

/** Programs that run another program named in their arguments (or a shell reading its input). */
export const RUNNERS: ReadonlySet<string> = new Set<string>([...REAL_WRAPPERS, ...RUNNER_STUBS, ...SHELL_STUBS]);

const HERE = __dirname;

/** The real program's absolute path, found on the caller's PATH. */
function realProgram(name: string): string {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // next directory
    }
  }
  throw new Error(`bash-stubs: the real ${name} is needed and is not on PATH`);
}

/** Records as the stubs write them: NUL-separated `R, program, via, id, not-found, count, args…`. */
function parseRecords(text: string): RanProgram[] {
  const f = text.split('\0');
  const ran: RanProgram[] = [];
  let k = 0;
  while (k < f.length - 1) {
    if (f[k] !== 'R') throw new Error(`bash-stubs: a damaged record log at field ${k}: ${JSON.stringify(text.slice(0, 500))}`);
    const count = Number(f[k + 5]);
    const args = f.slice(k + 6, k + 6 + count);
    ran.push({ program: f[k + 1]!, via: f[k + 2] === '' ? [] : f[k + 2]!.split(','), id: f[k + 3]!, notFound: f[k + 4] === '1', args });
    k += 6 + count;
  }
  return ran;
}

/** The stub of one program: POSIX sh where it only records and execs, bash with the runner library otherwise. */
function stubScript(name: string, lib: string): string {
  if ((RUNNER_STUBS as readonly string[]).includes(name)) return `#!/bin/bash -p\n. ${quote(lib)}\n__pg_stub ${quote(name)} "$@"\n`;
  const record = `id="$$.\${#PG_VIA}"\nprintf '%s\\0' R ${quote(name)} "\${PG_VIA-}" "$id" 0 "$#" "$@" >> "$PG_STUB_LOG"\n`;
  const pass = `PG_VIA="\${PG_VIA:+$PG_VIA,}$id"; export PG_VIA\n`;
  const real = (program: string) => quote(realProgram(program));
  let tail: string;
  if (name === 'true') tail = 'exit 0';
  else if (name === 'false') tail = 'exit 1';
  else if (name === 'tee') tail = `exec ${real('cat')}`;
  else if (name === 'sort') tail = `for a; do case $a in -o*|--output*) exit 0 ;; esac; done\nexec ${real('sort')} "$@"`;
  else if (name === 'sed')
    tail = `for a; do case $a in --in-place*) exit 0 ;; --*) ;; -*i*) exit 0 ;; esac; done\nexec ${real('sed')} --sandbox "$@"`;
  else if ((SHELL_STUBS as readonly string[]).includes(name)) tail = `${pass}exec /bin/bash --noprofile --norc "$@"`;
  else if ((REAL_WRAPPERS as readonly string[]).includes(name)) tail = `${pass}exec ${real(name)} "$@"`;
  else if ((PASS_THROUGH as readonly string[]).includes(name)) tail = `exec ${real(name)} "$@"`;
  else tail = 'exit "${PG_STUB_STATUS:-0}"';
  return `#!/bin/sh\n${record}${tail}\n`;
}

/** The status of a line killed for making no progress within its time limit (as with SIGKILL). */
export const TIMED_OUT = 137;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface BashStubs {
  /** The directory on PATH: one executable per stubbed program. */
  bin: string;
  /**
   * Runs lines in batches, a driver per core; results in the same order. A line that makes no
   * progress for `timeoutSeconds` (5) is killed with everything it started.
   */
  runMany(lines: readonly StubLine[], opts?: { workers?: number; timeoutSeconds?: number }): Promise<StubRun[]>;
  /** One line, synchronously (for shrinking); killed with all it started after `timeoutSeconds` (5). */
  run(line: string, stubStatus?: 0 | 1, timeoutSeconds?: number): StubRun;
  cleanup(): void;
}

export function createBashStubs(): BashStubs {
  const root = mkdtempSync(join(tmpdir(), 'pg-bash-stubs-'));
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  mkdirSync(bin);
  mkdirSync(home);
  const bashEnv = join(HERE, 'bash-stubs-env.sh');
  const lib = join(root, 'stub-lib.sh');
  writeFileSync(lib, `. ${quote(bashEnv)}\n${readFileSync(join(HERE, 'bash-stubs.sh'), 'utf8')}`);
  for (const name of STUBBED) writeFileSync(join(bin, name), stubScript(name, lib), { mode: 0o755 });
  const driver = join(HERE, 'bash-stubs-driver.sh');
  const env = { PATH: bin, HOME: home, LC_ALL: 'C', BASH_ENV: bashEnv, TMPDIR: home, FUNCNEST: '4' };
  const timeoutProgram = realProgram('timeout');
  let batch = 0;

  const prepare = (lines: readonly StubLine[], from: number) => {
    const out = join(root, `run-${batch++}`);
    mkdirSync(join(out, 'cwd'), { recursive: true });
    for (let k = 0; k < lines.length; k++) mkdirSync(join(out, 'cwd', String(from + k)));
    return out;
  };
  const collect = (out: string, lines: readonly StubLine[], from: number, statuses: Map<number, number>): StubRun[] => {
    const runs = lines.map((_, k): StubRun => {
      const i = from + k;
      const log = join(out, `${i}.log`);
      const ran = existsSync(log) ? parseRecords(readFileSync(log, 'utf8')) : [];
      const status = statuses.get(i);
      if (status === undefined) throw new Error(`bash-stubs: the driver did not finish line ${i}: ${JSON.stringify(lines[k]!.line)}`);
      return { ran, status, timedOut: status === TIMED_OUT };
    });
    rmSync(out, { recursive: true, force: true });
    return runs;
  };
  const args = (out: string, from: number) => ['--norc', '--noprofile', driver, out, String(from)];
  const recordsOf = (lines: readonly StubLine[]) => lines.map((l) => `${l.stubStatus ?? 0}:${l.line.replace(/\0/g, '')}\0`);
  const parseStatuses = (text: string, into: Map<number, number>) => {
    for (const row of text.split('\n')) {
      const m = /^(\d+) (\d+)$/.exec(row);
      if (m) into.set(Number(m[1]), Number(m[2]));
    }
  };

  /**
   * Runs lines [from, from + records.length) in one driver, in its own process group. A line that
   * makes no progress for `limitSeconds` has its whole process group killed; the driver is started
   * again after it.
   */
  const drive = async (
    out: string,
    records: string[],
    from: number,
    limitSeconds: number,
    statuses: Map<number, number>,
  ): Promise<void> => {
    let next = from;
    while (next < from + records.length) {
      const start = next;
      await new Promise<void>((resolve, reject) => {
        const child = spawn('/bin/bash', args(out, start), { env, cwd: home, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
        let pending = '';
        let stderr = '';
        let killed = false;
        const arm = () =>
          setTimeout(() => {
            killed = true;
            try {
              process.kill(-child.pid!, 'SIGKILL');
            } catch {
              // already gone
            }
          }, limitSeconds * 1000);
        let timer = arm();
        child.stdout.on('data', (d: Buffer) => {
          pending += d.toString();
          const cut = pending.lastIndexOf('\n');
          if (cut === -1) return;
          parseStatuses(pending.slice(0, cut), statuses);
          pending = pending.slice(cut + 1);
          while (statuses.has(next)) next++;
          clearTimeout(timer);
          timer = arm();
        });
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          parseStatuses(pending, statuses);
          while (statuses.has(next)) next++;
          if (killed) {
            statuses.set(next, TIMED_OUT);
            next++;
            resolve();
          } else if (code === 0) resolve();
          else reject(new Error(`bash-stubs driver exited ${code}: ${stderr}`));
        });
        child.stdin.on('error', () => {});
        child.stdin.end(Buffer.from(records.slice(start - from).join('')));
      });
    }
  };

  return {
    bin,
    async runMany(lines, opts = {}) {
      const workers = Math.max(1, Math.min(opts.workers ?? availableParallelism(), lines.length));
      const per = Math.ceil(lines.length / workers);
      const parts = await Promise.all(
        Array.from({ length: workers }, async (_, w) => {
          const slice = lines.slice(w * per, (w + 1) * per);
          const out = prepare(slice, w * per);
          const statuses = new Map<number, number>();
          await drive(out, recordsOf(slice), w * per, opts.timeoutSeconds ?? 5, statuses);
          return collect(out, slice, w * per, statuses);
        }),
      );
      return parts.flat();
    },
    run(line, stubStatus = 0, timeoutSeconds = 5) {
      const lines = [{ line, stubStatus }];
      const out = prepare(lines, 0);
      // timeout(1) makes a process group of the driver and the line, and kills all of it.
      const r = spawnSync(timeoutProgram, ['-s', 'KILL', String(timeoutSeconds), '/bin/bash', ...args(out, 0)], {
        env,
        cwd: home,
        input: recordsOf(lines).join(''),
        stdio: ['pipe', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      const statuses = new Map<number, number>();
      parseStatuses(r.stdout, statuses);
      if ((r.status === TIMED_OUT || r.signal === 'SIGKILL') && !statuses.has(0)) statuses.set(0, TIMED_OUT);
      else if (r.status !== 0) throw new Error(`bash-stubs driver exited ${r.status}: ${r.stderr}`);
      return collect(out, lines, 0, statuses)[0]!;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

let shared: BashStubs | null = null;

/** One line through bash with the stubs of a process-wide stub directory (removed at exit). */
export function runWithStubs(line: string, stubStatus: 0 | 1 = 0): { ran: { program: string; args: string[] }[] } & StubRun {
  if (shared === null) {
    shared = createBashStubs();
    const s = shared;
    process.once('exit', () => s.cleanup());
  }
  return shared.run(line, stubStatus);
}
