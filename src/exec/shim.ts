import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { EXEC_MESSAGES, type ExecLocale } from './messages';
import type { StartRequest } from './brokered';

/**
 * The shim of a launched program (SPEC §9.3): what a program started inside Claude Code's sandbox
 * finds on PATH in the program's place, on a call the hook rewrote for the broker. It hands the
 * broker its real argv and working directory with the call's secret, and relays stdin, stdout,
 * stderr and the exit status. It decides nothing: everything it sends is judged, and without the
 * broker the program does not start at all.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** How long the shim waits for the broker to take the request and answer (`PERSONA_GATE_BROKER_WAIT_MS` shortens it). */
const ANSWER_MS = 30_000;
const RETRY_MS = 25;

function fail(locale: ExecLocale, name: string, detail: string): never {
  process.stderr.write(`${EXEC_MESSAGES[locale].noBroker(name, detail)}\n`);
  process.exit(126);
}

function mkfifoProgram(): string {
  for (const p of ['/usr/bin/mkfifo', '/bin/mkfifo']) {
    try {
      closeSync(openSync(p, constants.O_RDONLY));
      return p;
    } catch {
      // not there
    }
  }
  return 'mkfifo';
}

/** Sends the request's directory to the broker, waiting for it to listen (the hook may have just started it). */
function send(requests: string, dir: string, until: number, done: (problem: string | null) => void): void {
  try {
    const fd = openSync(requests, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      writeSync(fd, `${dir}\n`);
    } finally {
      closeSync(fd);
    }
    return done(null);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if ((code !== 'ENXIO' && code !== 'ENOENT' && code !== 'EAGAIN') || Date.now() > until) return done(code ?? String(err));
    // Waiting on the event loop: a signal meanwhile is still handled at once.
    setTimeout(() => send(requests, dir, until, done), RETRY_MS);
  }
}

export function shimMain(argv: readonly string[], env: Env = process.env): void {
  const locale: ExecLocale = env.PERSONA_GATE_LOCALE === 'es' ? 'es' : 'en';
  const wait = Number(env.PERSONA_GATE_BROKER_WAIT_MS) > 0 ? Number(env.PERSONA_GATE_BROKER_WAIT_MS) : ANSWER_MS;
  const [requests, name, ...args] = argv;
  if (requests === undefined || name === undefined) {
    process.stderr.write(`${EXEC_MESSAGES[locale].shimUsage()}\n`);
    process.exit(126);
  }
  // The sandbox lets the shell write its own temporary directory, not the rest of /tmp.
  const bases = [env.TMPDIR?.trim(), `/tmp/claude-${process.getuid?.() ?? 0}`, '/tmp'].filter((d): d is string => !!d);
  let dir: string | null = null;
  let problem = '';
  for (const base of bases) {
    try {
      dir = mkdtempSync(join(base, 'persona-gate-call-'));
      break;
    } catch (err) {
      problem ||= (err as Error).message;
    }
  }
  if (dir === null) return fail(locale, name, problem);
  const made = dir;
  const cleanup = () => rmSync(made, { recursive: true, force: true });
  const request: StartRequest = { v: 1, name, args, cwd: process.cwd(), call: env.PERSONA_GATE_CALL ?? '' };
  const fifos = ['in', 'out', 'err', 'status', 'alive'].map((f) => join(dir, f));
  try {
    writeFileSync(join(dir, 'request.json'), JSON.stringify(request), { mode: 0o600 });
    const made = spawnSync(mkfifoProgram(), ['-m', '600', ...fifos]);
    if (made.status !== 0) throw new Error(`mkfifo: ${made.stderr?.toString().trim() || made.error?.message}`);
  } catch (err) {
    cleanup();
    return fail(locale, name, (err as Error).message);
  }
  const [inPath, outPath, errPath, statusPath, alivePath] = fifos as [string, string, string, string, string];
  // Held read-write, so that the broker never reads an end before the shim has one to give.
  const inFd = openSync(inPath, constants.O_RDWR | constants.O_NONBLOCK);
  const aliveFd = openSync(alivePath, constants.O_RDWR | constants.O_NONBLOCK);
  const statusFd = openSync(statusPath, constants.O_RDWR | constants.O_NONBLOCK);
  const outFd = openSync(outPath, constants.O_RDONLY | constants.O_NONBLOCK);
  const errFd = openSync(errPath, constants.O_RDONLY | constants.O_NONBLOCK);
  void aliveFd; // held until the shim exits: the broker kills the program when it closes
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      cleanup();
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
  const relay = () => {
    const waiting = setTimeout(() => {
      cleanup();
      fail(locale, name, `no answer within ${wait / 1000} s`);
    }, wait);
    const status = new Socket({ fd: statusFd, readable: true, writable: false });
    let code: number | null = null;
    let open = 2;
    const leave = () => {
      if (code === null || open > 0) return;
      cleanup();
      process.exit(code);
    };
    let lines = '';
    status.on('data', (chunk: Buffer) => {
      lines += chunk.toString('utf8');
      let nl: number;
      while ((nl = lines.indexOf('\n')) !== -1) {
        const line = lines.slice(0, nl);
        lines = lines.slice(nl + 1);
        if (line === 'ready') {
          clearTimeout(waiting);
          const out = new Socket({ fd: outFd, readable: true, writable: false });
          const err = new Socket({ fd: errFd, readable: true, writable: false });
          const input = new Socket({ fd: inFd, readable: false, writable: true });
          input.on('error', () => {
            // the program did not read it all
          });
          out.pipe(process.stdout, { end: false });
          err.pipe(process.stderr, { end: false });
          const ended = () => {
            open--;
            leave();
          };
          out.once('end', ended);
          err.once('end', ended);
          process.stdin.on('error', () => input.end());
          process.stdin.pipe(input);
        } else if (line.startsWith('exit ')) {
          const n = Number(line.slice(5));
          code = Number.isInteger(n) && n >= 0 && n <= 255 ? n : 126;
          // Whatever is left to relay gets a moment; then the status stands.
          setTimeout(() => {
            open = 0;
            leave();
          }, 5000).unref();
          leave();
        }
      }
    });
    status.on('error', () => {
      cleanup();
      fail(locale, name, 'the status channel failed');
    });
  };
  send(requests, dir, Date.now() + wait, (unsent) => {
    if (unsent !== null) {
      cleanup();
      return fail(locale, name, `${requests}: ${unsent}`);
    }
    relay();
  });
}
