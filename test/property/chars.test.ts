import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDotted, isSha256Hex } from '../../src/core/chars';
import { usableName } from '../../src/io/policy-spans';
import { assignmentLength } from '../../src/shell/commands';
import { directoryOptionValue, isGateProgram, isRepl } from '../../src/shell/resolve-shell';

/**
 * The hot path's string tests are loops written for speed; each must match exactly what the
 * regular expression it replaced matched. The expressions are kept here as the reference.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 20000);

// Strings built from the characters these tests turn on, every kind of white space `\s` knows, lone
// and paired surrogates, and anything else.
const SPACES = [
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  ' ',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u0085',
  '\u200b',
  '\u180e',
];
const PIECES = [
  ...SPACES,
  '.',
  ':',
  ',',
  '}',
  ']',
  '[',
  '"',
  '\\',
  '\u0000',
  '\u001f',
  '\u0020',
  '\ufffd',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ud83d\ude00',
  '=',
  '+',
  '-',
  '/',
  '@',
  'a',
  'Z',
  '_',
  '0',
  '9',
  'f',
  'g',
  'x',
  'python',
  'pypy',
  'node',
  'R',
  '3.11',
  'persona-gate',
  '.js',
  '.cjs',
  '-C',
  '--chdir',
  '--directory',
  '--cwd',
  'NAME',
  'é',
];
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 24 }),
);

const holds = (property: (s: string) => void, examples: string[] = []) => {
  for (const s of examples) property(s);
  fc.assert(
    fc.property(text, (s) => {
      property(s);
    }),
    { numRuns: RUNS },
  );
};

describe('each hot-path string test matches the regular expression it replaced', () => {
  it('isDotted is /^[^.\\s]+(\\.[^.\\s]+)+$/', () => {
    holds(
      (s) => expect(isDotted(s)).toBe(/^[^.\s]+(\.[^.\s]+)+$/.test(s)),
      ['a.b', 'a..b', '.a', 'a.', 'a', 'a.b c', 'a.b\u00a0', 'fam.x.y', '\ud800.\udc00'],
    );
  });

  it('isSha256Hex is /^[0-9a-f]{64}$/', () => {
    const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFg'.split('')), minLength: 62, maxLength: 66 });
    fc.assert(
      fc.property(fc.oneof(hex, text), (s) => {
        expect(isSha256Hex(s)).toBe(/^[0-9a-f]{64}$/.test(s));
      }),
      { numRuns: RUNS },
    );
    expect(isSha256Hex('0'.repeat(64))).toBe(true);
    expect(isSha256Hex(`${'0'.repeat(63)}\n`)).toBe(false);
  });

  it('usableName is the expression it replaced', () => {
    // eslint-disable-next-line no-control-regex
    const reference = (name: string) =>
      name.length > 0 &&
      !/[\u0000-\u001f"\\\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(name) &&
      !/^[\s:,}\]]/.test(name);
    holds(
      (s) => expect(usableName(s)).toBe(reference(s)),
      ['\ud800\ud800\udc00', '\ud800\udc00\udc00', 'a\ud83d\ude00', '\udc00a', '\u2028a', 'a\u2028'],
    );
  });

  it('assignmentLength is /^[A-Za-z_][A-Za-z0-9_]*(\\[[^\\]]*\\])?\\+?=/', () => {
    const reference = (s: string) => /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.exec(s)?.[0].length ?? -1;
    holds(
      (s) => expect(assignmentLength(s)).toBe(reference(s)),
      ['A=', 'A+=', 'A[1]=x', 'A[1]+=x', 'A[=', 'A[]]=', 'A[x]y=', '_a9=', '9a=', 'A+', 'A[\n]='],
    );
  });

  it('directoryOptionValue is /^(-C|--chdir|--directory|--cwd)(=|$)/', () => {
    const reference = (s: string) => {
      const m = /^(-C|--chdir|--directory|--cwd)(=|$)/.exec(s);
      return m === null ? -1 : m[2] === '=' ? m[0].length : 0;
    };
    holds(
      (s) => expect(directoryOptionValue(s)).toBe(reference(s)),
      ['-C', '-C=', '-C=x', '-Cx', '--chdir', '--chdir=/t', '--cwd=', '--directory', '--dir', '--cwd\n'],
    );
  });

  it('isGateProgram is /^persona-gate(@[^/]*)?$|^persona-gate(\\.c?js)?$/', () => {
    const reference = (s: string) => /^persona-gate(@[^/]*)?$|^persona-gate(\.c?js)?$/.test(s);
    holds(
      (s) => expect(isGateProgram(s)).toBe(reference(s)),
      [
        'persona-gate',
        'persona-gate@1.2',
        'persona-gate@x/y',
        'persona-gate.js',
        'persona-gate.cjs',
        'persona-gate.mjs',
        'persona-gatex',
        'persona-gate@\n',
      ],
    );
  });

  it('isRepl is /^(python[\\d.]*|pypy[\\d.]*|node|…|R)$/', () => {
    const reference = (s: string) =>
      /^(python[\d.]*|pypy[\d.]*|node|nodejs|ruby|irb|pry|perl|php|lua|luajit|deno|bun|tclsh|wish|julia|ghci|jshell|R)$/.test(s);
    holds(
      (s) => expect(isRepl(s)).toBe(reference(s)),
      ['python', 'python3', 'python3.11', 'python3x', 'pypy3', 'node', 'nodejs', 'R', 'r', 'perl5', 'luajit', 'python\n'],
    );
  });
});
