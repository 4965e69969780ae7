import { fileToolTargets } from '../catalog/claude-code';
import type { ToolEvent } from '../event';
import type { Messages } from '../messages';
import { isAbsoluteOrHome, type DecideOptions, type PathEffect, type ProtectedPathCheck, type Ruling } from '../types';

export interface SelfProtectionInput {
  event: ToolEvent;
  /** What a shell command line does to paths (from the shell reader). */
  shellEffects: readonly { path: string; effect: PathEffect; pattern: boolean; program: string }[];
  /** Directories besides the event's cwd where the command line's relative paths may point. */
  shellDirectories: readonly string[];
  /** persona-gate subcommands the line runs that change its state. */
  shellGateCommands: readonly string[];
  isProtected: ProtectedPathCheck;
  scoped: boolean;
  messages: Messages;
  /** Whether the OS sandbox write-denies every guarded path (SPEC §9.2); asked only when it matters. */
  sandboxed?: () => boolean;
  /** Where a file tool's write lands outside the sandbox's writable directories (DecideOptions). */
  outsideSandbox?: DecideOptions['outsideSandbox'];
}

/**
 * Under the sandbox, what only may touch a guarded path runs, and the kernel refuses the write if
 * it comes: files of names not known in advance put into a directory (an archive extracted, a
 * tree copied), another commit's version of tracked files, a path that is a pattern or computed
 * at run time. What the line plainly writes, removes, moves or links is still refused here, so
 * the refusal has a reason.
 */
function onlyMayTouch(effect: PathEffect, pattern: boolean): boolean {
  return pattern || effect === 'beneath' || effect === 'into' || effect === 'tracked';
}

/**
 * Gate 0 (SPEC §9.5): the agent may not switch its own gate off — by what a call does to a guarded
 * path, not by how the path is spelled. Denies under a persona, asks unscoped.
 */
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
  const touches = (path: string, effect: PathEffect, pattern: boolean): string | null => {
    const found = input.isProtected(path, event.cwd, effect, pattern);
    if (found !== null || isAbsoluteOrHome(path)) return found;
    for (const dir of input.shellDirectories) {
      const what = input.isProtected(`${dir}/${path}`, event.cwd, effect, pattern);
      if (what !== null) return what;
    }
    return null;
  };
  // What a file tool names, and what a patch tool's patch names.
  const fileTargets = [...fileToolTargets(event.tool_name, event.tool_input), ...(event.written_paths ?? [])];
  for (const target of fileTargets) {
    const what = touches(target, 'write', false);
    if (what !== null) return refuse('protected_path', messages.protectedTarget(what));
  }
  // A file tool is not confined by the sandbox: it writes only where the sandbox lets the shell
  // write, or it could plant what runs outside the sandbox (a bwrap earlier on PATH, ~/.config/systemd).
  for (const target of fileToolTargets(event.tool_name, event.tool_input)) {
    const outside = input.outsideSandbox?.(target, event.cwd);
    if (outside) return refuse('outside_sandbox', messages.outsideSandbox(outside.landing, outside.writable));
  }
  if (event.written_paths?.length === 0)
    return refuse('unreadable_patch', messages.patchUnreadable(event.host_tool_name ?? event.tool_name));
  for (const { path, effect, pattern } of input.shellEffects) {
    if (effect === 'mention') continue;
    if (input.sandboxed !== undefined && onlyMayTouch(effect, pattern) && input.sandboxed()) continue;
    const what = touches(path, effect, pattern);
    if (what !== null) return refuse('protected_path', messages.protectedTarget(what));
  }
  for (const { path, effect, pattern, program } of input.shellEffects) {
    if (effect !== 'mention') continue;
    // A guarded path handed to a program, or opened by a redirection: the kernel refuses the write, if it comes.
    if (input.sandboxed !== undefined && input.sandboxed()) continue;
    const what = touches(path, effect, pattern);
    if (what !== null) return refuse('protected_mention', messages.protectedMention(what, program));
  }
  if (input.shellGateCommands.length > 0) return refuse('gate_command', messages.protectedTarget(input.shellGateCommands[0]!));
  const written = [...fileTargets, ...input.shellEffects.filter((e) => e.effect !== 'mention').map((e) => e.path)].filter(
    (t): t is string => t !== null,
  );
  return { note: written.length === 0 ? messages.noteWritesNothing() : messages.noteWritesUnguarded([...new Set(written)].join(', ')) };
}
