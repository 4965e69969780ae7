/**
 * A Buffer's bytes as text, as `buf.toString('utf8' | 'latin1', start, end)` gives it, through the
 * slice method toString ends in: a hook lives for one call, and toString's first call compiles
 * its encoding table first. Where the method is missing, toString itself.
 */
type Sliceable = Buffer & { utf8Slice?: (start: number, end: number) => string; latin1Slice?: (start: number, end: number) => string };

function bounds(buf: Buffer, start: number, end: number): [number, number] {
  const s = Math.max(0, Math.min(start, buf.length));
  return [s, Math.max(s, Math.min(end, buf.length))];
}

export function utf8Text(buf: Buffer, start = 0, end = buf.length): string {
  const [s, e] = bounds(buf, start, end);
  const b = buf as Sliceable;
  return typeof b.utf8Slice === 'function' ? b.utf8Slice(s, e) : buf.toString('utf8', s, e);
}

export function latin1Text(buf: Buffer, start = 0, end = buf.length): string {
  const [s, e] = bounds(buf, start, end);
  const b = buf as Sliceable;
  return typeof b.latin1Slice === 'function' ? b.latin1Slice(s, e) : buf.toString('latin1', s, e);
}
