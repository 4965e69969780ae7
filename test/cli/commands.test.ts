import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, preEvent, runCli, tempDir } from '../helpers/cli';
import { MERGE_POLICY_PATH, ROOT, SOFTWARE_POLICY_PATH, TAX_POLICY_PATH } from '../helpers/policy';

function env(extra: Record<string, string> = {}) {
  const dir = tempDir();
  return { dir, env: cleanEnv({ PERSONA_GATE_STATE_DIR: join(dir, 'state'), HOME: dir, PERSONA_GATE_CONFIG: TAX_POLICY_PATH, ...extra }) };
}

describe('explain', () => {
  it.each([
    [['--persona', 'coordinator', 'mcp__aeat__modelo_list'], 0, /^verdict: abstain \(status ok, gate pass/],
    [['--persona', 'modelo-preparer', 'mcp__aeat__modelo_export'], 2, /^verdict: deny \(status handoff_denied, gate handoff, rule owner\)/],
    [['--config', MERGE_POLICY_PATH, 'mcp__unknown__tool', '{}'], 3, /^verdict: ask \(status unknown_tool/],
    [['--persona', 'auditor', 'Read'], 1, /^verdict: deny \(status config_error/],
    [
      ['--persona', 'verifier', '--stage', 'review', 'mcp__aeat__execute', '{"command":"modelo.export"}'],
      2,
      /status scope_violation, gate stage/,
    ],
  ])('explain %j exits %i', (args, code, pattern) => {
    const r = runCli(['explain', ...args], { env: env().env });
    expect(r.code).toBe(code);
    expect(r.stdout).toMatch(pattern);
  });

  it("shows every gate's finding in words", () => {
    const r = runCli(['explain', '--persona', 'verifier', '--stage', 'review', 'mcp__aeat__modelo_list'], { env: env().env });
    expect(r.stdout).toContain('call:    mcp__aeat__modelo_list → modelo.list (family modelo, level read_only, tier auto, via tool)');
    expect(r.stdout).toContain('persona: verifier   stage: review');
    for (const gate of [
      'self_protection',
      'persona',
      'scope',
      'delegation',
      'handoff',
      'stage',
      'identity',
      'confirmation',
      'unknown_tool',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${gate} +pass`, 'm'));
    }
  });

  it('prints the receipt with --json and changes no state', () => {
    const { env: e } = env();
    const r = runCli(['explain', '--json', '--session', 's1', 'mcp__aeat__whoami'], { env: e });
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'abstain', command_key: 'config.profile.status', session_id: 's1' });
    // No state was written: the session is still unknown.
    expect(runCli(['session', 'show', '--session', 's1'], { env: e })).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'persona-gate: no session s1 (the sessions persona-gate has seen: persona-gate log)\n',
    });
  });

  it('reads an event file', () => {
    const { dir, env: e } = env();
    const file = join(dir, 'event.json');
    writeFileSync(
      file,
      JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 'x',
        tool_name: 'Task',
        tool_input: { subagent_type: 'verifier' },
        agent_type: 'coordinator',
        cwd: ROOT,
      }),
    );
    const r = runCli(['explain', '--event', file], { env: e });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('persona coordinator (from agent_type)');
  });

  it('exits 1 for a usage error', () => {
    expect(runCli(['explain'], { env: env().env }).code).toBe(1);
    expect(runCli(['explain', 'Read', '{not json'], { env: env().env })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('INPUT_JSON is not JSON'),
    });
    expect(runCli(['no-such-command'], { env: env().env }).code).toBe(1);
  });
});

describe('explain of a shell line', () => {
  const bash = (command: string, locale: 'en' | 'es', json = false) => {
    const { dir, env: e } = env({ PERSONA_GATE_CONFIG: SOFTWARE_POLICY_PATH, PERSONA_GATE_LOCALE: locale });
    return runCli(['explain', ...(json ? ['--json'] : []), '--persona', 'researcher', 'Bash', JSON.stringify({ command })], {
      env: e,
      cwd: dir,
    });
  };

  it('lists each invocation with its words, kind, level and reason, and marks what decided (English)', () => {
    const r = bash('ls -la && curl -s https://x.y | head -n 2', 'en');
    expect(r.code).toBe(2);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('line:    level network, decided by the part marked *');
    expect(lines).toContain('    `ls -la` — ls, kind reader, level read_only, reason reads: ls reads');
    expect(lines).toContain('  * `curl -s https://x.y` — curl, kind network, level network, reason network: curl reaches the network');
    expect(lines).toContain('    `head -n 2` — head, kind reader, level read_only, reason reads: head reads');
    expect(r.stdout).toContain("above the persona's ceiling read_only, because `curl -s https://x.y` reaches the network.");
  });

  it('says the same in Spanish, with no English reason in it', () => {
    const r = bash('ls -la && curl -s https://x.y | head -n 2', 'es');
    expect(r.code).toBe(2);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('línea:     nivel network, decidido por la parte marcada con *');
    expect(lines).toContain('  * `curl -s https://x.y` — curl, tipo network, nivel network, motivo network: curl accede a la red');
    expect(r.stdout).toContain('por encima del techo de la persona, read_only, porque `curl -s https://x.y` accede a la red.');
    expect(r.stdout).not.toMatch(/reaches the network|ls reads/);
  });

  it('shows the subcommands read, a redirection that decided, and a line read again', () => {
    const r = bash("git -C sub log --oneline > out.txt; bash -c 'cat a'", 'en');
    const lines = r.stdout.split('\n');
    expect(lines).toContain('    `git -C sub log --oneline` — git log, kind reader, level read_only, reason reads: git log reads');
    expect(lines).toContain('    `cat a` — cat, kind reader, level read_only, reason reads: cat reads');
    expect(lines).toContain('  * `> out.txt` — level workspace_write, reason redirect_writes: > out.txt writes a file');
  });

  it('gives the invocations and the deciding parts with --json, and the receipt their reason id', () => {
    const out = JSON.parse(bash('ls && wget -q https://x.y', 'es', true).stdout);
    expect(out.decided_by).toEqual({ words: 'wget -q https://x.y', reason: 'network' });
    expect(out.shell.level).toBe('network');
    expect(out.shell.invocations).toEqual([
      {
        words: 'ls',
        program: 'ls',
        path: [],
        kind: 'reader',
        level: 'read_only',
        reason: { id: 'reads', subject: 'ls' },
        reason_text: 'ls lee',
        opaque: false,
        decided: false,
      },
      {
        words: 'wget -q https://x.y',
        program: 'wget',
        path: [],
        kind: 'network',
        level: 'network',
        reason: { id: 'network', subject: 'wget' },
        reason_text: 'wget accede a la red',
        opaque: false,
        decided: true,
      },
    ]);
    expect(out.shell.decided).toEqual([
      {
        words: 'wget -q https://x.y',
        level: 'network',
        reason: { id: 'network', subject: 'wget' },
        reason_text: 'wget accede a la red',
        invocation: 1,
      },
    ]);
  });
});

describe('list', () => {
  it('lists what the persona may call with each tier', () => {
    const r = runCli(['list', '--persona', 'verifier'], { env: env().env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^yes +confirm +workspace_write +modelo\.export +mcp__aeat__modelo_export \(after an identity read\)$/m);
    expect(r.stdout).toMatch(/^no +- +workspace_write +ledger\.entry\.add +permission_denied \(scope\)$/m);
  });

  it('prints a permissions.deny block for Claude Code settings', () => {
    const r = runCli(['list', '--persona', 'modelo-preparer', '--format', 'claude-permissions'], { env: env().env });
    const deny: string[] = JSON.parse(r.stdout).permissions.deny;
    expect(deny).toContain('mcp__aeat__modelo_export');
    expect(deny).toContain('Bash');
    expect(deny).not.toContain('mcp__aeat__modelo_work_create');
  });

  it('agrees with explain for a shell at a read-only ceiling: the lines at that level, and no deny of the shell', () => {
    const e = env({ PERSONA_GATE_CONFIG: SOFTWARE_POLICY_PATH }).env;
    for (const command of ['ls', 'cat README.md']) {
      expect(runCli(['explain', '--persona', 'researcher', 'Bash', JSON.stringify({ command })], { env: e }).code).toBe(0);
    }
    const text = runCli(['list', '--persona', 'researcher'], { env: e }).stdout;
    expect(text).toMatch(/^lines +auto +≤ read_only +Bash +Bash: lines at read_only and below/m);
    expect(text).toMatch(/^no +- +workspace_write +Edit +permission_denied \(scope\)$/m);
    const deny: string[] = JSON.parse(runCli(['list', '--persona', 'researcher', '--format', 'claude-permissions'], { env: e }).stdout)
      .permissions.deny;
    expect(deny).not.toContain('Bash');
    expect(deny).toContain('Edit');
    const entries: { key: string; allowed: boolean; lines_up_to: string | null }[] = JSON.parse(
      runCli(['list', '--persona', 'researcher', '--format', 'json'], { env: e }).stdout,
    ).entries;
    expect(entries.find((x) => x.key === 'Bash')).toMatchObject({ allowed: true, lines_up_to: 'read_only' });
    expect(entries.find((x) => x.key === 'Read')).toMatchObject({ allowed: true, lines_up_to: null });
    expect(runCli(['list', '--persona', 'researcher'], { env: { ...e, PERSONA_GATE_LOCALE: 'es' } }).stdout).toContain(
      'Bash: líneas de nivel read_only o inferior',
    );
  });

  it('narrows by stage', () => {
    const r = runCli(['list', '--persona', 'merge_captain', '--stage', 'classify', '--format', 'json', '--config', MERGE_POLICY_PATH], {
      env: env().env,
    });
    const entries: { key: string; allowed: boolean; status: string }[] = JSON.parse(r.stdout).entries;
    expect(entries.find((e) => e.key === 'github.pr.view')).toMatchObject({ allowed: true });
    expect(entries.find((e) => e.key === 'ci.rerun')).toMatchObject({ allowed: false, status: 'permission_denied' });
    expect(entries.find((e) => e.key === 'linear.issue.view')).toMatchObject({ allowed: false, status: 'scope_violation' });
    expect(entries.find((e) => e.key === 'Bash')).toMatchObject({ allowed: false, status: 'scope_violation' });
    const repair: { key: string; allowed: boolean; lines_up_to: string | null }[] = JSON.parse(
      runCli(['list', '--persona', 'merge_captain', '--stage', 'apply_repair', '--format', 'json', '--config', MERGE_POLICY_PATH], {
        env: env().env,
      }).stdout,
    ).entries;
    expect(repair.find((e) => e.key === 'Bash')).toMatchObject({ allowed: true, lines_up_to: 'process_exec' });
  });

  it('refuses an unknown persona', () => {
    expect(runCli(['list', '--persona', 'auditor'], { env: env().env }).code).toBe(1);
  });
});

describe('validate and schema', () => {
  it('accepts the examples', () => {
    for (const path of [TAX_POLICY_PATH, MERGE_POLICY_PATH])
      expect(runCli(['validate', '--config', path], { env: env().env }).code).toBe(0);
  });

  it('reports every problem with its JSON path and exits 1', () => {
    const { dir, env: e } = env();
    const policy = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
    policy.catalog.commands['modelo.export'].owner = 'filer';
    policy.personas.verifier.stages[0].on_exit.on_complete = 'submit';
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify(policy));
    const r = runCli(['validate', '--config', path], { env: e });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${path}: catalog.commands["modelo.export"].owner: owner "filer" is not a declared persona\n` +
        `${path}: personas.verifier.stages[0].on_exit.on_complete: stage "submit" is not a stage of persona "verifier"\n` +
        '2 problems\n',
    );
  });

  it('points at a JSON error by line and column, with the line and a caret under the place', () => {
    const { dir, env: e } = env();
    const path = join(dir, 'policy.json');
    writeFileSync(path, readFileSync(SOFTWARE_POLICY_PATH, 'utf8').replace('"personas": {', '"personas": {,'));
    const r = runCli(['validate', '--config', path], { env: e });
    expect(r.code).toBe(1);
    const line =
      readFileSync(path, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"personas": {,')) + 1;
    expect(r.stderr).toBe(
      `${path}:${line}:16: not valid JSON: Expected property name or '}'\n  ${line} |   "personas": {,\n     |                ^\n`,
    );
    // A trailing comma is named as such, at the comma.
    writeFileSync(
      path,
      readFileSync(SOFTWARE_POLICY_PATH, 'utf8')
        .replace('"releaser", "session"]', '"releaser", "session",]')
        .replace('"npm", "session"]', '"npm", "session",]'),
    );
    const trailing = runCli(['validate', '--config', path], { env: e });
    expect(trailing.stderr).toMatch(
      /^.*:\d+:\d+: not valid JSON: a comma with nothing after it \(JSON allows none before \} or \]\): remove it\n {2}\d+ \| .*"session",\],?\n {4,}\| +\^\n$/,
    );
    expect(trailing.stderr.split('\n')[2]!.indexOf('^')).toBe(trailing.stderr.split('\n')[1]!.indexOf(',]'));
    expect(JSON.parse(runCli(['validate', '--json', '--config', path], { env: e }).stdout).problems[0]).toMatchObject({
      line: expect.any(Number),
      column: expect.any(Number),
    });
    // Every other command that reads the policy, and the hook, say where too.
    expect(runCli(['list', '--config', path], { env: e }).stderr).toMatch(
      /not valid JSON at line \d+, column \d+: a comma with nothing after it[^\n]*\n {2}\d+ \| .*\n.*\^\n$/,
    );
    const hook = runCli(['hook', '--config', path], { env: e, input: preEvent('Read') });
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /not valid JSON at line \d+, column \d+: a comma with nothing after it .*\(the line reads `.*"session",\],?`\)/,
    );
    expect(runCli(['validate', '--config', path], { env: { ...e, PERSONA_GATE_LOCALE: 'es' } }).stderr).toContain(
      'no es JSON válido: una coma sin nada detrás',
    );
  });

  it('prints the schema that ships as schema.json', () => {
    expect(runCli(['schema']).stdout).toBe(readFileSync(join(ROOT, 'schema.json'), 'utf8'));
  });
});

describe('session and stage', () => {
  it('sets a session persona used before the environment, and resets', () => {
    const { env: e } = env({ PERSONA_GATE_PERSONA: 'verifier' });
    expect(runCli(['session', 'persona', 'coordinator', '--session', 's'], { env: e })).toMatchObject({
      code: 0,
      stdout: 'session s: persona coordinator\n',
    });
    expect(runCli(['explain', '--session', 's', 'Read'], { env: e }).stdout).toContain('persona coordinator (from session)');
    expect(runCli(['session', 'persona', 'auditor', '--session', 's'], { env: e }).code).toBe(1);
    expect(runCli(['session', 'reset', '--session', 's'], { env: e }).code).toBe(0);
    expect(JSON.parse(runCli(['session', 'show', '--session', 's'], { env: e }).stdout)).toMatchObject({ persona: null, confirmed: false });
  });

  it('enters stages and follows on_exit, recording each transition', () => {
    const { env: e } = env({ PERSONA_GATE_PERSONA: 'verifier' });
    expect(runCli(['stage', 'enter', 'review', '--session', 's'], { env: e }).code).toBe(0);
    expect(runCli(['stage', 'exit', '--outcome', 'complete', '--session', 's'], { env: e }).stdout).toBe(
      'session s: stage review exited (complete) → file\n',
    );
    expect(JSON.parse(runCli(['session', 'show', '--session', 's'], { env: e }).stdout).stage).toBe('file');
    expect(runCli(['stage', 'exit', '--session', 's'], { env: e }).stdout).toBe('session s: stage file exited (complete) → (no stage)\n');
    expect(runCli(['stage', 'exit', '--session', 's'], { env: e }).code).toBe(1);
    expect(runCli(['stage', 'enter', 'submit', '--session', 's'], { env: e }).code).toBe(1);
    const log = runCli(['log', '--json', '--session', 's'], { env: e })
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.map((r) => r.rule)).toEqual(['stage_enter', 'stage_exit:complete', 'stage_exit:complete']);
  });
});

describe('a misspelt name gets the nearest accepted one', () => {
  const soft = () => env({ PERSONA_GATE_CONFIG: SOFTWARE_POLICY_PATH }).env;
  it.each([
    [
      ['list', '--persona', 'relaser'],
      '"relaser" is not a persona of this policy (did you mean releaser?); accepted: implementer, releaser, researcher, reviewer',
    ],
    [['session', 'persona', 'relaser', '--session', 's'], '"relaser" is not a persona of this policy (did you mean releaser?)'],
    [['list', '--persona', 'releaser', '--format', 'jsn'], 'unknown format jsn (did you mean json?)'],
    [['explain', '--side-effect-level', 'netwrk', 'Read'], 'unknown level netwrk (did you mean network?)'],
    [['config', 'get', 'localee'], 'unknown key "localee" (did you mean locale?)'],
    [['init', '--example', 'sofware-team', '--dir', '/nonexistent'], 'unknown example "sofware-team" (did you mean software-team?)'],
  ])('%j', (args, text) => {
    const r = runCli(args, { env: soft() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(text);
  });

  it('for a stage, in the CLI and in the hook, in both languages', () => {
    const e = env({ PERSONA_GATE_PERSONA: 'verifier' }).env;
    expect(runCli(['stage', 'enter', 'reveiw', '--session', 's'], { env: e }).stderr).toContain(
      '"reveiw" is not a stage of verifier (did you mean review?); accepted: review, file',
    );
    const hook = runCli(['hook'], { env: { ...e, PERSONA_GATE_STAGE: 'reveiw' }, input: preEvent('Read') });
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      '"reveiw" is not a stage of the verifier persona (did you mean review?)',
    );
    const es = runCli(['hook'], { env: { ...e, PERSONA_GATE_STAGE: 'reveiw', PERSONA_GATE_LOCALE: 'es' }, input: preEvent('Read') });
    expect(JSON.parse(es.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      '"reveiw" no es una etapa de la persona verifier (¿quería decir review?)',
    );
  });

  it('for the persona the environment names, as the model reads it', () => {
    const r = runCli(['hook'], { env: { ...soft(), PERSONA_GATE_PERSONA: 'relaser' }, input: preEvent('Read') });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /^persona-gate: "relaser" is not a persona of this policy \(did you mean releaser\?\); accepted:/,
    );
    expect(runCli(['list', '--persona', 'zzz'], { env: soft() }).stderr).not.toContain('did you mean');
  });
});
