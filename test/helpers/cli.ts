import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ROOT } from './policy';

export const BIN = join(ROOT, 'dist', 'persona-gate.cjs');

export interface Ran {
  stdout: string;
  stderr: string;
  code: number | null;
  ms: number;
}

/** A fresh temporary directory, removed after the test. */
const made: string[] = [];
export function tempDir(prefix = 'pg-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
afterEach(() => {
  while (made.length > 0) rmSync(made.pop()!, { recursive: true, force: true });
});

/** An environment with nothing of the caller's persona-gate settings in it. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('PERSONA_GATE_') && k !== 'CLAUDE_PROJECT_DIR' && !k.startsWith('XDG_')) env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Runs the built CLI the way a hook host does: input on stdin, output read back whole. */
export function runCli(
  args: string[],
  opts: { input?: string | Buffer; env?: Record<string, string>; cwd?: string; timeout?: number } = {},
): Ran {
  const started = Date.now();
  const r = spawnSync(process.execPath, [BIN, ...args], {
    input: opts.input ?? '',
    env: opts.env ?? cleanEnv(),
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    timeout: opts.timeout ?? 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status, ms: Date.now() - started };
}

export function runCliAsync(
  args: string[],
  opts: { input?: string; env?: Record<string, string>; cwd?: string; keepStdinOpen?: boolean } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { env: opts.env ?? cleanEnv(), cwd: opts.cwd ?? ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', () => child.stdin.destroy());
    child.on('close', (code) => resolve({ stdout, stderr, code, ms: Date.now() - started }));
    child.stdin.on('error', () => {});
    if (opts.input !== undefined) child.stdin.write(opts.input);
    if (!opts.keepStdinOpen) child.stdin.end();
  });
}

export function denyJson(reason: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`;
}

export function decisionJson(decision: 'allow' | 'ask' | 'deny', reason: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } })}\n`;
}

export function preEvent(tool: string, input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'cli-session',
    tool_name: tool,
    tool_input: input,
    tool_use_id: 'toolu_cli',
    cwd: ROOT,
    ...extra,
  });
}
