import { describe, expect, it } from 'vitest';
import { readShellCall } from '../../src/shell/resolve-shell';
import { confirmed, indexOf, pre, run, taxIndex } from '../helpers/policy';
import { judge as taxJudge } from '../helpers/redteam';
import { validatePolicy } from '../../src/policy/validate';

/**
 * SPEC §2 `catalog.programs` and §9.5: a `bash` prefix owns one verb of a program, matched by its
 * subcommands once the program's options are set aside; the program's other invocations are read
 * by the registry like any other, unless the policy declares it closed.
 */
const POLICY = {
  version: 1,
  catalog: {
    include: ['claude-code'],
    families: { release: { level: 'network' }, tracker: { level: 'network' } },
    commands: {
      'release.publish': { level: 'network', owner: 'releaser', bash: ['npm publish'] },
      'release.github': { level: 'network', owner: 'releaser', bash: ['gh release create'] },
      'tracker.list': { level: 'read_only', bash: ['trk list'] },
      'tracker.whoami': { level: 'read_only', bash: ['trk whoami'] },
      'tracker.close': { level: 'network', owner: 'releaser', bash: ['trk issue close'] },
    },
    programs: {
      // an in-house CLI, read as exactly as git
      trk: {
        options: [{ names: ['--profile'], arg: 'required' }, { names: ['-q', '--quiet'] }],
        subcommands: {
          list: { level: 'read_only' },
          issue: { level: 'network', subcommands: { close: { level: 'network' }, show: { level: 'read_only' } } },
          export: { level: 'workspace_write', options: [{ names: ['-o', '--out'], arg: 'required', role: 'writes' }] },
          whoami: { level: 'read_only', options: [{ names: ['--json'] }], operands: 'none' },
        },
      },
      // a domain CLI: only its catalogued commands may run
      aeat: { closed: true },
    },
  },
  personas: {
    implementer: { families: ['shell', 'file_read', 'file_write', 'tracker'], ceiling: 'process_exec' },
    maintainer: { families: ['shell', 'release', 'tracker'], ceiling: 'network' },
    releaser: { families: ['shell', 'release', 'tracker'], ceiling: 'network' },
  },
};

const index = indexOf(POLICY);
const judge = (persona: string, command: string) =>
  run(index, pre('Bash', { command }), { state: confirmed(), env: { PERSONA_GATE_PERSONA: persona }, shell: readShellCall });
const reading = (command: string) => readShellCall(index, pre('Bash', { command }))!;

describe('a bash prefix owns one verb of a program, not the program', () => {
  it('leaves the rest of npm to the registry: the implementer builds and tests', () => {
    for (const line of ['npm test', 'npm run build', 'npm run lint'])
      expect([line, judge('implementer', line).verdict]).not.toEqual([line, 'deny']);
    expect(judge('implementer', 'npm install').status).toBe('permission_denied');
  });

  it('matches the owned verb behind the options before it, and refuses it to every persona but its owner, naming the owner', () => {
    for (const line of ['npm publish', 'npm --prefix packages/app publish --tag beta', 'npm publish --access public']) {
      const d = judge('maintainer', line);
      expect([line, d.status]).toEqual([line, 'handoff_denied']);
      expect(d.reason).toContain('releaser');
      expect(judge('implementer', line).verdict).toBe('deny');
      expect(judge('releaser', line).verdict).not.toBe('deny');
      expect(reading(line).matched.map((m) => m.key)).toEqual(['release.publish']);
    }
    expect(judge('maintainer', 'gh release create v1.0').status).toBe('handoff_denied');
    // gh pr list reaches GitHub: the maintainer, whose ceiling is network, runs it though it owns no gh verb
    expect(judge('maintainer', 'gh pr list').verdict).not.toBe('deny');
  });

  it("reads the owned verb's help as help: it publishes nothing", () => {
    for (const line of ['npm publish --help', 'gh release create --help', 'npm --prefix app publish --help']) {
      expect([line, judge('implementer', line).verdict]).not.toEqual([line, 'deny']);
      expect(reading(line)).toMatchObject({ level: 'read_only', matched: [] });
    }
    // …unless something before it runs a command, or the arguments are added at run time
    expect(judge('implementer', 'ls | xargs npm publish --help').verdict).toBe('deny');
    // a closed program has no form but its catalogued commands
    expect(judge('implementer', 'aeat modelo export --help').status).toBe('unlisted_command');
  });

  it('makes a line unreadable where an option it does not know could hide the owned verb', () => {
    expect(reading('npm --frobnicate x publish').unparsable).toMatch(/could be npm publish/);
    expect(reading('npm $VERB').unparsable).toMatch(/could be npm publish/);
  });
});

describe("catalog.programs: a team's own program", () => {
  it('is read by its declared grammar: options set aside, subcommands and their levels, options that write', () => {
    expect(reading('trk --profile work list').matched.map((m) => m.key)).toEqual(['tracker.list']);
    expect(reading('trk -q issue close 12').matched.map((m) => m.key)).toEqual(['tracker.close']);
    expect(reading('trk issue show 12')).toMatchObject({ level: 'read_only', matched: [], unlisted: [] });
    expect(reading('trk export -o report.csv')).toMatchObject({
      level: 'workspace_write',
      effects: [expect.objectContaining({ path: 'report.csv', effect: 'write' })],
    });
    expect(reading('trk frob').opaque).toEqual([expect.stringMatching(/trk frob is not a subcommand/)]);
    expect(judge('maintainer', 'trk issue close 12').status).toBe('handoff_denied');
    expect(judge('implementer', 'trk issue show 12').verdict).not.toBe('deny');
  });

  it('closed: an invocation that matches none of its catalogued commands is refused', () => {
    const r = reading('aeat modelo export');
    expect(r.unlisted).toEqual(['aeat modelo export']);
    expect(judge('implementer', 'aeat modelo export').status).toBe('unlisted_command');
  });

  // SPEC §9.5 counts --help as ordinary work: the help of a group of a closed program's commands
  // runs; after a whole command (which a program ignoring the option would run) it is that command.
  it('closed: --help after a proper prefix of its catalogued commands is help', () => {
    for (const line of ['aeat --help', 'aeat modelo --help', 'aeat modelo work --help']) {
      expect([line, taxJudge(line).verdict]).toEqual([line, 'abstain']);
      expect(readShellCall(taxIndex(), pre('Bash', { command: line }))).toMatchObject({ level: 'read_only', unlisted: [], matched: [] });
    }
    expect(taxJudge('aeat modelo export --help').status).toBe('handoff_denied');
    for (const line of [
      'aeat nosuch --help',
      'aeat --help modelo',
      'aeat modelo --help --help',
      'aeat $G --help',
      'ls | xargs aeat --help',
    ])
      expect([line, taxJudge(line).verdict]).toEqual([line, 'deny']);
  });

  // `aeat whoami modelo export` is not `aeat whoami` when whoami takes no operands: the program
  // may read the words after it as another command
  it('operands none: a word after a command that takes none makes it another command', () => {
    expect(reading('trk whoami --json').matched.map((m) => m.key)).toEqual(['tracker.whoami']);
    const other = reading('trk whoami issue close 12');
    expect(other.matched).toEqual([]);
    expect(other).toMatchObject({ level: 'process_exec', unlisted: [] });
    expect(other.opaque).toEqual([expect.stringMatching(/trk whoami takes no operands, and the program may read issue/)]);
    // an open program's other invocations are judged by their level (process_exec, opaque, here)
    expect(reading('trk whoami --json issue')).toMatchObject({ level: 'process_exec', matched: [] });

    // the tax example declares its identity reads so
    for (const line of ['aeat whoami', 'aeat whoami --json', 'aeat config profile status'])
      expect([line, readShellCall(taxIndex(), pre('Bash', { command: line }))!.matched.map((m) => m.key)]).toEqual([
        line,
        ['config.profile.status'],
      ]);
    for (const line of [
      'aeat whoami modelo export',
      'aeat whoami ""',
      'aeat config profile status modelo export',
      'aeat whoami --format json',
      'echo 303 | xargs aeat whoami',
    ]) {
      expect([line, readShellCall(taxIndex(), pre('Bash', { command: line }))!.unlisted]).toEqual([line, [expect.any(String)]]);
      expect([line, taxJudge(line).status]).toEqual([line, 'unlisted_command']);
    }
    expect(taxJudge('aeat whoami modelo export').reason).toMatch(/a word after a command that takes none/);
  });

  it('is validated like the rest of the policy', () => {
    const bad = structuredClone(POLICY) as unknown as { catalog: { programs: Record<string, unknown> } };
    bad.catalog.programs.trk = {
      options: [{ names: ['profile'], arg: 'required' }],
      subcommands: { list: { level: 'readonly' }, whoami: { operands: 'nothing' } },
    };
    bad.catalog.programs['bin/x'] = {};
    const result = validatePolicy(bad);
    expect(result.ok).toBe(false);
    const paths = result.ok ? [] : result.problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'catalog.programs.trk.options[0].names[0]',
        'catalog.programs.trk.subcommands.list.level',
        'catalog.programs.trk.subcommands.whoami.operands',
      ]),
    );
    expect(paths.some((p) => p.includes('bin/x'))).toBe(true);
  });
});
