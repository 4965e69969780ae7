import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

export type StdinRead = { ok: true; text: string } | { ok: false; tooLarge: true };

/**
 * Finds where one JSON object or array ends, a chunk at a time, looking at each byte once. A host
 * that writes the event and never closes stdin is answered as soon as the event is whole, instead
 * of at the deadline. Only the bytes that can change the nesting are looked at (quotes, escapes,
 * brackets and braces, all ASCII, which never occur inside a multi-byte UTF-8 character); whether
 * the text is valid JSON is JSON.parse's business. Input that does not start with `{` or `[` never
 * ends early: it is read to the end of the input, so that its error does not depend on how it was
 * cut into chunks.
 */
export class JsonValueEnd {
  private state: 'before' | 'nested' | 'string' | 'escape' | 'other' | 'done' = 'before';
  private depth = 0;

  /** Looks at the next bytes; true once the value that started the input is complete. */
  feed(bytes: Uint8Array): boolean {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      switch (this.state) {
        case 'before':
          if (b === 0x7b || b === 0x5b) {
            this.state = 'nested';
            this.depth = 1;
          } else if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) {
            this.state = 'other';
            return false;
          }
          break;
        case 'nested':
          if (b === 0x22) this.state = 'string';
          else if (b === 0x7b || b === 0x5b) this.depth++;
          else if ((b === 0x7d || b === 0x5d) && --this.depth === 0) {
            this.state = 'done';
            return true;
          }
          break;
        case 'string':
          if (b === 0x5c) this.state = 'escape';
          else if (b === 0x22) this.state = 'nested';
          break;
        case 'escape':
          this.state = 'string';
          break;
        case 'other':
          return false;
        case 'done':
          return true;
      }
    }
    return this.state === 'done';
  }
}

/** The bytes read so far, the size limit and the end of the value: what every way of reading shares. */
class EventBytes {
  private readonly chunks: Buffer[] = [];
  private total = 0;
  private readonly end: JsonValueEnd | null;

  /** `untilValueEnd`: stop at the end of the first object (not for a file, which always ends). */
  constructor(
    private readonly limit: number,
    untilValueEnd: boolean,
  ) {
    this.end = untilValueEnd ? new JsonValueEnd() : null;
  }

  /** Takes a copy of the chunk; a result once the event is whole or too large, null to read on. */
  push(chunk: Uint8Array): StdinRead | null {
    this.total += chunk.length;
    if (this.total > this.limit) return { ok: false, tooLarge: true };
    this.chunks.push(Buffer.from(chunk));
    return this.end?.feed(chunk) ? this.done() : null;
  }

  done(): StdinRead {
    return { ok: true, text: Buffer.concat(this.chunks).toString('utf8') };
  }
}

/**
 * Reads the event from stdin, stopping past `limit` bytes, at the end of the input, or as soon as
 * one complete JSON object has arrived, without ever blocking the event loop, so that the deadline
 * timer can always fire and the process can always exit (a read blocked in the thread pool would
 * keep it from exiting). A host that stalls in the middle of an event, never closing stdin, is
 * answered by the deadline.
 *
 * - A file is read directly.
 * - A FIFO is reopened non-blocking (a file description of our own) and polled.
 * - A socket (what a Node host's spawn gives, Claude Code's case) is made non-blocking through a
 *   bare libuv pipe handle (`uv_pipe_open` sets O_NONBLOCK, as libuv documents) and polled with
 *   readSync, which keeps Node's `net` and stream modules unloaded: `process.stdin` alone costs a
 *   socket reader several milliseconds. Node restores stdin's flags when it exits.
 * - Anything else (a terminal), or a socket when that handle is not available (a Node without
 *   `process.binding`, or one run with the permission model), goes through `process.stdin`.
 */
export function readStdin(limit: number): Promise<StdinRead> {
  let st: Stats;
  try {
    st = fstatSync(0);
  } catch {
    return Promise.resolve({ ok: true, text: '' });
  }
  if (st.isFile()) return Promise.resolve(readFile(limit));
  if (st.isFIFO()) {
    let fd: number;
    try {
      fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      return readStream(limit);
    }
    return poll(fd, limit, true);
  }
  if (st.isSocket() && !sharedWithStdout(st) && makeNonBlocking(0)) return poll(0, limit, false);
  return readStream(limit);
}

/**
 * Stdin and stdout are one socket (a host that hands both ends of one connection): making stdin
 * non-blocking would make stdout non-blocking too, so such a socket is read through process.stdin.
 */
function sharedWithStdout(stdin: Stats): boolean {
  try {
    const out = fstatSync(1);
    return out.dev === stdin.dev && out.ino === stdin.ino;
  } catch {
    return false;
  }
}

interface PipeBinding {
  Pipe: new (type: number) => { open(fd: number): number };
  constants: { SOCKET: number };
}

/** Sets O_NONBLOCK on fd by opening a libuv pipe handle on it (never started, so it keeps no loop alive). */
function makeNonBlocking(fd: number): boolean {
  try {
    const binding = (process as unknown as { binding(name: string): PipeBinding }).binding('pipe_wrap');
    if (typeof binding?.Pipe !== 'function' || typeof binding.constants?.SOCKET !== 'number') return false;
    return new binding.Pipe(binding.constants.SOCKET).open(fd) === 0;
  } catch {
    return false;
  }
}

function readFile(limit: number): StdinRead {
  const bytes = new EventBytes(limit, false);
  const buf = Buffer.allocUnsafe(65536);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch {
      break;
    }
    if (n === 0) break;
    const pushed = bytes.push(buf.subarray(0, n));
    if (pushed) return pushed;
  }
  return bytes.done();
}

/**
 * Polls a non-blocking descriptor: every byte that is there is read at once; when there is none
 * yet, the next try is a timer away (1 ms at first, 5 ms once the host has been silent for about
 * 100 ms), so the deadline timer can always run in between.
 */
function poll(fd: number, limit: number, owned: boolean): Promise<StdinRead> {
  return new Promise((resolve) => {
    const bytes = new EventBytes(limit, true);
    const buf = Buffer.allocUnsafe(65536);
    let waits = 0;
    const finish = (result: StdinRead) => {
      if (owned) {
        try {
          closeSync(fd);
        } catch {
          // Nothing more to read from it either way.
        }
      }
      resolve(result);
    };
    const step = () => {
      for (;;) {
        let n: number;
        try {
          n = readSync(fd, buf, 0, buf.length, null);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN' || code === 'EWOULDBLOCK') {
            waits++;
            setTimeout(step, waits < 100 ? 1 : 5);
            return;
          }
          if (code === 'EINTR') continue;
          return finish(bytes.done());
        }
        if (n === 0) return finish(bytes.done());
        const pushed = bytes.push(buf.subarray(0, n));
        if (pushed) return finish(pushed);
      }
    };
    step();
  });
}

function readStream(limit: number): Promise<StdinRead> {
  return new Promise((resolve) => {
    const bytes = new EventBytes(limit, true);
    const stdin = process.stdin;
    const finish = (result: StdinRead) => {
      stdin.pause();
      resolve(result);
    };
    stdin.on('data', (chunk: Buffer) => {
      const pushed = bytes.push(chunk);
      if (pushed) finish(pushed);
    });
    stdin.on('end', () => finish(bytes.done()));
    stdin.on('error', () => finish(bytes.done()));
  });
}
