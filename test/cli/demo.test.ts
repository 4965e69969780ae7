import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { cleanEnv } from '../helpers/cli';
import { ROOT } from '../helpers/policy';

const demo = (env: Record<string, string>) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], { encoding: 'utf8', env: cleanEnv(env), timeout: 120_000 });

describe('npm run demo', () => {
  it('fits the width, says what the rows and verdicts are, and prints every reason whole', () => {
    const r = demo({ COLUMNS: '70' });
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(70);
    expect(lines[0]).toMatch(/^persona-gate demo: the 20 events of examples\/demo-events\.json/);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('All rows are one session, demo-session');
    expect(text).toMatch(/ \(recorded\) not a call: an event the host sent after a call \(PostToolUse\)/);
    expect(text).toContain(
      " abstain let through: persona-gate has no objection and says nothing, so the host's own permission rules decide",
    );
    // The reasons the old demo cut at the terminal's edge: the owner and the next step are there.
    expect(text).toContain(en.handoff('modelo-preparer', 'modelo.export', 'verifier').replace(/^persona-gate: /, ''));
    expect(text).not.toContain('…');
    expect(r.stdout).not.toContain('\u001b[');
  });
});
