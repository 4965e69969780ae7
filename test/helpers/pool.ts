import { spawn } from 'node:child_process';
import { BIN, type Ran } from './cli';
import { ROOT } from './policy';

/** Runs the built hook once per input, a few at a time, each as its own process. */
export async function runHooks(
  inputs: (string | Buffer)[],
  env: Record<string, string>,
  args: string[] = ['hook'],
  parallel = 4,
): Promise<Ran[]> {
  const out: Ran[] = new Array(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      out[i] = await new Promise<Ran>((resolve, reject) => {
        const started = Date.now();
        const child = spawn(process.execPath, [BIN, ...args], { env, cwd: ROOT });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ stdout, stderr, code, ms: Date.now() - started }));
        child.stdin.on('error', () => {});
        child.stdin.end(inputs[i]);
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out;
}

export type Outcome = 'deny' | 'ask' | 'allow' | 'abstain' | 'silent' | 'invalid';

/** What a hook response means to Claude Code. */
export function outcomeOf(r: Ran, preToolUse: boolean): Outcome {
  if (r.code === 2) return 'deny';
  if (r.code !== 0) return 'invalid';
  if (r.stdout === '') return preToolUse ? 'abstain' : 'silent';
  try {
    const decision = JSON.parse(r.stdout).hookSpecificOutput?.permissionDecision;
    return decision === 'deny' || decision === 'ask' || decision === 'allow' ? decision : 'invalid';
  } catch {
    return 'invalid';
  }
}
