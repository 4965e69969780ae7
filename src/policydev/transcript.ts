/**
 * Claude Code session transcripts (the JSONL files under ~/.claude/projects/…) read into the tool
 * calls they record: assistant `tool_use` blocks, the `tool_result`s that answer them, and the
 * subagent sidechains with their agent type. Pure: text in, calls out. A line this reader does not
 * understand is counted and skipped, never fatal.
 */

export interface TranscriptCall {
  tool_use_id: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  session_id: string;
  cwd?: string;
  agent_id?: string;
  /** Time of the assistant line, in ms since the epoch (carried forward from the line before when missing). */
  at: number;
  ts: string | null;
  /** Order of discovery, across files. */
  order: number;
  source: string;
  line: number;
}

export interface TranscriptResult {
  tool_use_id: string;
  is_error: boolean;
  /** What the host hands PostToolUse as tool_response: the line's toolUseResult, else the block's content. */
  response: unknown;
  at: number;
  order: number;
}

/** Why a line was skipped. */
export type SkipReason = 'not_json' | 'not_object' | 'no_type' | 'bad_message' | 'bad_tool_use' | 'bad_tool_result';

export interface TranscriptScan {
  calls: TranscriptCall[];
  results: Map<string, TranscriptResult>;
  /** Subagent id → the tool_use_id of the Agent call that launched it (from the launch's result). */
  launches: Map<string, string>;
  /** Subagent id → its agent type, from the sidechain's `.meta.json` (given by the caller). */
  agentTypes: Map<string, string>;
  lines: number;
  /** Readable lines that record no tool call or result (prompts, text, attachments, bookkeeping). */
  other: number;
  skipped: Record<SkipReason, number>;
  files: number;
  duplicates: number;
  /** The next discovery order. */
  seq: number;
  callIds: Set<string>;
}

export function emptyScan(): TranscriptScan {
  return {
    calls: [],
    results: new Map(),
    launches: new Map(),
    agentTypes: new Map(),
    lines: 0,
    other: 0,
    skipped: { not_json: 0, not_object: 0, no_type: 0, bad_message: 0, bad_tool_use: 0, bad_tool_result: 0 },
    files: 0,
    duplicates: 0,
    seq: 0,
    callIds: new Set(),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads one transcript file's text into the scan. */
export function scanTranscript(scan: TranscriptScan, text: string, source: string): void {
  scan.files += 1;
  const callIds = scan.callIds;
  let at = 0;
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    lineNo += 1;
    if (raw.trim() === '') continue;
    scan.lines += 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      scan.skipped.not_json += 1;
      continue;
    }
    if (!isObject(value)) {
      scan.skipped.not_object += 1;
      continue;
    }
    const ts = str(value.timestamp) ?? null;
    const parsedAt = ts !== null ? Date.parse(ts) : NaN;
    if (Number.isFinite(parsedAt)) at = parsedAt;
    const type = value.type;
    if (typeof type !== 'string') {
      scan.skipped.no_type += 1;
      continue;
    }
    if (type !== 'assistant' && type !== 'user') {
      scan.other += 1;
      continue;
    }
    const message = value.message;
    if (!isObject(message) || (typeof message.content !== 'string' && !Array.isArray(message.content))) {
      scan.skipped.bad_message += 1;
      continue;
    }
    if (typeof message.content === 'string') {
      scan.other += 1;
      continue;
    }
    const sessionId = str(value.sessionId) ?? str(value.session_id);
    let recorded = false;
    let bad: SkipReason | null = null;
    for (const block of message.content) {
      if (!isObject(block)) continue;
      if (type === 'assistant' && block.type === 'tool_use') {
        const id = str(block.id);
        const name = str(block.name);
        if (id === undefined || name === undefined || !isObject(block.input) || sessionId === undefined) {
          bad = 'bad_tool_use';
          continue;
        }
        recorded = true;
        if (callIds.has(id)) {
          scan.duplicates += 1;
          continue;
        }
        callIds.add(id);
        const agentId = value.isSidechain === true ? str(value.agentId) : undefined;
        scan.calls.push({
          tool_use_id: id,
          tool_name: name,
          tool_input: block.input,
          session_id: sessionId,
          ...(str(value.cwd) !== undefined ? { cwd: str(value.cwd) } : {}),
          ...(agentId !== undefined ? { agent_id: agentId } : {}),
          at,
          ts,
          order: scan.seq++,
          source,
          line: lineNo,
        });
      } else if (type === 'user' && block.type === 'tool_result') {
        const id = str(block.tool_use_id);
        if (id === undefined) {
          bad = 'bad_tool_result';
          continue;
        }
        recorded = true;
        if (scan.results.has(id)) {
          scan.duplicates += 1;
          continue;
        }
        // Only a line answering one call carries that call's toolUseResult.
        const single = message.content.filter((b) => isObject(b) && b.type === 'tool_result').length === 1;
        const response = single && 'toolUseResult' in value ? value.toolUseResult : block.content;
        scan.results.set(id, { tool_use_id: id, is_error: block.is_error === true, response, at, order: scan.seq++ });
        const launched = single && isObject(value.toolUseResult) ? str(value.toolUseResult.agentId) : undefined;
        if (launched !== undefined) scan.launches.set(launched, id);
      }
    }
    if (!recorded && bad !== null) scan.skipped[bad] += 1;
    else if (!recorded) scan.other += 1;
  }
}

/** A sidechain's `.meta.json` (`{"agentType": …}`): its agent type, or undefined. */
export function agentTypeOfMeta(text: string): string | undefined {
  try {
    const meta: unknown = JSON.parse(text);
    return isObject(meta) ? str(meta.agentType) : undefined;
  } catch {
    return undefined;
  }
}

export type ReplayStep =
  | { kind: 'pre'; call: TranscriptCall; agent_type?: string }
  | { kind: 'post'; call: TranscriptCall; agent_type?: string; result: TranscriptResult };

/**
 * The calls in the order the hook saw them: each PreToolUse at its assistant line's time, each
 * PostToolUse at its result's time (after its own PreToolUse). Only a result that is not an error
 * makes a PostToolUse, as with the host: a refused or failed call did not run to completion.
 */
export function replaySteps(scan: TranscriptScan): ReplayStep[] {
  const launchedType = new Map<string, string>();
  const byId = new Map(scan.calls.map((c) => [c.tool_use_id, c]));
  for (const [agentId, toolUseId] of scan.launches) {
    const launch = byId.get(toolUseId);
    const type = launch ? str(launch.tool_input.subagent_type) : undefined;
    if (type !== undefined) launchedType.set(agentId, type);
  }
  const agentTypeOf = (c: TranscriptCall) =>
    c.agent_id !== undefined ? (scan.agentTypes.get(c.agent_id) ?? launchedType.get(c.agent_id)) : undefined;
  const keyed: { at: number; order: number; step: ReplayStep }[] = [];
  for (const call of scan.calls) {
    const agentType = agentTypeOf(call);
    const extra = agentType !== undefined ? { agent_type: agentType } : {};
    keyed.push({ at: call.at, order: call.order, step: { kind: 'pre', call, ...extra } });
    const result = scan.results.get(call.tool_use_id);
    if (result && !result.is_error) {
      keyed.push({
        at: Math.max(result.at, call.at),
        order: Math.max(result.order, call.order + 0.5),
        step: { kind: 'post', call, result, ...extra },
      });
    }
  }
  return keyed.sort((a, b) => a.at - b.at || a.order - b.order).map((k) => k.step);
}
