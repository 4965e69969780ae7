import { readHostEvent, type HostEventShape } from './translate';
import { blockingError } from '../hook/output';
import { claudeDenyOnly } from './claude-json';
import type { HostAdapter } from './host';

/**
 * Droid's own tools (measured on 0.225.2): Execute {command, summary, riskLevel, riskLevelReason},
 * Read {file_path}, LS {directory_path}, Grep {pattern, path}, Glob {patterns, folder}, Create
 * {file_path, content}, Edit {file_path, old_str, new_str, change_all}; for GPT models ApplyPatch
 * {input: the patch, one or more files, paths absolute or relative to cwd} instead of Create and
 * Edit; FetchUrl {url}, WebSearch {query}, TodoWrite {todos}, Task {subagent_type, description,
 * prompt}, TaskOutput, TaskStop, Skill. MCP tools are `<server>___<tool>`.
 */
export const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: {
    Execute: { tool: 'Bash', background: (input) => input.fireAndForget === true },
    Read: { tool: 'Read' },
    // LS names its folder `directory_path`; Claude Code's LS, `path`.
    LS: { tool: 'LS', fields: { directory_path: 'path' } },
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
  // Droid gives an MCP tool's result as its text.
  mcpResult: (response) => (typeof response === 'string' ? [{ type: 'text', text: response }] : null),
  mcpName: (name) => {
    const at = name.indexOf('___');
    return at > 0 && at + 3 < name.length ? `mcp__${name.slice(0, at)}__${name.slice(at + 3)}` : null;
  },
};

/**
 * Factory Droid: Claude Code's event names (no call id) and deny; `ask` did not block under
 * `--auto high`. Exit 2 blocks and shows the model the reason on stderr.
 */
export const droid: HostAdapter = {
  name: 'droid',
  title: 'Droid',
  asks: false,
  readEvent: (json) => readHostEvent(json, SHAPE),
  answer: claudeDenyOnly,
  // Exit 2 with the reason on stderr and nothing on stdout.
  blockUnread: blockingError,
};
