import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { expect } from 'vitest';
import { cleanEnv, runCli, tempDir } from './cli';
import { taxPolicyWithShell } from './policy';

/**
 * A deployment of launched programs, against the built bundles: `init --hardened` launches the tax example's
 * `aeat` (a stub that logs its argv), the hook rewrites the calls it lets through, and the
 * launcher starts the program only with the hook's ticket, confined.
 */
export function deployment(extraEnv: Record<string, string> = {}, opts: { tool?: boolean; stage?: { name: string; max: number } } = {}) {
  const dir = tempDir('pg-exec-');
  const project = join(dir, 'project');
  const home = join(dir, 'home');
  const stateDir = join(dir, 'state');
  const bin = join(dir, 'opt', 'aeat', 'bin');
  const log = join(project, 'aeat.log');
  for (const d of [join(project, '.claude'), join(home, '.aeat'), bin]) mkdirSync(d, { recursive: true });
  // The preparer may use the shell (the tax example's preparer has no shell family).
  const policy = taxPolicyWithShell();
  // With `tool`: a second launched program, `tool run` (a build, say), that tries to start aeat by
  // its real path and to list the exec directory, whose tickets start programs.
  const toolBin = join(dir, 'opt', 'tool', 'bin');
  if (opts.tool === true) {
    policy.catalog.commands['ledger.tool'] = { level: 'read_only', bash: ['tool run'] };
    mkdirSync(toolBin, { recursive: true });
    writeFileSync(
      join(toolBin, 'tool'),
      [
        '#!/bin/sh',
        `${JSON.stringify(join(bin, 'aeat'))} modelo export || echo "tool: no aeat"`,
        `ls -A ${JSON.stringify(join(stateDir, 'exec'))}; echo "tool: exec listed"`,
        // every process it can see, and the root each one has
        `for r in /proc/[0-9]*/root; do "$r"${JSON.stringify(join(bin, 'aeat'))} modelo export 2>/dev/null && echo "tool: via $r"; done`,
        // started by root: no capability to take away what hides aeat
        `umount ${JSON.stringify(join(dir, 'opt', 'aeat'))} 2>/dev/null && ${JSON.stringify(join(bin, 'aeat'))} modelo export && echo "tool: via umount"`,
        'echo "tool: in $(ls -A . | wc -l) entries"',
      ].join('\n') + '\n',
    );
    chmodSync(join(toolBin, 'tool'), 0o755);
  }
  // With `stage`: the preparer works in a stage of that many calls, entered before the first one.
  if (opts.stage !== undefined)
    policy.personas['modelo-preparer'].stages = [
      { name: opts.stage.name, side_effect_level: 'process_exec', max_iterations: opts.stage.max },
    ];
  writeFileSync(join(project, '.claude', 'persona-gate.json'), JSON.stringify(policy));
  // The stub: logs its argv, echoes its stdin for `-`, fails for `modelo check`, writes --out's file,
  // and for `modelo list --slow FILE` writes its pid to FILE and sleeps.
  writeFileSync(
    join(bin, 'aeat'),
    [
      '#!/bin/sh',
      `printf '%s\\n' "$*" >> ${JSON.stringify(log)}`,
      'echo "aeat: ran $*"',
      'for a in "$@"; do [ "$a" = - ] && cat; done',
      'if [ "$1" = --out ]; then echo forged > "$2" || exit 9; fi',
      '[ "$1 $2" = "modelo check" ] && { echo "aeat: 2 problems" >&2; exit 3; }',
      '[ "$3" = --slow ] && { echo $$ > "$4"; exec sleep 60; }',
      'exit 0',
    ].join('\n') + '\n',
  );
  chmodSync(join(bin, 'aeat'), 0o755);
  const env = cleanEnv({
    HOME: home,
    PERSONA_GATE_STATE_DIR: stateDir,
    PATH: `${bin}${delimiter}${opts.tool === true ? `${toolBin}${delimiter}` : ''}${process.env.PATH}`,
    CLAUDE_PROJECT_DIR: project,
    PERSONA_GATE_PERSONA: 'modelo-preparer',
    ...extraEnv,
  });
  const init = runCli(['init', '--hardened', '--dir', project], { env, cwd: project });
  expect(init.code, init.stderr).toBe(0);
  if (opts.stage !== undefined) {
    const entered = runCli(['stage', 'enter', opts.stage.name, '--session', 's1'], { env, cwd: project });
    expect(entered.code, entered.stderr).toBe(0);
  }
  const real = join(bin, 'aeat');
  let n = 0;
  const pre = (command: string, extra: Record<string, unknown> = {}) => {
    const id = `toolu_${++n}`;
    const r = runCli(['hook'], {
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's1',
        tool_name: 'Bash',
        tool_input: { command, ...extra },
        tool_use_id: id,
        cwd: project,
      }),
      env,
      cwd: project,
    });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout === '' ? null : JSON.parse(r.stdout).hookSpecificOutput;
    return { id, out };
  };
  const post = (command: string, id: string, stdout: string) =>
    runCli(['hook'], {
      input: JSON.stringify({
        hook_event_name: 'PostToolUse',
        session_id: 's1',
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: id,
        tool_response: { stdout, stderr: '', interrupted: false },
        cwd: project,
      }),
      env,
      cwd: project,
    });
  // Claude Code sends no PostToolUse for a call that failed (a non-zero exit, an interrupt), but this.
  const postFailure = (command: string, id: string, error: string) =>
    runCli(['hook'], {
      input: JSON.stringify({
        hook_event_name: 'PostToolUseFailure',
        session_id: 's1',
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: id,
        error,
        is_interrupt: false,
        cwd: project,
      }),
      env,
      cwd: project,
    });
  // As Claude Code runs a Bash call: the command in the shell's own arguments, evaluated (so that the
  // shell stays the call's first process, as the broker expects of a call's tree).
  const sh = (command: string, input = '') =>
    spawnSync('bash', ['-c', 'eval "$1"', 'bash', command], { cwd: project, env, input, encoding: 'utf8', timeout: 30_000 });
  const ran = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  const receipts = () =>
    readdirSync(join(stateDir, 'receipts'))
      .flatMap((f) =>
        readFileSync(join(stateDir, 'receipts', f), 'utf8')
          .trim()
          .split('\n'),
      )
      .map((l) => JSON.parse(l))
      .filter((r) => r.hook_event === 'ExecStart');
  return { dir, project, home, stateDir, real, init, env, pre, post, postFailure, sh, ran, receipts };
}
