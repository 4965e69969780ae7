#!/usr/bin/env node
// Runs inside a fresh network namespace (`unshare -n`), where only loopback exists and nothing of the
// test's own 127.0.0.1 is reachable. It listens on 127.0.0.1:PORT here, forwards every connection to
// a Unix socket of the test process (sockets cross network namespaces: they are files), starts the
// command, and exits with its exit code.
//   node qwen-loopback.mjs SOCKET PORT -- COMMAND ARGS…
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

const [socket, port, dashes, command, ...args] = process.argv.slice(2);
if (!socket || !port || dashes !== '--' || !command) {
  process.stderr.write('usage: qwen-loopback.mjs SOCKET PORT -- COMMAND ARGS…\n');
  process.exit(64);
}

const bridge = createServer((client) => {
  const upstream = connect(socket);
  client.pipe(upstream).pipe(client);
  const drop = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', drop);
  upstream.on('error', drop);
});

bridge.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  child.on('error', (error) => {
    process.stderr.write(`qwen-loopback: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + 9 : 1)));
});
