import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bwrapArgs, projectProblem } from '../../src/exec/confine';
import { hiddenFromStart, hiddenPaths } from '../../src/exec/map';
import { planLaunch } from '../../src/exec/launcher';
import { EXEC_MESSAGES } from '../../src/exec/messages';
import { leaveTicket, takeTicket, ticketsDir, type Ticket } from '../../src/exec/tickets';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-exec-unit-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'state'), { mode: 0o700 });
  return join(dir, 'state');
}

const ticket = (over: Partial<Ticket> = {}): Ticket => ({
  v: 1,
  program: '/opt/aeat/bin/aeat',
  args: ['modelo', 'work', 'create'],
  project: '/work/p',
  session_id: 's',
  tool_use_id: 't',
  agent_id: null,
  agent_type: null,
  persona: 'modelo-preparer',
  stage: null,
  command_key: 'modelo.work.create',
  policy_sha256: null,
  locale: 'en',
  expires: Date.now() + 60_000,
  ...over,
});

describe('tickets: one judged start each', () => {
  it('is taken once, for exactly its argv', () => {
    const dir = stateDir();
    const secret = leaveTicket(dir, ticket());
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(takeTicket(dir, secret, '/opt/aeat/bin/aeat', ['modelo', 'export'])).toBeNull();
    expect(takeTicket(dir, secret, '/opt/aeat/bin/aeat', ['modelo', 'work'])).toBeNull();
    expect(takeTicket(dir, 'f'.repeat(32), '/opt/aeat/bin/aeat', ['modelo', 'work', 'create'])).toBeNull();
    expect(takeTicket(dir, secret, '/opt/aeat/bin/aeat', ['modelo', 'work', 'create'])).toMatchObject({
      persona: 'modelo-preparer',
      command_key: 'modelo.work.create',
    });
    expect(takeTicket(dir, secret, '/opt/aeat/bin/aeat', ['modelo', 'work', 'create'])).toBeNull();
    expect(readdirSync(ticketsDir(dir))).toEqual([]);
  });

  it('is void once expired, and goes', () => {
    const dir = stateDir();
    const secret = leaveTicket(dir, ticket({ expires: Date.now() - 1 }));
    leaveTicket(dir, ticket({ args: ['whoami'], expires: Date.now() - 1 }));
    expect(takeTicket(dir, secret, '/opt/aeat/bin/aeat', ['modelo', 'work', 'create'])).toBeNull();
    expect(readdirSync(ticketsDir(dir))).toEqual([]);
  });

  it('two tickets for the same argv make two starts, each with its own secret', () => {
    const dir = stateDir();
    const one = leaveTicket(dir, ticket({ tool_use_id: 'one' }));
    const two = leaveTicket(dir, ticket({ tool_use_id: 'two' }));
    expect(takeTicket(dir, two, '/opt/aeat/bin/aeat', ['modelo', 'work', 'create'])?.tool_use_id).toBe('two');
    expect(takeTicket(dir, one, '/opt/aeat/bin/aeat', ['modelo', 'work', 'create'])?.tool_use_id).toBe('one');
  });
});

describe('the launcher decides before it starts anything', () => {
  const env = (dir: string) => ({ PERSONA_GATE_STATE_DIR: dir, HOME: '/nonexistent', PATH: process.env.PATH });
  const map = (dir: string) =>
    writeFileSync(
      join(dir, 'exec.json'),
      JSON.stringify({
        v: 1,
        runtime: '/usr/bin/node',
        launcher: '/opt/pg/l.cjs',
        programs: { aeat: '/opt/aeat/bin/aeat' },
        readOnly: [dir],
      }),
      { mode: 0o600 },
    );

  it('refuses without a map, a program it does not launch, or a ticket', () => {
    const dir = stateDir();
    expect(planLaunch(['/opt/aeat/bin/aeat', 'whoami'], env(dir), '/work/p')).toMatchObject({
      refused: EXEC_MESSAGES.en.notLaunched('/opt/aeat/bin/aeat'),
    });
    map(dir);
    expect(planLaunch(['/bin/sh', '-c', 'x'], env(dir), '/work/p')).toMatchObject({ refused: EXEC_MESSAGES.en.notLaunched('/bin/sh') });
    const none = planLaunch(['/opt/aeat/bin/aeat', 'whoami'], env(dir), '/work/p');
    expect(none).toMatchObject({
      refused: EXEC_MESSAGES.en.noTicket('/opt/aeat/bin/aeat'),
      receipt: { verdict: 'deny', hook_event: 'ExecStart', session_id: 'persona-gate-exec' },
    });
    expect(none.run).toBeUndefined();
    expect(planLaunch([], env(dir), '/work/p').refused).toBe(EXEC_MESSAGES.en.usage());
  });

  it('with a ticket: bubblewrap with the program and its arguments, and the ticket’s receipt', () => {
    const dir = stateDir();
    map(dir);
    const secret = leaveTicket(dir, ticket({ args: ['whoami'], command_key: 'config.profile.status' }));
    expect(planLaunch(['/opt/aeat/bin/aeat', 'whoami'], env(dir), '/work/p', 'linux').refused).toBe(
      EXEC_MESSAGES.en.noTicket('/opt/aeat/bin/aeat'),
    );
    const out = planLaunch(['/opt/aeat/bin/aeat', `--persona-gate-ticket=${secret}`, 'whoami'], env(dir), '/work/p', 'linux');
    if (!out.run) return expect.fail(out.refused);
    expect(out.run.args.slice(-3)).toEqual(['--', '/opt/aeat/bin/aeat', 'whoami']);
    expect(out.receipt).toMatchObject({
      verdict: 'allow',
      persona: 'modelo-preparer',
      command_key: 'config.profile.status',
      session_id: 's',
      tool_use_id: 't',
    });
  });

  it('refuses where it cannot confine, the ticket taken all the same', () => {
    const dir = stateDir();
    map(dir);
    const secret = leaveTicket(dir, ticket({ args: ['whoami'] }));
    expect(planLaunch(['/opt/aeat/bin/aeat', `--persona-gate-ticket=${secret}`, 'whoami'], env(dir), '/work/p', 'darwin').refused).toMatch(
      /Linux only; this is darwin/,
    );
    expect(takeTicket(dir, secret, '/opt/aeat/bin/aeat', ['whoami'])).toBeNull();
  });
});

describe('the confinement', () => {
  const base = { project: '/work/p', cwd: '/work/p/sub', program: '/opt/aeat/bin/aeat', args: ['x'], tmpdir: null };
  it('binds the project writable and, inside it, the guarded paths and the host configuration read-only', () => {
    const exists = (p: string) => ['/work/p/.claude', '/work/p/.git', '/work/p/home/.claude/settings.json', '/state'].includes(p);
    const args = bwrapArgs({ ...base, readOnly: ['/state', '/work/p/home/.claude/settings.json', '/work/p/missing'], exists });
    expect(args.slice(0, 13)).toEqual([
      '--unshare-pid',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--bind',
      '/work/p',
      '/work/p',
    ]);
    const ro = args.flatMap((a, k) => (a === '--ro-bind' && k > 3 ? [args[k + 1]] : []));
    expect(ro).toEqual(['/work/p/home/.claude/settings.json', '/work/p/.claude', '/work/p/.git']);
    expect(args.slice(-6)).toEqual(['--die-with-parent', '--chdir', '/work/p/sub', '--', '/opt/aeat/bin/aeat', 'x']);
  });

  it('lets the program write its own state directory, not one that holds a guarded path', () => {
    const exists = () => true;
    expect(bwrapArgs({ ...base, readOnly: ['/state'], writable: ['/home/u/.aeat'], exists }).join(' ')).toContain(
      '--bind /home/u/.aeat /home/u/.aeat',
    );
    expect(bwrapArgs({ ...base, readOnly: ['/home/u/.aeat/x'], writable: ['/home/u/.aeat'], exists }).join(' ')).not.toContain(
      '--bind /home/u/.aeat',
    );
    expect(
      bwrapArgs({ ...base, readOnly: ['/state'], writable: ['/home/u/.aeat'], exists: (p) => p !== '/home/u/.aeat' }).join(' '),
    ).not.toContain('/home/u/.aeat');
  });

  it('lets the program write its temporary directory unless a guarded path is in or above it', () => {
    const exists = () => true;
    expect(bwrapArgs({ ...base, readOnly: ['/state'], tmpdir: '/tmp/claude-0', exists }).join(' ')).toContain(
      '--bind /tmp/claude-0 /tmp/claude-0',
    );
    expect(bwrapArgs({ ...base, readOnly: ['/tmp/claude-0/state'], tmpdir: '/tmp/claude-0', exists }).join(' ')).not.toContain(
      '--bind /tmp/claude-0',
    );
    expect(bwrapArgs({ ...base, readOnly: ['/tmp'], tmpdir: '/tmp/claude-0', exists }).join(' ')).not.toContain('--bind /tmp/claude-0');
  });

  it('hides the other launched programs and the exec directory, never its own installation', () => {
    const map = {
      v: 1 as const,
      runtime: '/n',
      launcher: '/l',
      programs: { aeat: '/opt/aeat/bin/aeat', gh: '/usr/local/bin/gh', tool: '/opt/tool/bin/tool', x: '/opt/x-1.2/bin/x' },
      readOnly: [],
      writable: [],
    };
    const hidden = hiddenFromStart(map, '/opt/tool/bin/tool', '/state/exec');
    // a versioned installation is hidden whole, as the program's own directory is
    expect(hidden).toEqual([
      { path: '/opt/aeat', tree: true },
      { path: '/usr/local/bin/gh', tree: false },
      { path: '/opt/x-1.2', tree: true },
      { path: '/state/exec', tree: true },
    ]);
    expect(hiddenPaths('/opt/xylophone/bin/x', 'x')).toEqual([{ path: '/opt/xylophone/bin/x', tree: false }]);
    // a version or an environment inside the program's own directory: that directory, whole
    expect(hiddenPaths('/opt/aeat/1.2/bin/aeat', 'aeat')).toEqual([{ path: '/opt/aeat', tree: true }]);
    expect(hiddenPaths('/srv/aeat/.venv/bin/aeat', 'aeat')).toEqual([{ path: '/srv/aeat', tree: true }]);
    // …never a home directory named like the program
    expect(hiddenPaths('/home/node/.local/bin/node', 'node')).toEqual([{ path: '/home/node/.local/bin/node', tree: false }]);
    const exists = (p: string) => p !== '/usr/local/bin/gh';
    const args = bwrapArgs({
      ...base,
      program: '/opt/tool/bin/tool',
      readOnly: [],
      hidden: [...hidden, { path: '/opt/tool', tree: true }],
      exists,
    });
    // a missing path is not mounted over (bwrap could not), the program's own tree never
    expect(args.join(' ')).toContain('--tmpfs /opt/aeat --tmpfs /opt/x-1.2 --tmpfs /state/exec --die-with-parent');
    expect(args.join(' ')).not.toMatch(/--tmpfs \/opt\/tool|\/usr\/local\/bin\/gh/);
    // a working directory or a project inside a hidden directory is hidden with it
    const inside = bwrapArgs({ ...base, cwd: '/state/exec/calls', readOnly: [], hidden: [{ path: '/state/exec', tree: true }], exists });
    expect(inside.join(' ')).toContain('--tmpfs /state/exec --die-with-parent --chdir /state/exec/calls');
    expect(bwrapArgs({ ...base, readOnly: [], hidden: [{ path: '/opt/x/bin/x', tree: false }], exists }).join(' ')).toContain(
      '--ro-bind /dev/null /opt/x/bin/x',
    );
  });

  it('never makes / or a relative directory the writable one', () => {
    expect(projectProblem('/')).not.toBeNull();
    expect(projectProblem('work/p')).not.toBeNull();
    expect(projectProblem('/work/p')).toBeNull();
  });
});
