import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bashPrefixesOf } from '../../src/core/policy-index';
import { isoTime } from '../../src/core/receipt';
import { absolute, childOf, landingPathOf, landingResolver, parentOf } from '../../src/io/protect';
import { latin1Text, utf8Text } from '../../src/io/text';
import { tempDir } from '../helpers/cli';

describe('isoTime: the receipt time without the time zone set-up', () => {
  it('is toISOString for every time from year 0 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62167219200000, max: 253402300799999 }), (ms) => {
        const date = new Date(ms);
        expect(isoTime(date)).toBe(date.toISOString());
      }),
      { numRuns: 20000 },
    );
  });

  it('is toISOString at the edges (epoch, leap day, a year below 1000, the last millisecond of 9999)', () => {
    for (const text of [
      '1970-01-01T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '0999-12-31T00:00:00.007Z',
      '0000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      expect(isoTime(new Date(text))).toBe(text);
    }
  });

  it('answers outside years 0–9999 as toISOString does, and throws as it does on an invalid date', () => {
    const far = new Date(253402300800000);
    expect(isoTime(far)).toBe(far.toISOString());
    const before = new Date(-62167219200001);
    expect(isoTime(before)).toBe(before.toISOString());
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('landingResolver: the guarded files’ real paths with one look per directory', () => {
  it('answers what landingPathOf answers, through links, dangling links, loops and missing directories', () => {
    const root = tempDir();
    mkdirSync(join(root, 'real', 'deep'), { recursive: true });
    writeFileSync(join(root, 'real', 'file'), 'x');
    symlinkSync(join(root, 'real'), join(root, 'abs-link'));
    symlinkSync('real', join(root, 'rel-link'));
    symlinkSync('real/deep', join(root, 'deep-link'));
    symlinkSync(join(root, 'nowhere', 'target'), join(root, 'dangling'));
    symlinkSync('../real', join(root, 'real', 'deep', 'up'));
    symlinkSync('loop-b', join(root, 'loop-a'));
    symlinkSync('loop-a', join(root, 'loop-b'));
    symlinkSync('abs-link/deep/../file', join(root, 'dotdot'));
    const paths = [
      root,
      join(root, 'real', 'file'),
      join(root, 'abs-link', 'file'),
      join(root, 'rel-link', 'deep', 'new-file'),
      join(root, 'deep-link', 'up', 'file'),
      join(root, 'dangling'),
      join(root, 'dangling', 'below'),
      join(root, 'missing', 'dir', 'file'),
      join(root, 'loop-a'),
      join(root, 'loop-a', 'x'),
      join(root, 'dotdot'),
      '/',
      '/etc/profile.d',
    ];
    const resolve = landingResolver();
    for (const p of paths) expect(resolve(p), p).toBe(landingPathOf(p));
    // asked again, from what it has seen
    for (const p of [...paths].reverse()) expect(resolve(p), p).toBe(landingPathOf(p));
  });
});

describe('utf8Text and latin1Text: toString without its first-call cost', () => {
  it('give what toString gives, for any bytes and any bounds', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.integer({ min: -8, max: 80 }),
        fc.integer({ min: -8, max: 80 }),
        (raw, start, end) => {
          const buf = Buffer.from(raw);
          expect(utf8Text(buf, start, end)).toBe(buf.toString('utf8', start, end));
          expect(latin1Text(buf, start, end)).toBe(buf.toString('latin1', start, end));
          expect(utf8Text(buf)).toBe(buf.toString('utf8'));
          expect(latin1Text(buf)).toBe(buf.toString('latin1'));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('give what toString gives on a subarray', () => {
    const whole = Buffer.from('héllo "wörld" ✓ end', 'utf8');
    const part = whole.subarray(3, 20);
    expect(utf8Text(part, 1, 12)).toBe(part.toString('utf8', 1, 12));
    expect(latin1Text(part, 2)).toBe(part.toString('latin1', 2));
  });
});

describe('absolute, childOf, parentOf: path.resolve, join and dirname without the calls', () => {
  const pathText = fc
    .array(fc.constantFrom('/', '.', '..', 'a', 'b', '.claude', ' ', '~'), { maxLength: 14 })
    .map((parts) => parts.join(''));
  it('absolute is path.resolve for any text', () => {
    fc.assert(
      fc.property(pathText, (p) => {
        expect(absolute(p)).toBe(resolvePath(p));
      }),
      { numRuns: 20000 },
    );
  });

  it('childOf and parentOf are join and dirname for absolute normalized directories', () => {
    fc.assert(
      fc.property(pathText, fc.constantFrom('.claude', 'settings.json', 'a b', '.x'), (p, name) => {
        const dir = resolvePath('/', p);
        expect(childOf(dir, name)).toBe(join(dir, name));
        expect(parentOf(dir)).toBe(dirname(dir));
      }),
      { numRuns: 20000 },
    );
  });
});

describe('bashPrefixesOf: every command’s prefixes, longest first, in the commands’ order within a length', () => {
  const reference = (commands: Record<string, { bash?: string[] }>) => {
    const prefixes: { words: string[]; key: string }[] = [];
    for (const [key, def] of Object.entries(commands)) {
      for (const prefix of def.bash ?? []) {
        const words = prefix.trim().split(/\s+/).filter(Boolean);
        if (words.length > 0) prefixes.push({ words, key });
      }
    }
    return prefixes.sort((a, b) => b.words.length - a.words.length);
  };
  it('is what a stable sort on length gives', () => {
    const prefix = fc.array(fc.constantFrom('git', 'status', ' ', '  ', '\t', 'a', '-x'), { maxLength: 7 }).map((p) => p.join(''));
    const command = fc.record({ bash: fc.option(fc.array(prefix, { maxLength: 4 }), { nil: undefined }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a.x', 'a.y', 'b.z', 'c.w', 'd.v', 'e.u'), command), (commands) => {
        expect(bashPrefixesOf({ catalog: { commands } })).toStrictEqual(reference(commands));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes a policy with 200,000 prefixes of one length', () => {
    const commands: Record<string, { bash: string[] }> = {};
    for (let k = 0; k < 200_000; k++) commands[`bulk.c${k}`] = { bash: [`bulk${k} op`] };
    const prefixes = bashPrefixesOf({ catalog: { commands } });
    expect(prefixes).toHaveLength(200_000);
    expect(prefixes.at(-1)).toStrictEqual({ words: ['bulk199999', 'op'], key: 'bulk.c199999' });
  });
});
