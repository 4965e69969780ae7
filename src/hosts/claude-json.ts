import type { Verdict } from '../core/types';
import { preToolUseResponse, SILENT, type HookResponse } from '../hook/output';

/**
 * The answers of the hosts that read Claude Code's hook output but have no `ask` and take an
 * `allow` as more than "no objection": a deny is Claude Code's JSON deny, anything let through is
 * answered with nothing, so that the host's own permission rules still apply.
 */
export function claudeDenyOnly(verdict: Verdict, reason: string): HookResponse {
  return verdict === 'deny' ? preToolUseResponse('deny', reason) : SILENT;
}
