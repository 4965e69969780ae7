import { isPlainObject } from '../core/event';
import type { Verdict } from '../core/types';
import { SILENT, type HookResponse } from '../hook/output';
import { GEMINI_FAMILY_TOOLS } from './gemini-tools';
import { readHostEvent, type HostEventShape, type ToolMapping } from './translate';
import type { HostAdapter } from './host';

/**
 * Gemini CLI (measured on 0.61.0). Its hook events are BeforeTool / AfterTool / SessionStart with
 * Claude Code's field names and no call id; an MCP tool's event carries `mcp_context`
 * (`server_name`, `tool_name`, and the server's command, args, cwd or url).
 */

/**
 * Gemini names an MCP tool `mcp_<server>_<tool>`, with every character outside `[A-Za-z0-9_.:-]`
 * made `_`, no second `mcp_` when the server's name starts with one, and a name over 63 characters
 * cut to its first and last 30 around `...`. The name alone is ambiguous (server `a_b` tool `c` and
 * server `a` tool `b_c` are both `mcp_a_b_c`), so the server and tool come from `mcp_context`.
 */
function geminiMcpName(toolName: string, event: Record<string, unknown>): string | null {
  const context = event.mcp_context;
  if (!isPlainObject(context)) return null;
  const server = typeof context.server_name === 'string' ? context.server_name : null;
  if (server === null || server === '') return null;
  let tool = typeof context.tool_name === 'string' && context.tool_name !== '' ? context.tool_name : null;
  if (tool === null) {
    const prefix = `mcp_${server}_`;
    tool = toolName.startsWith(prefix) ? toolName.slice(prefix.length) : toolName;
  }
  return `mcp__${server}__${tool}`;
}

/** Gemini CLI's own tools beyond those it shares with Qwen Code, as Claude Code's. */
const GEMINI_TOOLS: Record<string, ToolMapping> = {
  ...GEMINI_FAMILY_TOOLS,
  // {agent_name, prompt}: the agent Gemini runs is Claude Code's subagent_type, whatever
  // subagent_type the model may have added beside it.
  invoke_agent: { tool: 'Task', fields: { agent_name: 'subagent_type' } },
  // A subagent handing its result back to its parent.
  complete_task: { tool: 'SendMessage' },
  list_background_processes: { tool: 'BashOutput' },
  read_background_output: { tool: 'BashOutput' },
  // Planning state kept by the host, no files: Claude Code's session tools.
  update_topic: { tool: 'TodoWrite' },
  enter_plan_mode: { tool: 'ExitPlanMode' },
  activate_skill: { tool: 'Skill' },
  ask_user: { tool: 'AskUserQuestion' },
  tracker_create_task: { tool: 'TaskCreate' },
  tracker_update_task: { tool: 'TaskUpdate' },
  tracker_add_dependency: { tool: 'TaskUpdate' },
  tracker_get_task: { tool: 'TaskGet' },
  tracker_list_tasks: { tool: 'TaskList' },
  tracker_visualize: { tool: 'TaskList' },
  // Reads the documentation bundled with the CLI.
  get_internal_docs: { tool: 'Read' },
};

const UNTRUSTED = /^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/;

/** Gemini fences a tool's text as `<untrusted_context>…</untrusted_context>`; the text inside. */
function unfenced(text: string): string {
  const m = UNTRUSTED.exec(text);
  return m ? m[1]!.replaceAll('&lt;/untrusted_context&gt;', '</untrusted_context>') : text;
}

/**
 * An MCP tool's result as Claude Code hands it to PostToolUse: its content blocks. Gemini's
 * `tool_response.llmContent` holds the blocks as Gemini parts (`{text}`), each text fenced.
 */
function mcpContent(response: unknown): unknown[] | null {
  if (!isPlainObject(response)) return null;
  const content = response.llmContent;
  if (typeof content === 'string') return [{ type: 'text', text: unfenced(content) }];
  if (!Array.isArray(content)) return null;
  return content.map((part) => (isPlainObject(part) && typeof part.text === 'string' ? { type: 'text', text: unfenced(part.text) } : part));
}

export const SHAPE: HostEventShape = {
  events: { BeforeTool: 'PreToolUse', AfterTool: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: GEMINI_TOOLS,
  callIds: [],
  mcpName: geminiMcpName,
  mcpResult: mcpContent,
};

/**
 * Gemini reads only its own top-level `decision` (Claude Code's JSON is ignored at any exit code,
 * and an exit 2 with nothing on stderr lets the tool run), so every deny is this form, exit 0.
 * The model is shown `Tool execution blocked: <reason>`.
 */
function geminiDeny(reason: string): HookResponse {
  return { stdout: `${JSON.stringify({ decision: 'deny', reason })}\n`, stderr: '', exitCode: 0 };
}

export const gemini: HostAdapter = {
  name: 'gemini',
  title: 'Gemini CLI',
  // A headless `ask` waits for a person who is not there: the session hangs.
  asks: false,
  readEvent: (json) => readHostEvent(json, SHAPE),
  // Anything but a pass is a deny: an `ask` here would otherwise be let through.
  answer: (verdict: Verdict, reason: string) => (verdict === 'allow' || verdict === 'abstain' ? SILENT : geminiDeny(reason)),
  blockUnread: geminiDeny,
};
