import { readHostEvent, type HostEventShape } from './translate';
import { claudeDenyOnly, exitTwo } from './claude-json';
import type { HostAdapter } from './host';

const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: {
    Execute: { tool: 'Bash' },
    Read: { tool: 'Read' },
    LS: { tool: 'LS' },
    Grep: { tool: 'Grep' },
    Glob: { tool: 'Glob' },
    Create: { tool: 'Write' },
    Edit: { tool: 'Edit' },
    MultiEdit: { tool: 'MultiEdit' },
    ApplyPatch: { tool: 'Edit', patch: 'input' },
    FetchUrl: { tool: 'WebFetch' },
    WebSearch: { tool: 'WebSearch' },
    TodoWrite: { tool: 'TodoWrite' },
    Task: { tool: 'Task' },
  },
  callIds: ['tool_use_id'],
};

/** Factory Droid: Claude Code's event names (no call id) and deny; `ask` did not block under `--auto high`. */
export const droid: HostAdapter = {
  name: 'droid',
  title: 'Droid',
  asks: false,
  readEvent: (json) => readHostEvent(json, SHAPE),
  answer: claudeDenyOnly,
  blockUnread: exitTwo,
};
