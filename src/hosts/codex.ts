import { isPlainObject } from '../core/event';
import { readHostEvent, type HostEventShape } from './translate';
import { blockingError } from '../hook/output';
import { claudeDenyOnly } from './claude-json';
import type { HostAdapter } from './host';

/**
 * What Codex 0.171.0 sends (recorded in test/fixtures/hosts/codex/): Claude Code's event names and
 * fields plus `turn_id` and `model`; its shell tool (`exec_command {cmd}` to the model) arrives as
 * `Bash {command}`, MCP tools as `mcp__server__tool`, the call id as `tool_use_id`.
 * `apply_patch {command: "<*** Begin Patch … envelope>"}` writes the files its envelope names
 * (added, updated, deleted, moved to). `write_stdin`, which types into a running command, and the
 * provider-hosted `web_search` send no event at all. An MCP tool's result arrives as
 * `{content: [...]}` where Claude Code gives the content array itself.
 */
const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: {
    Bash: { tool: 'Bash' },
    apply_patch: { tool: 'Edit', patch: 'command' },
    view_image: { tool: 'Read' },
    request_user_input: { tool: 'AskUserQuestion' },
    create_goal: { tool: 'TodoWrite' },
    get_goal: { tool: 'TodoWrite' },
    update_goal: { tool: 'TodoWrite' },
  },
  callIds: ['tool_use_id'],
  mcpResult: (response) => (isPlainObject(response) && Array.isArray(response.content) ? response.content : null),
};

/** OpenAI Codex CLI: Claude Code's event and deny; `ask` and a bare `allow` would let the tool run, so neither is ever written. */
export const codex: HostAdapter = {
  name: 'codex',
  title: 'Codex',
  asks: false,
  // write_stdin gives a command started by an earlier call its input, and sends no hook event.
  unseenStdin: true,
  // A command's workdir becomes the event's cwd.
  cwdFromModel: true,
  readEvent: (json) => readHostEvent(json, SHAPE),
  answer: claudeDenyOnly,
  // Exit 2 with the reason on stderr and nothing on stdout.
  blockUnread: blockingError,
};
