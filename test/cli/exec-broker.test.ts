import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXEC_MESSAGES } from '../../src/exec/messages';
import { en } from '../../src/core/messages';
import { deployment } from '../helpers/exec-deployment';
import { installed } from '../helpers/programs';

const noBwrap = process.platform !== 'linux' || !installed('bwrap') ? 'bubblewrap is not installed (apt-get install bubblewrap)' : null;
if (noBwrap) process.stderr.write(`test/cli/exec-broker.test.ts: the brokered starts are skipped, ${noBwrap}\n`);

/**
 * The broker against the built bundles (SPEC §9.3): a call the hook lets through that runs code
 * (a script, an interpreter) is rewritten with the launched programs' shims first on PATH and the
 * call's record; a launched program that code starts reaches the broker through its shim, which
 * judges the start as the session's hook would and runs it confined. The stub `aeat` logs every
 * argv it really starts with. A broker leaves after a second without work here.
 */
const FAST = { PERSONA_GATE_BROKER_IDLE_MS: '1000' };

function confirmed(opts: { tool?: boolean } = {}) {
  const d = deployment(FAST, opts);
  const who = d.pre('aeat whoami');
  const ran = d.sh(who.out.updatedInput.command);
  expect(ran.status, ran.stderr).toBe(0);
  expect(d.post(who.out.updatedInput.command, who.id, ran.stdout).code).toBe(0);
  return d;
}

const shim = (d: ReturnType<typeof deployment>) => join(d.stateDir, 'shims', 'aeat');

async function until(check: () => boolean, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('the broker, built', () => {
  it('init writes a shim per launched program, and the map names the broker', () => {
    const d = deployment(FAST);
    const map = JSON.parse(readFileSync(join(d.stateDir, 'exec.json'), 'utf8'));
    expect(map.broker).toEqual({
      broker: expect.stringMatching(/dist\/persona-gate-broker\.cjs$/),
      shims: join(d.stateDir, 'shims'),
      requests: join(d.stateDir, 'broker', 'requests'),
    });
    const text = readFileSync(shim(d), 'utf8');
    expect(text).toMatch(/^#!\/bin\/sh\nexec \S+ \S+persona-gate-shim\.cjs \S+\/broker\/requests aeat "\$@"\n$/);
  });

  it('a line that runs no code is answered as before; one that does is rewritten for the broker', () => {
    const d = confirmed();
    expect(d.pre('cat notes.txt').out).toBeNull();
    const r = d.pre('sh x.sh');
    expect(r.out).toMatchObject({ permissionDecision: 'allow' });
    expect(r.out.updatedInput.command).toMatch(
      new RegExp(`^export PATH=${join(d.stateDir, 'shims')}:"\\$PATH" PERSONA_GATE_CALL=[0-9a-f]{32}\\nsh x\\.sh$`),
    );
    // code that names the program is no longer refused for it: each start it makes is judged
    expect(d.pre(`python3 -c 'import os; os.system("aeat modelo export")'`).out).toMatchObject({ permissionDecision: 'allow' });
    // a refused line is refused as before, and not rewritten
    const refused = d.pre('aeat modelo export').out;
    expect(refused).toMatchObject({ permissionDecision: 'deny' });
    expect(refused.updatedInput).toBeUndefined();
  });

  it.skipIf(noBwrap !== null)(
    "a script's starts are judged one by one, with their output, stdin and exit status; the call's end ends them",
    () => {
      const d = confirmed();
      writeFileSync(
        join(d.project, 'x.sh'),
        [
          'aeat whoami; echo "rc=$?"',
          'aeat modelo export; echo "rc=$?"',
          'echo hello | aeat modelo list -',
          'aeat modelo check; echo "rc=$?"',
        ].join('\n') + '\n',
      );
      const r = d.pre('sh x.sh');
      const command = r.out.updatedInput.command as string;
      const ran = d.sh(command);
      expect(ran.status, ran.stderr).toBe(0);
      expect(ran.stdout).toContain('aeat: ran whoami\nrc=0\n');
      expect(ran.stdout).toContain('rc=126\n');
      expect(ran.stdout).toContain('aeat: ran modelo list -\nhello\n');
      expect(ran.stdout).toContain('aeat: ran modelo check\nrc=3\n');
      expect(ran.stderr).toContain(en.handoff('modelo-preparer', 'modelo.export', 'verifier'));
      expect(ran.stderr).toContain('aeat: 2 problems');
      expect(d.ran()).toEqual(['whoami', 'whoami', 'modelo list -', 'modelo check']);
      const brokered = d.receipts().filter((x) => x.rule === 'broker_start' || x.rule === 'broker_refused');
      expect(brokered.map((x) => x.rule)).toEqual(['broker_start', 'broker_refused', 'broker_start', 'broker_start']);
      // each names whom it was judged for and as what, as the launcher's receipts do
      expect(brokered.map((x) => [x.persona, x.command_key])).toEqual([
        ['modelo-preparer', 'config.profile.status'],
        ['modelo-preparer', 'modelo.export'],
        ['modelo-preparer', 'modelo.list'],
        ['modelo-preparer', 'modelo.check'],
      ]);
      expect(brokered.every((x) => x.session_id === 's1')).toBe(true);
      // The call's PostToolUse ends its record: what the call left behind can start nothing more.
      expect(d.post(command, r.id, ran.stdout).code).toBe(0);
      const again = d.sh(command);
      expect(again.stderr).toContain(EXEC_MESSAGES.en.noCall('aeat'));
      expect(d.ran()).toHaveLength(4);
    },
  );

  it.skipIf(noBwrap !== null)("a script's starts are not calls: a stage's max_iterations counts the call once", () => {
    const d = deployment(FAST, { stage: { name: 'draft', max: 3 } });
    const call = (line: string) => {
      const r = d.pre(line);
      if (r.out?.permissionDecision === 'deny') return { denied: r.out.permissionDecisionReason as string };
      const command = (r.out?.updatedInput?.command as string | undefined) ?? line;
      const ran = d.sh(command);
      expect(d.post(command, r.id, ran.stdout).code).toBe(0);
      return ran;
    };
    // call 1 of 3
    expect(call('aeat whoami')).toMatchObject({ status: 0 });
    writeFileSync(join(d.project, 'x.sh'), 'aeat whoami && aeat modelo list && aeat modelo show 303 && aeat modelo work create 303\n');
    // call 2 of 3: its four starts run, none of them a call of the stage's
    expect(call('sh x.sh')).toMatchObject({ status: 0 });
    expect(d.ran()).toEqual(['whoami', 'whoami', 'modelo list', 'modelo show 303', 'modelo work create 303']);
    // call 3 of 3, and the fourth is past the cap
    expect(call('ls')).toMatchObject({ status: 0 });
    expect(call('ls')).toEqual({ denied: en.iterationLimit(en.personaWho('modelo-preparer'), 'draft', 3) });
  });

  it.skipIf(noBwrap !== null)(
    'a line naming the program in a form the hook cannot judge as starts runs, each start judged by the broker',
    () => {
      const d = confirmed();
      mkdirSync(join(d.project, 'pkg'));
      const run = (line: string) => {
        const r = d.pre(line);
        expect(r.out, line).toMatchObject({ permissionDecision: 'allow' });
        const ran = d.sh(r.out.updatedInput.command);
        expect(d.post(r.out.updatedInput.command, r.id, ran.stdout).code).toBe(0);
        return ran;
      };
      expect(run('aeat modelo list | head -1')).toMatchObject({ status: 0, stdout: 'aeat: ran modelo list\n' });
      expect(run('aeat modelo check > out.txt; echo "rc=$?"; cat out.txt')).toMatchObject({ stdout: 'rc=3\naeat: ran modelo check\n' });
      expect(run('cd pkg && aeat whoami && pwd')).toMatchObject({ status: 0, stdout: `aeat: ran whoami\n${join(d.project, 'pkg')}\n` });
      // the commit form Claude Code writes, its message naming the program: nothing starts
      expect(run(`printf '%s\\n' "$(cat <<'EOF'\nDocument the aeat whoami step\nEOF\n)"`)).toMatchObject({
        status: 0,
        stdout: 'Document the aeat whoami step\n',
      });
      // a start the policy refuses, hidden in such a line, is refused where it happens
      const hidden = run('echo aeat modelo export | sh; echo "rc=$?"');
      expect(hidden.stdout).toBe('rc=126\n');
      expect(hidden.stderr).toContain(en.handoff('modelo-preparer', 'modelo.export', 'verifier'));
      // words after a command that takes none (the tax example's whoami) make another command
      const extra = run('echo aeat whoami modelo export | sh; echo "rc=$?"');
      expect(extra.stdout).toBe('rc=126\n');
      expect(extra.stderr).toContain('refused `aeat whoami modelo export`');
      expect(d.ran()).toEqual(['whoami', 'modelo list', 'modelo check', 'whoami']);
    },
  );

  it.skipIf(noBwrap !== null)('a program the broker starts cannot start another launched program, nor read the call records', () => {
    const d = confirmed({ tool: true });
    writeFileSync(join(d.project, 'x.sh'), 'tool run; echo "rc=$?"\n');
    const r = d.pre('sh x.sh');
    const ran = d.sh(r.out.updatedInput.command as string);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^tool: no aeat\ntool: exec listed\ntool: in \d+ entries\nrc=0\n$/);
    expect(d.ran()).toEqual(['whoami']);
    // one start judged and made: tool's own
    expect(d.receipts().filter((x) => x.rule === 'broker_start')).toHaveLength(1);
  });

  it.skipIf(noBwrap !== null)('a call that fails ends its record too: a secret it saved starts nothing later', () => {
    const d = confirmed();
    writeFileSync(join(d.project, 'x.sh'), 'printf %s "$PERSONA_GATE_CALL" > saved; exit 3\n');
    const r = d.pre('sh x.sh');
    const command = r.out.updatedInput.command as string;
    expect(d.sh(command).status).toBe(3);
    const saved = readFileSync(join(d.project, 'saved'), 'utf8');
    expect(saved).toMatch(/^[0-9a-f]{32}$/);
    // Claude Code sends no PostToolUse for a call that failed, but PostToolUseFailure.
    const failed = d.postFailure(command, r.id, 'Exit code 3');
    expect(failed).toMatchObject({ code: 0, stdout: '' });
    const later = spawnSync(shim(d), ['whoami'], {
      cwd: d.project,
      env: { ...d.env, PERSONA_GATE_CALL: saved },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(later.status).toBe(126);
    expect(later.stderr).toContain(EXEC_MESSAGES.en.noCall('aeat'));
    expect(d.ran()).toEqual(['whoami']);
  });

  it.skipIf(noBwrap !== null)('a shim with no call, a call that never was, or a live call named from outside it, starts nothing', () => {
    const d = confirmed();
    const live = /PERSONA_GATE_CALL=([0-9a-f]{32})/.exec(d.pre('sh x.sh').out.updatedInput.command)![1]!; // a broker is listening
    for (const call of [undefined, 'f'.repeat(32), live]) {
      const r = spawnSync(shim(d), ['whoami'], {
        cwd: d.project,
        env: { ...d.env, ...(call ? { PERSONA_GATE_CALL: call } : {}) },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status).toBe(126);
      expect(r.stderr).toContain(EXEC_MESSAGES.en.noCall('aeat'));
    }
    expect(d.ran()).toEqual(['whoami']);
  });

  it.skipIf(noBwrap !== null)('when the shim goes, the broker kills the program it started', async () => {
    const d = confirmed();
    const pidFile = join(d.project, 'slow.pid');
    writeFileSync(join(d.project, 'slow.sh'), `aeat modelo list --slow ${pidFile}\n`);
    const r = d.pre('sh slow.sh');
    const call = spawn('bash', ['-c', 'eval "$1"', 'bash', r.out.updatedInput.command], { cwd: d.project, env: d.env, stdio: 'ignore' });
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '')).toBe(true);
    // the program runs in a process namespace of its own: the pid it wrote is its pid there
    const inner = readFileSync(pidFile, 'utf8').trim();
    const nsPid = (p: string) => {
      try {
        return (
          /^NSpid:\s+(.*)$/m
            .exec(readFileSync(join('/proc', p, 'status'), 'utf8'))?.[1]
            ?.trim()
            .split(/\s+/) ?? []
        );
      } catch {
        return [];
      }
    };
    // …so it is found on the host as the process of that inner pid under the bwrap that started this program
    const status = (p: string) => {
      try {
        return readFileSync(join('/proc', p, 'status'), 'utf8');
      } catch {
        return '';
      }
    };
    const underThisStart = (p: string): boolean => {
      for (let q = p, n = 0; q !== '0' && q !== '' && n < 16; q = /^PPid:\s+(\d+)$/m.exec(status(q))?.[1] ?? '', n++) {
        let line = '';
        try {
          line = readFileSync(join('/proc', q, 'cmdline'), 'utf8');
        } catch {
          return false;
        }
        if (line.startsWith('bwrap\0') || line.includes('/bwrap\0')) return line.includes(`\0${pidFile}\0`);
      }
      return false;
    };
    const hosts = readdirSync('/proc').filter(
      (p) => /^\d+$/.test(p) && nsPid(p).at(-1) === inner && nsPid(p).length > 1 && underThisStart(p),
    );
    expect(hosts).toHaveLength(1);
    const pid = Number(hosts[0]);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    // the shim, and only the shim, goes
    const cmdline = (p: string) => {
      try {
        return readFileSync(join('/proc', p, 'cmdline'), 'utf8');
      } catch {
        return '';
      }
    };
    const found = readdirSync('/proc').filter(
      (p) => /^\d+$/.test(p) && /persona-gate-shim\.cjs\0/.test(cmdline(p)) && cmdline(p).includes(`--slow\0${pidFile}\0`),
    );
    expect(found).toHaveLength(1);
    process.kill(Number(found[0]), 'SIGKILL');
    expect(await until(() => !alive())).toBe(true);
    call.kill('SIGKILL');
  });

  it.skipIf(noBwrap !== null)("a secret counts only inside the call it names: another call's, or one never run, starts nothing", () => {
    const d = confirmed();
    const secretOf = (command: string) => /PERSONA_GATE_CALL=([0-9a-f]{32})/.exec(command)![1]!;
    const never = secretOf(d.pre('sh never.sh').out.updatedInput.command);
    // another call, running meanwhile
    const other = d.pre('sh sleep.sh').out.updatedInput.command as string;
    const running = spawn('bash', ['-c', 'eval "$1"', 'bash', other.replace(/\nsh sleep\.sh$/, '\nsleep 20')], {
      cwd: d.project,
      env: d.env,
      stdio: 'ignore',
    });
    const own = d.pre('sh x.sh').out.updatedInput.command as string;
    for (const secret of [never, secretOf(other)]) {
      // the call's own line, with a process below it that claims the other secret
      const r = d.sh(own.replace(/\nsh x\.sh$/, `\nPERSONA_GATE_CALL=${secret} aeat whoami; echo "rc=$?"`));
      expect(r.stdout).toContain('rc=126');
      expect(r.stderr).toContain(EXEC_MESSAGES.en.noCall('aeat'));
    }
    // …while its own secret starts it
    const ok = d.sh(own.replace(/\nsh x\.sh$/, '\naeat whoami'));
    expect(ok.stdout).toContain('aeat: ran whoami');
    expect(d.ran()).toEqual(['whoami', 'whoami']);
    running.kill('SIGKILL');
  });

  // SPEC §6: a read confirms once the agent has seen it; inside a call, what follows it is judged as unconfirmed.
  it.skipIf(noBwrap !== null)(
    "a script's identity read confirms when its call ends: what the same call then changes is refused, and a failed call confirms nothing",
    () => {
      const d = confirmed();
      writeFileSync(
        join(d.project, 's.sh'),
        ['aeat config profile switch carol', 'aeat whoami', 'aeat modelo work create; echo "rc=$?"'].join('\n') + '\n',
      );
      const r = d.pre('sh s.sh');
      const command = r.out.updatedInput.command as string;
      const ran = d.sh(command);
      expect(ran.status, ran.stderr).toBe(0);
      expect(ran.stdout).toContain('aeat: ran whoami\n');
      expect(ran.stdout).toContain('rc=126\n');
      expect(ran.stderr).toContain(en.identityRequired());
      expect(d.ran()).toEqual(['whoami', 'config profile switch carol', 'whoami']);
      // the call has not ended: the session is not confirmed yet
      expect(d.pre('aeat modelo work create').out).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: en.identityRequired(),
      });
      expect(d.post(command, r.id, ran.stdout).code).toBe(0);
      // it has: the read it made confirms, and the create runs
      const create = d.pre('aeat modelo work create');
      expect(create.out).toMatchObject({ permissionDecision: 'allow' });
      expect(d.sh(create.out.updatedInput.command).status).toBe(0);
      expect(d.ran()).toEqual(['whoami', 'config profile switch carol', 'whoami', 'modelo work create']);
      expect(readdirSync(join(d.stateDir, 'exec', 'calls'))).toEqual([]);

      // the same script in a call that failed: its read confirms nothing
      const again = d.pre('sh s.sh');
      const failed = d.sh(again.out.updatedInput.command);
      expect(failed.stdout).toContain('rc=126\n');
      const end = d.postFailure(again.out.updatedInput.command, again.id, 'Exit code 1');
      expect(end.code, end.stderr).toBe(0);
      expect(readdirSync(join(d.stateDir, 'exec', 'calls'))).toEqual([]);
      expect(d.pre('aeat modelo work create').out).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: en.identityRequired(),
      });
    },
  );

  it('a shim nobody answers fails closed, saying so', () => {
    const d = deployment(FAST);
    const requests = join(d.dir, 'nobody', 'requests');
    mkdirSync(join(d.dir, 'nobody'));
    expect(spawnSync('mkfifo', [requests]).status).toBe(0);
    const shimBundle = readFileSync(shim(d), 'utf8').split(' ')[2]!;
    const r = spawnSync(process.execPath, [shimBundle, requests, 'aeat', 'whoami'], {
      cwd: d.project,
      env: { ...d.env, PERSONA_GATE_BROKER_WAIT_MS: '300' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(126);
    expect(r.stderr).toContain('persona-gate: aeat could not be started');
    expect(d.ran()).toEqual([]);
  });

  it('a call record that cannot be left is a deny, never a call without its record', () => {
    const d = confirmed();
    const calls = join(d.stateDir, 'exec', 'calls');
    rmSync(calls, { recursive: true, force: true });
    writeFileSync(calls, 'not a directory');
    const r = d.pre('sh x.sh');
    expect(r.out).toMatchObject({ permissionDecision: 'deny' });
    expect(r.out.updatedInput).toBeUndefined();
  });

  it('where Claude Code would ask before a sandboxed call, the rewritten call is asked about: the person decides', () => {
    const d = confirmed();
    const path = join(d.home, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(path, 'utf8'));
    settings.sandbox.autoAllowBashIfSandboxed = false;
    writeFileSync(path, JSON.stringify(settings));
    const r = d.pre('sh x.sh').out;
    expect(r).toMatchObject({ permissionDecision: 'ask' });
    expect(r.updatedInput.command).toMatch(/^export PATH=\S+ PERSONA_GATE_CALL=[0-9a-f]{32}\nsh x\.sh$/);
    // code that names the program is judged at each start, so it is asked about like any other
    expect(d.pre(`python3 -c 'import os; os.system("aeat whoami")'`).out).toMatchObject({ permissionDecision: 'ask' });
  });

  it.skipIf(noBwrap !== null)('a call the policy asks about is rewritten too, so that its starts are judged once it runs', () => {
    const d = confirmed();
    const policyPath = join(d.project, '.claude', 'persona-gate.json');
    const policy = JSON.parse(readFileSync(policyPath, 'utf8'));
    policy.defaults = { ...policy.defaults, confirm: { ...policy.defaults?.confirm, process_exec: 'confirm' } };
    writeFileSync(policyPath, JSON.stringify(policy));
    writeFileSync(join(d.project, 'x.sh'), 'aeat modelo list; echo "rc=$?"\naeat modelo export; echo "rc=$?"\n');
    const r = d.pre('sh x.sh');
    expect(r.out).toMatchObject({ permissionDecision: 'ask' });
    // the person approves: the call runs as rewritten
    const ran = d.sh(r.out.updatedInput.command as string);
    expect(ran.stdout).toBe('aeat: ran modelo list\nrc=0\nrc=126\n');
    expect(d.ran()).toEqual(['whoami', 'modelo list']);
  });
});
