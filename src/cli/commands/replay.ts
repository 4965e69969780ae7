import { lockBeside } from '../../io/lock-lookup';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { localeFor, type Env } from '../../core/decide';
import { readPreferences } from '../../io/prefs';
import { gateProtections } from '../../io/protect';
import { sandboxOptions, watchedSandboxView } from '../../io/sandbox-state';
import { replay, summarize, verdictCounts, type ReplayRow } from '../../policydev/replay';
import { agentTypeOfMeta, emptyScan, replaySteps, scanTranscript, type TranscriptScan } from '../../policydev/transcript';
import { readShellCall } from '../../shell/resolve-shell';
import { CliError, type CommandResult } from '../errors';
import { cliMessages, type CliMessages } from '../messages';
import { policyForCli, stateDirFor } from '../context';

export interface ReplayOptions {
  config?: string;
  persona?: string;
  stage?: string;
  json?: boolean;
  /** Only the calls that would have been refused or asked, in the table. */
  refused?: boolean;
}

/** Where a progress line goes (stderr on a terminal), or nothing. */
export type ProgressWriter = ((text: string) => void) | undefined;

const MAX_DEPTH = 8;

/** Every *.jsonl under a directory, in name order, without following symbolic links. */
function walk(dir: string, depth: number, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    if (st.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1, out);
    else if (st.isFile() && name.endsWith('.jsonl')) out.push(path);
  }
}

/** A transcript file and its subagents' sidechains (`<session>/subagents/*.jsonl` beside it); or every transcript under a directory. */
export function transcriptFiles(target: string, t: CliMessages): string[] {
  let st;
  try {
    st = lstatSync(target);
  } catch {
    throw new CliError(t.replayNotFound(target));
  }
  const files: string[] = [];
  if (st.isDirectory()) walk(target, 0, files);
  else {
    files.push(target);
    const sidechains = join(target.replace(/\.jsonl$/, ''), 'subagents');
    if (target.endsWith('.jsonl') && existsSync(sidechains)) walk(sidechains, 0, files);
  }
  if (files.length === 0) throw new CliError(t.replayNothing(target));
  return files;
}

/** Reads the files into one scan; the agent type of each sidechain from its `.meta.json`. */
function scanFiles(files: readonly string[], progress: ProgressWriter, t: CliMessages): { scan: TranscriptScan; unreadable: string[] } {
  const scan = emptyScan();
  const unreadable: string[] = [];
  files.forEach((file, i) => {
    progress?.(t.replayReading(i, files.length));
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      unreadable.push(`${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      return;
    }
    scanTranscript(scan, text, file);
    const agent = /^agent-(.+)\.jsonl$/.exec(basename(file));
    if (agent) {
      try {
        const type = agentTypeOfMeta(readFileSync(file.replace(/\.jsonl$/, '.meta.json'), 'utf8'));
        if (type !== undefined) scan.agentTypes.set(agent[1]!, type);
      } catch {
        // no meta file: the type comes from the Agent call that launched it, if the transcript has it
      }
    }
  });
  return { scan, unreadable };
}

function bar(done: number, total: number): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

function table(header: readonly string[], rows: readonly string[][], maxLast = 120): string[] {
  const widths = header.map((h, i) => Math.min(40, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const fit = (cells: readonly string[]) =>
    cells
      .map((c, i) => {
        if (i === cells.length - 1) return c.length > maxLast ? `${c.slice(0, maxLast - 1)}…` : c;
        const w = widths[i]!;
        return (c.length > w ? `${c.slice(0, w - 1)}…` : c).padEnd(w);
      })
      .join('  ')
      .trimEnd();
  return [fit(header), ...rows.map(fit)];
}

function who(persona: string | null, stage: string | null, t: CliMessages): string {
  return persona === null ? t.replayUnscoped() : stage ? `${persona}/${stage}` : persona;
}

function verdictCell(r: { verdict: string; answered?: string }): string {
  return r.answered !== undefined ? `${r.verdict}*` : r.verdict;
}

function textReport(
  rows: ReplayRow[],
  scan: TranscriptScan,
  unreadable: string[],
  opts: ReplayOptions,
  t: CliMessages,
  sandboxHeld: boolean | null,
): string {
  const lines: string[] = [];
  const sessions = new Set(rows.map((r) => r.session_id));
  const shownRows = opts.refused ? rows.filter((r) => r.verdict === 'deny' || r.verdict === 'ask') : rows;
  if (shownRows.length > 0) {
    lines.push(
      ...table(
        t.replayColumns(),
        shownRows.map((r) => [
          String(r.n),
          r.session_id.slice(0, 8),
          who(r.persona, r.stage, t),
          r.command_key,
          verdictCell(r),
          r.status,
          r.reason.replace(/^persona-gate: /, ''),
        ]),
      ),
    );
    lines.push('');
  }
  const summary = summarize(rows);
  if (summary.length > 0) {
    lines.push(t.replaySummaryHeading());
    lines.push(
      ...table(
        t.replaySummaryColumns(),
        summary.map((s) => [who(s.persona, null, t), s.command_key, s.status, s.verdict, String(s.calls)]),
      ).map((l) => `  ${l}`),
    );
    lines.push('');
  }
  if (rows.some((r) => r.answered !== undefined)) lines.push(t.replayAuditNote());
  const counts = verdictCounts(rows);
  lines.push(t.replayTotals(rows.length, sessions.size, scan.files, counts));
  const skipped = Object.entries(scan.skipped).filter(([, n]) => n > 0);
  lines.push(
    t.replayLines(
      scan.lines,
      scan.other,
      skipped.reduce((n, [, k]) => n + k, 0),
      skipped.map(([why, n]) => `${why} ${n}`),
    ),
  );
  for (const u of unreadable) lines.push(t.replayUnreadable(u));
  if (sandboxHeld !== null) lines.push(t.sandboxLine(sandboxHeld));
  return `${lines.join('\n')}\n`;
}

/** `persona-gate replay FILE|DIR`: what the policy would have answered to every recorded call. Never touches the real state or receipts. */
export function replayCommand(env: Env, target: string, opts: ReplayOptions, progressOut?: ProgressWriter): CommandResult {
  const index = policyForCli(env, opts.config);
  const tt = cliMessages(env, index);
  const files = transcriptFiles(target, tt);
  const progress: ProgressWriter = progressOut ? (text) => progressOut(`\r\x1b[K${text}`) : undefined;
  const { scan, unreadable } = scanFiles(files, progress, tt);
  const steps = replaySteps(scan);
  const replayEnv: Env = {
    ...env,
    ...(opts.persona !== undefined ? { [index.settings.persona_env]: opts.persona } : {}),
    ...(opts.stage !== undefined ? { [index.settings.stage_env]: opts.stage } : {}),
  };
  const locale = localeFor(index, env, readPreferences(env).locale ?? 'en');
  // Claude Code's sandbox, read as the hook reads it, and only if a gate asks (then the answer is shown)
  const sandbox = watchedSandboxView({ policyPath: index.path, env, cwd: process.cwd(), stateDir: stateDirFor(env) });
  const rows = replay(index, steps, {
    env: replayEnv,
    isProtected: gateProtections(index.path, stateDirFor(env), env, locale),
    pinned: lockBeside(index.path),
    shell: readShellCall,
    locale,
    sandbox: sandboxOptions(sandbox.view, env.HOME),
    ...(progress ? { onProgress: (done: number, total: number) => progress(`${bar(done, total)} ${tt.replayProgress(done, total)}`) } : {}),
  });
  progressOut?.('\r\x1b[K');
  const sandboxHeld = sandbox.held();
  if (opts.json) {
    const report = {
      policy: index.path,
      policy_sha256: index.sha256,
      transcripts: files.map((f) => relative(process.cwd(), f) || f),
      lines: scan.lines,
      other: scan.other,
      skipped: scan.skipped,
      duplicates: scan.duplicates,
      unreadable,
      sessions: new Set(rows.map((r) => r.session_id)).size,
      verdicts: verdictCounts(rows),
      summary: summarize(rows),
      ...(sandboxHeld !== null ? { sandbox: { holds: sandboxHeld } } : {}),
      calls: rows,
    };
    return { stdout: `${JSON.stringify(report)}\n`, exitCode: 0 };
  }
  return { stdout: textReport(rows, scan, unreadable, opts, tt, sandboxHeld), exitCode: 0 };
}
