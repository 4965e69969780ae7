import { describe, expect, it } from 'vitest';
import { readShellCall } from '../../src/shell/resolve-shell';
import { pre, taxIndex } from '../helpers/policy';

// SPEC §9.7: reading a command line takes time in proportion to its length. Each construct below,
// repeated to fill the 1 MiB an event may hold, once took from 15 s to minutes (scans that started
// again at every position). Each must be read in a few seconds even on a loaded machine, and a line
// ten times shorter must not take a tenth of the time or more times ten (the growth is linear).
const tax = taxIndex();
const MIB = 1024 * 1024 - 512;
const CONSTRUCTS: [string, (n: number) => string][] = [
  ['((', (n) => '(('.repeat(n / 2)],
  ['[[', (n) => '[[ '.repeat(n / 3)],
  ['${a:', (n) => '${a:'.repeat(n / 4)],
  ['$[', (n) => '$['.repeat(n / 2)],
  ['a long word in $((…))', (n) => `echo $((${'a'.repeat(n - 20)}))`],
  ['a long assignment in $((…))', (n) => `echo $((x${'1'.repeat(n - 20)}=2))`],
  ['pipes', (n) => `${'ls |'.repeat(n / 4)} ls`],
  // each command printing a number is looked for in every arithmetic text
  [
    'commands printing numbers in arithmetic',
    (n) => Array.from({ length: n / 40 }, (_, k) => `echo $(( $(date +%s${k}) + ${k % 10} )); `).join(''),
  ],
  ['quoted words', (n) => `echo ${'"a" '.repeat(n / 4)}`],
  ['assignments and substitutions', (n) => Array.from({ length: n / 28 }, (_, k) => `a${k}=1; echo "$(b)"; `).join('')],
  ['for loops in substitutions', (n) => `${'for f in a b; do echo "$(g "$f")"; done; '.repeat(n / 42)}`],
  ['a heredoc body', (n) => `cat <<'E'\n${'aeat x\n'.repeat(n / 7)}E\n`],
  ['pipes after strings in an awk program', (n) => `awk 'BEGIN{"ls"|getline; ${' a|getline'.repeat(n / 11)}}'`],
  ['redirections from files in an awk program', (n) => `awk 'BEGIN{${'getline<"f";'.repeat(n / 12)}}'`],
  ['an awk program of commands', (n) => `awk 'BEGIN{${'system("ls");'.repeat(n / 13)}}'`],
];

function took(command: string): number {
  const started = performance.now();
  readShellCall(tax, pre('Bash', { command }));
  return performance.now() - started;
}

describe('the shell reader runs in linear time', () => {
  it.each(CONSTRUCTS)(
    '%s, 1 MiB of it',
    (_name, make) => {
      const small = took(make(MIB / 16));
      const whole = took(make(MIB));
      expect(whole).toBeLessThan(5000);
      // quadratic growth would make 16 times the input cost about 256 times the time
      expect(whole).toBeLessThan(Math.max(64 * small, 300));
    },
    60_000,
  );
});
