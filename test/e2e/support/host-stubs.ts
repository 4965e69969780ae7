import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runCli } from '../../helpers/cli';
import { jsonLines, logLines } from '../../helpers/log-lines';
import { HOOK } from './project';

/**
 * Pieces every host harness of this folder shares: a recording `aeat` program for the shell tool,
 * and a recording hook that keeps each event it is handed (with the environment it ran in) and
 * answers nothing.
 */

/** Puts a recording `aeat` program in DIR/bin; returns that folder (for PATH) and a reader of its log. */
export function aeatStub(dir: string): { bin: string; log: string; ran(): string[] } {
  const bin = join(dir, 'bin');
  const log = join(dir, 'aeat.log');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'aeat'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${JSON.stringify(log)}\necho "aeat: ran $*"\n`);
  chmodSync(join(bin, 'aeat'), 0o755);
  return { bin, log, ran: () => logLines(log) };
}

export interface RecordedEvent {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  event: any;
  raw: string;
}

const RECORDER = `
const { appendFileSync } = require('node:fs');
let raw = '';
process.stdin.on('data', (d) => (raw += d));
process.stdin.on('end', () => {
  let event = null;
  try { event = JSON.parse(raw); } catch {}
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (/^(CLAUDE|PERSONA_GATE|COPILOT_|FACTORY|DROID)/.test(k) || (/^[a-z_]+$/.test(k) && !k.startsWith('npm_'))) env[k] = v;
  appendFileSync(process.env.E2E_HOOK_LOG || HOOK_LOG_PATH, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), env, event, raw }) + '\\n');
});
`;

/** Writes a recording hook into DIR; returns the command that runs it (extra words become its argv) and a reader of what it kept. */
export function recordingHook(dir: string): { command: string; log: string; events(): RecordedEvent[] } {
  const script = join(dir, 'record-hook.cjs');
  const log = join(dir, 'hook-events.jsonl');
  writeFileSync(script, RECORDER.replace('HOOK_LOG_PATH', JSON.stringify(log)));
  return {
    command: `node ${JSON.stringify(script)}`,
    log,
    events: () => jsonLines(log),
  };
}

/** Registers the built hook for HOST in the project with `persona-gate init --host HOST`, as a user would; returns what init printed. */
export function initHost(host: string, project: { dir: string; home: string }, extra: string[] = []): string {
  const r = runCli(['init', '--host', host, '--dir', project.dir, '--command', `node ${JSON.stringify(HOOK)} hook`, ...extra], {
    env: cleanEnv({ HOME: project.home }),
  });
  if (r.code !== 0) throw new Error(`init --host ${host} failed: ${r.stderr}`);
  return r.stdout + r.stderr;
}
