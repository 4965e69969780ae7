import type { Gate, GateContext } from '../types';

export function activeLabel(ctx: Pick<GateContext, 'index' | 'state' | 'env'>): string | null {
  const label = ctx.index.settings.identity?.label;
  if (label?.from === 'env') {
    const value = ctx.env[label.name];
    return value !== undefined && value.trim() !== '' ? value.trim() : null;
  }
  return ctx.state.label;
}

/** Gate 7: the command's confirmation tier. */
export const confirmationGate: Gate = {
  name: 'confirmation',
  check(ctx) {
    const { subject, messages } = ctx;
    if (subject.tier === 'block') {
      return { ruling: { verdict: 'deny', status: 'blocked', gate: 'confirmation', rule: 'block', reason: messages.blocked(subject.key) } };
    }
    if (subject.tier === 'confirm') {
      // The echo says whose profile the call touches; a policy without an identity gate has no profile to name.
      const reason = ctx.index.settings.identity
        ? messages.confirmationRequired(messages.identityEcho(activeLabel(ctx)), subject.key)
        : messages.confirmationPlain(subject.key);
      return { ruling: { verdict: 'ask', status: 'confirmation_required', gate: 'confirmation', rule: 'confirm', reason } };
    }
    return { note: messages.noteTierAuto() };
  },
};
