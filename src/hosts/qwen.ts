import { GEMINI_FAMILY_TOOLS } from './gemini-tools';
import { readHostEvent, type HostEventShape } from './translate';
import { claudeDenyOnly, exitTwo } from './claude-json';
import type { HostAdapter } from './host';

const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: GEMINI_FAMILY_TOOLS,
  callIds: ['tool_use_id', 'tool_call_id'],
};

/** Qwen Code: Claude Code's event names and deny, Gemini's tool names; headless, an `ask` is a deny. */
export const qwen: HostAdapter = {
  name: 'qwen',
  title: 'Qwen Code',
  asks: false,
  readEvent: (json) => readHostEvent(json, SHAPE),
  answer: claudeDenyOnly,
  blockUnread: exitTwo,
};
