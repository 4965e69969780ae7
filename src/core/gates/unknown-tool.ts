import type { Gate } from '../types';

/** Gate 8: in an unscoped session a tool the catalog cannot resolve gets `defaults.unknown_tools`. */
export const unknownToolGate: Gate = {
  name: 'unknown_tool',
  check({ subject, index, messages, personaName }) {
    if (subject.family !== null) return { note: messages.noteResolved() };
    if (personaName !== null) return { note: messages.noteRefusedEarlier() };
    const verdict = index.settings.defaults.unknown_tools;
    return {
      ruling: {
        verdict,
        status: 'unknown_tool',
        gate: 'unknown_tool',
        rule: `unknown_tools:${verdict}`,
        reason: messages.unknownTool(subject.key),
      },
    };
  },
};
