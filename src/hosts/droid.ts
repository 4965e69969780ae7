import type { EventParse } from '../core/event';
import { readHostEvent, type HostEventShape } from './translate';
import { claudeDenyOnly, exitTwo } from './claude-json';
import type { HostAdapter } from './host';

/**
 * Droid's own tools (measured on 0.225.2): Execute {command, summary, riskLevel, riskLevelReason},
 * Read {file_path}, LS {directory_path}, Grep {pattern, path}, Glob {patterns, folder}, Create
 * {file_path, content}, Edit {file_path, old_str, new_str, change_all}; for GPT models ApplyPatch
 * {input: the patch, one or more files, paths absolute or relative to cwd} instead of Create and
 * Edit; FetchUrl {url}, WebSearch {query}, TodoWrite {todos}, Task {subagent_type, description,
 * prompt}, TaskOutput, TaskStop, Skill. MCP tools are `<server>___<tool>`.
 */
const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: {
    Execute: { tool: 'Bash', background: (input) => input.fireAndForget === true },
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
  mcpName: (name) => {
    const at = name.indexOf('___');
    return at > 0 && at + 3 < name.length ? `mcp__${name.slice(0, at)}__${name.slice(at + 3)}` : null;
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** LS names its folder `directory_path`; Claude Code's LS, `path`. */
function claudeFields(value: Record<string, unknown>): Record<string, unknown> {
  if (value.tool_name !== 'LS' || !isPlainObject(value.tool_input) || value.tool_input.directory_path === undefined) return value;
  return { ...value, tool_input: { ...value.tool_input, path: value.tool_input.directory_path } };
}

/** Droid gives an MCP tool's result as its text; Claude Code as content blocks, which a label path such as `0.text` reads. */
function mcpBlocks(parsed: EventParse): EventParse {
  if (!parsed.ok || parsed.event.hook_event_name !== 'PostToolUse' || !parsed.event.tool_name.startsWith('mcp__')) return parsed;
  if (typeof parsed.event.tool_response === 'string') parsed.event.tool_response = [{ type: 'text', text: parsed.event.tool_response }];
  return parsed;
}

/**
 * Factory Droid: Claude Code's event names (no call id) and deny; `ask` did not block under
 * `--auto high`. Exit 2 blocks and shows the model the reason on stderr.
 */
export const droid: HostAdapter = {
  name: 'droid',
  title: 'Droid',
  asks: false,
  readEvent: (json) => mcpBlocks(readHostEvent(isPlainObject(json) ? claudeFields(json) : json, SHAPE)),
  answer: claudeDenyOnly,
  blockUnread: exitTwo,
};
