import type { Script, Word } from '../shell/syntax/ast';
import { parseScript, ParseError } from '../shell/syntax/parser';
import type { Unreadable } from '../shell/unreadable';
import { joinParts, launcherCommand, mentioned, namesPath, PLAIN_WORD, quoteWord, TICKET_OPTION, type ExecMap } from './map';

export type { ExecMap } from './map';

/**
 * Which Bash calls start a launched program, and how they are rewritten (SPEC §9.3, the excluded
 * launcher). A launched program is a catalogued program whose installation the sandbox hides; it
 * runs only through persona-gate's launcher, which Claude Code's `sandbox.excludedCommands` lets
 * out of the sandbox for exactly `<node> <launcher> <real program> *`.
 *
 * The hook judges a call as a start only when it is made of literal words alone (no expansion,
 * substitution, redirection, pipe, assignment or background job: what is judged is what runs),
 * every part of it leads with the program (its name, its real path, or the launcher), and the
 * parts are joined by `&&`, `||`, `;` or newlines. Such a call is rewritten to the launcher form;
 * Claude Code takes it out of the sandbox on the rewritten text. A literal line that only mentions
 * the name is left to the sandbox, where the program does not exist. A call that names it in any
 * other way is refused; by its name alone, it is `brokerable`: where the broker judges every start
 * a call makes, the hook lets it run in the sandbox instead (hook/run.ts).
 */

export interface PlannedStart {
  /** The name the program is catalogued under (`aeat`). */
  name: string;
  /** Its real path. */
  program: string;
  /** The arguments, exactly as the program receives them. */
  args: string[];
}

export type RefusedWhy = 'unparsable' | 'not_literal' | 'mixed' | 'wrapped' | 'launcher_target' | 'unsandboxed';

export type LaunchPlan =
  /** The line does not name a launched program: nothing to do. */
  | { kind: 'none' }
  /** A literal line that names a program only as an argument: it runs in the sandbox, where the program is absent. */
  | { kind: 'sandboxed'; name: string }
  /** Every part starts a launched program: judge each start, then run `command` instead. */
  | { kind: 'starts'; starts: PlannedStart[]; ops: string[]; command: string; judged: string }
  /**
   * `problem`: why bash's grammar refuses the line, when that is the reason. `brokerable`: the line
   * names the program only by name, in a form the hook cannot judge as starts (a pipe, a
   * redirection, a substitution, other commands beside it): where the broker judges every start
   * the call makes, it may run in the sandbox instead, its starts checked there.
   */
  | { kind: 'refused'; why: RefusedWhy; name: string; detail: string; problem?: Unreadable; brokerable?: true };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A word's value when nothing in it expands, or null. */
export function literalWord(w: Word): string | null {
  let out = '';
  for (const [k, p] of w.parts.entries()) {
    if (p.type === 'lit') {
      if (!PLAIN_WORD.test(p.value) || (k === 0 && p.value.startsWith('~'))) return null;
      out += p.value;
    } else if (p.type === 'sq' || p.type === 'escaped') out += p.value;
    else if (p.type === 'dq' && !p.locale) {
      for (const q of p.parts) {
        if (q.type !== 'lit' && q.type !== 'escaped') return null;
        out += q.value;
      }
    } else return null;
  }
  return CONTROL.test(out) ? null : out;
}

type Part = { words: string[] } | null;

/** The line's parts with their joining operators, when it is made of literal simple commands only. */
function literalParts(script: Script): { parts: string[][]; ops: string[] } | null {
  const parts: string[][] = [];
  const ops: string[] = [];
  for (const [s, stmt] of script.statements.entries()) {
    if (stmt.background) return null;
    if (s > 0) ops.push(';');
    const pipelines = [stmt.list.first, ...stmt.list.rest.map((r) => r.pipeline)];
    for (const [k, pipeline] of pipelines.entries()) {
      if (k > 0) ops.push(stmt.list.rest[k - 1]!.op);
      if (pipeline.commands.length !== 1 || pipeline.negated || pipeline.timed) return null;
      const command = pipeline.commands[0]!;
      if (command.type !== 'simple' || command.assigns.length > 0 || command.redirects.length > 0 || command.words.length === 0)
        return null;
      const part: Part = { words: [] };
      for (const w of command.words) {
        const value = literalWord(w);
        if (value === null) return null;
        part.words.push(value);
      }
      parts.push(part.words);
    }
  }
  return parts.length > 0 ? { parts, ops } : null;
}

/** The start a part makes, if it leads with a launched program; a string says why it cannot be one. */
function startOf(words: readonly string[], map: ExecMap, byPath: Map<string, string>): PlannedStart | string | null {
  // The launcher as the excluded command runs it (`<node> <launcher> …`), or as its own program.
  const [first, ...rest] = words[0] === map.runtime && words[1] === map.launcher ? words.slice(1) : words;
  if (first === undefined) return null;
  if (first === map.launcher) {
    // A ticket's secret written after the program (the rewritten call, as its post event carries it) is not the program's.
    const [target, ...given] = rest;
    const args = given[0]?.startsWith(TICKET_OPTION) ? given.slice(1) : given;
    const name = target !== undefined ? byPath.get(target) : undefined;
    return name !== undefined ? { name, program: target!, args } : 'launcher_target';
  }
  const name = Object.prototype.hasOwnProperty.call(map.programs, first) ? first : byPath.get(first);
  if (name === undefined) return null;
  return { name, program: map.programs[name]!, args: rest };
}

/** What the hook does with a Bash call, given the launched programs. */
export function launchPlan(command: string, map: ExecMap): LaunchPlan {
  const name = mentioned(command, map);
  if (name === null) return { kind: 'none' };
  let script: Script;
  try {
    script = parseScript(command);
  } catch (err) {
    const problem = err instanceof ParseError ? { problem: err.problem } : {};
    return { kind: 'refused', why: 'unparsable', name, detail: err instanceof Error ? err.message : String(err), ...problem };
  }
  const byName = !namesPath(command, map);
  const brokerable = byName ? ({ brokerable: true } as const) : {};
  const literal = literalParts(script);
  if (literal === null) return { kind: 'refused', why: 'not_literal', name, detail: command, ...brokerable };
  const byPath = new Map(Object.entries(map.programs).map(([n, p]) => [p, n]));
  const starts: PlannedStart[] = [];
  let others = 0;
  for (const words of literal.parts) {
    const start = startOf(words, map, byPath);
    // The launcher's ticket option is the hook's to write: anywhere but its place it is refused.
    if (typeof start === 'string' || (start !== null && start.args.some((w) => w.startsWith(TICKET_OPTION))))
      return { kind: 'refused', why: 'launcher_target', name, detail: words.join(' ') };
    if (start !== null) {
      starts.push(start);
      continue;
    }
    // The launcher or a real path anywhere else may be a wrapper's command (`env`, `nohup`, `timeout`) the host's matcher reads through.
    if (words.some((w) => w.includes(map.launcher) || byPath.has(w) || [...byPath.keys()].some((p) => w.includes(p)))) {
      return { kind: 'refused', why: 'wrapped', name, detail: words.join(' ') };
    }
    others++;
  }
  if (starts.length === 0) return { kind: 'sandboxed', name };
  if (others > 0) return { kind: 'refused', why: 'mixed', name, detail: command, ...brokerable };
  // What the policy judges: the same starts under the names its `bash` prefixes use.
  const judged = joinParts(
    starts.map((s) => [s.name, ...s.args].map(quoteWord).join(' ')),
    literal.ops,
  );
  return { kind: 'starts', starts, ops: literal.ops, command: launcherCommand(map, starts, literal.ops), judged };
}
