import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorAt, jsonErrorOffset } from '../../src/core/json-error';

function refused(text: string): unknown {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return err;
  }
}

describe('jsonErrorAt', () => {
  it.each([
    // [text, line, column, detail, excerpt line]
    ['{\n  "a": 1,\n}\n', 2, 9, 'Expected double-quoted property name', '  "a": 1,'],
    ['{\n  "a": [1, 2,]\n}', 2, 13, "Unexpected token ']'", '  "a": [1, 2,]'],
    ['{\n  "a": tru\n}', 2, 11, "Unexpected token '\n'", '  "a": tru'],
    ['{ "a": 1 "b": 2 }', 1, 10, "Expected ',' or '}' after property value", '{ "a": 1 "b": 2 }'],
    ['{"a": 1', 1, 8, "Expected ',' or '}' after property value", '{"a": 1'],
    ['', 1, 1, 'Unexpected end of JSON input', ''],
    ['{"a": 1}}', 1, 9, 'Unexpected non-whitespace character after JSON', '{"a": 1}}'],
  ])('%j: line %i, column %i', (text, line, column, detail, shown) => {
    const at = jsonErrorAt(text, refused(text))!;
    expect(at).toMatchObject({ line, column });
    if (!detail.includes('\n')) expect(at.detail).toBe(detail);
    expect(at.excerpt[0]).toBe(shown);
    expect(at.excerpt[1]).toBe(`${' '.repeat(column - 1)}^`);
  });

  it('names a trailing comma as such, at the comma', () => {
    const text = '{\n  "a": [1, 2,\n  ]\n}';
    expect(jsonErrorAt(text, refused(text))).toMatchObject({ line: 2, column: 13, trailingComma: true });
    expect(jsonErrorAt('{"a" 1}', refused('{"a" 1}'))).toMatchObject({ trailingComma: false });
  });

  it('cuts a long line around the column, and keeps the caret under it', () => {
    const text = `{"k": "${'x'.repeat(300)}", "z": }`;
    const at = jsonErrorAt(text, refused(text))!;
    expect(at.column).toBe(text.length);
    expect(at.excerpt[0].length).toBeLessThanOrEqual(102);
    expect(at.excerpt[0][at.excerpt[1].length - 1]).toBe('}');
  });

  it('is null for JSON', () => {
    expect(jsonErrorAt('{"a": [1, {"b": null}]}', new Error('x'))).toBeNull();
  });

  it('finds an error exactly where JSON.parse finds one, and none where it finds none', () => {
    const texts = fc.tuple(
      fc.json(),
      fc.nat(),
      fc.constantFrom('', ',', ']', '}', '"', ':', '\\', 'x', '\n', '0', '-', 'tru'),
      fc.boolean(),
    );
    fc.assert(
      fc.property(texts, ([json, at, piece, remove]) => {
        const k = json.length === 0 ? 0 : at % json.length;
        const text = remove ? json.slice(0, k) + json.slice(k + 1) : json.slice(0, k) + piece + json.slice(k);
        const err = refused(text);
        const offset = jsonErrorOffset(text);
        expect(offset === -1, text).toBe(err === null);
        // Where JSON.parse gives a position, it is the same place.
        const position = err instanceof Error ? /at position (\d+)/.exec(err.message) : null;
        if (position) expect(offset, text).toBe(Number(position[1]));
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 3000) },
    );
  });
});
