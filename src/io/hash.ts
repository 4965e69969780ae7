/**
 * Hashes for file names and the policy's identity. SHA-256 (node:crypto) is loaded only when a
 * policy is validated; the per-call session key uses a fast non-cryptographic 128-bit hash, which
 * is enough to tell apart the session ids a host generates.
 */
export function sha256Hex(data: string | Uint8Array): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(data).digest('hex');
}

/** Four independently seeded 32-bit FNV-1a lanes over the UTF-16 code units: 128 bits as hex. */
export function hash128(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  let h3 = 0xcbf29ce4;
  let h4 = 0x84222325;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h3 = Math.imul(h3 ^ c, 0x27d4eb2d);
    h4 = Math.imul(h4 ^ c, 0x165667b1);
  }
  const fin = (h: number, k: number) => {
    h ^= text.length + k;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return ((h ^ (h >>> 16)) >>> 0).toString(16).padStart(8, '0');
  };
  return fin(h1, 1) + fin(h2, 2) + fin(h3, 3) + fin(h4, 4);
}

/** The file name a session's state and receipts are kept under: never the raw session id. */
export function sessionKey(sessionId: string): string {
  return hash128(`persona-gate:session:${sessionId}`);
}

/** A stable text of a value: object keys sorted, so that the same input always hashes the same. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
