import { isPlainObject, parseEvent, type EventParse, type ToolEvent } from '../core/event';

/** How one of a host's own tools reads as a Claude Code tool. */
export interface ToolMapping {
  /** The Claude Code tool it is (Bash, Read, Write, Edit, …). */
  tool: string;
  /**
   * The host's input fields that are Claude Code's under another name (host field → Claude Code
   * field). The field the host acts on wins over a Claude-named one the model may have added.
   */
  fields?: Readonly<Record<string, string>>;
  /** The input field that holds a patch (the paths it writes are read out of it). */
  patch?: string;
  /**
   * A shell tool's input field naming the directory the command runs in: the command is read as
   * `cd DIR && COMMAND`, so that its relative paths are checked from there (gate 0) too.
   */
  directory?: string;
  /** Whether a shell tool's input starts the command in the background (read as Claude Code's `run_in_background`). */
  background?: (input: Record<string, unknown>) => boolean;
}

export interface HostEventShape {
  /** The host's event names → the internal ones; any other name is an event this host does not send. */
  events: Record<string, 'PreToolUse' | 'PostToolUse' | 'SessionStart'>;
  /** The host's own tools → Claude Code's. Tools not listed keep their name (MCP tools, and tools a policy names itself). */
  tools: Record<string, ToolMapping>;
  /** Fields that carry the call id, first present wins. */
  callIds: readonly string[];
  /** The field of a post-tool event that carries the tool's result, when it is not `tool_response`. */
  resultField?: string;
  /**
   * An MCP tool's result (post-tool) as Claude Code hands it over, its content blocks, so that one
   * label path (`0.text`) reads the same on every host; null to keep it as it came.
   */
  mcpResult?: (response: unknown) => unknown[] | null;
  /** The host's MCP tool name → `mcp__server__tool`, or null when the name is not an MCP tool's. */
  mcpName?: (toolName: string, event: Record<string, unknown>) => string | null;
}

/** The file a file-writing tool names, under whichever field this host uses for it. */
const PATH_FIELDS = ['file_path', 'path', 'absolute_path', 'filePath', 'filename', 'target_file'] as const;

export function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Whitespace around an apply_patch marker line. Codex's parser (also in Copilot) trims each hunk
 * header with Rust's `trim`, whose whitespace includes U+0085 (NEXT LINE), which JavaScript's `\s` does not.
 */
const MARKER_PADDING = /^[\s\u0085]+|[\s\u0085]+$/g;

/** Paths a patch writes, in the apply_patch envelope (`*** Update File: p`) or a unified diff (`+++ b/p`). */
export function patchPaths(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    // A header indented or padded is still a header to the host (` *** Add File: p` after an added file).
    const marker = line.replace(MARKER_PADDING, '');
    let m = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(marker) ?? /^\*\*\* Move to: (.+)$/.exec(marker);
    if (m) {
      paths.push(m[1]!.trim());
      continue;
    }
    m = /^(?:\+\+\+|---) (.+?)(?:\t.*)?$/.exec(line);
    if (m) {
      const p = m[1]!.trim();
      if (p === '/dev/null') continue;
      paths.push(/^[ab]\//.test(p) ? p.slice(2) : p);
    }
  }
  return [...new Set(paths)];
}

/** The tool input in Claude Code's field names for the tools persona-gate reads the input of. */
function claudeInput(mapping: ToolMapping, input: Record<string, unknown>): { input: Record<string, unknown>; written?: string[] } {
  const next: Record<string, unknown> = { ...input };
  for (const [from, to] of Object.entries(mapping.fields ?? {})) if (input[from] !== undefined) next[to] = input[from];
  if (mapping.tool === 'Bash' || mapping.tool === 'PowerShell') {
    const command = input.command ?? input.cmd;
    // An argument vector (some hosts pass one) is read as the command line a shell would be given.
    next.command = Array.isArray(command) && command.every((w) => typeof w === 'string') ? command.map(quoteWord).join(' ') : command;
    const directory = mapping.directory !== undefined ? input[mapping.directory] : undefined;
    if (typeof directory === 'string' && directory.trim() !== '' && typeof next.command === 'string')
      next.command = `cd ${quoteWord(directory)} && ${next.command}`;
    if (mapping.background?.(input) === true) next.run_in_background = true;
  }
  if (mapping.patch !== undefined) {
    const text = input[mapping.patch];
    return { input: next, written: typeof text === 'string' ? patchPaths(text) : [] };
  }
  if (['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(mapping.tool) && typeof next.file_path !== 'string') {
    const field = PATH_FIELDS.find((f) => typeof next[f] === 'string');
    if (field !== undefined) next.file_path = next[field];
  }
  return { input: next };
}

/**
 * Reads a host's event into the internal one: the event's name, the tool's name and input, the
 * call id and the tool's result in Claude Code's terms, then the same checks as a Claude Code event.
 */
export function readHostEvent(value: unknown, shape: HostEventShape): EventParse {
  if (!isPlainObject(value)) return parseEvent(value);
  const hostEvent = value.hook_event_name;
  if (typeof hostEvent !== 'string') return { ok: false, detail: 'hook_event_name is missing or not a string', hookEventName: null };
  // Another host's event name (a Claude Code PreToolUse sent to Gemini's adapter) is not this host's event.
  if (!Object.prototype.hasOwnProperty.call(shape.events, hostEvent)) {
    return { ok: false, detail: `unsupported hook_event_name ${JSON.stringify(hostEvent).slice(0, 80)}`, hookEventName: null };
  }
  const claude: Record<string, unknown> = { ...value, hook_event_name: shape.events[hostEvent] };
  delete claude.tool_use_id;
  for (const field of shape.callIds) {
    if (value[field] !== undefined && value[field] !== null) {
      claude.tool_use_id = value[field];
      break;
    }
  }
  if (shape.resultField !== undefined && shape.resultField in value) claude.tool_response = value[shape.resultField];
  const parsed = parseEvent(claude);
  if (!parsed.ok || parsed.event.hook_event_name === 'SessionStart') return parsed;
  const event: ToolEvent = parsed.event;
  const hostTool = event.tool_name;
  const mcp = shape.mcpName?.(hostTool, value) ?? null;
  const mapping = Object.prototype.hasOwnProperty.call(shape.tools, hostTool) ? shape.tools[hostTool]! : null;
  if (mcp !== null) event.tool_name = mcp;
  else if (mapping !== null) {
    const read = claudeInput(mapping, event.tool_input);
    event.tool_name = mapping.tool;
    event.tool_input = read.input;
    if (read.written !== undefined) event.written_paths = read.written;
  }
  if (event.tool_name !== hostTool) event.host_tool_name = hostTool;
  if (event.hook_event_name === 'PostToolUse' && event.tool_name.startsWith('mcp__') && shape.mcpResult !== undefined) {
    const blocks = shape.mcpResult(event.tool_response);
    if (blocks !== null) event.tool_response = blocks;
  }
  return { ok: true, event };
}
