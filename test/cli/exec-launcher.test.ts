import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXEC_MESSAGES } from '../../src/exec/messages';
import { argvKey } from '../../src/exec/tickets';
import { cliEn } from '../../src/cli/messages';
import { en } from '../../src/core/messages';
import { runCli } from '../helpers/cli';
import { deployment } from '../helpers/exec-deployment';
import { installed } from '../helpers/programs';
import { ROOT, taxPolicyWithShell } from '../helpers/policy';

const LAUNCHER = join(ROOT, 'dist', 'persona-gate-exec.cjs');
const NODE = realpathSync(process.execPath);
const noBwrap = process.platform !== 'linux' || !installed('bwrap') ? 'bubblewrap is not installed (apt-get install bubblewrap)' : null;
if (noBwrap) process.stderr.write(`test/cli/exec-launcher.test.ts: the real starts are skipped, ${noBwrap}\n`);

describe('the excluded launcher, built', () => {
  it('init --hardened excludes exactly the launcher with the real program, and hides the program', () => {
    const d = deployment();
    const settings = JSON.parse(readFileSync(join(d.home, '.claude', 'settings.json'), 'utf8'));
    const install = join(d.dir, 'opt', 'aeat');
    expect(settings.sandbox.excludedCommands).toEqual([`${NODE} ${LAUNCHER} ${d.real} *`]);
    // the installation, and the tickets' secrets
    expect(settings.sandbox.filesystem.denyRead).toEqual([install, join(d.stateDir, 'exec')]);
    expect(settings.permissions.deny).toContain(`Read(/${install}/**)`);
    expect(settings.permissions.deny).toContain(`Read(/${join(d.stateDir, 'exec')}/**)`);
    expect(d.init.stdout).toContain(`aeat (${d.real}) now starts only through persona-gate's launcher`);
    const map = JSON.parse(readFileSync(join(d.stateDir, 'exec.json'), 'utf8'));
    // the domain's profile state (identity.profile_state: ~/.aeat/active-profile) is the program's to write
    expect(map).toMatchObject({ v: 1, runtime: NODE, launcher: LAUNCHER, programs: { aeat: d.real }, writable: [join(d.home, '.aeat')] });
    // doctor --hardened sees the launcher in place
    const doctor = runCli(['doctor', '--hardened', '--dir', d.project, '--json'], {
      env: { ...d.env, PERSONA_GATE_CLAUDE_BIN: '/nonexistent' },
      cwd: d.project,
    });
    const checks = JSON.parse(doctor.stdout).checks as { level: string; text: string }[];
    expect(checks).toContainEqual(
      expect.objectContaining({ level: 'ok', text: expect.stringContaining(`aeat (${d.real}) starts only through the launcher`) }),
    );
    // the domain's active profile: write-denied, and doctor says so
    const profile = join(d.home, '.aeat', 'active-profile');
    expect(settings.sandbox.filesystem.denyWrite).toContain(profile);
    expect(checks).toContainEqual(expect.objectContaining({ level: 'ok', text: cliEn.hardProfileGuarded(profile) }));
    // …and a settings file without the entry, nor the profile's guard
    delete settings.sandbox.excludedCommands;
    settings.sandbox.filesystem.denyWrite = settings.sandbox.filesystem.denyWrite.filter((p: string) => p !== profile);
    writeFileSync(join(d.home, '.claude', 'settings.json'), JSON.stringify(settings));
    const after = JSON.parse(
      runCli(['doctor', '--hardened', '--dir', d.project, '--json'], {
        env: { ...d.env, PERSONA_GATE_CLAUDE_BIN: '/nonexistent' },
        cwd: d.project,
      }).stdout,
    ).checks;
    expect(after).toContainEqual(
      expect.objectContaining({ level: 'fail', text: expect.stringContaining('aeat: the launcher is not the excluded command') }),
    );
    expect(after).toContainEqual(expect.objectContaining({ level: 'fail', text: cliEn.hardProfileOpen(profile) }));
    // …and a project that takes commands out of the sandbox itself
    writeFileSync(join(d.project, '.claude', 'settings.json'), JSON.stringify({ sandbox: { excludedCommands: ['python3 *'] } }));
    const project = JSON.parse(
      runCli(['doctor', '--hardened', '--dir', d.project, '--json'], {
        env: { ...d.env, PERSONA_GATE_CLAUDE_BIN: '/nonexistent' },
        cwd: d.project,
      }).stdout,
    ).checks;
    expect(project).toContainEqual(
      expect.objectContaining({
        level: 'fail',
        text: expect.stringContaining('takes commands out of the sandbox (sandbox.excludedCommands: python3 *)'),
      }),
    );
  });

  it("init names a settings member of the wrong shape where the launcher's entries go, and changes nothing", () => {
    const d = deployment();
    const path = join(d.home, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(path, 'utf8'));
    settings.sandbox.excludedCommands = 'python3 *';
    writeFileSync(path, JSON.stringify(settings));
    const before = readFileSync(path, 'utf8');
    const again = runCli(['init', '--hardened', '--dir', d.project], { env: d.env, cwd: d.project });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(cliEn.initNotObject(path, 'sandbox.excludedCommands'));
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('the hook rewrites a start it lets through, hands the broker a line it cannot judge, and refuses a path in one', () => {
    const d = deployment();
    const who = d.pre('aeat whoami');
    expect(who.out).toMatchObject({ permissionDecision: 'allow' });
    expect(who.out.updatedInput.command).toMatch(new RegExp(`^${NODE} ${LAUNCHER} ${d.real} --persona-gate-ticket=[0-9a-f]{32} whoami$`));
    expect(d.pre('aeat modelo export').out).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: en.handoff('modelo-preparer', 'modelo.export', 'verifier'),
    });
    // the help of a group of its commands is a start too
    expect(d.pre('aeat modelo --help').out.updatedInput.command).toMatch(
      new RegExp(`^${NODE} ${LAUNCHER} ${d.real} --persona-gate-ticket=[0-9a-f]{32} modelo --help$`),
    );
    // the program named only by name in a form the hook cannot judge as starts: the call runs in the
    // sandbox, rewritten for the broker, which judges each start it makes (test/cli/exec-broker.test.ts)
    for (const line of ['x=$(aeat whoami); echo $x', 'aeat whoami && git status', 'aeat modelo list | head -1']) {
      const brokered = d.pre(line).out;
      expect(brokered).toMatchObject({ permissionDecision: 'allow' });
      expect(brokered.updatedInput.command).toMatch(/^export PATH=\S+\/shims:"\$PATH" PERSONA_GATE_CALL=[0-9a-f]{32}\n/);
      expect(brokered.updatedInput.command.endsWith(`\n${line}`)).toBe(true);
    }
    // its real path or the launcher in such a form is refused: the host's matcher may read through it
    const refused = d.pre(`x=$(${d.real} whoami); echo $x`).out;
    expect(refused).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: EXEC_MESSAGES.en.refused('not_literal', 'aeat', `x=$(${d.real} whoami); echo $x`),
    });
    expect(refused.updatedInput).toBeUndefined();
    expect(d.pre(`${d.real} whoami && git status`).out).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: EXEC_MESSAGES.en.refused('mixed', 'aeat', `${d.real} whoami && git status`),
    });
    // a line that does not name the program is answered as before…
    expect(d.pre('git status').out).toBeNull();
    // …unless it asks to leave the sandbox, where the program is there unchecked
    expect(d.pre('git status', { dangerouslyDisableSandbox: true }).out).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: EXEC_MESSAGES.en.refused('unsandboxed', 'aeat', 'git status'),
    });
  });

  it.skipIf(noBwrap !== null)(
    'an allowed start runs with its real output, stdin and exit status; a refused one does not run and says why',
    () => {
      const d = deployment();
      // Identity first: the read runs through the launcher, and its post event (the rewritten line) confirms.
      const who = d.pre('aeat whoami');
      const whoRun = d.sh(who.out.updatedInput.command);
      expect(whoRun).toMatchObject({ status: 0, stdout: 'aeat: ran whoami\n' });
      expect(d.post(who.out.updatedInput.command, who.id, whoRun.stdout).code).toBe(0);

      const create = d.pre('aeat modelo work create --title "Q3 draft"');
      expect(create.out).toMatchObject({ permissionDecision: 'allow' });
      expect(d.sh(create.out.updatedInput.command)).toMatchObject({ status: 0, stdout: 'aeat: ran modelo work create --title Q3 draft\n' });

      const check = d.pre('aeat modelo check');
      expect(d.sh(check.out.updatedInput.command)).toMatchObject({
        status: 3,
        stdout: 'aeat: ran modelo check\n',
        stderr: 'aeat: 2 problems\n',
      });

      const list = d.pre('aeat modelo list -');
      expect(d.sh(list.out.updatedInput.command, 'hello\n')).toMatchObject({ status: 0, stdout: 'aeat: ran modelo list -\nhello\n' });

      // One ticket, one start: the same rewritten line again is refused.
      const again = d.sh(check.out.updatedInput.command);
      expect(again).toMatchObject({ status: 126, stdout: '' });
      expect(again.stderr).toBe(`${EXEC_MESSAGES.en.noTicket(d.real)}\n`);

      // The launcher form without the secret of its ticket: refused, and the ticket is still there for the call it was left for.
      const create2 = d.pre('aeat modelo list');
      expect(d.sh(`${NODE} ${LAUNCHER} ${d.real} modelo list`)).toMatchObject({ status: 126, stdout: '' });
      expect(d.sh(create2.out.updatedInput.command)).toMatchObject({ status: 0, stdout: 'aeat: ran modelo list\n' });

      // The export the hook refused, typed as the launcher form or straight at the launcher: no ticket, no start.
      const direct = d.sh(`${LAUNCHER} ${d.real} modelo export`);
      expect(direct.status).toBe(126);
      expect(direct.stderr).toContain('this start was not judged by persona-gate');
      expect(d.sh(`${LAUNCHER} /bin/sh -c 'echo escaped'`)).toMatchObject({
        status: 126,
        stdout: '',
        stderr: `${EXEC_MESSAGES.en.notLaunched('/bin/sh')}\n`,
      });

      expect(d.ran()).toEqual(['whoami', 'modelo work create --title Q3 draft', 'modelo check', 'modelo list -', 'modelo list']);
      const starts = d.receipts();
      expect(starts.filter((r) => r.verdict === 'allow').map((r) => [r.command_key, r.persona, r.session_id])).toEqual([
        ['config.profile.status', 'modelo-preparer', 's1'],
        ['modelo.work.create', 'modelo-preparer', 's1'],
        ['modelo.check', 'modelo-preparer', 's1'],
        ['modelo.list', 'modelo-preparer', 's1'],
        ['modelo.list', 'modelo-preparer', 's1'],
      ]);
      expect(starts.filter((r) => r.verdict === 'deny')).toHaveLength(4);
    },
  );

  it.skipIf(process.getuid?.() !== 0 || noBwrap !== null)(
    'doctor names a sandbox program on PATH that a user other than root can change',
    () => {
      const d = deployment();
      const doctor = (env: Record<string, string | undefined>, hardened = true) =>
        JSON.parse(
          runCli(['doctor', ...(hardened ? ['--hardened'] : []), '--dir', d.project, '--json'], {
            env: { ...env, PERSONA_GATE_CLAUDE_BIN: '/nonexistent' },
            cwd: d.project,
          }).stdout,
        ).checks as { level: string; text: string }[];
      expect(doctor(d.env).filter((c) => c.text.includes('can be changed by a user other than root'))).toEqual([]);
      const bin = join(d.dir, 'userbin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\nexec /usr/bin/bwrap "$@"\n');
      chmodSync(join(bin, 'bwrap'), 0o755);
      chownSync(join(bin, 'bwrap'), 1000, 1000);
      expect(doctor({ ...d.env, PATH: `${bin}${delimiter}${d.env.PATH}` })).toContainEqual(
        expect.objectContaining({ level: 'fail', text: cliEn.hardSandboxProgramChangeable(join(bin, 'bwrap')) }),
      );
      // plain doctor, where the sandbox holds, warns
      expect(doctor({ ...d.env, PATH: `${bin}${delimiter}${d.env.PATH}` }, false)).toContainEqual(
        expect.objectContaining({ level: 'warn', text: cliEn.hardSandboxProgramChangeable(join(bin, 'bwrap')) }),
      );
    },
  );

  it.skipIf(noBwrap !== null)('a launched program cannot start another launched program, nor read the tickets', () => {
    const d = deployment({}, { tool: true });
    // a ticket of another call, waiting in the exec directory
    const waiting = d.pre('aeat whoami');
    expect(waiting.out).toMatchObject({ permissionDecision: 'allow' });
    const run = d.pre('tool run');
    expect(run.out).toMatchObject({ permissionDecision: 'allow' });
    const ran = d.sh(run.out.updatedInput.command);
    expect(ran.status, ran.stderr).toBe(0);
    // aeat's installation is an empty directory for tool and what it starts; the exec directory too;
    // the host's processes (and their roots) are out of its sight
    expect(ran.stdout).toMatch(/^tool: no aeat\ntool: exec listed\ntool: in \d+ entries\n$/);
    expect(ran.stderr).toContain('not found');
    // …also from a working directory inside a hidden one, where the agent's shell may have gone
    const again = d.pre('tool run');
    const inside = d.sh(`cd ${join(d.stateDir, 'exec')} && ${again.out.updatedInput.command}`);
    expect(inside.stdout).toBe('tool: no aeat\ntool: exec listed\ntool: in 0 entries\n');
    expect(d.ran()).toEqual([]);
    // …while the waiting call's ticket is still there, and starts what it was judged for
    expect(d.sh(waiting.out.updatedInput.command)).toMatchObject({ status: 0, stdout: 'aeat: ran whoami\n' });
  });

  it.skipIf(noBwrap !== null)('confines with the system bwrap, never one earlier on PATH', () => {
    const d = deployment();
    // a bwrap the agent could have written, first on PATH (the stub's directory is)
    const planted = join(d.dir, 'planted.log');
    const bin = join(d.dir, 'opt', 'aeat', 'bin');
    writeFileSync(join(bin, 'bwrap'), `#!/bin/sh\necho planted >> ${JSON.stringify(planted)}\nexec /usr/bin/bwrap "$@"\n`);
    chmodSync(join(bin, 'bwrap'), 0o755);
    const who = d.pre('aeat whoami');
    expect(d.sh(who.out.updatedInput.command)).toMatchObject({ status: 0, stdout: 'aeat: ran whoami\n' });
    expect(existsSync(planted)).toBe(false);
  });

  // SPEC §9.4: a start is judged under the profile the hook finds; if it changes before the launcher
  // starts the program (a job left in the background), the start is refused.
  it.skipIf(noBwrap !== null)('a start whose profile changed after it was judged is refused at the start', () => {
    const d = deployment();
    const profile = join(d.home, '.aeat', 'active-profile');
    writeFileSync(profile, 'alice\n');
    const who = d.pre('aeat whoami');
    const whoRun = d.sh(who.out.updatedInput.command);
    expect(d.post(who.out.updatedInput.command, who.id, whoRun.stdout).code).toBe(0);
    const create = d.pre('aeat modelo work create');
    expect(create.out).toMatchObject({ permissionDecision: 'allow' });
    writeFileSync(profile, 'bob\n');
    const refused = d.sh(create.out.updatedInput.command);
    expect(refused).toMatchObject({ status: 126, stdout: '' });
    expect(refused.stderr).toBe(`${EXEC_MESSAGES.en.profileMoved(d.real, profile)}\n`);
    // judged again under bob, after a read that confirms bob, it runs
    expect(d.pre('aeat modelo work create').out).toMatchObject({ permissionDecision: 'deny' });
    const again = d.pre('aeat whoami');
    expect(d.post(again.out.updatedInput.command, again.id, d.sh(again.out.updatedInput.command).stdout).code).toBe(0);
    const create2 = d.pre('aeat modelo work create');
    expect(d.sh(create2.out.updatedInput.command)).toMatchObject({ status: 0, stdout: 'aeat: ran modelo work create\n' });
    expect(d.ran()).toEqual(['whoami', 'whoami', 'modelo work create']);
  });

  it.skipIf(noBwrap !== null)('the launched program cannot write what the sandbox protects, and writes its own profile state', () => {
    const d = deployment();
    const who = d.pre('aeat whoami');
    d.post(who.out.updatedInput.command, who.id, d.sh(who.out.updatedInput.command).stdout);
    const profile = join(d.home, '.aeat', 'active-profile');
    const targets = [
      join(d.project, '.claude', 'settings.local.json'),
      join(d.project, '.claude', 'persona-gate.json'),
      join(d.home, '.claude', 'settings.json'),
      join(d.stateDir, 'forged'),
      profile,
    ];
    const before = targets.map((t) => (existsSync(t) ? readFileSync(t, 'utf8') : null));
    for (const target of targets) {
      // `--out` is not a catalogued command of a closed program: the policy refuses it, so the test
      // turns the ticket the hook left for an allowed start into one for `--out TARGET`.
      const start = d.pre(`aeat modelo work create`);
      expect(start.out.permissionDecision).toBe('allow');
      const secret = /--persona-gate-ticket=([0-9a-f]{32})/.exec(start.out.updatedInput.command)![1]!;
      const ticketDir = join(d.stateDir, 'exec');
      const name = readdirSync(ticketDir).find((n) => n.includes(secret))!;
      const ticket = JSON.parse(readFileSync(join(ticketDir, name), 'utf8'));
      ticket.args = ['--out', target];
      writeFileSync(join(ticketDir, name), JSON.stringify(ticket));
      renameSync(join(ticketDir, name), join(ticketDir, `${argvKey(d.real, ticket.args)}.${secret}.json`));
      const r = d.sh(`${NODE} ${LAUNCHER} ${d.real} --persona-gate-ticket=${secret} --out ${target}`);
      if (target === profile) {
        expect(r.status, r.stderr).toBe(0);
        continue;
      }
      expect(r.status, r.stderr).toBe(9);
      expect(r.stderr).toMatch(/Read-only file system/);
    }
    // everything guarded unchanged; the program's own profile state written
    expect(targets.slice(0, -1).map((t) => (existsSync(t) ? readFileSync(t, 'utf8') : null))).toEqual(before.slice(0, -1));
    expect(readFileSync(profile, 'utf8')).toBe('forged\n');
    // the project itself stays writable
    expect(readFileSync(join(d.project, 'aeat.log'), 'utf8')).toContain('--out');
  });
});
