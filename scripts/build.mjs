// Builds one CommonJS bundle per entry: the hook's hot path, the CLI, and the policy validator.
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'none',
  define: { __BUNDLED__: 'true' },
  external: ['./cli.js', './policy-validate.js', './shell.js'],
  logLevel: 'warning',
};
await Promise.all([
  build({
    ...common,
    entryPoints: ['src/bin/persona-gate.ts'],
    outfile: 'dist/persona-gate.js',
    banner: { js: '#!/usr/bin/env node' },
  }),
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' }),
  build({ ...common, entryPoints: ['src/policy/validate.ts'], outfile: 'dist/policy-validate.js' }),
  build({ ...common, entryPoints: ['src/shell/resolve-shell.ts'], outfile: 'dist/shell.js' }),
]);
chmodSync('dist/persona-gate.js', 0o755);
