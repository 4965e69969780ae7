import { preToolUseResponse } from '../hook/output';
import { readHostEvent, type HostEventShape } from './translate';
import { claudeDenyOnly } from './claude-json';
import type { HostAdapter } from './host';

const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: {
    bash: { tool: 'Bash' },
    view: { tool: 'Read' },
    create: { tool: 'Write' },
    edit: { tool: 'Edit' },
    str_replace: { tool: 'Edit' },
    str_replace_editor: { tool: 'Edit' },
    apply_patch: { tool: 'Edit', patch: 'input' },
    glob: { tool: 'Glob' },
    grep: { tool: 'Grep' },
    web_fetch: { tool: 'WebFetch' },
  },
  callIds: ['tool_use_id'],
  resultField: 'tool_result',
};

/**
 * GitHub Copilot CLI: Claude Code's event names (no call id), its JSON deny. Exit 2 blocks too but
 * shows the model only the exit code, so even an unreadable event is answered with the JSON deny.
 */
export const copilot: HostAdapter = {
  name: 'copilot',
  title: 'Copilot',
  asks: false,
  readEvent: (json) => readHostEvent(json, SHAPE),
  answer: claudeDenyOnly,
  blockUnread: (reason) => preToolUseResponse('deny', reason),
};
