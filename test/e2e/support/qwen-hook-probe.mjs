#!/usr/bin/env node
// A stand-in hook for learning what Qwen Code sends and honours. It appends one JSON line per call
// to the file named by its first argument: the event read on stdin and the environment variables a
// hook relies on. Then it answers as its other arguments say:
//   node qwen-hook-probe.mjs LOG [--stdout TEXT] [--stderr TEXT] [--exit N] [--sleep MS] [--match TEXT]
// (--match: answer so only for events whose tool_input, as JSON, contains TEXT; the others get no
// output and exit 0).
import { appendFileSync, readFileSync } from 'node:fs';

const [log, ...rest] = process.argv.slice(2);
const opts = {};
for (let i = 0; i < rest.length; i += 2) opts[rest[i].replace(/^--/, '')] = rest[i + 1];
const raw = readFileSync(0, 'utf8');
let event;
try {
  event = JSON.parse(raw);
} catch {
  event = { unparsed: raw };
}
const env = {};
for (const k of [
  'CLAUDE_PROJECT_DIR',
  'QWEN_PROJECT_DIR',
  'GEMINI_PROJECT_DIR',
  'PERSONA_GATE_PERSONA',
  'PERSONA_GATE_STATE_DIR',
  'HOME',
  'PWD',
])
  env[k] = process.env[k] ?? null;
appendFileSync(log, `${JSON.stringify({ event, env, cwd: process.cwd() })}\n`);
if (opts.match !== undefined && !JSON.stringify(event.tool_input ?? null).includes(opts.match)) process.exit(0);
if (opts.sleep) await new Promise((r) => setTimeout(r, Number(opts.sleep)));
if (opts.stdout !== undefined) process.stdout.write(opts.stdout);
if (opts.stderr !== undefined) process.stderr.write(opts.stderr);
process.exit(Number(opts.exit ?? 0));
