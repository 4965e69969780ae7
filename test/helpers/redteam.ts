import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision } from '../../src/core/decide';
import type { Level } from '../../src/core/levels';
import { buildPolicyIndex } from '../../src/core/policy-index';
import type { ProtectedPathCheck } from '../../src/core/types';
import { makeProtectedPathCheck } from '../../src/io/protect';
import { readShellCall } from '../../src/shell/resolve-shell';
import { tempDir } from './cli';
import { installed, isSkipped, judgeRun, type Skipped } from './programs';
import { confirmed, pre, run, taxIndex } from './policy';

/**
 * What the attacker tables run on: the persona `modelo-preparer` of examples/tax-filing.json with
 * the `shell` family, each line judged by the gate and run for real by bash (a stub `aeat` on PATH
 * recording its runs, guarded files on a real temporary tree).
 */

/** The catalogued program as the gate reads it; bash runs the stub in its place. */
export const AEAT = '/usr/local/bin/aeat';

function indexAt(ceiling: Level) {
  const policy = structuredClone(taxIndex().policy!);
  policy.personas['modelo-preparer']!.families.push('shell');
  policy.personas['modelo-preparer']!.ceiling = ceiling;
  return buildPolicyIndex(policy, 'sha', '/work/project/.claude/persona-gate.json');
}
const INDEX = { network: indexAt('network'), workspace_write: indexAt('workspace_write') };
const modelProtected = makeProtectedPathCheck({
  policyPath: '/work/project/.claude/persona-gate.json',
  stateDir: '/tmp/pg-redteam-state',
  prefsFile: '/tmp/pg-redteam-home/.config/persona-gate/config.json',
  home: '/tmp/pg-redteam-home',
  env: {},
});

export function judge(
  command: string,
  ceiling: 'network' | 'workspace_write' = 'network',
  opts: { cwd?: string; isProtected?: ProtectedPathCheck } = {},
): Decision {
  return run(INDEX[ceiling], pre('Bash', { command }, { cwd: opts.cwd ?? '/work/project' }), {
    state: confirmed(),
    env: { PERSONA_GATE_PERSONA: 'modelo-preparer' },
    isProtected: opts.isProtected ?? modelProtected,
    shell: readShellCall,
  });
}

/** Checks a real run's result, unless it was skipped (and reported) because a program it needs is not installed here. */
export function whenRan<T>(result: T | Skipped, check: (ran: T) => void): void {
  if (!isSkipped(result)) check(result);
}

/** Runs a line with bash, as the tests' real runs do; its stderr. */
function realRun(line: string, opts: { cwd: string; env: Record<string, string>; input?: string }): string {
  // stderr into a file, not a pipe: a process the line leaves in the background must not hold the run open
  const file = join(tempDir('pg-run-'), 'stderr');
  const fd = openSync(file, 'w');
  try {
    spawnSync('bash', ['-c', line], {
      cwd: opts.cwd,
      env: opts.env,
      ...(opts.input !== undefined ? { input: opts.input, stdio: ['pipe', 'ignore', fd] } : { stdio: ['ignore', 'ignore', fd] }),
      timeout: 10_000,
    });
  } finally {
    closeSync(fd);
  }
  return readFileSync(file, 'utf8');
}

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@b',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@b',
  GIT_CONFIG_NOSYSTEM: '1',
};

/**
 * Runs `line` with bash in a fresh directory, a stub `aeat` first on PATH; returns what the stub
 * recorded ('' if it never ran), or a skip when a program it needs is not installed here.
 */
export function bashRuns(line: string, setup = ''): string | Skipped {
  const dir = tempDir('pg-redteam-');
  const bin = join(dir, 'bin');
  const work = join(dir, 'w');
  mkdirSync(bin);
  mkdirSync(work);
  const marker = join(dir, 'marker');
  writeFileSync(join(bin, 'aeat'), `#!/bin/sh\necho "aeat $*" >> '${marker}'\n`);
  chmodSync(join(bin, 'aeat'), 0o755);
  const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: work, ...GIT_ENV };
  if (setup) {
    const skipped = judgeRun(setup, realRun(setup, { cwd: work, env }));
    if (skipped) return skipped;
  }
  const skipped = judgeRun(line, realRun(line.split(AEAT).join(join(bin, 'aeat')), { cwd: work, env }));
  if (skipped) return skipped;
  return existsSync(marker) ? readFileSync(marker, 'utf8').trim() : '';
}

export interface Tree {
  project: string;
  home: string;
  /** Each guarded file's content before the line ran (null: not there). */
  guarded: Record<string, string | null>;
  isProtected: ProtectedPathCheck;
  /** Set when the setup could not run here: a program it needs is not installed. */
  skipped: Skipped | null;
}

const GUARDED = ['settings.json', 'settings.local.json', 'persona-gate.json'];

/** A project with its registration and policy in .claude/, after `setup` ran in it. */
export function projectTree(setup: string): Tree {
  const root = tempDir('pg-redteam-g0-');
  const project = join(root, 'p');
  const home = join(root, 'h');
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(project, '.claude', 'settings.json'), '{"hooks":{"PreToolUse":[]}}\n');
  writeFileSync(join(project, '.claude', 'persona-gate.json'), '{"version":1}\n');
  const skipped = setup ? judgeRun(setup, realRun(setup, { cwd: project, env: { PATH: '/usr/bin:/bin', HOME: home, ...GIT_ENV } })) : null;
  const guarded: Record<string, string | null> = {};
  for (const f of GUARDED) {
    const p = join(project, '.claude', f);
    guarded[f] = existsSync(p) ? readFileSync(p, 'utf8') : null;
  }
  const isProtected = makeProtectedPathCheck({
    policyPath: join(project, '.claude', 'persona-gate.json'),
    stateDir: join(home, '.local', 'state', 'persona-gate'),
    prefsFile: join(home, '.config', 'persona-gate', 'config.json'),
    home,
    env: { CLAUDE_PROJECT_DIR: project },
  });
  return { project, home, guarded, isProtected, skipped };
}

/**
 * Runs the line in the tree (with `input` on stdin, if given); the guarded files that appeared,
 * changed or went, or a skip when a program the setup or the line needs is not installed here.
 */
export function changedBy(tree: Tree, line: string, input?: string, needs: readonly string[] = []): string[] | Skipped {
  if (tree.skipped) return tree.skipped;
  const env = { PATH: '/usr/bin:/bin', HOME: tree.home, ...GIT_ENV };
  const skipped = judgeRun(line, needs.some((p) => !installed(p)) ? '' : realRun(line, { cwd: tree.project, env, input }), needs);
  if (skipped) return skipped;
  return Object.entries(tree.guarded)
    .filter(([f, before]) => {
      const p = join(tree.project, '.claude', f);
      return (existsSync(p) ? readFileSync(p, 'utf8') : null) !== before;
    })
    .map(([f]) => f);
}

/** Two commits: the registration as it was before the hook, then with it (the hook installed last). */
export const HOOK_HISTORY = `git init -q . && echo '{}' > .claude/settings.json && git add -A && git commit -qm before && echo '{"hooks":{"PreToolUse":[]}}' > .claude/settings.json && git commit -qam hook`;

/**
 * The starts of `aeat` the reader reads in `line` (read through, nothing opaque) are the ones bash
 * really makes: the stub's log, one start per line, in order (unless a program the run needs is missing here).
 */
export function expectStartsAsRun(line: string, read: ReturnType<typeof readShellCall>): void {
  expect(read?.unparsable).toBeUndefined();
  expect(read?.opaque).toEqual([]);
  const starts = (read?.invocations ?? []).filter((i) => i.program === 'aeat').map((i) => ['aeat', ...i.args].join(' '));
  expect(starts.length).toBeGreaterThan(0);
  whenRan(bashRuns(line), (logged) => expect(logged).toBe(starts.join('\n')));
}
