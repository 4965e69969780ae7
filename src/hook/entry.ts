import { hookMain } from './run';

hookMain(process.argv.slice(3));
