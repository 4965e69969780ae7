import { describe, expect, it } from 'vitest';
import { DeadlineStop, runWithin } from '../../src/hook/watchdog';

describe('the decision watchdog', () => {
  it('stops synchronous code that never returns, at the deadline', () => {
    const started = Date.now();
    expect(() =>
      runWithin(200, () => {
        for (;;) {
          // a decision stuck in a loop
        }
      }),
    ).toThrow(DeadlineStop);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(5000);
  });

  it('stops a regular expression that backtracks past the deadline', () => {
    expect(() => runWithin(200, () => /^(a+)+$/.test(`${'a'.repeat(40)}b`))).toThrow(DeadlineStop);
  });

  it('returns what the decision returns, and passes its errors on unchanged', () => {
    expect(runWithin(1000, () => 42)).toBe(42);
    const own = new RangeError('own');
    expect(() =>
      runWithin(1000, () => {
        throw own;
      }),
    ).toThrow(own);
  });

  it('has no time left to give once the deadline has passed', () => {
    let ran = false;
    expect(() => runWithin(0, () => (ran = true))).toThrow(DeadlineStop);
    expect(() => runWithin(Number.NaN, () => (ran = true))).toThrow(DeadlineStop);
    expect(ran).toBe(false);
  });
});
