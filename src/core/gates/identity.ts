import { isStateChanging } from '../levels';
import type { Gate, ProfileStateReader } from '../types';

/** The fingerprint a confirmation records: null where the policy names no profile state or it cannot be read (a later check then fails). */
export function profileFingerprint(identity: { profile_state?: unknown }, read: ProfileStateReader | undefined): string | null {
  if (identity.profile_state === undefined || read === undefined) return null;
  const seen = read();
  return seen.ok ? seen.fingerprint : null;
}

/** How a refusal names the profile state: its file, or its command. */
export function describeProfileState(def: { file: string } | { command: string[] }): string {
  return 'file' in def ? def.file : def.command.join(' ');
}

/** Gate 6 (SPEC §6): no state-changing call until an identity read has run this session. */
export const identityGate: Gate = {
  name: 'identity',
  check({ index, event, subject, state, messages, profileNow, switchedBy }) {
    const identity = index.settings.identity;
    if (!identity) return { note: messages.noteNoIdentity() };
    if (identity.switches.includes(subject.key)) {
      // The gate re-arms when a switch is let through; one run in the background switches later, after
      // a read that would have confirmed the profile it leaves.
      if (event.tool_input.run_in_background === true) {
        return {
          ruling: {
            verdict: 'deny',
            status: 'identity_required',
            gate: 'identity',
            rule: 'background_switch',
            reason: messages.backgroundSwitch(subject.key),
          },
        };
      }
      return { note: messages.noteSwitch(subject.key) };
    }
    if (identity.reads.includes(subject.key)) return { note: messages.noteRead(subject.key) };
    if (subject.level !== null && !isStateChanging(subject.level)) return { note: messages.noteNoStateChange(subject.level) };
    // SPEC §6: a switch re-arms the gate before it runs, so what the same call changes is not confirmed
    if (switchedBy !== undefined)
      return {
        ruling: {
          verdict: 'deny',
          status: 'identity_required',
          gate: 'identity',
          rule: 'switch_in_call',
          reason: messages.switchInCall(switchedBy),
        },
      };
    if (state.confirmed) {
      // The domain's own state says which profile is active: one that differs from what it was at
      // confirmation re-arms the gate, however it changed (SPEC §9.4).
      if (identity.profile_state !== undefined && profileNow !== undefined) {
        const where = describeProfileState(identity.profile_state);
        const now = profileNow();
        if (!now.ok)
          return {
            ruling: {
              verdict: 'deny',
              status: 'identity_required',
              gate: 'identity',
              rule: 'profile_unreadable',
              reason: messages.profileUnreadable(where, now.detail),
            },
          };
        if (now.fingerprint !== state.profile)
          return {
            ruling: {
              verdict: 'deny',
              status: 'identity_required',
              gate: 'identity',
              rule: 'profile_changed',
              reason: messages.profileChanged(where),
            },
          };
      }
      return { note: messages.noteConfirmed() };
    }
    return {
      ruling: {
        verdict: 'deny',
        status: 'identity_required',
        gate: 'identity',
        rule: 'first_mutation',
        reason: messages.identityRequired(),
      },
    };
  },
};
