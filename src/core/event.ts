/** The hook events persona-gate reads, as Claude Code sends them. Extra fields are kept, never refused. */
export interface ToolEvent {
  hook_event_name: 'PreToolUse' | 'PostToolUse';
  session_id: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id?: string;
  tool_response?: unknown;
  agent_id?: string;
  agent_type?: string;
  cwd?: string;
  /** The tool's name as the host sent it, when it was read as a Claude Code tool of another name. */
  host_tool_name?: string;
  /** The files a patch-applying tool writes, read out of its patch (empty: none could be read). */
  written_paths?: string[];
  /**
   * Where the host gives no call id: the call's tool and input, hashed, so that a post-tool event
   * can be matched to the pre-tool call it follows (SPEC §10).
   */
  call_signature?: string;
}

export interface SessionStartEvent {
  hook_event_name: 'SessionStart';
  session_id: string;
  source?: string;
  cwd?: string;
}

export type HookEvent = ToolEvent | SessionStartEvent;

export type EventParse = { ok: true; event: HookEvent } | { ok: false; detail: string; hookEventName: string | null };

const MAX_SESSION_ID = 4096;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(
  obj: Record<string, unknown>,
  field: string,
): { ok: true; value: string | undefined } | { ok: false; detail: string } {
  const value = obj[field];
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== 'string') return { ok: false, detail: `${field} must be a string` };
  return { ok: true, value };
}

export function parseEvent(value: unknown): EventParse {
  if (!isPlainObject(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
    return { ok: false, detail: `expected a JSON object, got ${kind}`, hookEventName: null };
  }
  const name = value.hook_event_name;
  if (typeof name !== 'string') {
    return { ok: false, detail: 'hook_event_name is missing or not a string', hookEventName: null };
  }
  if (name !== 'PreToolUse' && name !== 'PostToolUse' && name !== 'SessionStart') {
    return { ok: false, detail: `unsupported hook_event_name ${JSON.stringify(name).slice(0, 80)}`, hookEventName: null };
  }
  const fail = (detail: string): EventParse => ({ ok: false, detail, hookEventName: name });
  const sessionId = value.session_id;
  if (typeof sessionId !== 'string' || sessionId.length === 0) {
    return fail('session_id is missing or not a non-empty string');
  }
  if (sessionId.length > MAX_SESSION_ID) return fail(`session_id is longer than ${MAX_SESSION_ID} characters`);
  const cwd = optionalString(value, 'cwd');
  if (!cwd.ok) return fail(cwd.detail);
  if (name === 'SessionStart') {
    const source = optionalString(value, 'source');
    if (!source.ok) return fail(source.detail);
    return { ok: true, event: { hook_event_name: name, session_id: sessionId, source: source.value, cwd: cwd.value } };
  }
  const toolName = value.tool_name;
  if (typeof toolName !== 'string' || toolName.length === 0) {
    return fail('tool_name is missing or not a non-empty string');
  }
  const toolInput = value.tool_input;
  if (!isPlainObject(toolInput)) return fail('tool_input is missing or not an object');
  const event: ToolEvent = {
    hook_event_name: name,
    session_id: sessionId,
    tool_name: toolName,
    tool_input: toolInput,
    cwd: cwd.value,
  };
  for (const field of ['tool_use_id', 'agent_id', 'agent_type'] as const) {
    const parsed = optionalString(value, field);
    if (!parsed.ok) return fail(parsed.detail);
    if (parsed.value !== undefined) event[field] = parsed.value;
  }
  if ('tool_response' in value) event.tool_response = value.tool_response;
  return { ok: true, event };
}

/** Prefix of the pending-read keys made from a call's signature rather than a host's call id. */
export const SIGNATURE_KEY = 'sig:';

/** The key a call's identity read is pending under: the host's call id, else the call's signature. */
export function callKey(event: ToolEvent): string | undefined {
  if (event.tool_use_id !== undefined) return event.tool_use_id;
  return event.call_signature !== undefined ? `${SIGNATURE_KEY}${event.call_signature}` : undefined;
}
