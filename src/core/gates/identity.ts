import { isStateChanging } from '../levels';
import type { Gate } from '../types';

/** Gate 6 (SPEC §6): no state-changing call until an identity read has run this session. */
export const identityGate: Gate = {
  name: 'identity',
  check({ index, event, subject, state, messages }) {
    const identity = index.settings.identity;
    if (!identity) return { note: messages.noteNoIdentity() };
    if (identity.switches.includes(subject.key)) {
      // The gate re-arms when a switch is let through; one run in the background switches later, after
      // a read that would have confirmed the profile it leaves.
      if (event.tool_input.run_in_background === true) {
        return { ruling: { verdict: 'deny', status: 'identity_required', gate: 'identity', rule: 'background_switch', reason: messages.backgroundSwitch(subject.key) } };
      }
      return { note: messages.noteSwitch(subject.key) };
    }
    if (identity.reads.includes(subject.key)) return { note: messages.noteRead(subject.key) };
    if (subject.level !== null && !isStateChanging(subject.level)) return { note: messages.noteNoStateChange(subject.level) };
    if (state.confirmed) return { note: messages.noteConfirmed() };
    return {
      ruling: { verdict: 'deny', status: 'identity_required', gate: 'identity', rule: 'first_mutation', reason: messages.identityRequired() },
    };
  },
};
