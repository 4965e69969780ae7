import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { taxPolicyWithShell } from '../helpers/policy';
import { runCli } from '../helpers/cli';
import { codexTrustToml, makeCodexProject, personaGateEnv, runCodex, type CodexProject, type CodexProjectOptions } from './support/codex';
import { describeConfined } from './support/loopback-only';
import {
  responsesToolOutputs,
  startResponsesModel,
  type ResponsesCall,
  type ResponsesModel,
  type ResponsesToolOutput,
  type ResponsesTurn,
} from './support/responses-model';

// The pinned Codex CLI, installed into the test cache on first use (a download the first time).
beforeAll(() => {
  hostCli('codex');
}, 900_000);

/**
 * The real OpenAI Codex CLI (`codex exec`), driven by a scripted Responses API model on 127.0.0.1,
 * with persona-gate registered by `persona-gate init --host codex` ($CODEX_HOME/hooks.json) and
 * trusted in config.toml the way Codex records a user's trust (no `--dangerously-bypass-hook-trust`):
 * Codex skips an untrusted hook without a word.
 */

/**
 * Registers persona-gate as a user would: `init --host codex`, which also records the trust Codex
 * asks of the user. The trust is checked against the recipe measured on Codex (codexTrustToml's
 * tables, computed independently): the same tables, byte for byte.
 */
function register(project: CodexProject): void {
  // The hook alone, under the harness's danger-full-access: Codex's sandbox is codex-sandbox.test.ts's.
  const init = runCli(['init', '--host', 'codex', '--no-sandbox'], { env: personaGateEnv(project), cwd: project.dir });
  expect(init.code, init.stderr).toBe(0);
  const config = join(project.codexHome, 'config.toml');
  const byInit = readFileSync(config, 'utf8');
  const hooksPath = join(project.codexHome, 'hooks.json');
  for (const table of codexTrustToml(hooksPath, JSON.parse(readFileSync(hooksPath, 'utf8'))).split('\n\n'))
    expect(byInit).toContain(table.trim());
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function session(opts: {
  turns: ResponsesTurn[];
  persona?: string;
  project?: CodexProjectOptions;
  untrusted?: boolean;
}): Promise<{ project: CodexProject; model: ResponsesModel; outputs: ResponsesToolOutput[]; ran: string[] }> {
  const model = await startResponsesModel(opts.turns);
  const project = makeCodexProject(opts.project);
  cleanup.push(
    () => model.close(),
    () => rmSync(dirname(project.dir), { recursive: true, force: true }),
  );
  register(project);
  if (opts.untrusted) {
    const config = join(project.codexHome, 'config.toml');
    writeFileSync(config, readFileSync(config, 'utf8').replace(/\[hooks\.state\.[^\]]*\]\ntrusted_hash = "[^"]*"\n/g, ''));
  }
  const run = await runCodex(project, model.url, { env: opts.persona ? { PERSONA_GATE_PERSONA: opts.persona } : {} });
  expect(run.code, run.stderr).toBe(0);
  // Every scripted turn was answered: the session ran to its end.
  expect(model.requests.length).toBe(opts.turns.length + 1);
  return { project, model, outputs: responsesToolOutputs(model.requests), ran: project.executed().map((e) => e.tool) };
}

const shell = (cmd: string): ResponsesCall[] => [{ name: 'exec_command', input: { cmd } }];
const mcp = (tool: string, input: Record<string, unknown> = {}): ResponsesCall[] => [{ name: tool, namespace: 'mcp__aeat', input }];

/**
 * The example policy, with the modelo-preparer also allowed the shell (as a team that lets it run
 * `aeat` would), not strictly: Codex's `write_stdin` types into a running command without any hook,
 * so under --host codex a program that reads its code from stdin is refused all the same.
 */
function policyWithShell(): unknown {
  return taxPolicyWithShell();
}

/** Types into the last command the model started, by the session id Codex reported for it. */
const typeInto =
  (chars: string): ResponsesTurn =>
  (requests) => {
    const id = /session ID (\d+)/.exec(JSON.stringify(requests.at(-1)?.body.input ?? []))?.[1];
    return [{ name: 'write_stdin', input: { session_id: Number(id ?? 0), chars, yield_time_ms: 1500 } }];
  };

describeConfined('persona-gate inside the real Codex CLI', () => {
  it('gates the shell and MCP tools of a modelo-preparer: handoff refused, identity gate, allowed work runs', async () => {
    const policy = policyWithShell();
    const { outputs, ran, project } = await session({
      persona: 'modelo-preparer',
      project: { policy },
      turns: [
        mcp('modelo_work_create', { modelo: '303' }),
        mcp('whoami'),
        mcp('modelo_work_create', { modelo: '303' }),
        shell('aeat modelo export 303'),
        shell('aeat modelo list'),
        [
          {
            name: 'apply_patch',
            raw: '*** Begin Patch\n*** Update File: .claude/persona-gate.json\n@@\n-{\n+{"version": 1}\n*** End Patch\n',
          },
        ],
        [{ name: 'exec_command', input: { cmd: 'bash', tty: true, yield_time_ms: 500 } }],
        typeInto('aeat modelo export 303\nexit\n'),
        // Codex applies a patch given to `apply_patch` in a shell command itself, as a Bash call.
        shell("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .claude/persona-gate.local.json\n+{}\n*** End Patch\nEOF\n"),
      ],
    });
    // The mutation before whoami was refused; after the whoami ran (PostToolUse, matched by call id) it ran.
    expect(ran).toEqual(['whoami', 'modelo_work_create']);
    expect(outputs[0]!.output).toMatch(
      /^Tool call blocked by PreToolUse hook: .*this session has not yet confirmed which profile is active/,
    );
    expect(outputs[2]!.output).toContain('draft created');
    // The handoff never reached the program, and the model was told whose it is.
    expect(outputs[3]!.output).toMatch(
      /^Command blocked by PreToolUse hook: .*it is an irreversible handoff owned by the verifier persona.*\. Command: aeat modelo export 303$/s,
    );
    expect(outputs[4]!.output).toContain('aeat modelo list: ok');
    expect(project.aeatRuns()).toEqual(['modelo list']);
    // apply_patch is read for the files it writes: the policy is not among the files it may touch.
    expect(outputs[5]!.output).toMatch(/^Command blocked by PreToolUse hook: .*would change the persona-gate policy/);
    expect(readFileSync(join(project.dir, '.claude', 'persona-gate.json'), 'utf8')).toBe(JSON.stringify(policy));
    // An interactive shell is refused (write_stdin would feed it unseen), so there is nothing to type the handoff into.
    expect(outputs[6]!.output).toMatch(
      /^Command blocked by PreToolUse hook: persona-gate: bash reads commands from stdin, and this host can give a running command input later without persona-gate seeing it/,
    );
    expect(outputs[7]!.output).toMatch(/^write_stdin failed/);
    expect(outputs[8]!.output).toMatch(
      /^Command blocked by PreToolUse hook: .*hands a persona-gate policy, which guards this session, to `apply_patch`/,
    );
    expect(existsSync(join(project.dir, '.claude', 'persona-gate.local.json'))).toBe(false);
    expect(project.aeatRuns()).toEqual(['modelo list']);
  });

  it("refuses an MCP tool outside the persona's scope and lets a read run", async () => {
    const { outputs, ran } = await session({
      persona: 'coordinator',
      turns: [mcp('modelo_work_create', { modelo: '303' }), mcp('modelo_list')],
    });
    expect(ran).toEqual(['modelo_list']);
    expect(outputs[0]!.output).toMatch(
      /^Tool call blocked by PreToolUse hook: .*the coordinator persona may not run modelo\.work\.create.*\. Tool: mcp__aeat__modelo_work_create$/s,
    );
    expect(outputs[1]!.output).toContain('modelo 303 (draft)');
  });

  it('refuses a confirm-tier call, saying a person must approve it, with the profile read from the whoami that ran', async () => {
    const { outputs, ran } = await session({ persona: 'verifier', turns: [mcp('whoami'), mcp('modelo_export', { modelo: '303' })] });
    expect(ran).toEqual(['whoami']);
    expect(outputs[1]!.output).toMatch(
      /^Tool call blocked by PreToolUse hook: \[Active profile: Erika Example \(NIF 00000000T\)\] persona-gate: modelo\.export needs the user's confirmation\..*Codex cannot ask a person from here, so the call is denied: a person must approve it/s,
    );
  });

  it('denies every call when the policy is broken, rather than failing open', async () => {
    const { outputs, ran, project } = await session({
      persona: 'modelo-preparer',
      project: { policyText: '{ "version": 1, "catalog": ' },
      turns: [shell('aeat modelo list'), mcp('modelo_list')],
    });
    expect(ran).toEqual([]);
    expect(project.aeatRuns()).toEqual([]);
    expect(
      outputs.map(
        (o) => o.output.startsWith('Command blocked by PreToolUse hook: ') || o.output.startsWith('Tool call blocked by PreToolUse hook: '),
      ),
    ).toEqual([true, true]);
    for (const o of outputs) expect(o.output).toContain('is not valid');
  });

  it('is skipped by Codex, without a word, while the user has not trusted the registration (what doctor --host codex checks)', async () => {
    const { ran } = await session({ persona: 'coordinator', untrusted: true, turns: [mcp('modelo_work_create', { modelo: '303' })] });
    expect(ran).toEqual(['modelo_work_create']);
  });
});
