import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaText, testSchemaText } from '../../src/cli/commands/schema';
import { ROOT } from '../helpers/policy';

describe('schema.json', () => {
  it('is exactly what the zod schema generates (run npm run schema after changing it)', () => {
    expect(readFileSync(join(ROOT, 'schema.json'), 'utf8')).toBe(schemaText());
  });
});

describe('test-schema.json', () => {
  it('is exactly what the zod schema of policy test files generates (run npm run schema after changing it)', () => {
    expect(readFileSync(join(ROOT, 'test-schema.json'), 'utf8')).toBe(testSchemaText());
  });
});

/** The path of every property in a JSON Schema that has no description of its own. */
function undescribed(node: unknown, path = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => undescribed(n, `${path}[${i}]`));
  if (typeof node !== 'object' || node === null) return [];
  const out: string[] = [];
  const properties = (node as { properties?: Record<string, { description?: unknown }> }).properties;
  if (properties)
    for (const [key, value] of Object.entries(properties))
      if (typeof value.description !== 'string' || value.description === '') out.push(`${path}.${key}`);
  for (const [key, value] of Object.entries(node)) out.push(...undescribed(value, `${path}/${key}`));
  return out;
}

describe('descriptions', () => {
  it.each([
    ['schema.json', schemaText],
    ['test-schema.json', testSchemaText],
  ])('every property of %s has one, for the editor to show as help', (_file, text) => {
    const schema = JSON.parse(text());
    expect(undescribed(schema)).toEqual([]);
    // The walk does find properties: the personas' and the commands'.
    expect(JSON.stringify(schema)).toMatch(/"properties"/);
  });

  it('names the ladder where a level is asked for', () => {
    const schema = JSON.parse(schemaText());
    expect(schema.properties.personas.additionalProperties.properties.ceiling.description).toContain(
      'none < read_only < workspace_write < process_exec < network',
    );
  });
});
