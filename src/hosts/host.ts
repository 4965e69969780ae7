import type { EventParse } from '../core/event';
import type { Verdict } from '../core/types';
import type { HookResponse } from '../hook/output';

export const HOST_NAMES = ['claude-code', 'codex', 'copilot', 'gemini', 'qwen', 'droid'] as const;
export type HostName = (typeof HOST_NAMES)[number];

export function isHostName(value: unknown): value is HostName {
  return typeof value === 'string' && (HOST_NAMES as readonly string[]).includes(value);
}

/**
 * What differs between agent hosts on the hook's path (SPEC §10): how the host's event is read into
 * the internal one (Claude Code's event names, tool names, input fields and MCP naming), and how a
 * verdict is written so that this host honours it. Everything between is host-neutral.
 */
export interface HostAdapter {
  readonly name: HostName;
  /** The name people know it by, for messages. */
  readonly title: string;
  /** Whether the host honours `ask`. Where it does not, `ask` is answered as a deny saying a person must approve. */
  readonly asks: boolean;
  /** Whether the event's cwd is one the model chose (then the policy is looked for from the hook's own directory, the session's). */
  readonly cwdFromModel?: boolean;
  /** Whether a running command can be given input later with no hook event (a program reading code from stdin is then refused). */
  readonly unseenStdin?: boolean;
  /** The host's event, read into the internal form. */
  readEvent(json: unknown): EventParse;
  /** The answer to a pre-tool call. `ask` arrives only where `asks` is true. */
  answer(verdict: Verdict, reason: string): HookResponse;
  /** A refusal when the event could not be read (or is not known to be a pre-tool call): the form that blocks on this host whatever the event was. */
  blockUnread(reason: string): HookResponse;
}
