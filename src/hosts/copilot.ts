import type { EventParse } from '../core/event';
import { preToolUseResponse } from '../hook/output';
import { readHostEvent, type HostEventShape } from './translate';
import { claudeDenyOnly } from './claude-json';
import type { HostAdapter } from './host';

/**
 * Copilot CLI's hook events, as its PascalCase (Claude-compatible) registration sends them
 * (measured on 1.0.102): its own tools already carry Claude Code's names — bash → Bash, view →
 * Read, create → Write, edit → Edit, grep and rg → Grep, glob → Glob, web_fetch → WebFetch, task →
 * Agent — but keep Copilot's input fields (`path`, `file_text`, `old_str`, `paths`, `agent_type`),
 * and its apply_patch (offered to GPT-5 models) arrives as `Edit` whose tool_input is the patch
 * text itself. The remaining tools keep their own names. MCP tools are `<server>-<tool>`.
 */
const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: {
    // The names Copilot's own tools have when a registration gets them untranslated.
    bash: { tool: 'Bash', background: (input) => input.async === true || input.mode === 'async' || input.detach === true },
    Bash: { tool: 'Bash', background: (input) => input.async === true || input.mode === 'async' || input.detach === true },
    view: { tool: 'Read' },
    create: { tool: 'Write' },
    edit: { tool: 'Edit' },
    str_replace: { tool: 'Edit' },
    str_replace_editor: { tool: 'Edit' },
    apply_patch: { tool: 'Edit', patch: 'input' },
    glob: { tool: 'Glob' },
    grep: { tool: 'Grep' },
    rg: { tool: 'Grep' },
    web_fetch: { tool: 'WebFetch' },
    task: { tool: 'Agent' },
    // Tools the registration leaves under Copilot's name.
    read_bash: { tool: 'BashOutput' },
    list_bash: { tool: 'BashOutput' },
    stop_bash: { tool: 'KillShell' },
    write_agent: { tool: 'SendMessage' },
    read_agent: { tool: 'TaskOutput' },
    list_agents: { tool: 'TaskList' },
    skill: { tool: 'Skill' },
  },
  callIds: ['tool_use_id'],
  resultField: 'tool_result',
  // Copilot names an MCP tool `<server>-<tool>`; its own tools have no `-` in their names. The server
  // is read as the part before the first `-`, so a server whose name has one must be renamed in
  // Copilot's MCP configuration for the policy's `mcp__server__tool` names to match.
  mcpName: (name) => {
    const dash = name.indexOf('-');
    return dash > 0 && dash < name.length - 1 ? `mcp__${name.slice(0, dash)}__${name.slice(dash + 1)}` : null;
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Copilot's input fields, and the Claude Code field each one is, per tool (Claude or Copilot name). */
const FIELDS: Record<string, Record<string, string>> = {
  Read: { path: 'file_path' },
  view: { path: 'file_path' },
  Write: { path: 'file_path', file_text: 'content' },
  create: { path: 'file_path', file_text: 'content' },
  Edit: { path: 'file_path', old_str: 'old_string', new_str: 'new_string' },
  edit: { path: 'file_path', old_str: 'old_string', new_str: 'new_string' },
  Grep: { paths: 'path' },
  grep: { paths: 'path' },
  rg: { paths: 'path' },
  Glob: { paths: 'path' },
  glob: { paths: 'path' },
  Agent: { agent_type: 'subagent_type' },
  task: { agent_type: 'subagent_type' },
};

/**
 * The event with Claude Code's input fields beside Copilot's. The field Copilot acts on wins over a
 * Claude-named one the model may have added (a `create` writes `path`, whatever `file_path` says).
 */
function claudeFields(value: Record<string, unknown>): Record<string, unknown> {
  const event: Record<string, unknown> = { ...value };
  // A subagent's events carry its own id as session_id and its parent's as parent_agent_id: the
  // subagent shares its parent's session (identity, persona, stage).
  if (typeof value.parent_agent_id === 'string' && value.parent_agent_id !== '') event.session_id = value.parent_agent_id;
  const name = value.tool_name;
  if (typeof name !== 'string') return event;
  // apply_patch: the tool input is the patch text itself.
  if (typeof value.tool_input === 'string' && (name === 'Edit' || name === 'apply_patch')) {
    event.tool_name = 'apply_patch';
    event.tool_input = { input: value.tool_input };
    return event;
  }
  const fields = Object.prototype.hasOwnProperty.call(FIELDS, name) ? FIELDS[name]! : null;
  if (fields === null || !isPlainObject(value.tool_input)) return event;
  const input: Record<string, unknown> = { ...value.tool_input };
  for (const [from, to] of Object.entries(fields)) if (input[from] !== undefined) input[to] = input[from];
  event.tool_input = input;
  return event;
}

/** An MCP tool's result as Claude Code gives it (content blocks), so that a label path such as `0.text` reads the same. */
function mcpBlocks(parsed: EventParse): EventParse {
  if (!parsed.ok || parsed.event.hook_event_name !== 'PostToolUse' || !parsed.event.tool_name.startsWith('mcp__')) return parsed;
  const result = parsed.event.tool_response;
  if (isPlainObject(result) && typeof result.text_result_for_llm === 'string') parsed.event.tool_response = [{ type: 'text', text: result.text_result_for_llm }];
  return parsed;
}

/**
 * GitHub Copilot CLI: Claude Code's event names (no call id), its JSON deny. Exit 2 blocks too but
 * shows the model only the exit code, so even an unreadable event is answered with the JSON deny.
 */
export const copilot: HostAdapter = {
  name: 'copilot',
  title: 'Copilot',
  asks: false,
  readEvent: (json) => mcpBlocks(readHostEvent(isPlainObject(json) ? claudeFields(json) : json, SHAPE)),
  answer: claudeDenyOnly,
  blockUnread: (reason) => preToolUseResponse('deny', reason),
};
