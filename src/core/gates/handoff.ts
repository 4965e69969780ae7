import type { Gate } from '../types';

/** Gate 4: a command with an owner may be run by that persona only. */
export const handoffGate: Gate = {
  name: 'handoff',
  check({ persona, personaName, subject, messages }) {
    if (!persona || personaName === null) return { note: 'no persona' };
    if (subject.owner === null) return { note: `${subject.key} has no owner` };
    if (subject.owner === personaName) return { note: `${personaName} owns ${subject.key}` };
    return {
      ruling: {
        verdict: 'deny',
        status: 'handoff_denied',
        gate: 'handoff',
        rule: 'owner',
        reason: messages.handoff(personaName, subject.key, subject.owner),
      },
    };
  },
};
