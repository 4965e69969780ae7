import { describe, expect, it } from 'vitest';
import { renderDecisions, viewFor, wrapText } from '../../src/cli/decision-view';
import { cliEn } from '../../src/cli/messages';

describe('viewFor', () => {
  it("takes a terminal's width, else COLUMNS, else 100", () => {
    expect(viewFor({ isTTY: true, columns: 132 }, { COLUMNS: '50' }).width).toBe(132);
    expect(viewFor({ isTTY: false }, { COLUMNS: '50' }).width).toBe(50);
    expect(viewFor({}, {}).width).toBe(100);
    expect(viewFor({}, { COLUMNS: 'wide' }).width).toBe(100);
    expect(viewFor({}, { COLUMNS: '10' }).width).toBe(40);
  });

  it('colours on a terminal only, unless NO_COLOR is set (to anything but empty) or TERM is dumb', () => {
    expect(viewFor({ isTTY: true, columns: 80 }, {}).color).toBe(true);
    expect(viewFor({ isTTY: false }, {}).color).toBe(false);
    expect(viewFor({ isTTY: true, columns: 80 }, { NO_COLOR: '1' }).color).toBe(false);
    expect(viewFor({ isTTY: true, columns: 80 }, { NO_COLOR: '' }).color).toBe(true);
    expect(viewFor({ isTTY: true, columns: 80 }, { TERM: 'dumb' }).color).toBe(false);
  });
});

describe('wrapText', () => {
  it('fills lines to the width and loses no word; a word longer than a line is broken, not cut', () => {
    const text =
      'the releaser persona owns npm.publish: hand off to releaser; mcp__a_very_long_server_name__and_a_very_long_tool_name is fine';
    const lines = wrapText(text, 20);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
    expect(lines.join(' ').replace(/\s+/g, ' ')).not.toContain('…');
    expect(lines.join('')).toContain('mcp__a_very_long_se');
    expect(lines.join(' ').split(/\s+/).join('')).toBe(text.split(/\s+/).join(''));
  });
});

describe('renderDecisions', () => {
  const rows = [
    {
      time: null,
      session: null,
      who: 'researcher',
      verdict: 'deny',
      call: 'Bash {"command":"npm publish"}',
      detail: 'permission_denied: ' + 'the researcher persona may not run npm.publish, owned by the releaser persona. '.repeat(3),
    },
    {
      time: null,
      session: null,
      who: 'releaser',
      verdict: 'ask',
      call: 'Bash {"command":"npm publish"}',
      detail: "npm.publish needs the user's confirmation before it runs.",
    },
  ];
  it('puts each call on its row and its reason under it, within the width, with a legend of the verdicts shown', () => {
    const out = renderDecisions(rows, { width: 60, color: false }, cliEn, { title: 'what these are', oneSession: 's1' });
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(out).toMatch(/^what these are\nAll rows are one session, s1: /);
    expect(out).toMatch(/^ {2}deny {2}refused/m);
    expect(out).toMatch(/^ {2}ask {3}the user is asked/m);
    expect(out).not.toMatch(/^ {2}abstain/m);
    expect(out).toMatch(/^researcher {2}deny {5}Bash \{"command":"npm publish"\}$/m);
    expect(out.replace(/\s+/g, ' ')).toContain(rows[0]!.detail.trim());
  });

  it('colours the verdict, and nothing of the reason', () => {
    const out = renderDecisions(rows, { width: 60, color: true }, cliEn, { title: 't' });
    expect(out).toContain('\u001b[31mdeny\u001b[0m');
    expect(out).toContain('\u001b[33mask\u001b[0m');
    expect(out).toMatch(/^ {4}permission_denied: the researcher/m);
  });
});
