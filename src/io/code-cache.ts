import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Script } from 'node:vm';

/**
 * Compiles one of the built CommonJS bundles (dist/hook.js, dist/shell.js, dist/policy-validate.js,
 * dist/hosts.js) with V8's code cache, `<bundle>.cache`, made at build time by real calls: the hook
 * starts for every tool call, and compiling its code again each time is a measurable part of its cost. A
 * missing cache is no cache; a cache that V8 rejects (corrupt, or made by another V8 or with other
 * flags) is ignored by V8 (`script.cachedDataRejected`) and the bundle is simply compiled.
 */
export function compileBundle(file: string, requireFn: NodeJS.Require): Script {
  const source = wrapBundle(readFileSync(file, 'utf8'));
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined;
  }
  const vm = requireFn('node:vm') as typeof import('node:vm');
  return new vm.Script(source, { filename: file, cachedData });
}

/** How the build starts each of these bundles (scripts/build.mjs), so that its text is already the function. */
export const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname) {';
export const BUNDLE_TAIL = '\n})';

/**
 * The bundle's text as the function its cache was made from. The build writes the bundles so
 * already: a text read whole is compiled as it is, where wrapping it would copy it (100 KB for
 * the hook) on every call.
 */
export function wrapBundle(text: string): string {
  return text.startsWith(BUNDLE_HEAD) ? text : `${BUNDLE_HEAD}${text}${BUNDLE_TAIL}`;
}

/**
 * Runs a bundle compiled by compileBundle and returns its exports. The build sets
 * PERSONA_GATE_WRITE_CODE_CACHE to a comma-separated list of bundle names (or 1 for all): the cache
 * of each is written again when the process exits, with every function that ran, and no other.
 * Without that variable, a cache is written again when V8 rejected it or there was none: a cache
 * only serves the exact Node (V8 version and flags) that made it, so the first call on another
 * Node makes the one the calls after it use. It goes next to the bundle, under a temporary name
 * renamed into place (concurrent calls each write a whole file), and only if that directory is
 * writable: whoever can write there can already change the bundle itself.
 */
export function runBundle(file: string, requireFn: NodeJS.Require): unknown {
  const script = compileBundle(file, requireFn);
  const listed = process.env.PERSONA_GATE_WRITE_CODE_CACHE;
  if (listed !== undefined) {
    if (listed === '1' || listed.split(',').includes(basename(file)))
      process.on('exit', () => writeFileSync(`${file}.cache`, script.createCachedData()));
  } else if (script.cachedDataRejected !== false) {
    process.on('exit', () => replaceCache(file, script));
  }
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, requireFn, module, file, dirname(file));
  return module.exports;
}

/** The cache is only made once the temporary file could be created: a read-only installation pays one failed open. */
function replaceCache(file: string, script: Script): void {
  const temporary = `${file}.cache.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(temporary, 'wx', 0o644);
  } catch {
    return;
  }
  try {
    try {
      writeSync(fd, script.createCachedData());
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, `${file}.cache`);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}
