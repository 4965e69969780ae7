import type { Decision } from '../../src/core/decide';
import { buildPolicyIndex, type PolicyIndex } from '../../src/core/policy-index';
import { makeProtectedPathCheck } from '../../src/io/protect';
import { readCommandLine, type ShellReadingRaw } from '../../src/shell/commands';
import { readShellCall } from '../../src/shell/resolve-shell';
import { RUNNERS, SHELL_STUBS, STUBBED, type RanProgram, type StubRun } from './bash-stubs';
import { programSpec } from '../../src/shell/registry';
import { confirmed, pre, run, taxIndex } from './policy';

/**
 * What bash ran against what the shell reader says a line runs (SPEC §3 step 3, §9 items 1–3),
 * judged under a persona that may use the shell: modelo-preparer of examples/tax-filing.json with
 * the `shell` family and the `network` ceiling — the widest reach, where nothing but the reader
 * stands between a line and what it runs.
 */

export const PERSONA = 'modelo-preparer';

export function agreementIndex(): PolicyIndex {
  const policy = structuredClone(taxIndex().policy!);
  const persona = policy.personas[PERSONA]!;
  persona.families = [...persona.families, 'shell'];
  persona.ceiling = 'network';
  return buildPolicyIndex(policy, 'sha-agreement', '/work/project/.claude/persona-gate.json');
}

export type Judge = (command: string) => Decision;

export function makeJudge(index = agreementIndex()): Judge {
  const isProtected = makeProtectedPathCheck({
    policyPath: '/work/project/.claude/persona-gate.json',
    stateDir: '/tmp/pg-agreement-state',
    prefsFile: '/tmp/pg-agreement-home/.config/persona-gate/config.json',
    home: '/tmp/pg-agreement-home',
  });
  return (command) =>
    run(index, pre('Bash', { command }, { cwd: '/work/project' }), {
      state: confirmed(),
      env: { PERSONA_GATE_PERSONA: PERSONA },
      isProtected,
      shell: readShellCall,
    });
}

/** Programs that start a catalogued `bash` prefix (`aeat`). */
export function cataloguedPrograms(index: PolicyIndex): Set<string> {
  return new Set(index.bashPrefixes().map((p) => p.words[0]!.replace(/^.*\//, '')));
}

const baseName = (program: string) => program.slice(program.lastIndexOf('/') + 1);

const shellQuote = (s: string) => (/^[A-Za-z0-9_./=:@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** A recorded call as a command line of its own. */
export function asCommand(r: RanProgram): string {
  return [r.program, ...r.args].map(shellQuote).join(' ');
}

/** The `-c` string a shell was given, or null when it reads its code from stdin or a file. */
function commandString(r: RanProgram): string | null {
  for (let k = 0; k < r.args.length; k++) {
    const a = r.args[k]!;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a)) return r.args[k + 1] ?? null;
    if (/^[-+][oO]$/.test(a)) k++;
    else if (a === '--' || !/^[-+]/.test(a)) return null;
  }
  return null;
}

/**
 * A shell running code the line does not hold as written: read from stdin, a here-document or a
 * file, or a `-c` string that is not a piece of the line's text (built at run time, handed over by
 * xargs). SPEC §9.3 calls such code opaque.
 */
function runsOpaqueCode(shell: RanProgram, line: string): boolean {
  if (!(SHELL_STUBS as readonly string[]).includes(shell.program)) return false;
  const code = commandString(shell);
  return code === null || !line.includes(code);
}

/** A shell given neither `-c` nor a script: it runs what it reads from stdin. */
function readsStdin(r: RanProgram): boolean {
  if (!(SHELL_STUBS as readonly string[]).includes(r.program)) return false;
  for (let k = 0; k < r.args.length; k++) {
    const a = r.args[k]!;
    if (/^[-+][oO]$/.test(a)) k++;
    else if (!/^[-+]/.test(a) || /^-[A-Za-z]*c[A-Za-z]*$/.test(a)) return false;
  }
  return true;
}

export interface Disagreement {
  kind: 'unreported' | 'refused alone';
  program: RanProgram;
  /** The line's verdict: every disagreement is on a line the persona let through. */
  verdict: string;
}

export interface Comparison {
  line: string;
  verdict: Decision['verdict'];
  status: string;
  reading: ShellReadingRaw;
  run: StubRun | null;
  disagreements: Disagreement[];
}

/**
 * The disagreements of one line. A line the persona refuses runs nothing: no disagreement. On a
 * line let through (any verdict but deny), every program bash ran must be one the reader reported,
 * by name, except
 * - a runner (wrapper, shell with `-c` or reading a here-document the reader read, `find -exec`,
 *   `watch` …) that went on to run another program: that program is recorded and checked in its place;
 * - a program run by a shell from code the line does not hold as written (stdin, a here-document, a
 *   file, a `-c` string built at run time): such opaque code (SPEC §9.3) is process_exec, which this
 *   ceiling allows, unless it runs a catalogued program whose name is written in the line — then
 *   the line must be refused.
 * And no program bash ran may be one that, as a command line of its own, the persona is refused
 * (`aeat modelo export`, owned by another persona).
 */
export function compare(line: string, decision: Decision, run: StubRun | null, judge: Judge, catalogued: Set<string>): Comparison {
  const reading = readCommandLine(line);
  const base = { line, verdict: decision.verdict, status: decision.status, reading, run };
  if (decision.verdict === 'deny' || run === null) return { ...base, disagreements: [] };
  const reported = new Set(reading.invocations.map((i) => i.name));
  const byId = new Map(run.ran.map((r) => [r.id, r]));
  const handedOff = new Set(run.ran.flatMap((r) => r.via));
  // a shell reading a here-document the reader read as its code (commands.ts): reported in its place, its commands checked
  const heredocRead = (r: RanProgram) => readsStdin(r) && !reported.has(r.program) && reading.sources.length > 0;
  const opaque = (r: RanProgram) =>
    r.via.some((id) => {
      const parent = byId.get(id);
      return parent !== undefined && runsOpaqueCode(parent, line) && !heredocRead(parent);
    });
  const disagreements: Disagreement[] = [];
  // A real wrapper (env, nohup, timeout …) cannot record a program it did not find: it is taken
  // to have handed off when one of its words is a reported program that has no stub.
  const missingReported = (r: RanProgram) => r.args.some((a) => reported.has(baseName(a)) && !STUBBED.has(baseName(a)));
  for (const r of run.ran) {
    // a shell given `-c` is read through (its string is reported in its place, even when it runs only builtins);
    // a wrapper the reader peels (`npx`, `sudo`) is reported as the program it names
    const readThrough =
      ((SHELL_STUBS as readonly string[]).includes(r.program) && r.args.some((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a))) || heredocRead(r);
    const peeled = programSpec(r.program)?.wrapper !== undefined && r.args.some((a) => reported.has(baseName(a)));
    const runner = (RUNNERS.has(r.program) && (handedOff.has(r.id) || missingReported(r) || readThrough)) || peeled;
    // A catalogued program run by opaque code whose name the line does not spell out is the residue SPEC §9.8 states.
    const hiddenInOpaque = opaque(r) && (!catalogued.has(r.program) || !line.includes(r.program));
    if (!runner && !hiddenInOpaque && judge(asCommand(r)).verdict === 'deny')
      disagreements.push({ kind: 'refused alone', program: r, verdict: decision.verdict });
    if (reported.has(r.program) || runner) continue;
    // a program bash could not find ran nothing; only a catalogued name matters then
    if (r.notFound && !catalogued.has(r.program)) continue;
    // Opaque code may run anything not catalogued at this ceiling; a catalogued program it runs must
    // make the line refused when its name is written in the line (SPEC §9.3). Written otherwise
    // (`a\eat`, `$'\x61eat'` inside the code), it is the residue SPEC §9.8 states.
    if (opaque(r) && (!catalogued.has(r.program) || !line.includes(r.program))) continue;
    disagreements.push({ kind: 'unreported', program: r, verdict: decision.verdict });
  }
  return { ...base, disagreements };
}

/** A compared line, for a failure message. */
export function explainComparison(c: Comparison): string {
  const ran = c.run?.ran.map((r) => `${r.notFound ? '(not found) ' : ''}${asCommand(r)}`) ?? [];
  const reported = c.reading.unparsable
    ? [`unparsable: ${c.reading.unparsable}`]
    : c.reading.invocations.map((i) => [i.name, ...i.args.map((a) => a.text)].join(' ') || '(redirection only)');
  return [
    `line: ${JSON.stringify(c.line)}`,
    `  verdict under ${PERSONA}: ${c.verdict} (${c.status})`,
    `  bash ran:        ${ran.length ? ran.join(' ; ') : '(nothing)'}`,
    `  reader reported: ${reported.length ? reported.join(' ; ') : '(nothing)'}`,
    ...c.disagreements.map((d) => `  ✗ ${d.kind}: ${asCommand(d.program)}`),
  ].join('\n');
}
