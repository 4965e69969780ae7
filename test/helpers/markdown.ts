import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The text of a markdown file outside its fenced code blocks (fences replaced by blank lines, so line numbers hold). */
export function prose(markdown: string): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const m = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence === null && m) {
        fence = m[1]!;
        return '';
      }
      if (fence !== null) {
        if (line.trim().startsWith(fence)) fence = null;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** Words as `wc -w` counts them: runs of characters between whitespace. */
export function wordCount(markdown: string): number {
  return markdown.split(/\s+/).filter(Boolean).length;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .replace(/<[^>]*>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link target `[text](target)` in the prose of a markdown file (inline code left out), with its line. */
export function links(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  prose(markdown)
    .split('\n')
    .forEach((text, i) => {
      const line = text.replace(/`[^`]*`/g, '');
      for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1]!, line: i + 1 });
    });
  return out;
}

/** The relative links of a markdown file that do not resolve to a file (and, with `#anchor`, to a heading of it). */
export function brokenLinks(file: string): string[] {
  const markdown = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const { target, line } of links(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    if (!existsSync(resolved)) {
      broken.push(`${file}:${line}: ${target}: no such file`);
      continue;
    }
    if (anchor !== undefined && anchor !== '') {
      if (!statSync(resolved).isFile() || !anchors(readFileSync(resolved, 'utf8')).has(anchor.toLowerCase()))
        broken.push(`${file}:${line}: ${target}: no heading with that anchor`);
    }
  }
  return broken;
}

/** A fenced block of a markdown file, with the marker comment that tags it and the block that shows its output. */
export interface TaggedBlock {
  tag: string;
  lang: string;
  code: string;
  /** The text block tagged `<!-- readme-output -->` that follows it, if any. */
  output?: string;
  line: number;
}

/**
 * The fenced blocks tagged with `<!-- readme-test: TAG -->` on the line before the fence (blank
 * lines allowed), each with the `<!-- readme-output -->` block after it.
 */
export function taggedBlocks(markdown: string): TaggedBlock[] {
  const lines = markdown.split('\n');
  const blocks: TaggedBlock[] = [];
  const fenceAt = (from: number): { lang: string; body: string; end: number; start: number } | null => {
    let i = from;
    while (i < lines.length && lines[i]!.trim() === '') i++;
    const open = /^```(\S*)\s*$/.exec(lines[i] ?? '');
    if (!open) return null;
    const start = i;
    const body: string[] = [];
    for (i = i + 1; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    return { lang: open[1]!, body: `${body.join('\n')}\n`, end: i, start };
  };
  for (let i = 0; i < lines.length; i++) {
    const tag = /^<!-- readme-test: (\S+) -->$/.exec(lines[i]!.trim());
    if (!tag) continue;
    const block = fenceAt(i + 1);
    if (!block) throw new Error(`README line ${i + 1}: a readme-test marker must stand just before a fenced block`);
    const entry: TaggedBlock = { tag: tag[1]!, lang: block.lang, code: block.body, line: block.start + 1 };
    let j = block.end + 1;
    while (j < lines.length && lines[j]!.trim() === '') j++;
    if (lines[j]?.trim() === '<!-- readme-output -->') {
      const out = fenceAt(j + 1);
      if (!out) throw new Error(`README line ${j + 1}: a readme-output marker must stand just before a fenced block`);
      entry.output = out.body;
      i = out.end;
    } else i = block.end;
    blocks.push(entry);
  }
  return blocks;
}
