import { FILE_WRITE_TOOLS } from '../catalog/claude-code';
import type { ToolEvent } from '../event';
import type { Messages } from '../messages';
import { isAbsoluteOrHome, type ProtectedPathCheck, type Ruling } from '../types';

export interface SelfProtectionInput {
  event: ToolEvent;
  /** Targets a shell command line writes to, and persona-gate subcommands it runs (from the shell resolver). */
  shellWrites: readonly string[];
  /** Paths handed to programs that may write them (from the shell resolver). */
  shellMentions: readonly { path: string; program: string }[];
  /** Directories besides the event's cwd where the command line's relative paths may point. */
  shellDirectories: readonly string[];
  shellGateCommands: readonly string[];
  isProtected: ProtectedPathCheck;
  scoped: boolean;
  messages: Messages;
}

function fileToolTarget(event: ToolEvent): string | null {
  if (!FILE_WRITE_TOOLS.has(event.tool_name)) return null;
  const input = event.tool_input;
  const target = input.file_path ?? input.notebook_path;
  return typeof target === 'string' ? target : null;
}

/** Gate 0: the agent may not switch its own gate off. Denies under a persona, asks unscoped. */
export function selfProtection(input: SelfProtectionInput): { ruling: Ruling } | { note: string } {
  const { event, messages } = input;
  const refuse = (rule: string, reason: string) => ({
    ruling: {
      verdict: input.scoped ? ('deny' as const) : ('ask' as const),
      status: 'protected' as const,
      gate: 'self_protection' as const,
      rule,
      reason,
    },
  });
  // A relative path is checked from the event's cwd and from every directory the command line may cd to.
  const protectedAt = (path: string): string | null => {
    const found = input.isProtected(path, event.cwd);
    if (found !== null || isAbsoluteOrHome(path)) return found;
    for (const dir of input.shellDirectories) {
      const what = input.isProtected(`${dir}/${path}`, event.cwd);
      if (what !== null) return what;
    }
    return null;
  };
  const targets = [fileToolTarget(event), ...input.shellWrites].filter((t): t is string => t !== null);
  for (const target of targets) {
    const what = protectedAt(target);
    if (what !== null) return refuse('protected_path', messages.protectedTarget(what));
  }
  for (const { path, program } of input.shellMentions) {
    const what = protectedAt(path);
    if (what !== null) return refuse('protected_mention', messages.protectedMention(what, program));
  }
  if (input.shellGateCommands.length > 0) return refuse('gate_command', messages.protectedTarget(input.shellGateCommands[0]!));
  return { note: targets.length === 0 ? messages.noteWritesNothing() : messages.noteWritesUnguarded(targets.join(', ')) };
}
