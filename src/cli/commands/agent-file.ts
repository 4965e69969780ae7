/**
 * A Claude Code subagent definition (`.claude/agents/<name>.md`): YAML front matter between `---`
 * lines, then the prompt. persona-gate changes one key of it, `tools`, and leaves every other line
 * as the user wrote it, byte for byte: the front matter is handled as lines, each top-level key
 * owning the indented or list lines under it, not parsed and re-serialised.
 */

export interface AgentFile {
  /** The front matter's lines, without the `---` fences; null when the file has none. */
  front: string[] | null;
  /** Everything after the closing fence (or the whole file when there is no front matter). */
  body: string;
  eol: string;
}

const KEY_LINE = /^([A-Za-z_][\w-]*)\s*:(.*)$/;

export function parseAgentFile(text: string): AgentFile {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return { front: null, body: text, eol };
  const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === '---');
  if (close < 0) return { front: null, body: text, eol };
  return { front: lines.slice(1, close), body: lines.slice(close + 1).join(eol), eol };
}

export function renderAgentFile(file: AgentFile): string {
  if (file.front === null) return file.body;
  return ['---', ...file.front, '---', file.body].join(file.eol);
}

/** The lines [start, end) a top-level key owns: its own line and the indented or list lines after it. */
function keySpan(front: readonly string[], key: string): [number, number] | null {
  const start = front.findIndex((l) => KEY_LINE.exec(l)?.[1] === key);
  if (start < 0) return null;
  let end = start + 1;
  while (end < front.length && (/^\s+\S/.test(front[end]!) || /^-(\s|$)/.test(front[end]!))) end++;
  return [start, end];
}

const unquote = (s: string) =>
  s
    .trim()
    .replace(/^(['"])(.*)\1$/, '$2')
    .trim();

/** A key's value as a list of names: `a, b`, `[a, b]` or a YAML list; null when the key is absent. */
export function listValue(file: AgentFile, key: string): string[] | null {
  if (file.front === null) return null;
  const span = keySpan(file.front, key);
  if (span === null) return null;
  const [start, end] = span;
  const inline = KEY_LINE.exec(file.front[start]!)![2]!
    .replace(/\s+#.*$/, '')
    .trim();
  const items: string[] = [];
  if (inline !== '')
    items.push(
      ...inline
        .replace(/^\[(.*)\]$/, '$1')
        .split(',')
        .map(unquote),
    );
  for (const line of file.front.slice(start + 1, end)) {
    const item = /^\s*-\s*(.*)$/.exec(line.replace(/\s+#.*$/, ''));
    if (item) items.push(unquote(item[1]!));
  }
  return items.filter((i) => i !== '');
}

/** A scalar key's value (`name`, `description`), unquoted; null when absent. */
export function scalarValue(file: AgentFile, key: string): string | null {
  if (file.front === null) return null;
  const span = keySpan(file.front, key);
  return span === null ? null : unquote(KEY_LINE.exec(file.front[span[0]]!)![2]!);
}

/**
 * The file with `key: a, b, c` in place of what the key said, at the same place; appended to the
 * front matter when the key is absent. A file without front matter gets one, with `name` first.
 */
export function withList(file: AgentFile, key: string, values: readonly string[], name: string): AgentFile {
  // An empty list written as such: Claude Code 2.1.332 reads `tools: []` (like an empty value) as no tools at all.
  const line = `${key}: ${values.length > 0 ? values.join(', ') : '[]'}`;
  if (file.front === null) return { ...file, front: [`name: ${name}`, line] };
  const front = [...file.front];
  const span = keySpan(front, key);
  if (span === null) front.push(line);
  else front.splice(span[0], span[1] - span[0], line);
  return { ...file, front };
}
