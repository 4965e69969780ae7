import { readHostEvent, type HostEventShape } from './translate';
import { claudeDenyOnly, exitTwo } from './claude-json';
import type { HostAdapter } from './host';

const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: {
    Bash: { tool: 'Bash' },
    apply_patch: { tool: 'Edit', patch: 'input' },
  },
  callIds: ['tool_use_id'],
};

/** OpenAI Codex CLI: Claude Code's event and deny; `ask` and a bare `allow` would let the tool run, so neither is ever written. */
export const codex: HostAdapter = {
  name: 'codex',
  title: 'Codex',
  asks: false,
  readEvent: (json) => readHostEvent(json, SHAPE),
  answer: claudeDenyOnly,
  blockUnread: exitTwo,
};
