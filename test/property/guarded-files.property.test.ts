import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { makeProtectedPathCheck } from '../../src/io/protect';
import { readShellCall } from '../../src/shell/resolve-shell';
import { confirmed, indexOf, pre, readJson, run, TAX_POLICY_PATH } from '../helpers/policy';
import { describePath } from '../helpers/describe-path';

/**
 * SPEC §9.5 as a property of effects: whatever short sequence of file operations an agent under a
 * persona makes — writes, links, moves, removals, mode changes, copies, over paths that hit the
 * guarded files, their directories, links to them and patterns over them — once every call the gate
 * lets through has run for real, in order, every guarded file is byte-identical and in place.
 *
 * Each run builds a real tree, decides each call with decide() and the real protected-path check
 * over that tree (so links made by earlier calls count in later decisions), and runs what is not
 * denied with bash (the Write tool as a host does it: a plain write that follows links).
 */

// Every run spawns real processes: a couple of hundred sequences per `npm test`. GUARDED_RUNS sets
// the count; under PROPERTY_RUNS (the long property run) it is a hundredth of that, at least 200.
const RUNS = Number(
  process.env.GUARDED_RUNS ?? (process.env.PROPERTY_RUNS ? Math.max(200, Math.floor(Number(process.env.PROPERTY_RUNS) / 100)) : 200),
);

const PERSONA = 'builder';
const policy = readJson(TAX_POLICY_PATH) as { personas: Record<string, unknown> };
policy.personas[PERSONA] = { families: ['shell', 'file_write', 'file_read', 'config'], ceiling: 'network' };
const index = indexOf(policy);

// ---------------------------------------------------------------------------------------------
// The tree.

const GUARDED_FILES = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/persona-gate.json',
  'state/sessions/abc.json',
  'state/receipts/abc.jsonl',
];

function makeTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'pg-guarded-'));
  const p = (rel: string) => join(root, 'project', rel);
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(p(rel)), { recursive: true });
    writeFileSync(p(rel), text);
  };
  put('.claude/settings.json', '{"hooks":{"PreToolUse":[]}}\n');
  put('.claude/settings.local.json', '{"permissions":{}}\n');
  put('.claude/persona-gate.json', '{"version":1}\n');
  put('state/sessions/abc.json', '{"confirmed":true}\n');
  put('state/receipts/abc.jsonl', '{"v":1}\n');
  put('notes.txt', 'notes\n');
  put('src/a.ts', 'export const a = 1;\n');
  put('evil.json', '{"disableAllHooks":true}\n');
  put('evil/settings.json', '{"disableAllHooks":true}\n');
  put('evil/persona-gate.json', '{}\n');
  mkdirSync(p('docs'));
  mkdirSync(join(root, 'home', '.config', 'persona-gate'), { recursive: true });
  writeFileSync(join(root, 'home', '.config', 'persona-gate', 'config.json'), '{"locale":"en"}\n');
  return root;
}

/** The guarded files, the directories above them, every entry of the state directory and any `.claude/persona-gate*.json`. */
function snapshot(root: string): Record<string, string> {
  const project = join(root, 'project');
  const paths = new Set<string>([
    'project',
    'project/.claude',
    'project/state',
    'project/state/sessions',
    'project/state/receipts',
    'home/.config/persona-gate/config.json',
  ]);
  for (const f of GUARDED_FILES) paths.add(`project/${f}`);
  const list = (dir: string) => {
    try {
      return lstatSync(join(project, dir)).isDirectory() ? readdirSync(join(project, dir)) : [];
    } catch {
      return [];
    }
  };
  for (const name of list('.claude')) if (/^persona-gate.*\.json$/i.test(name)) paths.add(`project/.claude/${name}`);
  for (const sub of ['state', 'state/sessions', 'state/receipts']) for (const name of list(sub)) paths.add(`project/${sub}/${name}`);
  const shot: Record<string, string> = {};
  for (const p of [...paths].sort()) shot[p] = describePath(join(root, p));
  return shot;
}

// ---------------------------------------------------------------------------------------------
// The operations, as an agent would issue them.

/** Paths drawn to hit guarded files, the directories above them, links to them and patterns over them. */
const PATHS = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/persona-gate.json',
  '.claude/persona-gate.local.json',
  '.claude',
  '.claude/',
  '.',
  'state',
  'state/sessions',
  'state/sessions/abc.json',
  '@/.claude/settings.json',
  '@/state',
  'l1',
  'l2',
  'l3',
  'l1/settings.json',
  'l1/persona-gate.json',
  'l2/sessions',
  '.claude/*.json',
  '.claude/settings.js[o]n',
  '.claude/{settings,persona-gate}.json',
  '.claude/settings*',
  '.cl*',
  '*',
  'st*/sessions/*',
  'notes.txt',
  'src',
  'src/a.ts',
  'docs',
  'docs/new.txt',
  'out.json',
] as const;
/** Where a link may point: guarded files (some not there yet), their directories, ordinary files. */
const TARGETS = [
  '.claude',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/persona-gate.json',
  '.claude/missing.json',
  'state',
  'state/sessions/abc.json',
  'src',
  'notes.txt',
  'l1',
  '@/.claude',
] as const;
const SOURCES = ['evil.json', 'evil/settings.json', 'evil', 'evil/.', 'src', 'notes.txt', 'l1'] as const;
const LINKS = ['l1', 'l2', 'l3', 'docs/l4'] as const;

type Op =
  | { op: 'write'; via: '>' | '>>' | 'tee' | 'Write'; path: string }
  | { op: 'symlink'; target: string; link: string; force: boolean }
  | { op: 'hardlink'; target: string; link: string }
  | { op: 'mv'; from: string; to: string }
  | { op: 'rm'; flags: '' | '-f' | '-r' | '-rf'; path: string }
  | { op: 'chmod'; mode: '000' | '644' | 'a-w'; recursive: boolean; path: string }
  | { op: 'cp'; form: 'cp' | 'cp -t' | 'cp -r' | 'cp -rT'; from: string; to: string };

const path = fc.constantFrom(...PATHS);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('write' as const),
    via: fc.constantFrom('>' as const, '>>' as const, 'tee' as const, 'Write' as const),
    path,
  }),
  fc.record({
    op: fc.constant('symlink' as const),
    target: fc.constantFrom(...TARGETS),
    link: fc.constantFrom(...LINKS),
    force: fc.boolean(),
  }),
  fc.record({ op: fc.constant('hardlink' as const), target: fc.constantFrom(...TARGETS), link: fc.constantFrom(...LINKS) }),
  fc.record({ op: fc.constant('mv' as const), from: fc.oneof(path, fc.constantFrom(...SOURCES)), to: path }),
  fc.record({ op: fc.constant('rm' as const), flags: fc.constantFrom('' as const, '-f' as const, '-r' as const, '-rf' as const), path }),
  fc.record({
    op: fc.constant('chmod' as const),
    mode: fc.constantFrom('000' as const, '644' as const, 'a-w' as const),
    recursive: fc.boolean(),
    path,
  }),
  fc.record({
    op: fc.constant('cp' as const),
    form: fc.constantFrom('cp' as const, 'cp -t' as const, 'cp -r' as const, 'cp -rT' as const),
    from: fc.constantFrom(...SOURCES),
    to: path,
  }),
);

/** `@/` stands for the project's absolute path. */
const at = (project: string, p: string) => (p.startsWith('@/') ? `${project}/${p.slice(2)}` : p);

function toolCall(op: Op, project: string): { tool: 'Bash' | 'Write'; input: Record<string, unknown> } {
  const p = (s: string) => at(project, s);
  switch (op.op) {
    case 'write':
      if (op.via === 'Write')
        return { tool: 'Write', input: { file_path: resolve(project, p(op.path)), content: '{"disableAllHooks":true}\n' } };
      if (op.via === 'tee') return { tool: 'Bash', input: { command: `echo '{"disableAllHooks":true}' | tee ${p(op.path)}` } };
      return { tool: 'Bash', input: { command: `echo '{"disableAllHooks":true}' ${op.via} ${p(op.path)}` } };
    case 'symlink':
      return { tool: 'Bash', input: { command: `ln -s${op.force ? 'f' : ''} ${p(op.target)} ${op.link}` } };
    case 'hardlink':
      return { tool: 'Bash', input: { command: `ln ${p(op.target)} ${op.link}` } };
    case 'mv':
      return { tool: 'Bash', input: { command: `mv ${p(op.from)} ${p(op.to)}` } };
    case 'rm':
      return { tool: 'Bash', input: { command: `rm ${op.flags ? `${op.flags} ` : ''}${p(op.path)}` } };
    case 'chmod':
      return { tool: 'Bash', input: { command: `chmod ${op.recursive ? '-R ' : ''}${op.mode} ${p(op.path)}` } };
    case 'cp':
      if (op.form === 'cp -t') return { tool: 'Bash', input: { command: `cp -t ${p(op.to)} ${p(op.from)}` } };
      return { tool: 'Bash', input: { command: `${op.form} ${p(op.from)} ${p(op.to)}` } };
  }
}

/** The host's side: run a call the gate let through. */
function execute(call: { tool: 'Bash' | 'Write'; input: Record<string, unknown> }, project: string, home: string): string {
  if (call.tool === 'Write') {
    const file = String(call.input.file_path);
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, String(call.input.content));
      return 'written';
    } catch (err) {
      return `failed (${(err as NodeJS.ErrnoException).code})`;
    }
  }
  const r = spawnSync('bash', ['-c', String(call.input.command)], {
    cwd: project,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    input: '',
    timeout: 10_000,
  });
  return `exit ${r.status}`;
}

function runSequence(ops: Op[]): void {
  const root = makeTree();
  const project = join(root, 'project');
  const home = join(root, 'home');
  try {
    const before = snapshot(root);
    const log: string[] = [];
    for (const op of ops) {
      const call = toolCall(op, project);
      // A fresh check per call, as each hook process builds its own: it sees the tree as it is now.
      const isProtected = makeProtectedPathCheck({
        policyPath: join(project, '.claude', 'persona-gate.json'),
        stateDir: join(project, 'state'),
        prefsFile: join(home, '.config', 'persona-gate', 'config.json'),
        home,
      });
      const decision = run(index, pre(call.tool, call.input, { cwd: project, session_id: 'prop' }), {
        state: confirmed(),
        env: { PERSONA_GATE_PERSONA: PERSONA },
        isProtected,
        shell: readShellCall,
      });
      const shown =
        call.tool === 'Write'
          ? `Write ${String(call.input.file_path).replace(project, '@')}`
          : String(call.input.command).replaceAll(project, '@');
      if (decision.verdict === 'deny') {
        log.push(`${shown}  → deny (${decision.status})`);
        continue;
      }
      log.push(`${shown}  → ${decision.verdict} (${decision.status}), ran: ${execute(call, project, home)}`);
      // Stop at the first call after which something guarded changed: what follows cannot matter.
      const after = snapshot(root);
      const changed = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
      if (changed.length > 0) {
        throw new Error(
          [
            'guarded files changed after this sequence (@ = the project; each call with the verdict under the persona):',
            ...log.map((l, i) => `  ${i + 1}. ${l}`),
            'changed:',
            ...changed.map((k) => `  ${k}: ${before[k] ?? 'missing'}  →  ${after[k] ?? 'missing'}`),
          ].join('\n'),
        );
      }
    }
  } finally {
    spawnSync('chmod', ['-R', 'u+rwX', root]);
    rmSync(root, { recursive: true, force: true });
  }
}

describe('gate 0 keeps every guarded file in place (SPEC §9.5)', () => {
  it(`after any sequence of file operations under a persona, run for real (${RUNS} sequences)`, () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 6 }), (ops) => runSequence(ops)),
      { numRuns: RUNS, ...(process.env.CI ? { seed: 20261130 } : {}) },
    );
  });
});
