import { parseEvent } from '../core/event';
import { blockingError, preToolUseResponse } from '../hook/output';
import type { HostAdapter } from './host';

/** Claude Code: the internal event is its event; every verdict, `ask` included, is its hook JSON. */
export const claudeCode: HostAdapter = {
  name: 'claude-code',
  title: 'Claude Code',
  asks: true,
  readEvent: parseEvent,
  answer: preToolUseResponse,
  blockUnread: blockingError,
};
