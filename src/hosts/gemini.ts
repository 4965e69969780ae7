import type { Verdict } from '../core/types';
import { SILENT, type HookResponse } from '../hook/output';
import { GEMINI_FAMILY_TOOLS } from './gemini-tools';
import { readHostEvent, type HostEventShape } from './translate';
import type { HostAdapter } from './host';

/** Gemini names an MCP tool `mcp_<server>_<tool>`; the server comes from `mcp_context`, since a server name may hold `_`. */
function geminiMcpName(toolName: string, event: Record<string, unknown>): string | null {
  const context = event.mcp_context;
  if (typeof context !== 'object' || context === null) return null;
  const ctx = context as Record<string, unknown>;
  const server = typeof ctx.server_name === 'string' ? ctx.server_name : null;
  if (server === null || server === '') return null;
  let tool = typeof ctx.tool_name === 'string' && ctx.tool_name !== '' ? ctx.tool_name : null;
  if (tool === null) {
    const prefix = `mcp_${server}_`;
    tool = toolName.startsWith(prefix) ? toolName.slice(prefix.length) : toolName;
  }
  return `mcp__${server}__${tool}`;
}

const SHAPE: HostEventShape = {
  events: { BeforeTool: 'PreToolUse', AfterTool: 'PostToolUse', SessionStart: 'SessionStart' },
  tools: GEMINI_FAMILY_TOOLS,
  callIds: [],
  mcpName: geminiMcpName,
};

/** Gemini ignores Claude Code's JSON at any exit code: its own top-level decision, for every deny. */
function geminiDeny(reason: string): HookResponse {
  return { stdout: `${JSON.stringify({ decision: 'deny', reason })}\n`, stderr: '', exitCode: 0 };
}

export const gemini: HostAdapter = {
  name: 'gemini',
  title: 'Gemini CLI',
  asks: false,
  readEvent: (json) => readHostEvent(json, SHAPE),
  answer: (verdict: Verdict, reason: string) => (verdict === 'deny' ? geminiDeny(reason) : SILENT),
  blockUnread: geminiDeny,
};
