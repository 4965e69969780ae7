// Runs the hook's own decision path in-process, N times, for one session: the on-disk state a
// session has after N real decisions, without N process starts.
import { processEvent } from '../src/hook/run';
import { provideLazyModules } from '../src/io/lazy';
import { validatePolicy } from '../src/policy/validate';
import { readShellCall } from '../src/shell/resolve-shell';

provideLazyModules({ validatePolicy, readShellCall });
const [count, eventJson] = process.argv.slice(2);
const template = JSON.parse(eventJson!);
for (let i = 0; i < Number(count); i++) {
  const response = processEvent(JSON.stringify({ ...template, tool_use_id: `fill-${i}` }), [], process.env);
  if (response.exitCode !== 0 || response.stdout.includes('internal error'))
    throw new Error(`decision ${i} failed: ${response.stdout}${response.stderr}`);
}
