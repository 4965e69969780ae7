import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hostCli } from '../helpers/host-cli';
import { ROOT } from '../helpers/policy';
import { describeConfined } from './support/loopback-only';
import { startModel, toolResults, type ToolUse } from './support/model-server';
import { makeProject, runClaude, type Project } from './support/project';

/**
 * The refusals the README shows as the model reads them in Claude Code, read back from what the
 * real Claude Code sent its (scripted) model, under the software-team starter.
 */
beforeAll(() => {
  hostCli('claude-code');
}, 900_000);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
function shown(tool: string): string {
  const m = new RegExp('```text\\n(PreToolUse:' + tool + ' hook error: .*)\\n```').exec(README);
  expect(m, `the README shows a ${tool} refusal as Claude Code gives it`).not.toBeNull();
  return m![1]!;
}

/** Claude Code, as `persona`, in a project with the software-team starter, making `calls(project)` one per turn. */
async function run(
  persona: string,
  calls: (p: Project) => ToolUse[],
): Promise<{ results: ReturnType<typeof toolResults>; project: Project }> {
  const project = makeProject({ policy: JSON.parse(readFileSync(join(ROOT, 'examples', 'software-team.json'), 'utf8')) });
  const model = await startModel({ main: calls(project).map((c) => [c]) }, {});
  cleanup.push(
    () => model.close(),
    () => rmSync(project.dir, { recursive: true, force: true }),
  );
  const r = await runClaude(project, model.url, { env: { PERSONA_GATE_PERSONA: persona } });
  expect(r.code, r.stderr).toBe(0);
  return { results: toolResults(model.requests), project };
}

describeConfined('the README, inside the real Claude Code', () => {
  it('the implementer publishing, alone or inside a longer line: the refusal at the top of the README', async () => {
    const { results } = await run('implementer', () => [
      { name: 'Bash', input: { command: 'npm publish' } },
      { name: 'Bash', input: { command: 'cd pkg && npm publish --tag next' } },
    ]);
    expect(results.map((r) => r.name)).toEqual(['Bash', 'Bash']);
    for (const r of results) expect(r.content.startsWith(`${shown('Bash')}\n`), r.content).toBe(true);
  });

  it('the researcher editing package.json: the refusal of the first-refusal section', async () => {
    const { results, project } = await run('researcher', (p) => {
      const file = join(p.dir, 'package.json');
      writeFileSync(file, '{ "name": "my-project" }\n');
      return [
        { name: 'Read', input: { file_path: file } },
        { name: 'Edit', input: { file_path: file, old_string: 'my-project', new_string: 'my-app' } },
      ];
    });
    expect(results.map((r) => r.name)).toEqual(['Read', 'Edit']);
    expect(results[0]!.isError).toBe(false);
    expect(results[1]!.isError).toBe(true);
    expect(results[1]!.content.startsWith(`${shown('Edit')}\n`), results[1]!.content).toBe(true);
    expect(readFileSync(join(project.dir, 'package.json'), 'utf8')).toContain('my-project');
  });
});
