import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request to a scripted model: its body read whole, and parsed when it is JSON (else `{}`). */
export interface ScriptedRequest {
  method: string;
  path: string;
  raw: string;
  body: any;
}

export interface ScriptedServer {
  /** The port on 127.0.0.1, or null on a unix socket. */
  port: number | null;
  close(): Promise<void>;
}

/**
 * The HTTP side every scripted model shares: on 127.0.0.1 (a port of the system's choosing) or on
 * a unix socket, each request's body read whole and handed to `handle` with its JSON.
 */
export async function serveScripted(
  handle: (req: ScriptedRequest, res: ServerResponse) => void,
  on: { socket?: string } = {},
): Promise<ScriptedServer> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      let body: any = {};
      try {
        body = JSON.parse(raw);
      } catch {
        // keep an empty body
      }
      handle({ method: req.method ?? 'GET', path: req.url ?? '', raw, body }, res);
    });
  });
  if (on.socket !== undefined) rmSync(on.socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (on.socket !== undefined) server.listen(on.socket, resolve);
    else server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: on.socket !== undefined ? null : (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
