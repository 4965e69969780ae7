import { launcherMain } from './launcher';

launcherMain(process.argv.slice(2));
