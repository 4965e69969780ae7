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
