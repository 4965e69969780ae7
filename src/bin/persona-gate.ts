import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The installed binary. `hook` runs dist/hook.js through V8's code cache (dist/hook.js.cache,
 * made at build time by running one decision): the hook is started for every tool call, and
 * compiling it again each time is a measurable part of its cost. A cache made by another V8 is
 * rejected by V8 and the bundle is simply compiled. Every other subcommand loads dist/cli.js.
 */
function runHookBundle(): void {
  const file = join(__dirname, 'hook.js');
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Script } = require('node:vm') as typeof import('node:vm');
  const script = new Script(source, { filename: file, cachedData });
  if (process.env.PERSONA_GATE_WRITE_CODE_CACHE === '1') process.on('exit', () => writeFileSync(`${file}.cache`, script.createCachedData()));
  script.runInThisContext()(module.exports, require, module, file, __dirname);
}

const subcommand = process.argv[2];
if (subcommand === 'hook') {
  try {
    runHookBundle();
  } catch (err) {
    // Not even the hook could start: still a deny, never exit 1.
    try {
      writeSync(2, `persona-gate: the hook could not start (${err instanceof Error ? err.message : String(err)}). The call is denied.\n`);
    } finally {
      process.exit(2);
    }
  }
} else {
  (require('./cli.js') as typeof import('../cli/main')).cliMain(process.argv.slice(2));
}
