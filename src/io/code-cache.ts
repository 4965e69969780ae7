import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Script } from 'node:vm';

/**
 * Compiles one of the built CommonJS bundles (dist/hook.js, dist/shell.js, dist/policy-validate.js)
 * with V8's code cache, `<bundle>.cache`, made at build time by real calls: the hook starts for
 * every tool call, and compiling its code again each time is a measurable part of its cost. A
 * missing cache is no cache; a cache that V8 rejects (corrupt, or made by another V8 or with other
 * flags) is ignored by V8 (`script.cachedDataRejected`) and the bundle is simply compiled.
 */
export function compileBundle(file: string, requireFn: NodeJS.Require): Script {
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined;
  }
  const vm = requireFn('node:vm') as typeof import('node:vm');
  return new vm.Script(source, { filename: file, cachedData });
}

/**
 * Runs a bundle compiled by compileBundle and returns its exports. The build sets
 * PERSONA_GATE_WRITE_CODE_CACHE to a comma-separated list of bundle names (or 1 for all): the cache
 * of each is written again when the process exits, with every function that ran.
 */
export function runBundle(file: string, requireFn: NodeJS.Require): unknown {
  const script = compileBundle(file, requireFn);
  if (writesCache(basename(file))) process.on('exit', () => writeFileSync(`${file}.cache`, script.createCachedData()));
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, requireFn, module, file, dirname(file));
  return module.exports;
}

function writesCache(name: string): boolean {
  const value = process.env.PERSONA_GATE_WRITE_CODE_CACHE;
  return value !== undefined && (value === '1' || value.split(',').includes(name));
}
