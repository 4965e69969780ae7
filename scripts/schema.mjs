// Writes schema.json (policies) and test-schema.json (policy test files) from the zod schemas
// (through the built CLI), the one source of truth.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

for (const [file, args] of [
  ['schema.json', ['schema']],
  ['test-schema.json', ['schema', '--test']],
]) {
  const text = execFileSync(process.execPath, ['dist/persona-gate.cjs', ...args], { encoding: 'utf8' });
  writeFileSync(file, text);
  console.log(`${file} written (${text.length} bytes)`);
}
