import { isStateChanging } from '../levels';
import type { Gate } from '../types';

/** Gate 6 (SPEC §6): no state-changing call until an identity read has run this session. */
export const identityGate: Gate = {
  name: 'identity',
  check({ index, subject, state, messages }) {
    const identity = index.settings.identity;
    if (!identity) return { note: messages.noteNoIdentity() };
    if (identity.switches.includes(subject.key)) return { note: messages.noteSwitch(subject.key) };
    if (identity.reads.includes(subject.key)) return { note: messages.noteRead(subject.key) };
    if (subject.level !== null && !isStateChanging(subject.level)) return { note: messages.noteNoStateChange(subject.level) };
    if (state.confirmed) return { note: messages.noteConfirmed() };
    return {
      ruling: { verdict: 'deny', status: 'identity_required', gate: 'identity', rule: 'first_mutation', reason: messages.identityRequired() },
    };
  },
};
