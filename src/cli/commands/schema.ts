import { policyJsonSchema } from '../../policy/schema';
import { testFileJsonSchema } from '../../policydev/test-file';
import type { CommandResult } from '../errors';

export function schemaText(): string {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}\n`;
}

/** The JSON Schema of policy test files (`persona-gate test`), shipped as test-schema.json. */
export function testSchemaText(): string {
  return `${JSON.stringify(testFileJsonSchema(), null, 2)}\n`;
}

export function schemaCommand(opts: { test?: boolean } = {}): CommandResult {
  return { stdout: opts.test ? testSchemaText() : schemaText(), exitCode: 0 };
}
