import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

export type StdinRead = { ok: true; text: string } | { ok: false; tooLarge: true };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const BEFORE = 0;
const NESTED = 1;
const IN_STRING = 2;
const OTHER = 3;
const DONE = 4;

/**
 * Finds where one JSON object or array ends, as its bytes arrive, so that a host that writes the
 * event and never closes stdin is answered as soon as the event is whole instead of at the
 * deadline. Only the bytes that can change the nesting matter (quotes, backslashes, brackets and
 * braces: ASCII, which never occurs inside a multi-byte UTF-8 character); whether the text is
 * valid JSON is JSON.parse's business. Each call looks only at the bytes that arrived since the
 * last one, and the text of strings (most of an event: a command, a file's content) is skipped
 * with a native search for the next quote; a quote is escaped when an odd run of backslashes
 * stands before it. Input that does not start with `{` or `[` never ends early: it is read to the
 * end of the input, so that its error does not depend on how it was cut into chunks.
 */
export class JsonValueEnd {
  private state = BEFORE;
  private depth = 0;
  /** How many bytes of the input have been looked at. */
  private seen = 0;

  /**
   * `input` holds the whole input so far in its first `length` bytes (bytes already seen are not
   * changed between calls); true once the value that started the input is complete.
   */
  feed(input: Uint8Array, length: number): boolean {
    if (this.state === DONE) return true;
    if (this.state === OTHER) return false;
    const bytes = new Uint8Array(input.buffer, input.byteOffset, length);
    let i = this.seen;
    let state = this.state;
    let depth = this.depth;
    while (i < length) {
      if (state === IN_STRING) {
        const quote = bytes.indexOf(QUOTE, i);
        if (quote < 0) {
          i = length;
          break;
        }
        let run = 0;
        while (bytes[quote - 1 - run] === BACKSLASH) run++;
        if (run % 2 === 0) state = NESTED;
        i = quote + 1;
        continue;
      }
      const c = bytes[i++];
      if (state === NESTED) {
        if (c === QUOTE) state = IN_STRING;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) {
          state = DONE;
          break;
        }
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        state = NESTED;
        depth = 1;
      } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
        state = OTHER;
        break;
      }
    }
    this.state = state;
    this.depth = depth;
    this.seen = i;
    return state === DONE;
  }
}

/** When the event must have arrived, and what to do then (answer with a deny and exit). */
export interface StdinDeadline {
  at: number;
  onDeadline: () => void;
}

/**
 * The bytes read so far, in one buffer of `limit + 1` bytes that reads land in directly (no copies,
 * no concatenation: on a hook's short life, each first use of a Buffer method costs Node a
 * compilation), with the size limit and where the first JSON value ends.
 */
class EventBytes {
  readonly buf: Buffer;
  length = 0;
  private readonly end = new JsonValueEnd();

  constructor(private readonly limit: number) {
    this.buf = Buffer.allocUnsafe(limit + 1);
  }

  /** Room left: one byte past the limit, so that a read can tell that the input is too large. */
  get room(): number {
    return this.buf.length - this.length;
  }

  /** Counts `n` bytes just read into `buf` at `length`; false once the input is too large. */
  took(n: number): boolean {
    this.length += n;
    return this.length <= this.limit;
  }

  /** Copies a chunk in (from a stream); false once the input is too large. */
  push(chunk: Buffer): boolean {
    const n = chunk.copy(this.buf, this.length, 0, Math.min(chunk.length, this.room));
    return chunk.length === n && this.took(n);
  }

  /** Whether the bytes so far hold one complete JSON object or array (looking only at new bytes). */
  complete(): boolean {
    return this.end.feed(this.buf, this.length);
  }

  static readonly TOO_LARGE: StdinRead = { ok: false, tooLarge: true };

  done(): StdinRead {
    // utf8Slice is what toString('utf8') runs, without toString's first-call cost.
    const buf = this.buf as Buffer & { utf8Slice?: (start: number, end: number) => string };
    return { ok: true, text: typeof buf.utf8Slice === 'function' ? buf.utf8Slice(0, this.length) : buf.toString('utf8', 0, this.length) };
  }
}

/**
 * Reads the event from stdin without ever blocking the event loop, so that the deadline can always
 * fire and the process can always exit (a read blocked in the thread pool would keep it from
 * exiting). Reading stops past `limit` bytes, at the end of the input, or when nothing more has
 * arrived yet and what has arrived holds one complete JSON object: a host that writes the event
 * and keeps stdin open is answered at once, with everything it wrote so far (bytes other than
 * whitespace after the object make the input malformed, as they would in a file). A host that
 * stalls in the middle of an event, never closing stdin, is answered at the deadline
 * (`onDeadline`: a deny). The deadline's timer is only set when there is something to wait for.
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
export function readStdin(limit: number, deadline: StdinDeadline): Promise<StdinRead> {
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
      return readStream(limit, deadline);
    }
    return poll(fd, limit, true, deadline);
  }
  if (st.isSocket() && !sharedWithStdout(st) && makeNonBlocking(0)) return poll(0, limit, false, deadline);
  return readStream(limit, deadline);
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
  const bytes = new EventBytes(limit);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, bytes.buf, bytes.length, bytes.room, null);
    } catch {
      break;
    }
    if (n === 0) break;
    if (!bytes.took(n)) return EventBytes.TOO_LARGE;
  }
  return bytes.done();
}

/** Arms the deadline's timer: what waiting for the host costs, paid only when there is waiting. */
function armDeadline(deadline: StdinDeadline): ReturnType<typeof setTimeout> {
  return setTimeout(deadline.onDeadline, Math.max(0, deadline.at - Date.now()));
}

/**
 * Polls a non-blocking descriptor: every byte that is there is read at once. Only when there is
 * nothing more to read yet are the new bytes looked at for the end of the event (a host that
 * writes the event and closes stdin, Claude Code's way, costs no scanning at all); if the event is
 * not whole, the next try is a timer away (1 ms at first, 5 ms once the host has been silent for
 * about 100 ms), so the deadline's timer can always run in between.
 */
function poll(fd: number, limit: number, owned: boolean, deadline: StdinDeadline): Promise<StdinRead> {
  return new Promise((resolve) => {
    const bytes = new EventBytes(limit);
    let waits = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const finish = (result: StdinRead) => {
      if (timer !== null) clearTimeout(timer);
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
          n = readSync(fd, bytes.buf, bytes.length, bytes.room, null);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN' || code === 'EWOULDBLOCK') {
            if (bytes.complete()) return finish(bytes.done());
            timer ??= armDeadline(deadline);
            waits++;
            setTimeout(step, waits < 100 ? 1 : 5);
            return;
          }
          if (code === 'EINTR') continue;
          return finish(bytes.done());
        }
        if (n === 0) return finish(bytes.done());
        if (!bytes.took(n)) return finish(EventBytes.TOO_LARGE);
      }
    };
    step();
  });
}

function readStream(limit: number, deadline: StdinDeadline): Promise<StdinRead> {
  return new Promise((resolve) => {
    const bytes = new EventBytes(limit);
    const stdin = process.stdin;
    const timer = armDeadline(deadline);
    const finish = (result: StdinRead) => {
      clearTimeout(timer);
      stdin.pause();
      resolve(result);
    };
    stdin.on('data', (chunk: Buffer) => {
      if (!bytes.push(chunk)) finish(EventBytes.TOO_LARGE);
      else if (bytes.complete()) finish(bytes.done());
    });
    stdin.on('end', () => finish(bytes.done()));
    stdin.on('error', () => finish(bytes.done()));
  });
}
