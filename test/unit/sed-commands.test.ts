import { describe, it } from 'vitest';
import { readLine } from '../helpers/program-rows';
import { expectStartsAsRun } from '../helpers/redteam';

/** GNU sed's `e COMMAND` runs COMMAND with `sh -c`: what the reader says it starts is what sed starts. */
const LINES = [
  `echo x | sed '1e aeat modelo list'`,
  `echo a | sed -n 'e aeat modelo show; aeat whoami'`,
  `echo x | sed -e 's/x/y/' -e '1e aeat  modelo   list'`,
];

describe('sed: the commands the reader reads are the ones sed runs', () => {
  it.each(LINES)('%s', (line) => expectStartsAsRun(line, readLine(line)));
});
