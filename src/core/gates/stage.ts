import { exceeds, type Level } from '../levels';
import type { Gate, GateContext, Ruling } from '../types';
import type { Subject } from '../resolve';
import { own } from '../own';

interface Narrowing {
  who: string;
  stageName: string;
  allowed: readonly string[] | undefined;
  level: Level | undefined;
  max: number | undefined;
}

/** An `allowed_tools` entry names a tool, a command key or a family. */
export function allowedByList(ctx: Pick<GateContext, 'index' | 'event'>, subject: Subject, allowed: readonly string[]): boolean {
  if (subject.family !== null && allowed.includes(subject.family)) return true;
  if (allowed.includes(subject.key)) return true;
  if (subject.via === 'tool' || subject.via === 'meta_tool' || subject.via === 'shell') {
    const def = ctx.index.command(subject.key);
    return def !== undefined && def.tools.some((tool) => allowed.includes(tool));
  }
  return false;
}

function narrowings(ctx: GateContext): Narrowing[] {
  const out: Narrowing[] = [];
  if (ctx.stage && ctx.personaName !== null) {
    out.push({
      who: ctx.messages.personaWho(ctx.personaName),
      stageName: ctx.stage.name,
      allowed: ctx.stage.allowed_tools,
      level: ctx.stage.side_effect_level,
      max: ctx.stage.max_iterations,
    });
  }
  const dispatch = ctx.options.dispatch;
  if (dispatch && (dispatch.allowedTools !== undefined || dispatch.sideEffectLevel !== undefined)) {
    out.push({
      who: ctx.messages.dispatchWho(),
      stageName: ctx.messages.dispatchStage(),
      allowed: dispatch.allowedTools,
      level: dispatch.sideEffectLevel,
      max: undefined,
    });
  }
  return out;
}

/**
 * Gate 5: the active stage (and a registration's own scope flags) narrow the tools and the
 * ceiling, in this order: the allow-list, the ceiling, then the stage's iteration cap.
 */
export const stageGate: Gate = {
  name: 'stage',
  check(ctx) {
    const list = narrowings(ctx);
    if (list.length === 0) return { note: ctx.messages.noteNoStage() };
    const { subject } = ctx;
    const deny = (status: Ruling['status'], rule: string, reason: string) => ({
      ruling: { verdict: 'deny' as const, status, gate: 'stage' as const, rule, reason },
    });
    for (const n of list) {
      if (n.allowed !== undefined && !allowedByList(ctx, subject, n.allowed)) {
        return deny('scope_violation', 'allowed_tools', ctx.messages.stageScope(n.who, n.stageName, subject.key, n.allowed));
      }
    }
    for (const n of list) {
      // A tool of unknown level is held to the strictest reading: it may do anything.
      const level: Level = subject.level ?? 'network';
      if (n.level !== undefined && exceeds(level, n.level)) {
        return deny(
          'permission_denied',
          'side_effect_level',
          ctx.messages.stageCeiling(n.who, n.stageName, subject.key, level, n.level, subject.because),
        );
      }
    }
    for (const n of list) {
      if (n.max === undefined || ctx.options.withinCall === true) continue;
      const used = own(ctx.state.iterations, n.stageName) ?? 0;
      if (used >= n.max) return deny('iteration_limit', 'max_iterations', ctx.messages.iterationLimit(n.who, n.stageName, n.max));
    }
    return { note: list.map((n) => ctx.messages.noteWithinStage(n.stageName)).join('; ') };
  },
};
