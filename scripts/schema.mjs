// Writes schema.json from the zod schema (through the built CLI), the one source of truth.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const text = execFileSync(process.execPath, ['dist/persona-gate.js', 'schema'], { encoding: 'utf8' });
writeFileSync('schema.json', text);
console.log(`schema.json written (${text.length} bytes)`);
