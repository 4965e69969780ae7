import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTINS, GIT_NETWORK, GIT_READ, GIT_WRITE, NETWORK, PACKAGE_MANAGERS, PROJECT_RUNNERS, READERS, READS_WHATEVER_ARGUMENTS, RUNNER_SUBCOMMANDS, RUNTIME_VARIABLES, SHELLS, WRAPPERS, WRITERS } from '../../src/shell/programs';
import { ROOT } from '../helpers/policy';

// The README lists the shell reader's program tables; this keeps the list and the data the same.
const START = '<!-- program-tables:start -->';
const END = '<!-- program-tables:end -->';
const code = (names: readonly string[]) => [...new Set(names)].map((n) => `\`${n}\``).join(', ');

function tables(): string {
  const writers = new Map<string, string[]>();
  for (const [name, rule] of Object.entries(WRITERS)) writers.set(rule, [...(writers.get(rule) ?? []), name]);
  const lines = [
    '| class | level | programs |',
    '|---|---|---|',
    `| builtins and plain utilities | \`none\` | ${code(BUILTINS)} |`,
    `| readers | \`read_only\` | ${code(READERS)} (\`find\` without \`-exec\`/\`-delete\`/\`-fprint\`; \`sort\`, \`uniq\`, \`xxd\`, \`iconv\`, \`shuf\` unless they write a file) |`,
    ...[...writers].map(([rule, names]) => `| writers (${rule}) | \`workspace_write\` | ${code(names)} |`),
    `| network programs | \`network\` | ${code(Object.keys(NETWORK).filter((n) => !NETWORK[n]!.opaque))}; opaque as well: ${code(Object.keys(NETWORK).filter((n) => NETWORK[n]!.opaque))} |`,
    `| git, by subcommand | \`read_only\` | ${code(GIT_READ)} |`,
    `| | \`workspace_write\` | ${code(GIT_WRITE)} |`,
    `| | \`network\` | ${code(GIT_NETWORK)} |`,
    `| package managers: these subcommands | \`network\`, opaque | ${Object.entries(PACKAGE_MANAGERS).map(([pm, subs]) => `\`${pm}\` ${subs.join('/')}`).join('; ')} |`,
    `| wrappers, read through to the command they run | — | ${code(Object.keys(WRAPPERS).filter((w) => !PROJECT_RUNNERS.includes(w)))}; \`find -exec/-execdir/-ok/-okdir\` |`,
    `| runners that look the program up in the project's own first (node_modules/.bin, a virtualenv …) | \`process_exec\`, opaque | ${code(PROJECT_RUNNERS)}; ${Object.entries(RUNNER_SUBCOMMANDS).map(([pm, subs]) => `\`${pm} ${subs.join('|')}\``).join(', ')} |`,
    `| what \`xargs\` (without \`-I\`) may run with the arguments it reads; any other program it runs is opaque | \`read_only\` | ${code(READS_WHATEVER_ARGUMENTS)} |`,
    `| shells: \`-c STRING\` is read, otherwise opaque | — | ${code([...SHELLS])}; also \`eval\`, \`alias\` and \`trap\` bodies, \`Invoke-Expression\` |`,
    `| anything else: interpreters, build tools, test runners, unknown programs, \`source\`/\`.\` | \`process_exec\`, opaque | — |`,
    `| assignments that change which program runs (opaque) | — | ${code([...RUNTIME_VARIABLES])} |`,
  ];
  return lines.join('\n');
}

describe('README program tables', () => {
  it('list exactly the data the shell reader uses (UPDATE_README=1 rewrites them)', () => {
    const path = join(ROOT, 'README.md');
    const readme = readFileSync(path, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect(start).toBeGreaterThan(-1);
    const expected = `${START}\n${tables()}\n${END}`;
    if (process.env.UPDATE_README === '1') writeFileSync(path, readme.slice(0, start) + expected + readme.slice(end + END.length));
    else expect(readme.slice(start, end + END.length)).toBe(expected);
  });
});
