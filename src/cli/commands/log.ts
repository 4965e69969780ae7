import { existsSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../core/decide';
import type { Receipt } from '../../core/receipt';
import { receiptsDir, receiptsFile } from '../../io/receipts';
import { CliError, type CommandResult } from '../errors';
import { stateDirFor } from '../context';
import { cliMessages, type CliMessages } from '../messages';
import { renderDecisions, type DecisionRow, type View } from '../decision-view';

export interface LogOptions {
  session?: string;
  persona?: string;
  status?: string;
  /** Only the refusals audit mode let through. */
  would?: boolean;
  json?: boolean;
  follow?: boolean;
  /** Only the last N receipts. */
  limit?: string;
  /** Only receipts at or after this time: an ISO date/time, or a duration back from now (`30m`, `2h`, `1d`). */
  since?: string;
}

/** `--since`: an ISO time, or a duration such as 90s, 30m, 2h, 1d back from `now`. */
export function sinceTime(value: string, now: number): string | null {
  const duration = /^(\d+)(s|m|h|d)$/.exec(value.trim());
  if (duration) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[duration[2] as 's' | 'm' | 'h' | 'd'];
    return new Date(now - Number(duration[1]) * unit).toISOString();
  }
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

function files(env: Env, session?: string): string[] {
  const dir = receiptsDir(stateDirFor(env));
  if (session !== undefined) return [receiptsFile(stateDirFor(env), session)];
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(dir, f));
}

function parseLines(text: string): Receipt[] {
  const out: Receipt[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as Receipt);
    } catch {
      // a torn line from a crashed writer is skipped
    }
  }
  return out;
}

function keep(opts: LogOptions) {
  return (r: Receipt) =>
    (opts.persona === undefined || r.persona === opts.persona) &&
    (opts.status === undefined || r.status === opts.status) &&
    (opts.would !== true || r.would !== undefined);
}

export function formatReceipt(r: Receipt, json: boolean): string {
  if (json) return JSON.stringify(r);
  const what = r.command_key && r.command_key !== r.tool_name ? `${r.tool_name ?? '-'} → ${r.command_key}` : (r.tool_name ?? r.hook_event);
  const who = r.persona ? `${r.persona}${r.stage ? `/${r.stage}` : ''}` : '-';
  const reason = r.reason.length > 100 ? `${r.reason.slice(0, 99)}…` : r.reason;
  // Audit mode: the verdict the call would have been given, marked, in place of the answer it got.
  const verdict = r.would !== undefined ? `${r.would}*` : r.verdict;
  return `${r.ts}  ${r.session_id.slice(0, 12).padEnd(12)}  ${who.padEnd(22)}  ${verdict.padEnd(7)}  ${String(r.status).padEnd(22)}  ${what}${reason ? `  ${reason}` : ''}`;
}

export function readReceipts(env: Env, opts: LogOptions): Receipt[] {
  const all: Receipt[] = [];
  for (const file of files(env, opts.session)) {
    if (!existsSync(file)) continue;
    all.push(...parseLines(readFileSync(file, 'utf8')));
  }
  return all.filter(keep(opts)).sort((a, b) => a.ts.localeCompare(b.ts));
}

/** A receipt as a row of the log: its verdict as shown, the call, and the status and reason when it is not a plain pass. */
export function receiptRow(r: Receipt, t: CliMessages): DecisionRow {
  const pre = r.hook_event === 'PreToolUse';
  const tool = r.host_tool_name ?? r.tool_name;
  const call = pre
    ? r.command_key && r.command_key !== r.tool_name
      ? `${tool ?? '-'} → ${r.command_key}`
      : (tool ?? r.hook_event)
    : `${r.hook_event}${tool ? ` ${tool}` : ''}`;
  const reason = r.reason.replace(/^persona-gate: /, '');
  return {
    time: r.ts.slice(11, 19),
    session: r.session_id.slice(0, 12),
    who: r.persona ? `${r.persona}${r.stage ? `/${r.stage}` : ''}` : t.viewUnscoped(),
    // Audit mode: the verdict the call would have been given, marked, in place of the answer it got.
    verdict: !pre ? '(recorded)' : r.would !== undefined ? `${r.would}*` : r.verdict,
    call,
    detail: r.status !== 'ok' && reason !== '' ? `${r.status}: ${reason}` : reason,
  };
}

function renderLog(receipts: readonly Receipt[], view: View, t: CliMessages): string {
  const sessions = [...new Set(receipts.map((r) => r.session_id))];
  const day = (ts: string) => ts.slice(0, 10);
  const first = receipts[0]!.ts;
  const last = receipts[receipts.length - 1]!.ts;
  const at = (ts: string) => `${day(ts)} ${ts.slice(11, 19)}`;
  const to = at(last) === at(first) ? null : day(first) === day(last) ? last.slice(11, 19) : at(last);
  const title = t.logTitle(receipts.length, sessions.length, at(first), to);
  return renderDecisions(
    receipts.map((r) => receiptRow(r, t)),
    view,
    t,
    { title, oneSession: sessions.length === 1 ? sessions[0]! : null },
  );
}

export function logCommand(env: Env, opts: LogOptions, view: View = { width: 100, color: false }): CommandResult {
  const t = cliMessages(env);
  let receipts = readReceipts(env, opts);
  if (opts.since !== undefined) {
    const since = sinceTime(opts.since, Date.now());
    if (since === null) throw new CliError(t.badSince(opts.since));
    receipts = receipts.filter((r) => r.ts >= since);
  }
  if (opts.limit !== undefined) {
    const n = Number(opts.limit);
    if (!Number.isInteger(n) || n < 1) throw new CliError(t.badLimit(opts.limit));
    receipts = receipts.slice(-n);
  }
  if (receipts.length === 0) return { stdout: '', stderr: `${t.logNothing()}\n`, exitCode: 0 };
  if (opts.json) return { stdout: `${receipts.map((r) => JSON.stringify(r)).join('\n')}\n`, exitCode: 0 };
  return { stdout: renderLog(receipts, view, t), exitCode: 0 };
}

/** `--follow`: prints what exists, then each new receipt as it is appended, until interrupted. */
export function followLog(env: Env, opts: LogOptions, write: (s: string) => void, view: View = { width: 100, color: false }): void {
  const t = cliMessages(env);
  const offsets = new Map<string, number>();
  // The header once, with every verdict in the legend; then each receipt under it, in fixed columns.
  const columns = { widths: { session: 12, who: 16, verdict: 10 }, columns: { time: true, session: true } };
  if (!opts.json) write(renderDecisions([], view, t, { title: t.logFollowTitle(), fullLegend: true, ...columns }));
  const show = (r: Receipt) => (opts.json ? `${JSON.stringify(r)}\n` : renderDecisions([receiptRow(r, t)], view, t, columns));
  const dir = receiptsDir(stateDirFor(env));
  const scan = () => {
    for (const file of files(env, opts.session)) {
      if (!existsSync(file)) continue;
      const size = statSync(file).size;
      const from = offsets.get(file) ?? 0;
      if (size <= from) continue;
      const text = readFileSync(file).subarray(from, size).toString('utf8');
      const complete = text.lastIndexOf('\n') + 1;
      offsets.set(file, from + Buffer.byteLength(text.slice(0, complete)));
      for (const r of parseLines(text.slice(0, complete)).filter(keep(opts))) write(show(r));
    }
  };
  scan();
  if (existsSync(dir)) watch(dir, scan);
  setInterval(scan, 500);
}
