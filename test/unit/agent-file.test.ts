import { describe, expect, it } from 'vitest';
import { listValue, parseAgentFile, renderAgentFile, scalarValue, withList } from '../../src/cli/commands/agent-file';

/** The subagent definition's front matter, read and changed one key at a time. */
describe('agent definition files', () => {
  it.each([
    ['tools: Read, Grep, mcp__aeat__whoami', ['Read', 'Grep', 'mcp__aeat__whoami']],
    ['tools: [Read, "Grep"]', ['Read', 'Grep']],
    ["tools:\n  - Read\n  - 'Grep'  # a comment", ['Read', 'Grep']],
    ['tools:\n- Read\n- Grep', ['Read', 'Grep']],
    ['tools: []', []],
    ['tools:', []],
  ])('reads %j', (lines, expected) => {
    const file = parseAgentFile(`---\nname: a\n${lines}\nmodel: opus\n---\nbody\n`);
    expect(listValue(file, 'tools')).toEqual(expected);
    expect(scalarValue(file, 'model')).toBe('opus');
  });

  it('tells an absent key from an empty one, and a file without front matter', () => {
    expect(listValue(parseAgentFile('---\nname: a\n---\nbody'), 'tools')).toBeNull();
    const bare = parseAgentFile('just a prompt\n');
    expect(bare.front).toBeNull();
    expect(renderAgentFile(withList(bare, 'tools', ['Read'], 'a'))).toBe('---\nname: a\ntools: Read\n---\njust a prompt\n');
  });

  it('replaces the lines the key owns, in place, and nothing else', () => {
    const text = '---\nname: a\ntools:\n  - Bash\n  - Read\ndescription: >\n  folded\n  text\n---\nbody\n---\nmore\n';
    const out = renderAgentFile(withList(parseAgentFile(text), 'tools', ['Read', 'Grep'], 'a'));
    expect(out).toBe('---\nname: a\ntools: Read, Grep\ndescription: >\n  folded\n  text\n---\nbody\n---\nmore\n');
    expect(renderAgentFile(withList(parseAgentFile('---\nname: a\n---\nb'), 'tools', [], 'a'))).toBe('---\nname: a\ntools: []\n---\nb');
  });

  it('keeps CRLF line ends', () => {
    const text = '---\r\nname: a\r\ntools: Bash\r\n---\r\nbody\r\n';
    expect(renderAgentFile(withList(parseAgentFile(text), 'tools', ['Read'], 'a'))).toBe(
      '---\r\nname: a\r\ntools: Read\r\n---\r\nbody\r\n',
    );
  });
});
