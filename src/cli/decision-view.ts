import type { Env } from '../core/decide';
import type { CliMessages } from './messages';

/**
 * Decisions as people read them (`log`, `npm run demo`): one row per call, the full reason wrapped
 * under it to the terminal's width, never cut; a header that says what the rows are, and a legend
 * of the verdicts they show. Colour only on a terminal, and not under NO_COLOR.
 */

export interface View {
  /** Columns to fit. */
  width: number;
  color: boolean;
}

/** The terminal's width and whether to colour: a terminal's own width; else COLUMNS, else 100. NO_COLOR (any value but empty) and TERM=dumb turn colour off. */
export function viewFor(stream: { isTTY?: boolean; columns?: number }, env: Env): View {
  const columns = Number(env.COLUMNS);
  const width =
    stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0
      ? stream.columns
      : Number.isInteger(columns) && columns > 0
        ? columns
        : 100;
  const noColor = (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || env.TERM === 'dumb';
  return { width: Math.max(40, width), color: stream.isTTY === true && !noColor };
}

export interface DecisionRow {
  /** HH:MM:SS (UTC), or null when the rows have no time. */
  time: string | null;
  session: string | null;
  /** persona[/stage], or "(unscoped)". */
  who: string;
  /** The verdict as shown: deny, ask, allow, abstain, deny* (audit mode), (recorded). */
  verdict: string;
  /** The call: the tool and what it resolved to, or its input. */
  call: string;
  /** The status when it is not ok, and the reason, without the "persona-gate: " every reason starts with. */
  detail: string;
}

const SGR = { bold: '1', dim: '2', red: '31', green: '32', yellow: '33', cyan: '36' } as const;
const paint = (view: View, code: keyof typeof SGR, text: string) =>
  view.color && text !== '' ? `\u001b[${SGR[code]}m${text}\u001b[0m` : text;

function verdictColor(verdict: string): keyof typeof SGR {
  if (verdict.startsWith('deny')) return 'red';
  if (verdict.startsWith('ask')) return 'yellow';
  if (verdict.startsWith('(')) return 'dim';
  return 'green';
}

/** Words filled into lines of at most `width` characters; a word longer than a line is broken, never cut off. */
export function wrapText(text: string, width: number): string[] {
  const room = Math.max(10, width);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (let word of paragraph.split(/\s+/).filter(Boolean)) {
      while (word.length > room) {
        if (line !== '') {
          lines.push(line);
          line = '';
        }
        lines.push(word.slice(0, room));
        word = word.slice(room);
      }
      if (line === '') line = word;
      else if (line.length + 1 + word.length <= room) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** `text` wrapped to `width` after a first-line prefix; continuation lines indented by `indent` spaces. */
function hanging(first: string, text: string, indent: number, width: number): string[] {
  const lines = wrapText(text, width - indent);
  return lines.map((l, i) => (i === 0 ? `${first}${l}` : `${' '.repeat(indent)}${l}`));
}

export interface RenderOptions {
  /** What the rows are: the first line. Omitted: no header, no legend (the rows that follow a header already printed). */
  title?: string;
  /** The session every row shares: said once, under the title, instead of in a column. */
  oneSession?: string | null;
  /** The legend of every verdict, not only of those the rows show (a header printed before the rows exist). */
  fullLegend?: boolean;
  /** Column widths to keep whatever the rows are (rows printed as they come). */
  widths?: { session?: number; who?: number; verdict?: number };
  /** Whether the rows have a time and a session column, when there are no rows yet to tell. */
  columns?: { time: boolean; session: boolean };
}

/** The header (title, the one session, the legend of the verdicts shown) and the rows under it, each row's reason wrapped in full below it. */
export function renderDecisions(rows: readonly DecisionRow[], view: View, t: CliMessages, opts: RenderOptions = {}): string {
  const out: string[] = [];
  const oneSession = opts.oneSession ?? null;
  if (opts.title !== undefined) out.push(...renderHeader(rows, view, t, opts.title, oneSession, opts.fullLegend === true));
  out.push(...renderRows(rows, view, t, oneSession, opts));
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

function renderHeader(
  rows: readonly DecisionRow[],
  view: View,
  t: CliMessages,
  title: string,
  oneSession: string | null,
  full: boolean,
): string[] {
  const out: string[] = [];
  for (const line of wrapText(title, view.width)) out.push(paint(view, 'bold', line));
  if (oneSession !== null) out.push(...wrapText(t.viewOneSession(oneSession), view.width));
  const shown = [...new Set(rows.map((r) => r.verdict))];
  const legend = t
    .viewLegend()
    .filter(([verdict]) => full || shown.some((s) => s === verdict || (verdict.endsWith('*') && s.endsWith('*'))));
  if (legend.length > 0) {
    const key = Math.max(...legend.map(([v]) => v.length)) + 2;
    for (const [verdict, meaning] of legend) {
      const lines = hanging(`  ${verdict.padEnd(key)}`, meaning, key + 2, view.width);
      out.push(...lines.map((l, i) => (i === 0 ? `  ${paint(view, verdictColor(verdict), verdict)}${l.slice(2 + verdict.length)}` : l)));
    }
  }
  out.push('');
  return out;
}

function renderRows(rows: readonly DecisionRow[], view: View, t: CliMessages, oneSession: string | null, opts: RenderOptions): string[] {
  const out: string[] = [];
  const time = opts.columns?.time ?? rows.some((r) => r.time !== null);
  const session = opts.columns?.session ?? (oneSession === null && rows.some((r) => r.session !== null));
  const [timeLabel, sessionLabel, whoLabel, verdictLabel, callLabel] = t.viewColumns();
  const widths = {
    time: time ? Math.max(timeLabel!.length, 8) : 0,
    session: session ? (opts.widths?.session ?? Math.max(sessionLabel!.length, ...rows.map((r) => (r.session ?? '').length))) : 0,
    who: opts.widths?.who ?? Math.min(24, Math.max(whoLabel!.length, ...rows.map((r) => r.who.length))),
    verdict: opts.widths?.verdict ?? Math.max(verdictLabel!.length, ...rows.map((r) => r.verdict.length)),
  };
  const cell = (text: string, w: number) => (w === 0 ? '' : `${text.padEnd(w)}  `);
  /** The columns before the call: plain, to measure; painted, to print. */
  const head = (r: Pick<DecisionRow, 'who' | 'verdict'> & { time: string; session: string }, painted: boolean) => {
    const verdict = cell(r.verdict, widths.verdict);
    const shownVerdict = painted ? `${paint(view, verdictColor(r.verdict), r.verdict)}${verdict.slice(r.verdict.length)}` : verdict;
    return `${cell(r.time, widths.time)}${cell(r.session, widths.session)}${cell(r.who, widths.who)}${shownVerdict}`;
  };
  const callAt = head({ time: '', session: '', who: '', verdict: '' }, false).length;
  // Too narrow for the call beside the columns: it goes on lines of its own, as the reason does.
  const callBeside = view.width - callAt >= 24;
  const detailAt = Math.min(callAt, time ? widths.time + 2 : 4);
  if (opts.title !== undefined)
    out.push(
      paint(
        view,
        'dim',
        `${head({ time: timeLabel!, session: sessionLabel!, who: whoLabel!, verdict: verdictLabel! }, false)}${callLabel}`.trimEnd(),
      ),
    );
  for (const r of rows) {
    const cells = { time: r.time ?? '', session: r.session ?? '', who: r.who, verdict: r.verdict };
    const plain = head(cells, false);
    const painted = head(cells, true);
    if (callBeside && plain.length === callAt) {
      const lines = hanging('', r.call, callAt, view.width);
      out.push(`${painted}${lines[0]!}`, ...lines.slice(1));
    } else {
      out.push(painted.trimEnd(), ...hanging(' '.repeat(detailAt), r.call, detailAt, view.width));
    }
    if (r.detail !== '') out.push(...hanging(' '.repeat(detailAt), r.detail, detailAt, view.width));
  }
  return out;
}
