// Builds one CommonJS bundle per entry — the binary, the hook's hot path, the CLI, the policy
// validator, the shell reader and the other hosts' adapters — then the V8 code cache of every
// bundle the hook runs, by running real calls.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  external: ['./cli.js', './policy-validate.js', './shell.js', './hook.js', './mcp-pin.js', './hosts.js'],
  logLevel: 'warning',
};
// node:os is not loaded by Node's own start, and loading it costs the hook about 0.2 ms; the hook
// only needs it when HOME is unset. In the hook's bundles it is loaded on the first call instead.
const lazyOs = {
  name: 'lazy-os',
  setup(b) {
    b.onResolve({ filter: /^(node:)?os$/ }, (args) =>
      args.namespace === 'lazy-os' ? { path: 'node:os', external: true } : { path: 'lazy-os', namespace: 'lazy-os' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-os' }, () => ({
      loader: 'js',
      contents:
        'let os;const load=()=>os??=require("node:os");export const homedir=()=>load().homedir();export const tmpdir=()=>load().tmpdir();',
    }));
  },
};
// The bundles run through the code cache (src/io/code-cache.ts) are written as the function they
// are compiled as, so that the hook compiles the text it read without copying it into a wrapper.
const cached = {
  banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
  footer: { js: '\n})' },
  plugins: [lazyOs],
};
await Promise.all([
  build({ ...common, entryPoints: ['src/bin/persona-gate.ts'], outfile: 'dist/persona-gate.cjs', banner: { js: '#!/usr/bin/env node' } }),
  build({ ...common, ...cached, entryPoints: ['src/hook/entry.ts'], outfile: 'dist/hook.js' }),
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' }),
  build({ ...common, ...cached, entryPoints: ['src/policy/validate.ts'], outfile: 'dist/policy-validate.js' }),
  build({ ...common, ...cached, entryPoints: ['src/shell/resolve-shell.ts'], outfile: 'dist/shell.js' }),
  // The adapters of the hosts other than Claude Code, loaded by their calls alone.
  build({ ...common, ...cached, entryPoints: ['src/hosts/index.ts'], outfile: 'dist/hosts.js' }),
  // The launcher of catalogued programs (the excluded command of Claude Code's sandbox): a process of
  // its own per start, so a bundle of its own that loads nothing else.
  build({
    ...common,
    plugins: [lazyOs],
    entryPoints: ['src/exec/entry.ts'],
    outfile: 'dist/persona-gate-exec.cjs',
    banner: { js: '#!/usr/bin/env node' },
  }),
  // The broker of launched programs started by other programs, and the shim that stands in their
  // place in the sandbox: the shim is a process per start, so it loads nothing but itself.
  build({ ...common, plugins: [lazyOs], entryPoints: ['src/broker/entry.ts'], outfile: 'dist/persona-gate-broker.cjs' }),
  build({ ...common, plugins: [lazyOs], entryPoints: ['src/exec/shim-entry.ts'], outfile: 'dist/persona-gate-shim.cjs' }),
  // The MCP client (the SDK), loaded by `persona-gate pin` alone.
  build({ ...common, entryPoints: ['src/mcp/pin.ts'], outfile: 'dist/mcp-pin.js' }),
]);
// The binary is a .cjs file: Node then runs it as CommonJS without looking for the package's
// "type", which a .js main script costs every call. persona-gate.js is the same file, for the
// registrations that name it.
copyFileSync('dist/persona-gate.cjs', 'dist/persona-gate.js');
// …and is CommonJS whatever a package.json above the installation says: Node takes a .js file's
// module type from the nearest package.json, and one saying "module" would make the hook crash
// (exit 1, which lets the call through) where the package's own is not the nearest.
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
chmodSync('dist/persona-gate.cjs', 0o755);
chmodSync('dist/persona-gate.js', 0o755);
chmodSync('dist/persona-gate-exec.cjs', 0o755);

// The code caches: real calls, so that the functions every call runs are compiled into them. Each
// run loads the caches the runs before it wrote, so the hook's cache ends up with what a Bash call,
// an MCP call and an MCP call on a policy of another user run.
const work = mkdtempSync(join(tmpdir(), 'persona-gate-build-'));
try {
  const pre = (tool_name, tool_input) =>
    JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'build', tool_name, tool_input, tool_use_id: 'toolu_build', cwd: work });
  const env = {
    ...process.env,
    PERSONA_GATE_STATE_DIR: join(work, 'state'),
    PERSONA_GATE_CONFIG: 'examples/tax-filing.json',
    PERSONA_GATE_PERSONA: 'coordinator',
    HOME: work,
  };
  for (const key of ['PERSONA_GATE_STAGE', 'PERSONA_GATE_LOCALE', 'PERSONA_GATE_CONFIG_HOME', 'PERSONA_GATE_WRITE_CODE_CACHE'])
    delete env[key];
  const run = (event, bundles, args = [], extra = {}) =>
    execFileSync(process.execPath, ['dist/persona-gate.cjs', 'hook', ...args], {
      input: event,
      env: { ...env, ...extra, PERSONA_GATE_WRITE_CODE_CACHE: bundles },
    });
  // The first call validates the policy and fills the policy cache; the ordinary calls come after.
  run(pre('mcp__aeat__whoami', {}), 'policy-validate.js');
  run(pre('Bash', { command: 'aeat modelo list --year 2025 && git status --short | head -20' }), 'hook.js,shell.js');
  // A policy this user cannot edit (not writable; another user's, when the build runs as root), whose
  // cached positions are checked against its bytes: validated first, then an ordinary call.
  const managed = { PERSONA_GATE_CONFIG: join(work, 'managed.json') };
  copyFileSync('examples/tax-filing.json', managed.PERSONA_GATE_CONFIG);
  chmodSync(managed.PERSONA_GATE_CONFIG, 0o444);
  if (process.getuid?.() === 0) chownSync(managed.PERSONA_GATE_CONFIG, 65534, 65534);
  run(pre('mcp__aeat__whoami', {}), '', [], managed);
  run(pre('mcp__aeat__whoami', {}), 'hook.js', [], managed);
  run(pre('mcp__aeat__whoami', {}), 'hook.js');
  // Another host's call, for the adapters' bundle (the hook's own cache is left as the calls above made it).
  run(pre('mcp__aeat__whoami', {}), 'hosts.js', ['--host', 'codex']);
  for (const bundle of ['hook.js', 'shell.js', 'policy-validate.js', 'hosts.js']) {
    if (!existsSync(`dist/${bundle}.cache`)) throw new Error(`build: no code cache was written for dist/${bundle}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
