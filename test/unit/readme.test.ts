import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, brokenLinks, links, taggedBlocks, wordCount } from '../helpers/markdown';
import { ROOT } from '../helpers/policy';

// The README is what a newcomer reads first: short enough for ten minutes, and every link in it
// and in docs/ leads somewhere. The commands of its quick path are run by test/cli/readme.test.ts.
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const readme = readFileSync(README, 'utf8');

describe('README.md', () => {
  it('is at most 2,500 words', () => {
    expect(wordCount(readme)).toBeLessThanOrEqual(2500);
  });

  it('says that the test command is npm test', () => {
    expect(readme).toMatch(/^npm test\b/m);
  });

  it('says plainly that the package is not on the npm registry, and uses no placeholder owner', () => {
    expect(readme).toContain('It is not on the npm registry');
    expect(readme).not.toMatch(/OWNER|github:[A-Z]/);
  });

  it('tags the blocks the quick-path test runs', () => {
    const tags = taggedBlocks(readme).map((b) => `${b.tag}:${b.lang}`);
    expect(tags.filter((t) => t === 'quick-path:sh').length).toBeGreaterThanOrEqual(3);
    expect(tags).toContain('policy:json');
    expect(tags).toContain('policy:sh');
    expect(tags).toContain('policy-tests:json');
  });
});

describe('links in README.md and docs/', () => {
  const files = [
    README,
    ...readdirSync(DOCS)
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(DOCS, f)),
  ];

  it.each(files.map((f) => [f.slice(ROOT.length + 1), f]))('every relative link of %s resolves', (_name, file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('the README links to every page in docs/', () => {
    const linked = new Set(links(readme).map((l) => l.target.split('#')[0]));
    const pages = readdirSync(DOCS)
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`);
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });
});

describe('the link checker', () => {
  it('finds a missing file, a missing anchor, and accepts the anchors GitHub makes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-links-'));
    try {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'a.md'), '# A page\n\n## OpenAI Codex CLI (`--host codex`, 0.171.0)\n\n## Notes\n\n## Notes\n');
      writeFileSync(
        join(dir, 'README.md'),
        [
          '[ok](docs/a.md) [anchor](docs/a.md#openai-codex-cli---host-codex-01710) [repeat](docs/a.md#notes-1)',
          '[gone](docs/b.md) [bad anchor](docs/a.md#nowhere) [web](https://example.com/x)',
          '`[code](docs/c.md)`',
          '```',
          '[fenced](docs/d.md)',
          '```',
        ].join('\n'),
      );
      expect(brokenLinks(join(dir, 'README.md')).map((b) => b.slice(dir.length + 1))).toEqual([
        'README.md:2: docs/b.md: no such file',
        'README.md:2: docs/a.md#nowhere: no heading with that anchor',
      ]);
      expect([...anchors(readFileSync(join(dir, 'docs', 'a.md'), 'utf8'))]).toEqual([
        'a-page',
        'openai-codex-cli---host-codex-01710',
        'notes',
        'notes-1',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts words as wc -w does', () => {
    expect(wordCount('one two\n\nthree  four\tfive ')).toBe(5);
  });
});
