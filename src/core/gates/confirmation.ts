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
      const echo = messages.identityEcho(activeLabel(ctx));
      return {
        ruling: {
          verdict: 'ask',
          status: 'confirmation_required',
          gate: 'confirmation',
          rule: 'confirm',
          reason: messages.confirmationRequired(echo, subject.key),
        },
      };
    }
    return { note: messages.noteTierAuto() };
  },
};
