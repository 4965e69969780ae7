import { describe, expect, it } from 'vitest';
import { readLine } from '../helpers/program-rows';
import { bashRuns, expectStartsAsRun, whenRan } from '../helpers/redteam';

/**
 * A shell given no `-c` and no script reads its commands from stdin; when that is a here-document
 * the line writes out whole, they are read as `bash -c` reads its string. What the reader says
 * `aeat` is started with must be what the real shell (bash, dash) starts it with. The stub `aeat`
 * logs `aeat ARGS…` on a line for each start.
 */
const LINES = [
  "bash <<'EOF'\naeat modelo list\nEOF",
  'sh <<EOF\naeat  modelo   list\nEOF',
  'dash <<"EOF"\naeat \'a b\' "c  d"\nEOF',
  "bash <<\\EOF\naeat one; aeat two '$HOME'\nEOF",
  "bash <<-'EOF'\n\taeat one\n\t\taeat 'two\n\t\tthree'\n\tEOF",
  "dash <<-'EOF'\n\taeat 'a\n\tb'\n\tEOF",
  "dash -e <<'EOF'\naeat one && aeat two\nEOF",
  "bash -s <<'EOF'\naeat s\nEOF",
  "bash -- <<'EOF'\naeat dashdash\nEOF",
  "bash 0<<'EOF'\naeat zero\nEOF",
  "echo aeat piped | bash <<'EOF'\naeat from the here-document\nEOF",
  "bash <<'EOF'\naeat unterminated",
  "bash <<'EOF'\nif true; then\n  aeat in if\nfi\nbash <<'EOT'\naeat nested\nEOT\nEOF",
];

describe('a shell reading a literal here-document: the commands read are the ones it runs', () => {
  it.each(LINES)('%s', (line) => {
    expectStartsAsRun(line, readLine(line));
  });

  it.each([
    // the body expands: what runs is known only at run time
    'bash <<EOF\naeat $X\nEOF',
    'bash <<EOF\naeat `x`\nEOF',
    'bash <<EOF\naeat a\\\nb\nEOF',
    // not a here-document, or not the one the shell reads
    "bash <<< 'aeat x'",
    'echo aeat x | bash',
    "bash <<'EOF' < script\naeat x\nEOF",
    "bash 3<<'EOF' 0<&3\naeat x\nEOF",
    // a script operand, its arguments, or options that read other files or change the reading
    "bash x.sh <<'EOF'\naeat x\nEOF",
    "bash -- x.sh <<'EOF'\naeat x\nEOF",
    "bash -s arg <<'EOF'\naeat x\nEOF",
    "bash -i <<'EOF'\naeat x\nEOF",
    "bash -l <<'EOF'\naeat x\nEOF",
    "bash --rcfile r <<'EOF'\naeat x\nEOF",
    "bash -k <<'EOF'\naeat x\nEOF",
    "bash -O nullglob <<'EOF'\naeat x\nEOF",
    // through a wrapper, which may read stdin itself (`sudo -S`), or a shell of another language
    "sudo bash <<'EOF'\naeat x\nEOF",
    "fish <<'EOF'\naeat x\nEOF",
    // the redirection of a group, not of the shell
    "{ bash; } <<'EOF'\naeat x\nEOF",
    // exec moves the shell's own stdin: it goes on reading its commands from another file
    "bash <<'EOF'\nexec < x\nEOF",
    "sh <<'EOF'\nexec 3<x; exec 0<&3\nEOF",
    "bash <<'EOF'\n< x exec\nEOF",
  ])('%j stays opaque', (line) => {
    const read = readLine(line);
    expect(read.unparsable).toBeUndefined();
    expect(read.level).toBe('process_exec');
    expect(read.opaque.length).toBeGreaterThan(0);
  });

  // Every spelling of `exec` the shell runs as exec, found in the tree the body is read into: the
  // commands after it come from x, which starts aeat.
  it.each([
    "sh <<'EOF'\n\\exec < x\nEOF",
    'sh <<\'EOF\'\n"exec" < x\nEOF',
    "sh <<'EOF'\nex\\\nec < x\nEOF",
    "sh <<'EOF'\neval 'exec < x'\nEOF",
    "sh <<'EOF'\ncommand exec < x\nEOF",
    "bash <<'EOF'\nf() { exec 0<x; }; f\nEOF",
  ])('%j reads its commands from x: opaque', (line) => {
    const read = readLine(line);
    expect(read.level).toBe('process_exec');
    expect(read.opaque).toContain(`${line.split(' ')[0]} reads commands from stdin`);
    whenRan(bashRuns(line, "echo 'aeat from x' > x"), (logged) => expect(logged).toBe('aeat from x'));
  });

  it('a body that only says the word exec is read through', () => {
    const read = readLine("sh <<'EOF'\necho exec; echo exec < /dev/null\nEOF");
    expect(read.opaque).toEqual([]);
    expect(read.level).toBe('none');
  });
});
