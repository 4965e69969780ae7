import { hookMain } from '../hook/run';

declare const __BUNDLED__: boolean;

/** Only `hook` runs from this bundle; every other subcommand loads the CLI bundle (commander, conf) on demand. */
const [subcommand, ...rest] = process.argv.slice(2);
if (subcommand === 'hook') {
  hookMain(rest);
} else {
  const cli: typeof import('../cli/main') =
    __BUNDLED__ ? require('./cli.js') : require('../cli/main');
  cli.cliMain(process.argv.slice(2));
}
