import type { SessionStartEvent, ToolEvent } from './event';
import type { PolicyIndex } from './policy-index';
import { resolveTool } from './resolve';
import { callKey } from './event';
import type { StateOp } from './state';
import type { Env, ShellResolver } from './decide';
import { profileFingerprint } from './gates/identity';
import type { ProfileStateReader } from './types';

const MAX_LABEL = 200;

/**
 * Follows a dot path into a tool response; numeric segments index arrays. A string met before the
 * path ends is read as JSON when it is JSON (MCP tools return their data as text blocks).
 */
export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const segment of path.split('.')) {
    if (typeof current === 'string') {
      try {
        current = JSON.parse(current);
      } catch {
        return undefined;
      }
    }
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (typeof current === 'object' && current !== null) {
      if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/** A label is shown to the human approving a call: plain text, one line, bounded. */
export function cleanLabel(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value)
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return null;
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL)}…` : text;
}

/** PostToolUse: an identity read that actually ran confirms the epoch it was let through in. */
export function decidePost(
  index: PolicyIndex,
  event: ToolEvent,
  env: Env,
  shell?: ShellResolver,
  profileState?: ProfileStateReader,
): { ops: StateOp[]; note: string } {
  const identity = index.settings.identity;
  if (!identity) return { ops: [], note: 'no identity section' };
  const subjects = [resolveTool(index, event.tool_name, event.tool_input), ...(shell?.(index, event)?.matched ?? [])];
  const read = subjects.find((s) => identity.reads.includes(s.key));
  if (!read) return { ops: [], note: `${subjects.map((s) => s.key).join(', ')}: not an identity read` };
  const id = callKey(event);
  if (id === undefined) return { ops: [], note: 'no tool_use_id: cannot match the read to its PreToolUse' };
  let label: string | null = null;
  if (identity.label?.from === 'response') label = cleanLabel(readPath(event.tool_response, identity.label.path));
  else if (identity.label?.from === 'env') label = cleanLabel(env[identity.label.name]);
  // The profile state as the read leaves it is what the session confirms (SPEC §9.4).
  const profile = identity.profile_state !== undefined ? { profile: profileFingerprint(identity, profileState) } : {};
  return { ops: [{ op: 'confirm_read', tool_use_id: id, label, ...profile }], note: `identity read ${read.key} ran` };
}

export function decideSessionStart(event: SessionStartEvent): { ops: StateOp[]; note: string } {
  if (event.source === 'clear') return { ops: [{ op: 'reset' }], note: 'session cleared: state reset' };
  return { ops: [], note: `session ${event.source ?? 'start'}: state kept` };
}
