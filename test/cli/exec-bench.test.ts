import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/policy';
import { installed } from '../helpers/programs';

const noBwrap = process.platform !== 'linux' || !installed('bwrap') ? 'bubblewrap is not installed (apt-get install bubblewrap)' : null;
if (noBwrap) process.stderr.write(`test/cli/exec-bench.test.ts: skipped, ${noBwrap}\n`);

/**
 * `npm run bench:exec` measures what a checked start costs (SPEC §9.3); a bench whose every start
 * is refused measures a refusal. One run of each path against the built bundles: every path runs
 * to its end, and the paths meant to start the program do.
 */
function bench(script: string) {
  const r = spawnSync(process.execPath, [script, '1'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

describe.skipIf(noBwrap !== null)('the start benches', () => {
  it('times an allowed and a refused start through the launcher', () => {
    const out = bench('scripts/exec-bench.mjs');
    expect(out).toMatch(/launcher, allowed start +median +[\d.]+ ms/);
    expect(out).toMatch(/launcher, refused \(no ticket\) +median +[\d.]+ ms/);
  }, 150_000);

  it('times an allowed and a refused start through the broker', () => {
    const out = bench('scripts/broker-bench.mjs');
    expect(out).toMatch(/brokered, allowed start +median +[\d.]+ ms/);
    expect(out).toMatch(/brokered, refused start +median +[\d.]+ ms/);
  }, 150_000);
});
