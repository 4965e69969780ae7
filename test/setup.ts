// Tests run the hook's code from the sources, where the lazily loaded bundles do not exist.
import { HOST_ADAPTERS } from '../src/hosts';
import { provideLazyModules } from '../src/io/lazy';
import { jsonErrorAt, validatePolicy } from '../src/policy/validate';
import { launchPlan, readShellCall, settleStart } from '../src/shell/resolve-shell';

provideLazyModules({ validatePolicy, jsonErrorAt, readShellCall, launchPlan, settleStart, HOST_ADAPTERS });
