import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, tempDir } from '../helpers/cli';
import { MERGE_POLICY_PATH, readJson, SOFTWARE_POLICY_PATH, TAX_POLICY_PATH } from '../helpers/policy';

/** SPEC §13: `persona-gate agents` and `persona-gate launch`, against the built CLI. */

/** A project with a policy in .claude/, and a HOME of its own. */
function project(policy: unknown = readJson(TAX_POLICY_PATH)) {
  const dir = tempDir('pg-surface-');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'persona-gate.json'), JSON.stringify(policy));
  const home = join(dir, 'home');
  mkdirSync(home);
  const env = cleanEnv({ HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') });
  const cli = (args: string[], opts: { input?: string } = {}) => runCli(args, { cwd: dir, env, ...opts });
  const agent = (type: string) => join(dir, '.claude', 'agents', `${type}.md`);
  return { dir, home, env, cli, agent };
}

const toolsOf = (text: string) => /^tools: (.*)$/m.exec(text)![1]!.split(', ');
/** The value of a flag in a printed launch command. */
const flag = (printed: string, name: string) => {
  const words = printed.trim().split(' ');
  const at = words.indexOf(name);
  return at < 0 ? null : words[at + 1]!.split(',');
};

describe('persona-gate agents', () => {
  it("writes each bound agent type's definition with the tools its persona may use", () => {
    const p = project();
    const r = p.cli(['agents']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("wrote .claude/agents/verifier.md: the verifier persona's");
    const verifier = readFileSync(p.agent('verifier'), 'utf8');
    expect(verifier).toMatch(
      /^---\nname: verifier\ndescription: "Checks a prepared modelo and files it: the only persona that exports\."\ntools: /,
    );
    const tools = toolsOf(verifier);
    for (const kept of ['Read', 'Grep', 'mcp__aeat__whoami', 'mcp__aeat__modelo_export', 'mcp__aeat__execute'])
      expect(tools).toContain(kept);
    for (const hidden of ['Bash', 'Write', 'Agent', 'WebFetch', 'mcp__aeat__ledger_list']) expect(tools).not.toContain(hidden);
    // The handoff is its owner's only; a blocked command nobody's.
    expect(toolsOf(readFileSync(p.agent('modelo-preparer'), 'utf8'))).not.toContain('mcp__aeat__modelo_export');
    expect(toolsOf(readFileSync(p.agent('ledger-groomer'), 'utf8'))).not.toContain('mcp__aeat__ledger_entry_delete');
    expect(toolsOf(readFileSync(p.agent('coordinator'), 'utf8'))).toEqual(expect.arrayContaining(['Agent', 'mcp__aeat__modelo_list']));
    expect(p.cli(['agents', '--check'])).toMatchObject({ code: 0, stdout: '7 subagent definitions match the policy\n' });
  });

  it('changes only the tools of a definition the user wrote, and keeps the rest byte for byte', () => {
    const p = project();
    mkdirSync(join(p.dir, '.claude', 'agents'));
    const front =
      '---\r\nname: verifier\r\ndescription: My own words.\r\ntools:\r\n  - Bash\r\n  - Read\r\nmodel: opus # keep\r\ncolor: green\r\n---\r\n';
    const body = 'You verify.\r\n\r\n---\r\nA rule inside the prompt.\r\n';
    writeFileSync(p.agent('verifier'), front + body);
    const r = p.cli(['agents']);
    expect(r.stdout).toMatch(
      /updated \.claude\/agents\/verifier\.md \(verifier\): tools \+ .*mcp__aeat__whoami.* − Bash; the rest of the file is as it was/,
    );
    const text = readFileSync(p.agent('verifier'), 'utf8');
    expect(text.startsWith('---\r\nname: verifier\r\ndescription: My own words.\r\ntools: Read, ')).toBe(true);
    expect(text.endsWith('\r\nmodel: opus # keep\r\ncolor: green\r\n---\r\n' + body)).toBe(true);
    // Run again: nothing to change.
    expect(p.cli(['agents']).stdout).toContain('.claude/agents/verifier.md: matches the verifier persona');
    expect(readFileSync(p.agent('verifier'), 'utf8')).toBe(text);
  });

  it('--check exits 1 naming each drift, and writes nothing', () => {
    const policy = readJson(TAX_POLICY_PATH) as any;
    const p = project(policy);
    p.cli(['agents']);
    writeFileSync(p.agent('onboarding'), '---\nname: onboarding\ndescription: Starts.\n---\nNo tools key.\n');
    policy.personas.reconciler.families = ['modelo', 'bank', 'ledger', 'file_read'];
    policy.personas.classifier.families.push('shell');
    policy.personas.classifier.ceiling = 'process_exec';
    writeFileSync(join(p.dir, '.claude', 'persona-gate.json'), JSON.stringify(policy));
    const before = readFileSync(p.agent('reconciler'), 'utf8');
    const r = p.cli(['agents', '--check']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^\.claude\/agents\/reconciler\.md: its tools differ from what the reconciler persona may use: offers mcp__aeat__profile_create, mcp__aeat__profile_list, mcp__aeat__profile_switch, mcp__aeat__whoami$/m,
    );
    expect(r.stderr).toMatch(/^\.claude\/agents\/classifier\.md: .* lacks Bash, PowerShell, BashOutput, KillShell, TaskStop$/m);
    expect(r.stderr).toContain(
      '.claude/agents/onboarding.md: its tools differ from what the onboarding persona may use: it has no tools key, so it is offered every tool',
    );
    expect(r.stderr).not.toContain('ledger-groomer');
    expect(readFileSync(p.agent('reconciler'), 'utf8')).toBe(before);
    rmSync(p.agent('modelo-preparer'));
    expect(p.cli(['agents', '--check']).stderr).toContain(
      '.claude/agents/modelo-preparer.md: missing (the modelo-preparer persona is bound to it)',
    );
    expect(p.cli(['agents']).code).toBe(0);
    expect(p.cli(['agents', '--check']).code).toBe(0);
  });

  it('validate warns of a definition whose tools differ from the policy, and agents finds the project from the policy', () => {
    const p = project();
    mkdirSync(join(p.dir, 'sub'));
    expect(runCli(['agents'], { cwd: join(p.dir, 'sub'), env: p.env }).code).toBe(0);
    expect(p.cli(['validate']).stderr ?? '').not.toContain('subagent');
    writeFileSync(p.agent('verifier'), readFileSync(p.agent('verifier'), 'utf8').replace('tools: ', 'tools: Bash, '));
    const r = p.cli(['validate']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `warning: ${p.agent('verifier')}: its tools differ from what the verifier persona may use: offers Bash (persona-gate agents rewrites the tools of each`,
    );
    const doctor = p.cli(['doctor', '--dir', p.dir]);
    expect(doctor.stdout).toMatch(
      new RegExp(
        `^\\S+ +${p.agent('verifier').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: its tools differ from what the verifier persona may use: offers Bash$`,
        'm',
      ),
    );
  });

  it('keeps a shell the persona may run some lines of, and names a server its family takes whole', () => {
    const soft = project(readJson(SOFTWARE_POLICY_PATH));
    soft.cli(['agents']);
    expect(toolsOf(readFileSync(soft.agent('researcher'), 'utf8'))).toEqual(expect.arrayContaining(['Bash', 'Read']));
    expect(toolsOf(readFileSync(soft.agent('researcher'), 'utf8'))).not.toContain('Edit');
    const merge = project(readJson(MERGE_POLICY_PATH));
    merge.cli(['agents']);
    expect(toolsOf(readFileSync(merge.agent('reviewer'), 'utf8'))).toContain('mcp__github');
  });

  it("takes the MCP lock's tools: a pinned tool the policy does not know is never offered", () => {
    const p = project(readJson(MERGE_POLICY_PATH));
    const tool = {
      annotations: { readOnlyHint: true },
      description_sha256: '0'.repeat(64),
      input_schema_sha256: '0'.repeat(64),
      level: 'read_only',
      confirm: 'auto',
    };
    writeFileSync(
      join(p.dir, '.claude', 'persona-gate.lock.json'),
      JSON.stringify({ version: 1, servers: { github: { tools: { get_issue: tool } }, wiki: { tools: { page_read: tool } } } }),
    );
    p.cli(['agents']);
    const tools = toolsOf(readFileSync(p.agent('reviewer'), 'utf8'));
    expect(tools).toContain('mcp__github__get_issue');
    expect(tools).not.toContain('mcp__wiki__page_read');
    expect(flag(p.cli(['launch', '--persona', 'reviewer', '--print']).stdout, '--disallowedTools')).toContain('mcp__wiki__page_read');
  });

  it('says so when no persona is bound to an agent type', () => {
    const policy = readJson(TAX_POLICY_PATH) as any;
    for (const persona of Object.values(policy.personas) as any[]) delete persona.agent_types;
    const r = project(policy).cli(['agents']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is bound to an agent type (personas.NAME.agent_types)');
  });
});

describe('persona-gate launch', () => {
  it('prints the Claude Code command: the persona set, its out-of-scope tools off, the host arguments last', () => {
    const p = project();
    const r = p.cli(['launch', '--persona', 'verifier', '--print', '--', '-p', 'file modelo 303']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PERSONA_GATE_PERSONA=verifier claude --tools /);
    expect(r.stdout.trim().endsWith(" -p 'file modelo 303'")).toBe(true);
    expect(flag(r.stdout, '--tools')).toEqual(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);
    const off = flag(r.stdout, '--disallowedTools')!;
    for (const hidden of ['Bash', 'Write', 'Agent', 'mcp__aeat__ledger_list', 'mcp__aeat__bank_reconcile']) expect(off).toContain(hidden);
    for (const kept of ['Read', 'mcp__aeat__modelo_export', 'mcp__aeat__whoami', 'mcp__aeat__execute']) expect(off).not.toContain(kept);
    expect(r.stdout).not.toContain('--settings');
  });

  it("narrows further by stage, and uses the policy's own variable names", () => {
    const policy = readJson(TAX_POLICY_PATH) as any;
    policy.persona_env = 'AEAT_ROLE';
    policy.stage_env = 'AEAT_STAGE';
    const r = project(policy).cli(['launch', '--persona', 'verifier', '--stage', 'review', '--print']);
    expect(r.stdout).toMatch(/^AEAT_ROLE=verifier AEAT_STAGE=review claude /);
    expect(flag(r.stdout, '--disallowedTools')).toEqual(
      expect.arrayContaining(['mcp__aeat__modelo_export', 'mcp__aeat__modelo_work_create']),
    );
  });

  it("keeps on the session's list what a persona it delegates to may use (Claude Code applies the list to subagents)", () => {
    const r = project().cli(['launch', '--persona', 'coordinator', '--print']);
    const off = flag(r.stdout, '--disallowedTools')!;
    expect(off).toEqual(expect.arrayContaining(['Bash', 'Write', 'WebFetch', 'mcp__aeat__ledger_entry_delete']));
    expect(off).not.toContain('mcp__aeat__modelo_work_create');
    expect(flag(r.stdout, '--tools')).not.toContain('Bash');
  });

  it('keeps a shell the persona may run some lines of', () => {
    const r = project(readJson(SOFTWARE_POLICY_PATH)).cli(['launch', '--persona', 'researcher', '--print']);
    expect(flag(r.stdout, '--tools')).toContain('Bash');
    expect(flag(r.stdout, '--disallowedTools')).toContain('Edit');
    expect(flag(r.stdout, '--disallowedTools')).not.toContain('Bash');
  });

  it('passes the launch settings file when it is there', () => {
    const p = project();
    mkdirSync(join(p.home, '.claude'));
    const settings = join(p.home, '.claude', 'persona-gate-launch.json');
    writeFileSync(settings, '{"sandbox":{"enabled":true}}');
    expect(flag(p.cli(['launch', '--persona', 'verifier', '--print']).stdout, '--settings')).toEqual([settings]);
  });

  it("--as-agent runs the session as the persona's definition, once agents has written it", () => {
    const p = project();
    expect(p.cli(['launch', '--persona', 'coordinator', '--as-agent', '--print']).stderr).toContain(
      'coordinator.md does not exist; persona-gate agents writes it',
    );
    p.cli(['agents']);
    expect(flag(p.cli(['launch', '--persona', 'coordinator', '--as-agent', '--print']).stdout, '--agent')).toEqual(['coordinator']);
    writeFileSync(p.agent('coordinator'), readFileSync(p.agent('coordinator'), 'utf8').replace('tools: ', 'tools: Bash, '));
    const drift = p.cli(['launch', '--persona', 'coordinator', '--as-agent', '--print']);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('differ from what the coordinator persona may use; persona-gate agents brings them in line');
  });

  it('refuses an unknown persona, stage or host, naming the nearest', () => {
    const p = project();
    const persona = p.cli(['launch', '--persona', 'verifer', '--print']);
    expect(persona.code).toBe(1);
    expect(persona.stderr).toContain('"verifer" is not a persona of this policy (did you mean verifier?)');
    expect(p.cli(['launch', '--persona', 'verifier', '--stage', 'reviw']).stderr).toContain(
      '"reviw" is not a stage of the verifier persona (did you mean review?); accepted: review, file',
    );
    expect(p.cli(['launch', '--persona', 'verifier', '--host', 'gemni']).stderr).toContain('(did you mean gemini?)');
    expect(p.cli(['launch', '--print']).stderr).toContain('--persona NAME');
    const es = runCli(['launch', '--persona', 'verifer'], { cwd: p.dir, env: { ...p.env, PERSONA_GATE_LOCALE: 'es' } });
    expect(es.stderr).toContain('"verifer" no es una persona de esta política (¿quería decir verifier?)');
  });

  it.each(['codex'])('refuses %s, saying what it lacks', (host) => {
    const r = project().cli(['launch', '--persona', 'verifier', '--host', host, '--print']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^persona-gate launch: cannot start ${host} with its tools narrowed: .+\\. The hook still judges every call there`),
    );
    expect(r.stdout).toBe('');
  });

  it("prints Copilot's allowlist, by Copilot's names", () => {
    const r = project().cli(['launch', '--host', 'copilot', '--persona', 'verifier', '--print', '--', '-p', 'go']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PERSONA_GATE_PERSONA=verifier copilot --available-tools=\S+ -p go\n$/);
    const names = /--available-tools=(\S+)/.exec(r.stdout)![1]!.split(',');
    for (const kept of ['view', 'grep', 'glob', 'aeat-whoami', 'aeat-modelo_export', 'aeat-execute']) expect(names).toContain(kept);
    for (const hidden of ['bash', 'create', 'edit', 'task', 'aeat-ledger_list']) expect(names).not.toContain(hidden);
    expect(project().cli(['launch', '--host', 'copilot', '--persona', 'coordinator', '--as-agent', '--print']).stderr).toContain(
      '--as-agent is for Claude Code',
    );
  });

  it('writes Gemini CLI a policy file that denies what the persona may never use, into the private state directory', () => {
    const p = project();
    const state = join(p.dir, 'state');
    const r = runCli(['launch', '--host', 'gemini', '--persona', 'verifier', '--print', '--', '-p', 'go'], {
      cwd: p.dir,
      env: { ...p.env, PERSONA_GATE_STATE_DIR: state },
    });
    expect(r.code, r.stderr).toBe(0);
    const file = /--policy (\S+)/.exec(r.stdout)![1]!;
    expect(file.startsWith(join(state, 'launch', 'gemini-'))).toBe(true);
    expect(r.stdout).toBe(`PERSONA_GATE_PERSONA=verifier gemini --policy ${file} -p go\n`);
    const text = readFileSync(file, 'utf8');
    for (const denied of ['toolName = "run_shell_command"', 'toolName = "write_file"', 'mcpName = "aeat"\ntoolName = "ledger_list"'])
      expect(text).toContain(`[[rule]]\n${denied}\ndecision = "deny"`);
    for (const kept of ['"read_file"', '"glob"', '"whoami"', '"modelo_export"', '"execute"']) expect(text).not.toContain(kept);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
  });

  it('gives Qwen Code the list of its core tools the persona may use', () => {
    const r = project().cli(['launch', '--host', 'qwen', '--persona', 'verifier', '--print', '--', '-p', 'go']);
    expect(r.stdout).toBe(
      'PERSONA_GATE_PERSONA=verifier qwen --core-tools=read_file,read_many_files,glob,search_file_content,grep_search,list_directory -p go\n',
    );
    const soft = project(readJson(SOFTWARE_POLICY_PATH)).cli(['launch', '--host', 'qwen', '--persona', 'researcher', '--print']);
    expect(/--core-tools=(\S+)/.exec(soft.stdout)![1]!.split(',')).toEqual(expect.arrayContaining(['run_shell_command', 'read_file']));
  });

  it('asks Droid which tools it has, and keeps those the persona may use, for droid exec only', () => {
    const p = project();
    const stub = join(p.dir, 'droid-stub');
    const listed = ['Read', 'Execute', 'Create', 'Grep', 'Loop', 'aeat___whoami', 'aeat___ledger_list', 'aeat___modelo_export'].map(
      (llmId) => ({ id: llmId.toLowerCase(), llmId }),
    );
    writeFileSync(
      stub,
      `#!${process.execPath}\nconst a = process.argv.slice(2);\nif (a.includes('--list-tools')) { process.stdout.write(JSON.stringify(${JSON.stringify(listed)})); process.stderr.write(a.join(' ')); } else process.exit(3);\n`,
    );
    chmodSync(stub, 0o755);
    const r = p.cli([
      'launch',
      '--host',
      'droid',
      '--persona',
      'verifier',
      '--program',
      stub,
      '--print',
      '--',
      'exec',
      '-m',
      'custom:m-0',
      'go',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `PERSONA_GATE_PERSONA=verifier ${stub} exec --only-tools Read,Grep,MCP:aeat/whoami,MCP:aeat/modelo_export -m custom:m-0 go\n`,
    );
    expect(p.cli(['launch', '--host', 'droid', '--persona', 'verifier', '--program', stub, '--print', '--', 'go']).stderr).toContain(
      'give its arguments as -- exec [options] PROMPT',
    );
    expect(
      p.cli(['launch', '--host', 'droid', '--persona', 'verifier', '--program', '/nonexistent/droid', '--', 'exec', 'go']).stderr,
    ).toContain('cannot learn which tools /nonexistent/droid has');
  });

  /** A stand-in host: prints its arguments and persona, copies stdin to stdout, writes to stderr, exits as told. */
  function stubHost(dir: string): string {
    const path = join(dir, 'host-stub');
    writeFileSync(
      path,
      `#!${process.execPath}
const mode = process.argv[process.argv.length - 1];
process.stdout.write(JSON.stringify({ args: process.argv.slice(2), persona: process.env.PERSONA_GATE_PERSONA ?? null, stage: process.env.PERSONA_GATE_STAGE ?? null }) + '\\n');
if (mode === 'wait-term') {
  process.on('SIGTERM', () => { process.stdout.write('got SIGTERM\\n'); process.exit(42); });
  process.stdout.write('ready\\n');
  setInterval(() => {}, 1000);
} else if (mode === 'die') {
  process.kill(process.pid, 'SIGKILL');
} else {
  let input = '';
  process.stdin.on('data', (d) => (input += d));
  process.stdin.on('end', () => { process.stdout.write('stdin:' + input); process.stderr.write('to stderr\\n'); process.exit(Number(mode)); });
}
`,
    );
    chmodSync(path, 0o755);
    return path;
  }

  it('runs the host with the persona set, passing its stdin, stdout, stderr and exit code through', () => {
    const p = project();
    const stub = stubHost(p.dir);
    const r = p.cli(['launch', '--persona', 'verifier', '--stage', 'file', '--program', stub, '--', '-p', 'go', '7'], {
      input: 'the prompt\n',
    });
    expect(r.code).toBe(7);
    const [first, second] = r.stdout.split('\n');
    const seen = JSON.parse(first!);
    expect(seen).toMatchObject({ persona: 'verifier', stage: 'file' });
    expect(seen.args.slice(-3)).toEqual(['-p', 'go', '7']);
    expect(seen.args[0]).toBe('--tools');
    expect(second).toBe('stdin:the prompt');
    expect(r.stderr).toBe('to stderr\n');
  });

  it('forwards a signal to the host, and ends as a signal ended the host', async () => {
    const p = project();
    const stub = stubHost(p.dir);
    const child = spawn(process.execPath, [BIN, 'launch', '--persona', 'verifier', '--program', stub, '--', 'wait-term'], {
      cwd: p.dir,
      env: p.env,
    });
    let out = '';
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('ready')) child.kill('SIGTERM');
      });
      child.on('close', (c) => resolve(c));
    });
    expect(out).toContain('got SIGTERM');
    expect(code).toBe(42);
    const killed = p.cli(['launch', '--persona', 'verifier', '--program', stub, '--', 'die']);
    expect(killed.code).toBe(128 + 9);
  });

  it('says so when the host program cannot be started', () => {
    const r = project().cli(['launch', '--persona', 'verifier', '--program', '/nonexistent/claude']);
    expect(r.code).toBe(127);
    expect(r.stderr).toContain(
      'persona-gate launch: cannot start /nonexistent/claude: not found (install it, or name it with --program PATH)',
    );
  });
});
