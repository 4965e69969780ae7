// Every bundle the hook runs (dist/hook.js and the lazily loaded dist/shell.js,
// dist/policy-validate.js and dist/hosts.js) goes through the V8 code cache made at build time; without it, or with
// a cache V8 rejects, the hook still decides the same way.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileBundle } from '../../src/io/code-cache';
import { cleanEnv, preEvent, tempDir } from '../helpers/cli';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';

const DIST = join(ROOT, 'dist');
const BUNDLES = ['hook.js', 'shell.js', 'policy-validate.js', 'hosts.js'] as const;
/** The hook's arguments for a call that runs `bundle`: the other hosts' adapters only serve another host. */
const argsFor = (bundle: (typeof BUNDLES)[number]) => (bundle === 'hosts.js' ? ['--host', 'codex'] : []);

function copyDist(): string {
  const dir = tempDir();
  for (const f of readdirSync(DIST)) copyFileSync(join(DIST, f), join(dir, f));
  return dir;
}

/** One hook call from a copy of dist, with a fresh state directory (so the policy is validated). */
function decide(dist: string, event: string, persona: string, args: string[] = []) {
  const dir = tempDir();
  const policyPath = join(dir, 'policy.json');
  writeFileSync(policyPath, readFileSync(TAX_POLICY_PATH, 'utf8'));
  const env = cleanEnv({
    PERSONA_GATE_STATE_DIR: join(dir, 'state'),
    PERSONA_GATE_CONFIG: policyPath,
    PERSONA_GATE_PERSONA: persona,
    HOME: dir,
  });
  const r = spawnSync(process.execPath, [join(dist, 'persona-gate.cjs'), 'hook', ...args], {
    input: event,
    env,
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 30_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

describe('the code caches made at build time', () => {
  it.each(BUNDLES)('dist/%s.cache exists and is accepted by the V8 that built it', (bundle) => {
    expect(existsSync(join(DIST, `${bundle}.cache`))).toBe(true);
    const script = compileBundle(join(DIST, bundle), createRequire(import.meta.url));
    expect(script.cachedDataRejected).toBe(false);
  });

  it.each(BUNDLES)('a garbage dist/%s.cache is rejected by V8, not trusted', (bundle) => {
    const dist = copyDist();
    writeFileSync(join(dist, `${bundle}.cache`), 'garbage');
    expect(compileBundle(join(dist, bundle), createRequire(import.meta.url)).cachedDataRejected).toBe(true);
  });

  it.each(BUNDLES)('a rejected dist/%s.cache is replaced, after one call that needs the bundle, by one V8 accepts', (bundle) => {
    const dist = copyDist();
    writeFileSync(join(dist, `${bundle}.cache`), 'garbage');
    const event = bundle === 'shell.js' ? preEvent('Bash', { command: 'aeat modelo list' }) : preEvent('mcp__aeat__modelo_list');
    expect(decide(dist, event, 'coordinator', argsFor(bundle)).code).toBe(0);
    expect(compileBundle(join(dist, bundle), createRequire(import.meta.url)).cachedDataRejected).toBe(false);
    expect(readdirSync(dist).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves an accepted cache as it is', () => {
    const dist = copyDist();
    const before = readFileSync(join(dist, 'hook.js.cache'));
    expect(decide(dist, preEvent('mcp__aeat__modelo_list'), 'coordinator').code).toBe(0);
    expect(readFileSync(join(dist, 'hook.js.cache')).equals(before)).toBe(true);
  });

  // A first call validates the policy (policy-validate.js); a Bash call reads the command (shell.js).
  const calls = [
    ['an MCP call', preEvent('mcp__aeat__modelo_work_create'), 'coordinator'],
    ['a Bash call', preEvent('Bash', { command: 'cd /tmp && aeat modelo work create --year 2025 | tee out.txt' }), 'coordinator'],
  ] as const;

  describe.each(BUNDLES)('without a usable dist/%s.cache', (bundle) => {
    it.each(calls)('%s is decided as with the cache', (_name, event, persona) => {
      const expected = decide(copyDist(), event, persona, argsFor(bundle));
      expect(expected.code).toBe(0);
      expect(JSON.parse(expected.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
      for (const cache of ['garbage', Buffer.alloc(4096, 7), null]) {
        const dist = copyDist();
        if (cache === null) rmSync(join(dist, `${bundle}.cache`));
        else writeFileSync(join(dist, `${bundle}.cache`), cache);
        expect(decide(dist, event, persona, argsFor(bundle))).toEqual(expected);
      }
    });
  });
});
