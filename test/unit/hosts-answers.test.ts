import { describe, expect, it } from 'vitest';
import { HOST_ADAPTERS } from '../../src/hosts';
import type { HostName } from '../../src/hosts/host';

/**
 * What each host is answered, byte for byte: a deny, an event the hook could not read, and silence
 * for allow and abstain (the host's own rules still decide). None of these hosts can ask a person:
 * the hook turns an ask into a deny saying one must approve.
 */
const SILENT = { stdout: '', stderr: '', exitCode: 0 };
const claudeJsonDeny = (reason: string) => ({
  stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"${reason}"}}\n`,
  stderr: '',
  exitCode: 0,
});
const geminiDeny = (reason: string) => ({ stdout: `{"decision":"deny","reason":"${reason}"}\n`, stderr: '', exitCode: 0 });
const exitTwo = (reason: string) => ({ stdout: '', stderr: `${reason}\n`, exitCode: 2 });

const FORMS: { host: HostName; deny: (reason: string) => object; unread: (reason: string) => object; why: string }[] = [
  {
    host: 'codex',
    deny: claudeJsonDeny,
    unread: exitTwo,
    why: 'Codex blocks on the JSON deny and shows the reason; JSON with exit 2 does not block in Codex',
  },
  {
    host: 'copilot',
    deny: claudeJsonDeny,
    unread: claudeJsonDeny,
    why: 'Copilot shows the model the reason; exit 2 would show it only the exit code',
  },
  {
    host: 'droid',
    deny: claudeJsonDeny,
    unread: exitTwo,
    why: 'Droid shows the model "Error: <reason>"; on exit 2 it blocks and shows the reason',
  },
  { host: 'gemini', deny: geminiDeny, unread: geminiDeny, why: 'Gemini reads a top-level decision' },
  {
    host: 'qwen',
    deny: claudeJsonDeny,
    unread: exitTwo,
    why: 'Qwen Code shows the model the reason alone; an exit 2 with an empty stderr would let the call run',
  },
];

describe('each host is answered in the form it honours', () => {
  it.each(FORMS)('$host: $why', ({ host, deny, unread }) => {
    const adapter = HOST_ADAPTERS[host];
    expect(adapter.answer('deny', 'persona-gate: no.')).toEqual(deny('persona-gate: no.'));
    expect(adapter.blockUnread('persona-gate: the event could not be read.')).toEqual(unread('persona-gate: the event could not be read.'));
    for (const verdict of ['allow', 'abstain'] as const) expect(adapter.answer(verdict, 'fine')).toEqual(SILENT);
    expect(adapter.asks).toBe(false);
  });
});
