import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { runBundle } from '../io/code-cache';

/**
 * The installed binary. `hook` runs dist/hook.js through V8's code cache (see io/code-cache.ts):
 * the hook is started for every tool call. Every other subcommand loads dist/cli.js.
 */
const subcommand = process.argv[2];
if (subcommand === 'hook') {
  try {
    runBundle(join(__dirname, 'hook.js'), require);
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
