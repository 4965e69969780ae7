import { isStateChanging } from '../levels';
import type { Gate } from '../types';

/** Gate 6 (SPEC §6): no state-changing call until an identity read has run this session. */
export const identityGate: Gate = {
  name: 'identity',
  check({ index, subject, state, messages }) {
    const identity = index.settings.identity;
    if (!identity) return { note: 'the policy has no identity section' };
    if (identity.switches.includes(subject.key)) return { note: `${subject.key} switches profile: re-arms the gate once let through` };
    if (identity.reads.includes(subject.key)) return { note: `${subject.key} is an identity read: confirms the session once it has run` };
    if (subject.level !== null && !isStateChanging(subject.level)) return { note: `level ${subject.level} changes no state` };
    if (state.confirmed) return { note: 'identity confirmed for this session' };
    return {
      ruling: { verdict: 'deny', status: 'identity_required', gate: 'identity', rule: 'first_mutation', reason: messages.identityRequired() },
    };
  },
};
