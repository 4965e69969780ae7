import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readShellCall } from '../../src/shell/resolve-shell';
import { pre, taxIndex } from '../helpers/policy';
import { AEAT, bashRuns, changedBy, whenRan, HOOK_HISTORY, judge, projectTree } from '../helpers/redteam';

/**
 * SPEC §9, second pass: git pathspecs, file descriptors, decompressors, abbreviated long options,
 * backup suffixes, archives written, extended glob syntax. Each row is first run for real with bash
 * (guarded files on a real temp tree, a stub `aeat` on PATH recording its runs); then the gate's
 * verdict for the same line is checked. Paths and the catalogued name are written plainly.
 *
 * The persona is `modelo-preparer` of examples/tax-filing.json with the `shell` family at ceiling `network`.
 */

const STAGED = "echo '{}' > settings.json";

/** [line, setup, guarded file that changes]. */
type G0Row = [string, string, string];

// ─── 1. Gate 0: a guarded file changed by a line the gate lets through ───

const FINDINGS_GATE0: G0Row[] = [
  // git reads its pathspecs as globs and magic; the shell passed them quoted, as one literal word
  ["git checkout HEAD~1 -- '*.json'", HOOK_HISTORY, 'settings.json'],
  ["git restore -s HEAD~1 -- '*settings*'", HOOK_HISTORY, 'settings.json'],
  ["git restore -s HEAD~1 -- '*.json'", HOOK_HISTORY, 'settings.json'],
  ["git checkout HEAD~1 -- '.claude/setting?.json'", HOOK_HISTORY, 'settings.json'],
  ["git checkout HEAD~1 -- '.cl*'", HOOK_HISTORY, 'settings.json'],
  ["git restore -s HEAD~1 -- ':(glob)**/settings.json'", HOOK_HISTORY, 'settings.json'],
  ["git checkout HEAD~1 -- ':(icase).CLAUDE/settings.json'", HOOK_HISTORY, 'settings.json'],
  ["git rm -q -- '*.json'", HOOK_HISTORY, 'settings.json'],
  ["git stash push -q -- '*.json'; git stash drop -q", `${HOOK_HISTORY}; echo '{}' > .claude/settings.json`, 'settings.json'],
  // a directory opened on a descriptor, then written through /dev/fd/N
  ['exec 3< .claude; echo x > /dev/fd/3/settings.json', '', 'settings.json'],
  ['tee /dev/fd/3/settings.json 3<.claude <<< x', '', 'settings.json'],
  // decompressors write the operand's name without its suffix; gzip -S names the output
  ['echo x | gzip > .claude/settings.json.gz && gunzip -f .claude/settings.json.gz', '', 'settings.json'],
  ['echo x | gzip > .claude/settings.json.gz && gzip -df .claude/settings.json.gz', '', 'settings.json'],
  ['echo x | xz > .claude/settings.json.xz && unxz -f .claude/settings.json.xz', '', 'settings.json'],
  ['echo x | bzip2 > .claude/settings.json.bz2 && bunzip2 -f .claude/settings.json.bz2', '', 'settings.json'],
  ['echo x > .claude/settings && gzip -f -S .json .claude/settings', '', 'settings.json'],
  // --target-directory abbreviated
  ['cp --target=.claude settings.json', STAGED, 'settings.json'],
  ['mv --t=.claude settings.json', STAGED, 'settings.json'],
  ['ln -f --targ=.claude settings.json', STAGED, 'settings.json'],
  // a backup made with a chosen suffix lands on the guarded name
  ['cp -b -S .json .claude/persona-gate.json .claude/settings', 'touch .claude/settings', 'settings.json'],
  ['mv -b --suffix=.json x .claude/settings', 'touch .claude/settings x', 'settings.json'],
  ['ln -sb --suffix=.json x .claude/settings', 'touch .claude/settings x', 'settings.json'],
  // archives and other outputs written by programs read as readers or extractors
  ['tar -cf .claude/settings.json .claude/persona-gate.json', '', 'settings.json'],
  ['tar -cvf x.tar .claude/persona-gate.json --index-file=.claude/settings.json', '', 'settings.json'],
  ['sdiff -o .claude/settings.json .claude/persona-gate.json .claude/persona-gate.json', '', 'settings.json'],
  ['git config --file=.claude/settings.local.json a.b c', '', 'settings.local.json'],
  ['git config -f .claude/settings.local.json a.b c', '', 'settings.local.json'],
  // glob syntax the pattern check does not read: extglob, POSIX classes
  ['shopt -s extglob\nrm .claude/settings.@(json)', '', 'settings.json'],
  ['rm .claude/setting[[:lower:]].json', '', 'settings.json'],
];

describe('findings: a guarded file changes and gate 0 does not refuse the line', () => {
  it.each(FINDINGS_GATE0)('%j', (line, setup, file) => {
    const tree = projectTree(setup);
    const d = judge(line, 'network', { cwd: tree.project, isProtected: tree.isProtected });
    whenRan(changedBy(tree, line, 'r\n'), (out) => expect(out).toContain(file));
    expect(d.verdict).toBe('deny');
  });
});

const REFUSED_GATE0: G0Row[] = [
  ["mkdir -p st/.claude && echo '{}' > st/.claude/settings.json && cp -r --no-target-directory st .", '', 'settings.json'],
  ["mkdir -p st/.claude && echo '{}' > st/.claude/settings.json && rsync -aR st/./.claude/settings.json .", '', 'settings.json'],
  ["mkdir -p st/.claude && echo '{}' > st/.claude/settings.json && cd st && cp --parents .claude/settings.json ..", '', 'settings.json'],
  ["git checkout HEAD~1 -- ':/.claude/settings.json'", HOOK_HISTORY, 'settings.json'],
  ['git read-tree -u --reset HEAD~1', HOOK_HISTORY, 'settings.json'],
  ['git reset -q HEAD~1 -- .claude/settings.json && git checkout-index -f -- .claude/settings.json', HOOK_HISTORY, 'settings.json'],
  ['git checkout HEAD~1 --pathspec-from-file=- <<< .claude/settings.json', HOOK_HISTORY, 'settings.json'],
  ['git -C .claude checkout HEAD~1 -- settings.json', HOOK_HISTORY, 'settings.json'],
  ['git diff --output=.claude/settings.json', HOOK_HISTORY, 'settings.json'],
  ['git log -1 --output=.claude/settings.json', HOOK_HISTORY, 'settings.json'],
  ["git clean -fq -- '*.json'", "git init -q . && echo '{}' > .claude/settings.local.json", 'settings.local.json'],
  ['find . -maxdepth 0 -fprint .claude/settings.json', '', 'settings.json'],
  ['find . -maxdepth 0 -fls .claude/settings.json', '', 'settings.json'],
  ['rm .claude/setting{r..t}.json', '', 'settings.json'],
  [
    "tar -xf a.tar --transform='s,^x/,.claude/,'",
    "mkdir x && echo '{}' > x/settings.json && tar -cf a.tar x/settings.json",
    'settings.json',
  ],
  ['tar -xf a.tar --director .claude', `${STAGED} && tar -cf a.tar settings.json`, 'settings.json'],
  ['install -t .claude settings.json', STAGED, 'settings.json'],
  ['cp -t.claude settings.json', STAGED, 'settings.json'],
  ['rsync -a x/ .claude', "mkdir x && echo '{}' > x/settings.json", 'settings.json'],
  ['cp x/settings.json .claud?', "mkdir x && echo '{}' > x/settings.json", 'settings.json'],
  ['pushd .claude >/dev/null; pushd .. >/dev/null; pushd >/dev/null; rm settings.json', '', 'settings.json'],
];

describe('regressions: lines that change a guarded file and are refused', () => {
  it.each(REFUSED_GATE0)('%j', (line, setup, file) => {
    const tree = projectTree(setup);
    const d = judge(line, 'network', { cwd: tree.project, isProtected: tree.isProtected });
    whenRan(changedBy(tree, line, 'r\n'), (out) => expect(out).toContain(file));
    expect(d.verdict).toBe('deny');
  });
});

// ─── 2. A command owned by `verifier` runs while the gate lets the line through ───

const ONE_COMMIT = 'git init -q . && echo a > f && git add f && git commit -qm one';

describe('findings: the owner-only command runs and the gate does not refuse it', () => {
  // sdiff runs its --diff-program with `-y --` and the operands: the catalogued program, its words after
  it.each<[string, string, string]>([[`sdiff --diff-program=${AEAT} modelo export`, '', 'aeat -y -- modelo export']])(
    '%j',
    (line, setup, ran) => {
      whenRan(bashRuns(line, setup), (out) => expect(out).toBe(ran));
      expect(judge(line).verdict).toBe('deny');
    },
  );
});

describe('regressions: lines that run the command and are refused', () => {
  it.each<[string, string, string]>([
    ['find . -maxdepth 0 -execdir aeat modelo export \\;', '', 'aeat modelo export'],
    ['find . -maxdepth 0 -okdir aeat modelo export \\; <<< y', '', 'aeat modelo export'],
    ["env -S'aeat modelo export'", '', 'aeat modelo export'],
    ["env --split-string='aeat modelo export'", '', 'aeat modelo export'],
    ['nice -5 aeat modelo export', '', 'aeat modelo export'],
    ['unshare --wd=. aeat modelo export', '', 'aeat modelo export'],
    ["flock l -c 'aeat modelo export'", '', 'aeat modelo export'],
    ["script -qc 'aeat modelo export' /dev/null", '', 'aeat modelo export'],
    ["tar -cM -L 10 -F 'aeat modelo export' -f x.tar big", 'head -c 30000 /dev/zero > big', 'aeat modelo export'],
    ["git -c alias.x='!aeat modelo export' x", '', 'aeat modelo export'],
    ["git difftool -y -x 'aeat modelo export'", `${ONE_COMMIT} && echo b > f`, 'aeat modelo export'],
    ["printf 'modelo export' | xargs aeat", '', 'aeat modelo export'],
    ['sh -c \'aeat "$@"\' x modelo export', '', 'aeat modelo export'],
    ['a=(aeat modelo export); "${a[@]}"', '', 'aeat modelo export'],
  ])('%j', (line, setup, ran) => {
    whenRan(bashRuns(line, setup), (out) => expect(out).toContain(ran));
    expect(judge(line).verdict).toBe('deny');
  });
});

// ─── 3. Identity through the shell (§9.4): reads bash never runs are not counted ───

describe('regressions: a read that does not run does not confirm', () => {
  it.each([
    'exec true; aeat whoami',
    'set -e; false; aeat whoami',
    'for x in; do aeat whoami; done',
    'aeat whoami >&5',
    'aeat whoami > /',
    'aeat whoami > /nonexistent/x',
    'f() { aeat whoami; }',
    'while false; do aeat whoami; done',
  ])('%j', (line) => {
    whenRan(bashRuns(line), (out) => expect(out).toBe(''));
    expect(readShellCall(taxIndex(), pre('Bash', { command: line }))!.confirmsIdentity).toBe(false);
  });
});

// ─── Gate 0, third pass: what xargs hands a program at run time, files tar removes, archives that
// name paths outside the directory they are extracted into ───

const reading = (line: string) => readShellCall(taxIndex(), pre('Bash', { command: line }))!;

/** Run for real, the line changes the guarded file; the gate, for a persona of that ceiling, refuses it. */
function changesAndIsRefused(line: string, setup: string, file: string, ceiling: 'network' | 'workspace_write') {
  const tree = projectTree(setup);
  const d = judge(line, ceiling, { cwd: tree.project, isProtected: tree.isProtected });
  whenRan(changedBy(tree, line), (out) => expect(out).toContain(file));
  expect(d.verdict).toBe('deny');
}

/** [line, setup, guarded file that changes, ceiling of the persona that runs it]. */
const RUNTIME_TARGETS: [string, string, string, 'network' | 'workspace_write'][] = [
  // the paths xargs appends are read from stdin: the line is opaque, and a guarded path is named in it
  ['echo .claude/settings.json | xargs rm', '', 'settings.json', 'network'],
  ['echo .claude/settings.json | xargs cp /dev/null', '', 'settings.json', 'network'],
  ['echo .claude/settings.json | xargs truncate -s 0', '', 'settings.json', 'network'],
  ['echo -o .claude/settings.json x | xargs sort', 'echo x > x', 'settings.json', 'network'],
  // nothing guarded is named: opaque, so above a workspace_write ceiling
  ['xargs rm < list', 'echo .claude/settings.json > list', 'settings.json', 'workspace_write'],
  ['xargs -a list rm', 'echo .claude/settings.json > list', 'settings.json', 'workspace_write'],
  ['xargs -0 rm < list', "printf '.claude/settings.json\\0' > list", 'settings.json', 'workspace_write'],
  // tar removes what it archived
  ['tar --remove-files -cf out.tar .claude/settings.json', '', 'settings.json', 'network'],
  ['tar -cf out.tar --remove .claude/settings.json', '', 'settings.json', 'network'],
  ['tar --remove-files -cf out.tar -T list', 'echo .claude/settings.json > list', 'settings.json', 'workspace_write'],
  ['tar --remove-files -C .claude -cf out.tar settings.json', '', 'settings.json', 'workspace_write'],
  // -P writes a member to the absolute path it names, whatever -C says
  [
    'mkdir -p out && tar -xPf a.tar -C out',
    'echo x > x && tar -cPf a.tar --transform "s,^$PWD/x,$PWD/.claude/settings.json," "$PWD/x"',
    'settings.json',
    'workspace_write',
  ],
  [
    'mkdir -p out && tar -x --absolute-names -f a.tar -C out',
    'echo x > x && tar -cPf a.tar --transform "s,^$PWD/x,$PWD/.claude/settings.json," "$PWD/x"',
    'settings.json',
    'workspace_write',
  ],
];

describe('regressions: targets a line names only at run time, and the line is refused', () => {
  it.each(RUNTIME_TARGETS)('%j', changesAndIsRefused);

  it('7z extracts into -oDIR, and with -o* into a directory named after the archive beside it', () => {
    const beneath = (line: string) =>
      reading(line)
        .effects.filter((e) => e.effect === 'beneath')
        .map((e) => e.path);
    expect(beneath('7z x a.7z -o/srv/out -y')).toEqual(['/srv/out']);
    expect(beneath("7z x a.7z '-o/srv/*'")).toEqual(['/srv']);
    expect(beneath("7z x a.7z '-o*'")).toEqual(['.']);
  });

  it.each([
    ['unzip -: a.zip -d out', 'unzip -: extracts members to the ../ paths they name'],
    ['unzip -o -: a.zip', 'unzip -: extracts members to the ../ paths they name'],
    ['7z x -spf a.7z', '7z -spf extracts members to the absolute paths they name'],
    ['find . -name "*.tmp" | xargs rm', 'xargs runs rm with arguments it reads at run time'],
  ])('%j runs code the gate cannot read', (line, why) => {
    const r = reading(line);
    expect(r.level).toBe('process_exec');
    expect(r.opaque).toContain(why);
  });

  it.each([
    ['find . -name "*.ts" | xargs grep -l TODO', 'read_only'],
    ['ls | xargs wc -l', 'read_only'],
    ['git ls-files | xargs cat', 'read_only'],
    ['tar -cf out.tar src', 'workspace_write'],
    ['tar -xf a.tar -C out', 'workspace_write'],
    ['unzip a.zip -d out', 'workspace_write'],
  ])('%j is still read as it was', (line, level) => {
    const r = reading(line);
    expect(r.level).toBe(level);
    expect(r.opaque).toEqual([]);
  });
});

// ─── Gate 0, fourth pass: option spellings that hide the program xargs runs or tar's mode,
// wrappers that write files of their own, unzip read as listing ───

const SPELLED_TARGETS: [string, string, string, 'network' | 'workspace_write'][] = [
  // -l and --eof take no separate value: rm is the program, not a value
  ['cat l | xargs -l rm -f cat', 'echo .claude/settings.json > l', 'settings.json', 'workspace_write'],
  ['xargs --eof rm -f < l', 'echo .claude/settings.json > l', 'settings.json', 'workspace_write'],
  // what xargs appends reaches a command line read again
  ['cat l | xargs env -S rm', 'echo .claude/settings.json > l', 'settings.json', 'network'],
  // a value attached in a cluster, an abbreviated mode, an old-style T
  ['tar -cfo.tar --remove-files .claude/settings.json', '', 'settings.json', 'network'],
  ['tar --cre --file=o.tar --remove-files .claude/settings.json', '', 'settings.json', 'network'],
  ['tar -C .claude -xfa.tar', 'echo x > settings.json && tar -cf a.tar settings.json && rm settings.json', 'settings.json', 'network'],
  [
    'tar --extr --file=a.tar -C .claude',
    'echo x > settings.json && tar -cf a.tar settings.json && rm settings.json',
    'settings.json',
    'network',
  ],
  ['tar cfT o.tar l --remove-files', 'echo .claude/settings.json > l', 'settings.json', 'workspace_write'],
];

describe('regressions: options spelled so that the program or the mode is misread, and the line is refused', () => {
  it.each(SPELLED_TARGETS)('%j', changesAndIsRefused);

  it.each([
    ['env time -o .claude/settings.json true'],
    ['time --output=.claude/settings.json true'],
    ['strace -o.claude/settings.json true'],
    ['ltrace -o .claude/settings.json true'],
    ['valgrind --log-file=.claude/settings.json true'],
    ['script -q .claude/settings.json -c true'],
    ['script --log-out .claude/settings.json -c true'],
    ['fakeroot -s .claude/settings.json true'],
    ['xvfb-run -e .claude/settings.json true'],
    ['unzip -o e.zip -d .claude -x -l'],
    ['unzip -o e.zip -d.claude'],
    ['cat l | xargs watch -g cat'],
    ['cat l | xargs script -q -c true'],
    ['cat l | xargs ssh host'],
    // options that take no value, or only a joined one, so the next word is the command
    ['ionice -t cp cat .claude/settings.json'],
    ['watch -d "rm -f .claude/settings.json;" true'],
    ['nsenter -t 1 -w rm cat .claude/settings.json'],
    // write options in a cluster, joined, or abbreviated
    ['strace -fo .claude/settings.json true'],
    ['time -ao .claude/settings.json true'],
    ['time --out=.claude/settings.json true'],
    ['script -q -t.claude/settings.json -c true'],
    ['script -q --timing=.claude/settings.json -c true /dev/null'],
    ['script --log-o=.claude/settings.json -q -c true'],
    ['valgrind --tool=massif --massif-out-file=.claude/settings.json true'],
    ['flock .claude/settings.local.json true'],
  ])('%j is refused: a wrapper writes the file itself, or what runs cannot be read', (line) => {
    expect(judge(line).verdict).toBe('deny');
  });

  it.each([['npx cat README'], ['npm exec cat README'], ['npx --no-install persona-gate log --json'], ['pnpm exec ls'], ['bunx cat x']])(
    '%j may run a program the project planted (node_modules/.bin, a virtualenv): opaque',
    (line) => {
      expect(reading(line).level).toBe('process_exec');
      expect(reading(line).opaque.length).toBeGreaterThan(0);
      expect(judge(line, 'workspace_write').verdict).toBe('deny');
    },
  );

  it("uv run syncs the project's environment before it runs the project's program: network, opaque", () => {
    expect(reading('uv run cat x').level).toBe('network');
    expect(reading('uv run cat x').opaque.length).toBeGreaterThan(0);
    expect(judge('uv run cat x', 'workspace_write').verdict).toBe('deny');
  });

  it.each([
    ['env --uns echo rm -f .claude/settings.json'],
    ['env --chd=/tmp rm -f x'],
    ['flock --time 1 echo rm -f x'],
    ['strace --env echo rm -f x'],
    ['strace -fE echo rm -f x'],
    ["strace -o '|rm -f x' true"],
    ["strace -o '!rm -f x' true"],
    ['strace -o /dev/null -E BASH_ENV=x.sh bash -c true'],
    ["su -s ./x.sh -c 'echo hi'"],
    ["su --sh ./x.sh -c 'echo hi'"],
    ['fakeroot -uf echo rm -f x'],
    ["fakeroot --faked 'x; rm -f x' true"],
    ["script -q --comm='rm -f x' echo"],
    ['unshare --w=/tmp rm -f x'],
  ])('%j: an option the wrapper table does not read, or one that runs code, makes it opaque', (line) => {
    expect(reading(line).level).toBe('process_exec');
    expect(judge(line, 'workspace_write').verdict).toBe('deny');
  });

  it.each([
    ['env -vu echo rm -f .claude/settings.json', 'workspace_write', ['destroy .claude/settings.json']],
    ['env -vC/tmp rm -f x', 'workspace_write', ['destroy x']],
    ['exec -la echo rm -f x', 'workspace_write', ['destroy x']],
    ['flock -nw 1 echo rm -f x', 'workspace_write', ['write echo', 'destroy x']],
    ["fakeroot -s 'x; rm -f x' true", 'workspace_write', ['write x; rm -f x']],
    ["watch -tx sh -c 'rm -f x'", 'workspace_write', ['destroy x']],
    ['unshare -rw/tmp rm -f x', 'workspace_write', ['destroy x']],
    ['unshare --mount=x true', 'none', []],
    ['nsenter -Fw/tmp -t 1 rm -f x', 'workspace_write', ['destroy x']],
    ['sudo -np echo rm -f x', 'workspace_write', ['destroy x']],
    ['time -pf echo rm -f x', 'workspace_write', ['destroy x']],
  ])("%j: a cluster of a wrapper's options is read as its option parser reads it", (line, level, effects) => {
    const r = reading(line);
    expect(r.opaque).toEqual([]);
    expect(r.level).toBe(level);
    expect(r.effects.filter((e) => e.effect !== 'mention').map((e) => `${e.effect} ${e.path}`)).toEqual(effects);
  });

  it.each([
    ['sudo -u deploy ls'],
    ['env -i LANG=C ls'],
    ['timeout -k 5 10 ls'],
    ['nice -n 5 ls'],
    ['nice -10 ls'],
    ['time -p ls'],
    ['strace -f -e trace=open ls'],
    ["script -qc 'ls' /dev/null"],
    ['flock -n /srv/l ls'],
    ['watch -n 1 ls'],
  ])('%j is still read through to the command', (line) => {
    expect(reading(line).opaque).toEqual([]);
    expect(reading(line).level).toBe(line.startsWith('flock') ? 'workspace_write' : 'read_only');
  });

  it('an option that names a program a wrapper runs makes the call opaque', () => {
    expect(reading('dbus-run-session --dbus-daemon=./evil.sh true').opaque).toContain(
      'dbus-run-session --dbus-daemon runs a program it names',
    );
    expect(judge('dbus-run-session --dbus-daemon=./evil.sh true', 'workspace_write').verdict).toBe('deny');
    expect(reading('valgrind --db-command=./x.sh ls').level).toBe('process_exec');
  });

  it('an xargs option cluster that ends in -I is read as its options written apart', () => {
    expect(reading('cat l | xargs -0I {} rm {}')).toEqual(reading('cat l | xargs -0 -I {} rm {}'));
    expect(reading('cat l | xargs -0I {} rm {}').unparsable).toContain('a path computed at run time');
    expect(judge('cat l | xargs -0I {} rm {}', 'workspace_write').verdict).toBe('deny');
  });

  it.each([
    ['ionice -c 3 ls'],
    ['watch -d ls'],
    ['strace -f -o /srv/trace.txt ls'],
    ['time -o /srv/t.txt true'],
    ['strace -o /srv/trace.txt ls'],
    ['unzip -l e.zip'],
    ['unzip -o e.zip -d /srv/out -x "*.md"'],
    ['cat l | xargs -n1 grep -l TODO'],
  ])('%j still passes', (line) => {
    expect(judge(line, 'network', { cwd: '/srv/work' }).verdict).not.toBe('deny');
  });
});

// ─── Wrappers that hand the command to a shell, or run it in another directory ───

/** Whether sudo runs here without asking for a password (CI runs as root with sudo installed). */
const SUDO_RUNS = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;

describe('regressions: sudo -s and -i expand the command again, pkexec runs it in another directory', () => {
  it.each([
    ["sudo -n -s rm -f '$PWD/.claude/settings.json'"],
    ["sudo -n --shell rm -f '$PWD/.claude/settings.json'"],
    ["sudo -n -s 'rm$IFS-f$IFS'\"'\"'.claude/settings.json'\"'\""],
  ])('%j: the words the gate read are not the ones that run', (line) => {
    expect(reading(line).opaque).toEqual([expect.stringMatching(/^sudo -(s|-shell) hands the command to a shell/)]);
    for (const ceiling of ['workspace_write', 'network'] as const) {
      const tree = projectTree('');
      expect(judge(line, ceiling, { cwd: tree.project, isProtected: tree.isProtected }).verdict).toBe('deny');
    }
  });

  it.runIf(SUDO_RUNS)('sudo -s expands $PWD in a word the outer shell passed quoted (a real run)', () => {
    const tree = projectTree('');
    whenRan(changedBy(tree, "sudo -n -s rm -f '$PWD/.claude/settings.json'"), (out) => expect(out).toEqual(['settings.json']));
  });

  it('sudo -i is opaque for the same reason (and runs in the target home)', () => {
    expect(reading('sudo -i ls').opaque).toEqual(['sudo -i hands the command to a shell, which expands its words again']);
    expect(judge('sudo -i ls', 'workspace_write').verdict).toBe('deny');
  });

  it('pkexec without --keep-cwd runs in the target home: relative paths are not known', () => {
    expect(reading('pkexec rm -f .cache/x').unparsable).toMatch(/directory known only at run time/);
    expect(judge('pkexec rm -f notes.txt', 'network').verdict).toBe('deny');
    expect(reading('pkexec --keep-cwd rm -f notes.txt').unparsable).toBeUndefined();
    expect(reading('pkexec rm -f /srv/x').unparsable).toBeUndefined();
  });

  it.each([['sudo -u deploy ls'], ['sudo -E ls'], ['sudo ls -s']])('%j is still read through', (line) => {
    expect(reading(line).opaque).toEqual([]);
    expect(reading(line).level).toBe('read_only');
  });
});
