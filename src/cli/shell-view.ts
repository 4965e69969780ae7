import type { Locale } from '../core/messages';
import type { ShellReading } from '../core/decide';
import { quoteWords, reasonText, type Reason } from '../shell/reasons';
import type { CliMessages } from './messages';

/**
 * What `explain` shows of a shell command line: each invocation the reader found, with its words
 * as the line spells them, its program and subcommands, its kind and level, and the reason that
 * gave it that level; the parts that decided the line's level are marked `*`.
 */

export interface ShellInvocationView {
  words: string;
  program: string;
  path: string[];
  kind: string;
  level: string;
  key?: string;
  reason: Reason | null;
  reason_text: string | null;
  opaque: boolean;
  decided: boolean;
}

export interface ShellPartView {
  words: string;
  level: string;
  reason: Reason;
  reason_text: string;
  /** The invocation it is, by its index; absent for a redirection or an assignment. */
  invocation?: number;
}

export interface ShellView {
  level: string;
  invocations: ShellInvocationView[];
  decided: ShellPartView[];
  unparsable?: string;
}

export function shellView(reading: ShellReading, locale: Locale): ShellView {
  const deciding = new Set(reading.decided.map((p) => p.invocation).filter((i) => i !== undefined));
  return {
    level: reading.level,
    invocations: reading.invocations.map((inv, i) => ({
      words: inv.words,
      program: inv.program,
      path: inv.path,
      kind: inv.kind,
      level: inv.level,
      ...(inv.key !== undefined ? { key: inv.key } : {}),
      reason: inv.reason ?? null,
      reason_text: inv.reason ? reasonText(inv.reason, locale) : null,
      opaque: inv.opaque !== undefined,
      decided: deciding.has(i),
    })),
    decided: reading.decided.map((p) => ({
      words: p.words,
      level: p.level,
      reason: p.reason,
      reason_text: reasonText(p.reason, locale),
      ...(p.invocation !== undefined ? { invocation: p.invocation } : {}),
    })),
    ...(reading.unparsable !== undefined ? { unparsable: reading.unparsable } : {}),
  };
}

/** The lines `explain` prints for a shell line: a header, then one per invocation and per deciding part that is not one. */
export function shellLines(view: ShellView, t: CliMessages): string[] {
  if (view.unparsable !== undefined) return [];
  const lines = [t.shellLine(view.level, view.decided.length)];
  view.invocations.forEach((inv) => {
    const program = [inv.program || '(redirection)', ...inv.path].join(' ');
    lines.push(
      `  ${inv.decided ? '*' : ' '} ${t.shellInvocation(quoteWords(inv.words || program), program, inv.kind, inv.level, inv.reason?.id ?? null, inv.reason_text)}`,
    );
  });
  for (const p of view.decided) {
    if (p.invocation === undefined) lines.push(`  * ${t.shellPart(quoteWords(p.words), p.level, p.reason.id, p.reason_text)}`);
  }
  return lines;
}
