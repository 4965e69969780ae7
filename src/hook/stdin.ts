import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type StdinRead = { ok: true; text: string } | { ok: false; tooLarge: true };

/**
 * Reads the whole event from stdin, stopping past `limit` bytes, without ever blocking the
 * event loop, so that the deadline timer can always fire and the process can always exit. A file
 * is read directly; a FIFO is reopened non-blocking and polled; a socket (what a Node host's
 * spawn gives) or a terminal goes through a libuv stream. A read blocked in the thread pool would
 * keep the process from exiting at the deadline.
 */
export function readStdin(limit: number): Promise<StdinRead> {
  let kind: 'file' | 'fifo' | 'stream' = 'stream';
  try {
    const st = fstatSync(0);
    if (st.isFile()) kind = 'file';
    else if (st.isFIFO()) kind = 'fifo';
  } catch {
    return Promise.resolve({ ok: true, text: '' });
  }
  if (kind === 'file') return Promise.resolve(readFile(0, limit));
  if (kind === 'fifo') {
    let fd: number;
    try {
      fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      return readStream(limit);
    }
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let total = 0;
      const buf = Buffer.alloc(65536);
      const poll = () => {
        for (;;) {
          let n: number;
          try {
            n = readSync(fd, buf, 0, buf.length, null);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return void setTimeout(poll, 1);
            closeSync(fd);
            return resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
          }
          if (n === 0) {
            closeSync(fd);
            return resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
          }
          total += n;
          if (total > limit) return resolve({ ok: false, tooLarge: true });
          chunks.push(Buffer.from(buf.subarray(0, n)));
        }
      };
      poll();
    });
  }
  return readStream(limit);
}

function readFile(fd: number, limit: number): StdinRead {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.alloc(65536);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch {
      break;
    }
    if (n === 0) break;
    total += n;
    if (total > limit) return { ok: false, tooLarge: true };
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

function readStream(limit: number): Promise<StdinRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stdin = process.stdin;
    stdin.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        stdin.pause();
        return resolve({ ok: false, tooLarge: true });
      }
      chunks.push(chunk);
    });
    stdin.on('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    stdin.on('error', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
  });
}
