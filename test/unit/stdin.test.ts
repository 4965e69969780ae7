import { describe, expect, it } from 'vitest';
import { JsonValueEnd } from '../../src/hook/stdin';

const bytes = (s: string) => Buffer.from(s, 'utf8');

/**
 * Feeds `text` as it would arrive cut at the given offsets (into one buffer that holds the input
 * so far, with garbage past it, as the hook's reader keeps it); the index of the chunk at which
 * the value ended, or -1.
 */
function endsAt(text: string, cuts: number[]): number {
  const end = new JsonValueEnd();
  const b = bytes(text);
  const buf = Buffer.alloc(b.length + 64, '"}]\\');
  const points = [...cuts, b.length];
  for (let i = 0; i < points.length; i++) {
    b.copy(buf, 0, 0, points[i]);
    if (end.feed(buf, points[i]!)) return i;
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
    ['three backslashes: an escaped backslash, then an escaped quote', '{"a":"\\\\\\"}"}', true],
    ['an escaped quote then more text', '{"a":"\\"}x","b":[1]}', true],
    ['a quote right after the opening quote', '{"":""}', true],
    ['a Claude Code event with quotes, brackets and multi-byte text', event, true],
    ['half an object', '{"a":', false],
    ['an escaped quote hiding the end of the string', '{"a":"\\"}', false],
    ['two escaped backslashes then an escaped quote', '{"a":"\\\\\\\\\\"}', false],
    ['an unterminated string hiding the brace', '{"a":"}', false],
    ['a deep unterminated array', '['.repeat(1000), false],
    ['nothing', '', false],
    ['whitespace only', '  \n', false],
    ['a number (never ends early: read to the end of the input)', '42', false],
    ['a string', '"{}"', false],
    ['garbage', 'x{}', false],
  ])('%s', (_name, text, complete) => {
    // A complete value ends with its last byte: not one byte earlier.
    const length = bytes(text).length;
    expect(endsAt(text, length > 1 ? [length - 1] : [])).toBe(complete ? (length > 1 ? 1 : 0) : -1);
  });

  it('finds the same end however the input is cut, even inside a multi-byte character or a run of backslashes', () => {
    const b = bytes(event);
    for (let cut = 1; cut < b.length; cut++) expect(endsAt(event, [cut])).toBe(1);
    for (let cut = 1; cut + 7 < b.length; cut += 3) expect(endsAt(event, [cut, cut + 7])).toBe(2);
    // One byte at a time: the value ends with its last byte, not before.
    const cuts = Array.from({ length: b.length - 1 }, (_, i) => i + 1);
    expect(endsAt(event, cuts)).toBe(b.length - 1);
  });

  it('stays ended once the value is complete, whatever follows', () => {
    const end = new JsonValueEnd();
    const buf = bytes('{"a":1}\n{"b":2}');
    expect(end.feed(buf, 10)).toBe(true);
    expect(end.feed(buf, buf.length)).toBe(true);
  });

  it('ends a megabyte-long string arriving in 64 KiB chunks at its last chunk', () => {
    const big = bytes(`{"pad":"${'x\\\\'.repeat(256 * 1024)}"}`);
    const end = new JsonValueEnd();
    const ends: boolean[] = [];
    for (let i = 65536; i < big.length + 65536; i += 65536) ends.push(end.feed(big, Math.min(i, big.length)));
    expect(ends.indexOf(true)).toBe(ends.length - 1);
  });
});
