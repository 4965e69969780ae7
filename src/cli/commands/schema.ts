import { policyJsonSchema } from '../../policy/schema';
import type { CommandResult } from '../errors';

export function schemaText(): string {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}\n`;
}

export function schemaCommand(): CommandResult {
  return { stdout: schemaText(), exitCode: 0 };
}
