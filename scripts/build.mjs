// Builds one CommonJS bundle per entry — the binary, the hook's hot path, the CLI, the policy
// validator and the shell reader — then the hook's V8 code cache, by running one decision.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'none',
  define: { __BUNDLED__: 'true' },
  external: ['./cli.js', './policy-validate.js', './shell.js', './hook.js', './mcp-pin.js'],
  logLevel: 'warning',
};
await Promise.all([
  build({ ...common, entryPoints: ['src/bin/persona-gate.ts'], outfile: 'dist/persona-gate.js', banner: { js: '#!/usr/bin/env node' } }),
  build({ ...common, entryPoints: ['src/hook/entry.ts'], outfile: 'dist/hook.js' }),
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' }),
  build({ ...common, entryPoints: ['src/policy/validate.ts'], outfile: 'dist/policy-validate.js' }),
  build({ ...common, entryPoints: ['src/shell/resolve-shell.ts'], outfile: 'dist/shell.js' }),
  // The MCP client (the SDK), loaded by `persona-gate pin` alone.
  build({ ...common, entryPoints: ['src/mcp/pin.ts'], outfile: 'dist/mcp-pin.js' }),
]);
chmodSync('dist/persona-gate.js', 0o755);

// The code cache: one real decision, so that the functions every call runs are compiled into it.
const work = mkdtempSync(join(tmpdir(), 'persona-gate-build-'));
try {
  const event = { hook_event_name: 'PreToolUse', session_id: 'build', tool_name: 'mcp__aeat__whoami', tool_input: {}, tool_use_id: 'toolu_build', cwd: work };
  const env = { ...process.env, PERSONA_GATE_STATE_DIR: join(work, 'state'), PERSONA_GATE_CONFIG: 'examples/tax-filing.json', PERSONA_GATE_PERSONA: 'coordinator', HOME: work };
  for (const key of ['PERSONA_GATE_STAGE', 'PERSONA_GATE_LOCALE', 'PERSONA_GATE_CONFIG_HOME']) delete env[key];
  // The first run validates and caches the policy; the second is an ordinary call.
  execFileSync(process.execPath, ['dist/persona-gate.js', 'hook'], { input: JSON.stringify(event), env });
  execFileSync(process.execPath, ['dist/persona-gate.js', 'hook'], { input: JSON.stringify(event), env: { ...env, PERSONA_GATE_WRITE_CODE_CACHE: '1' } });
} finally {
  rmSync(work, { recursive: true, force: true });
}
