/**
 * Small string tests written as loops over UTF-16 code units, for the hook's hot path: a regular
 * expression is compiled on its first use and again, to machine code, on its second, which costs a
 * process that lives for one call more than the matching itself. Each function matches exactly
 * what the regular expression in its comment matches (test/property/chars.test.ts holds them to it).
 */

/** A code unit of `\s` (and of what `String.prototype.trim` removes). */
export function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `/^[^.\s]+(\.[^.\s]+)+$/`: two or more non-empty dot-separated parts, no white space. */
export function isDotted(text: string): boolean {
  let part = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      if (part === 0) return false;
      dots++;
      part = 0;
    } else if (isJsSpace(c)) {
      return false;
    } else {
      part++;
    }
  }
  return dots > 0 && part > 0;
}

/** `/^[0-9a-f]{64}$/`: a SHA-256 in lower-case hex. */
export function isSha256Hex(text: string): boolean {
  if (text.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}
