import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programsMarkdown } from '../../src/shell/registry/describe';
import { ROOT } from '../helpers/policy';

// docs/programs.md lists what the program registry knows; this keeps the page and the data the same.
const START = '<!-- program-tables:start -->';
const END = '<!-- program-tables:end -->';

describe('docs/programs.md', () => {
  it('lists exactly what the program registry knows (UPDATE_DOCS=1 rewrites it)', () => {
    const path = join(ROOT, 'docs', 'programs.md');
    const page = readFileSync(path, 'utf8');
    const start = page.indexOf(START);
    const end = page.indexOf(END);
    expect(start).toBeGreaterThan(-1);
    const expected = `${START}\n${programsMarkdown()}\n${END}`;
    if (process.env.UPDATE_DOCS === '1') writeFileSync(path, page.slice(0, start) + expected + page.slice(end + END.length));
    else expect(page.slice(start, end + END.length)).toBe(expected);
  });
});
