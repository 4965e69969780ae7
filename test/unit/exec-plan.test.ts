import { describe, expect, it } from 'vitest';
import { launchPlan, type ExecMap } from '../../src/exec/plan';
import { mentioned, parseExecMap, quoteWord } from '../../src/exec/map';

const MAP: ExecMap = {
  v: 1,
  runtime: '/usr/bin/node',
  launcher: '/opt/pg/dist/persona-gate-exec.cjs',
  programs: { aeat: '/opt/aeat/bin/aeat' },
  readOnly: [],
  writable: [],
};
const N = MAP.runtime;
const L = MAP.launcher;
const REAL = MAP.programs.aeat!;

describe('the launch plan: which Bash calls start a launched program', () => {
  it.each([
    ['aeat modelo work create', `${N} ${L} ${REAL} modelo work create`, 'aeat modelo work create'],
    [
      'aeat whoami && aeat modelo work create',
      `${N} ${L} ${REAL} whoami && ${N} ${L} ${REAL} modelo work create`,
      'aeat whoami && aeat modelo work create',
    ],
    ['aeat whoami; aeat modelo list', `${N} ${L} ${REAL} whoami ; ${N} ${L} ${REAL} modelo list`, 'aeat whoami ; aeat modelo list'],
    ['aeat whoami || aeat modelo list', `${N} ${L} ${REAL} whoami || ${N} ${L} ${REAL} modelo list`, 'aeat whoami || aeat modelo list'],
    [
      'aeat modelo work create --title "Q3 draft"',
      `${N} ${L} ${REAL} modelo work create --title 'Q3 draft'`,
      "aeat modelo work create --title 'Q3 draft'",
    ],
    ["aeat modelo show --note 'it'\\''s'", `${N} ${L} ${REAL} modelo show --note 'it'\\''s'`, "aeat modelo show --note 'it'\\''s'"],
    [`${REAL} modelo list`, `${N} ${L} ${REAL} modelo list`, 'aeat modelo list'],
    [`${L} ${REAL} modelo export`, `${N} ${L} ${REAL} modelo export`, 'aeat modelo export'],
    [`${N} ${L} ${REAL} modelo export`, `${N} ${L} ${REAL} modelo export`, 'aeat modelo export'],
    // the rewritten call as its post event carries it: the ticket's secret is not the program's
    [`${N} ${L} ${REAL} --persona-gate-ticket=0123 whoami`, `${N} ${L} ${REAL} whoami`, 'aeat whoami'],
    // a line continuation joins words: the program gets them as arguments, as bash gives them
    ['aeat whoami \\\ntouch x', `${N} ${L} ${REAL} whoami touch x`, 'aeat whoami touch x'],
  ])('%j starts the program: rewritten to the launcher form', (line, command, judged) => {
    expect(launchPlan(line, MAP)).toMatchObject({ kind: 'starts', command, judged });
  });

  it('sees the program through quotes and backslashes, as the shell does', () => {
    const split = (path: string) => `${path.slice(0, 6)}''${path.slice(6)}`;
    expect(launchPlan(`${split(L)} ${split(REAL)} modelo export`, MAP)).toMatchObject({ kind: 'starts', judged: 'aeat modelo export' });
    expect(launchPlan('a\\eat modelo export', MAP)).toMatchObject({ kind: 'starts', judged: 'aeat modelo export' });
    expect(launchPlan('"aeat" modelo export', MAP)).toMatchObject({ kind: 'starts', judged: 'aeat modelo export' });
    expect(mentioned(`echo ${split(L)}`, MAP)).toBe('aeat');
    const continued = (path: string) => `${path.slice(0, 6)}\\\n${path.slice(6)}`;
    expect(launchPlan(`${continued(L)} ${continued(REAL)} modelo export`, MAP)).toMatchObject({
      kind: 'starts',
      judged: 'aeat modelo export',
    });
  });

  it('gives the program exactly the words bash would', () => {
    const plan = launchPlan(`aeat modelo work create --title "a b" x\\ y '' -- "--z"`, MAP);
    expect(plan).toMatchObject({
      kind: 'starts',
      starts: [{ name: 'aeat', program: REAL, args: ['modelo', 'work', 'create', '--title', 'a b', 'x y', '', '--', '--z'] }],
    });
  });

  // The crafted forms: none may leave the sandbox. Refused: they name the program in a form the hook
  // cannot judge. Sandboxed: a literal line that only mentions it, which runs where it does not exist.
  const refused: [string, string][] = [
    ['aeat modelo export <(true)', 'not_literal'],
    ['aeat modelo export >(cat)', 'not_literal'],
    ['aeat modelo export $(touch /tmp/m)', 'not_literal'],
    ['aeat modelo export `touch /tmp/m`', 'not_literal'],
    ['aeat modelo export ${X:-$(touch /tmp/m)}', 'not_literal'],
    ['aeat modelo export ${a[$(touch /tmp/m)]}', 'not_literal'],
    ['aeat modelo export $((1+$(touch /tmp/m)))', 'not_literal'],
    ['aeat modelo export $[1]', 'not_literal'],
    ['aeat modelo export <<EOF\n$(touch /tmp/m)\nEOF', 'not_literal'],
    ['aeat modelo export > /tmp/m', 'not_literal'],
    ['aeat modelo export 2>&1', 'not_literal'],
    ['aeat modelo list < /etc/passwd', 'not_literal'],
    ['aeat whoami | sh', 'not_literal'],
    ['aeat whoami & touch /tmp/m', 'not_literal'],
    ['(aeat modelo export)', 'not_literal'],
    ['{ aeat modelo export; }', 'not_literal'],
    ['if true; then aeat modelo export; fi', 'not_literal'],
    ['aeat modelo export {a,b}', 'not_literal'],
    ["aeat modelo export $'\\x41'", 'not_literal'],
    ['aeat modelo export ${x@P}', 'not_literal'],
    ['X=1 aeat modelo export', 'not_literal'],
    ["GREP='aeat modelo export' zgrep x f", 'not_literal'],
    ['aeat modelo export --x $HOME', 'not_literal'],
    ['aeat modelo export e*', 'not_literal'],
    ['aeat modelo export ~root', 'not_literal'],
    ['aeat modelo export !$', 'not_literal'],
    ['$(which aeat) modelo export', 'not_literal'],
    ['"$(command -v aeat)" modelo export', 'not_literal'],
    ['! aeat modelo export', 'not_literal'],
    ['time aeat modelo export', 'not_literal'],
    ['aeat whoami && git status', 'mixed'],
    ['cd sub && aeat modelo export', 'mixed'],
    [`env ${REAL} modelo export`, 'wrapped'],
    [`nohup ${L} ${REAL} modelo export`, 'wrapped'],
    [`timeout 5 ${REAL} modelo export`, 'wrapped'],
    [`${L} /bin/sh -c x`, 'launcher_target'],
    [`${N} ${L} /bin/sh -c x`, 'launcher_target'],
    [`${L}`, 'launcher_target'],
    [`${N} ${L} ${REAL} modelo export --persona-gate-ticket=0123`, 'launcher_target'],
    ['aeat --persona-gate-ticket=0123 modelo export', 'launcher_target'],
    ['aeat "unterminated', 'unparsable'],
  ];
  it.each(refused)('%j is refused (%s)', (line, why) => {
    expect(launchPlan(line, MAP)).toMatchObject({ kind: 'refused', why, name: 'aeat' });
  });

  // By name alone, such a line may run in the sandbox for the broker to judge its starts (hook/run.ts);
  // by the program's path or the launcher's, never: the host's matcher may read through it.
  it.each(refused)('%j may go to the broker only when it names no path', (line, why) => {
    const byName = (why === 'not_literal' || why === 'mixed') && !line.includes(REAL) && !line.includes(L);
    const plan = launchPlan(line, MAP);
    expect(plan.kind === 'refused' && plan.brokerable === true).toBe(byName);
  });

  it.each([
    `x=$(${REAL} whoami)`,
    `${REAL} whoami && git status`,
    `${L} ${REAL} whoami | head`,
    `${REAL.slice(0, 6)}''${REAL.slice(6)} x > y`,
  ])('%j names a path: refused, never brokered', (line) => {
    const plan = launchPlan(line, MAP);
    expect(plan.kind).toBe('refused');
    expect(plan.kind === 'refused' && plan.brokerable).toBeFalsy();
  });

  it.each([
    'env aeat modelo export',
    "sh -c 'aeat modelo export'",
    'jobs -x aeat modelo export',
    `python3 -c 'import os; os.system("aeat modelo export")'`,
    './bin/aeat modelo export',
    'bin/aeat whoami',
    'grep aeat README.md',
    'xargs aeat modelo export',
  ])('%j is left to the sandbox, where the program is absent', (line) => {
    expect(launchPlan(line, MAP)).toEqual({ kind: 'sandboxed', name: 'aeat' });
  });

  // The script's text hides the name behind an escape (`\naeat`): nothing in the line starts it, so it
  // runs sandboxed, and so does the script it writes.
  it('a script written and then run is not a start', () => {
    expect(launchPlan("printf '#!/bin/sh\\naeat modelo export\\n' > x.sh && sh x.sh", MAP).kind).toBe('none');
    expect(launchPlan("printf '#!/bin/sh\\n aeat modelo export\\n' > x.sh && sh x.sh", MAP)).toMatchObject({
      kind: 'refused',
      why: 'not_literal',
    });
  });

  it.each(['git status', 'cat aeat.log', 'ls ~/.aeat-profiles', 'echo reaeat', 'npm test'])('%j does not name the program', (line) => {
    expect(mentioned(line, MAP)).toBeNull();
    expect(launchPlan(line, MAP)).toEqual({ kind: 'none' });
  });

  it('a rewritten line is made of launcher starts alone', () => {
    for (const [line] of refused) expect(launchPlan(line, MAP).kind).not.toBe('starts');
    const plan = launchPlan('aeat a && aeat b; aeat "c d"', MAP);
    if (plan.kind !== 'starts') throw new Error('expected starts');
    for (const part of plan.command.split(/ (?:&&|;|\|\|) /)) expect(part.startsWith(`${N} ${L} ${REAL} `)).toBe(true);
  });
});

describe('the map of launched programs', () => {
  it('reads what init writes and refuses what is not one', () => {
    expect(parseExecMap(JSON.stringify(MAP))).toEqual(MAP);
    expect(parseExecMap('{"v":1,"runtime":"/n","launcher":"rel/x","programs":{}}')).toBeNull();
    expect(parseExecMap('{"v":1,"runtime":"/n","launcher":"/x","programs":{"aeat":"bin/aeat"}}')).toBeNull();
    expect(parseExecMap('{"v":1,"runtime":"node","launcher":"/x","programs":{}}')).toBeNull();
    expect(parseExecMap('[]')).toBeNull();
    expect(parseExecMap('not json')).toBeNull();
  });

  it('quotes a word only when the shell would read it otherwise', () => {
    expect(quoteWord('modelo')).toBe('modelo');
    expect(quoteWord('a b')).toBe("'a b'");
    expect(quoteWord("it's")).toBe(`'it'\\''s'`);
    expect(quoteWord('')).toBe("''");
  });
});
