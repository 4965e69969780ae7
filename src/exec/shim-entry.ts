import { shimMain } from './shim';

shimMain(process.argv.slice(2));
