import type { Gate } from '../types';

/** Gate 4: a command with an owner may be run by that persona only. */
export const handoffGate: Gate = {
  name: 'handoff',
  check({ persona, personaName, subject, messages }) {
    if (!persona || personaName === null) return { note: messages.noteNoPersona() };
    if (subject.owner === null) return { note: messages.noteNoOwner(subject.key) };
    if (subject.owner === personaName) return { note: messages.noteOwns(personaName, subject.key) };
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
