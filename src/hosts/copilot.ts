import { isPlainObject } from '../core/event';
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
/** Copilot's input fields, and the Claude Code field each one is. */
const READ = { path: 'file_path' };
const WRITE = { path: 'file_path', file_text: 'content' };
const EDIT = { path: 'file_path', old_str: 'old_string', new_str: 'new_string' };
const SEARCH = { paths: 'path' };
const AGENT = { agent_type: 'subagent_type' };

export const SHAPE: HostEventShape = {
  events: { PreToolUse: 'PreToolUse', PostToolUse: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: {
    // The names Copilot's own tools have when a registration gets them untranslated.
    bash: { tool: 'Bash', background: (input) => input.async === true || input.mode === 'async' || input.detach === true },
    Bash: { tool: 'Bash', background: (input) => input.async === true || input.mode === 'async' || input.detach === true },
    view: { tool: 'Read', fields: READ },
    create: { tool: 'Write', fields: WRITE },
    edit: { tool: 'Edit', fields: EDIT },
    str_replace: { tool: 'Edit' },
    str_replace_editor: { tool: 'Edit' },
    apply_patch: { tool: 'Edit', patch: 'input' },
    glob: { tool: 'Glob', fields: SEARCH },
    grep: { tool: 'Grep', fields: SEARCH },
    rg: { tool: 'Grep', fields: SEARCH },
    web_fetch: { tool: 'WebFetch' },
    task: { tool: 'Agent', fields: AGENT },
    // The names the PascalCase registration gives them, with Copilot's input fields still.
    Read: { tool: 'Read', fields: READ },
    Write: { tool: 'Write', fields: WRITE },
    Edit: { tool: 'Edit', fields: EDIT },
    Grep: { tool: 'Grep', fields: SEARCH },
    Glob: { tool: 'Glob', fields: SEARCH },
    Agent: { tool: 'Agent', fields: AGENT },
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
  mcpResult: (result) =>
    isPlainObject(result) && typeof result.text_result_for_llm === 'string' ? [{ type: 'text', text: result.text_result_for_llm }] : null,
  // Copilot names an MCP tool `<server>-<tool>`; its own tools have no `-` in their names. The server
  // is read as the part before the first `-`, so a server whose name has one must be renamed in
  // Copilot's MCP configuration for the policy's `mcp__server__tool` names to match.
  mcpName: (name) => {
    const dash = name.indexOf('-');
    return dash > 0 && dash < name.length - 1 ? `mcp__${name.slice(0, dash)}__${name.slice(dash + 1)}` : null;
  },
};

/**
 * What the shared reading cannot do: a subagent's events carry its own id as session_id and its
 * parent's as parent_agent_id (the subagent shares its parent's session: identity, persona, stage);
 * apply_patch's tool_input is the patch text itself.
 */
function copilotShaped(value: Record<string, unknown>): Record<string, unknown> {
  const event: Record<string, unknown> = { ...value };
  if (typeof value.parent_agent_id === 'string' && value.parent_agent_id !== '') event.session_id = value.parent_agent_id;
  if (typeof value.tool_input === 'string' && (value.tool_name === 'Edit' || value.tool_name === 'apply_patch')) {
    event.tool_name = 'apply_patch';
    event.tool_input = { input: value.tool_input };
  }
  return event;
}

/**
 * GitHub Copilot CLI: Claude Code's event names (no call id), its JSON deny. Exit 2 blocks too but
 * shows the model only the exit code, so even an unreadable event is answered with the JSON deny.
 */
export const copilot: HostAdapter = {
  name: 'copilot',
  title: 'Copilot',
  asks: false,
  readEvent: (json) => readHostEvent(isPlainObject(json) ? copilotShaped(json) : json, SHAPE),
  answer: claudeDenyOnly,
  blockUnread: (reason) => preToolUseResponse('deny', reason),
};
