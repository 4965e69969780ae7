import { describe, expect, it } from 'vitest';
import { JsonValueEnd } from '../../src/hook/stdin';

const bytes = (s: string) => Buffer.from(s, 'utf8');

/** Feeds `text` cut at the given offsets; the index of the chunk at which the value ended, or -1. */
function endsAt(text: string, cuts: number[]): number {
  const end = new JsonValueEnd();
  const b = bytes(text);
  const points = [0, ...cuts, b.length];
  for (let i = 0; i + 1 < points.length; i++) {
    if (end.feed(b.subarray(points[i], points[i + 1]))) return i;
  }
  return -1;
}

const event = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 's',
  tool_name: 'Bash',
  tool_input: { command: 'echo "}{" \\"][\\\\ ü 日本 😀 && printf \'{\'' },
  cwd: '/tmp',
});

describe('JsonValueEnd: where one JSON object or array ends', () => {
  it.each([
    ['an empty object', '{}', true],
    ['an empty array', '[]', true],
    ['nested', '{"a":[{"b":{}},[[]]]}', true],
    ['leading whitespace', ' \t\r\n{"a":1}', true],
    ['braces inside strings', '{"a":"}}]]{{"}', true],
    ['an escaped quote inside a string', '{"a":"\\"}"}', true],
    ['an escaped backslash before the closing quote', '{"a":"\\\\"}', true],
    ['a Claude Code event with quotes, brackets and multi-byte text', event, true],
    ['half an object', '{"a":', false],
    ['an unterminated string hiding the brace', '{"a":"}', false],
    ['a deep unterminated array', '['.repeat(1000), false],
    ['nothing', '', false],
    ['whitespace only', '  \n', false],
    ['a number (never ends early: read to the end of the input)', '42', false],
    ['a string', '"{}"', false],
    ['garbage', 'x{}', false],
  ])('%s', (_name, text, complete) => {
    expect(endsAt(text, [])).toBe(complete ? 0 : -1);
  });

  it('finds the same end however the input is cut, even inside a multi-byte character', () => {
    const b = bytes(event);
    for (let cut = 1; cut < b.length; cut++) expect(endsAt(event, [cut])).toBe(1);
    for (let cut = 1; cut + 7 < b.length; cut += 3) expect(endsAt(event, [cut, cut + 7])).toBe(2);
    // One byte at a time: the value ends with its last byte, not before.
    const end = new JsonValueEnd();
    for (let i = 0; i < b.length; i++) expect(end.feed(b.subarray(i, i + 1))).toBe(i === b.length - 1);
  });

  it('stays ended, and reports the end in the chunk that carries trailing bytes', () => {
    const end = new JsonValueEnd();
    expect(end.feed(bytes('{"a":1}\n{"b":'))).toBe(true);
    expect(end.feed(bytes('2}'))).toBe(true);
  });

  it('keeps no text of its own: a megabyte in 64 KiB chunks ends at its last chunk', () => {
    const big = bytes(`{"pad":"${'x'.repeat(1024 * 1024)}"}`);
    const end = new JsonValueEnd();
    const ends: boolean[] = [];
    for (let i = 0; i < big.length; i += 65536) ends.push(end.feed(big.subarray(i, i + 65536)));
    expect(ends.indexOf(true)).toBe(ends.length - 1);
  });
});
