import { isPlainObject } from '../core/event';
import { GEMINI_FAMILY_TOOLS } from './gemini-tools';
import { readHostEvent, type HostEventShape, type ToolMapping } from './translate';
import { blockingError } from '../hook/output';
import { claudeDenyOnly } from './claude-json';
import type { HostAdapter } from './host';

/**
 * Qwen Code's own tools as Claude Code's (measured on Qwen Code 0.24.4): Gemini CLI's names, plus
 * the tools Qwen Code added. `monitor` starts a shell command, so it is read as one. Deferred tools
 * called through `tool_call` reach the hook under their own name, never as `tool_call`.
 */
const QWEN_TOOLS: Record<string, ToolMapping> = {
  ...GEMINI_FAMILY_TOOLS,
  run_shell_command: { tool: 'Bash', directory: 'directory', background: (input) => input.is_background === true },
  agent: { tool: 'Agent' },
  monitor: { tool: 'Bash', directory: 'directory' },
  notebook_edit: { tool: 'NotebookEdit' },
  skill: { tool: 'Skill' },
  ask_user_question: { tool: 'AskUserQuestion' },
  tool_search: { tool: 'ToolSearch' },
  cron_create: { tool: 'CronCreate' },
  cron_list: { tool: 'CronList' },
  cron_delete: { tool: 'CronDelete' },
  loop_wakeup: { tool: 'ScheduleWakeup' },
  task_create: { tool: 'TaskCreate' },
  task_update: { tool: 'TaskUpdate' },
  task_list: { tool: 'TaskList' },
  task_stop: { tool: 'TaskStop' },
  send_message: { tool: 'SendMessage' },
  enter_worktree: { tool: 'EnterWorktree' },
  exit_worktree: { tool: 'ExitWorktree' },
};

export const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: QWEN_TOOLS,
  // `tool_use_id` is one Qwen Code makes up for each call, the same on both events: unique even where a
  // provider repeats the ids it gives the model's calls (`tool_call_id`), which would pair the wrong events.
  callIds: ['tool_use_id', 'tool_call_id'],
  // An MCP tool's result is `{llmContent, returnDisplay}`; its `llmContent` parts are Claude Code's content blocks.
  mcpResult: (response) => (isPlainObject(response) && Array.isArray(response.llmContent) ? response.llmContent : null),
};

/** Qwen Code: Claude Code's event names and deny, Gemini's tool names; headless, an `ask` is a deny. */
export const qwen: HostAdapter = {
  name: 'qwen',
  title: 'Qwen Code',
  asks: false,
  readEvent: (json) => readHostEvent(json, SHAPE),
  answer: claudeDenyOnly,
  // Exit 2 with the reason on stderr and nothing on stdout.
  blockUnread: blockingError,
};
