import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/policy';

/**
 * The layers of src/ and the packages the hook may load.
 *
 * (a) Every import of every file under src/ (relative paths resolved) goes only where the rule
 * table below lets its module go. The layering, from the bottom:
 * - core: the decision, pure — no Node module, no package, nothing above it at run time (the
 *   policy's and MCP settings' types only);
 * - policy and mcp: the policy's schema and validation, the MCP settings and their expansion;
 * - shell and exec: the shell reader (beside core, reading lines into what core decides on) and the
 *   launcher's plans;
 * - io: the edge — files, state, caches, the lazily loaded bundles;
 * - hosts: the adapters of each host's hook protocol;
 * - hook, policydev and cli at the top, the broker (which runs the hook's decision) beside them, bin above all.
 * What goes across these lines is written in the table, each with where it is used.
 *
 * (b) The hook's bundle, dist/hook.js, and the bundles an ordinary hook call loads hold neither
 * commander nor conf nor zod.
 */

// ---------------------------------------------------------------------------------------------
// (a) Import direction.

interface Rule {
  /** Modules (top folders of src/, or files as `hook/output.ts`) it may import at run time. */
  runtime: string[];
  /** …and for types alone (`import type`, `export type`). */
  types?: string[];
  /** Packages (and node: modules, as `node:*`) it may import. */
  packages: string[];
  /** Bundles of dist/ it requires at run time by their file name (`./cli.js`), not a source file. */
  bundles?: string[];
}

/** What each module of src/ may import; a module may always import itself. */
const RULES: Record<string, Rule> = {
  core: { runtime: [], types: ['policy', 'mcp'], packages: [] },
  // policy/validate expands the MCP settings (mcp/expand); mcp/coverage checks the policy's rules
  policy: { runtime: ['core', 'mcp'], packages: ['zod', 'node:*'] },
  // mcp/lock hashes with io/hash; mcp/pin is the MCP client, loaded by `persona-gate pin` alone
  mcp: { runtime: ['core', 'policy', 'io/hash.ts'], packages: ['zod', '@modelcontextprotocol/sdk', 'node:*'] },
  // the shell bundle carries the launcher's plans (resolve-shell re-exports exec/plan, exec/settle)
  shell: { runtime: ['core', 'exec/plan.ts', 'exec/settle.ts', 'exec/map.ts'], types: ['policy'], packages: [] },
  exec: { runtime: ['core', 'io', 'shell'], packages: ['node:*'] },
  // io/lazy loads the other bundles (types only from them) and keeps Claude Code's adapter in the hook
  io: {
    runtime: ['core', 'policy', 'mcp', 'hosts/claude-code.ts', 'hosts/host.ts'],
    types: ['exec', 'shell', 'hosts'],
    packages: ['node:*'],
  },
  // the adapters answer in the hook's output shapes
  hosts: { runtime: ['core', 'hook/output.ts'], types: ['io'], packages: ['node:*'] },
  // the hook rewrites a call for the broker (exec/brokered) and leaves its record (exec/calls)
  hook: {
    runtime: ['core', 'io', 'hosts', 'exec/route.ts', 'exec/brokered.ts', 'exec/calls.ts', 'exec/map.ts'],
    types: ['shell', 'policy', 'exec'],
    packages: ['node:*'],
  },
  // the broker judges a start with the hook's own processEvent, then runs it as the launcher would
  broker: { runtime: ['core', 'io', 'exec', 'hook'], packages: ['node:*'] },
  policydev: { runtime: ['core', 'policy', 'io', 'shell'], packages: ['zod', 'node:*'] },
  cli: {
    runtime: ['core', 'policy', 'mcp', 'shell', 'exec', 'io', 'hosts', 'hook', 'policydev'],
    packages: ['commander', 'conf', 'node:*'],
  },
  // the binary requires dist/cli.js for every subcommand but `hook`
  bin: { runtime: ['cli', 'io'], types: ['cli'], packages: ['node:*'], bundles: ['./cli.js'] },
};

interface Import {
  /** The importing file, relative to src/. */
  file: string;
  specifier: string;
  typeOnly: boolean;
}

const IMPORT =
  /^[ \t]*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]|^[ \t]*import\s*['"]([^'"]+)['"]|\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The imports of one file's source: static ones, side-effect ones, import() and require() of a literal. */
function importsOf(file: string, source: string): Import[] {
  // comments may quote imports
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const out: Import[] = [];
  for (const m of code.matchAll(IMPORT)) {
    if (m[4] !== undefined) {
      // `import { type A, type B } from` is type-only too
      const names = m[3] ?? '';
      const braced = /^\{([^}]*)\}$/.exec(names.trim());
      const allTypes = braced !== null && braced[1]!.split(',').every((n) => n.trim() === '' || /^type\s/.test(n.trim()));
      out.push({ file, specifier: m[4], typeOnly: m[2] !== undefined || allTypes });
    } else out.push({ file, specifier: (m[5] ?? m[6])!, typeOnly: false });
  }
  return out;
}

/** The module (top folder of src/) and file of a resolved import; null for a package. */
function target(imp: Import, srcFiles: ReadonlySet<string>): { module: string; file: string } | null {
  if (!imp.specifier.startsWith('.')) return null;
  const base = relative('/', resolve('/', dirname(imp.file), imp.specifier));
  const file = [`${base}.ts`, `${base}/index.ts`, base].find((f) => srcFiles.has(f)) ?? `${base}.ts`;
  return { module: file.split('/')[0]!, file };
}

const moduleOf = (file: string) => file.split('/')[0]!;
const packageOf = (spec: string) =>
  spec.startsWith('node:') ? 'node:*' : spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;

/** Every import the table does not allow, as `file: specifier (why)`. */
function violations(imports: Import[], rules: Record<string, Rule>, srcFiles: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const imp of imports) {
    const from = moduleOf(imp.file);
    const rule = rules[from];
    if (!rule) {
      out.push(`${imp.file}: module ${from} has no rule`);
      continue;
    }
    if (rule.bundles?.includes(imp.specifier)) continue;
    const t = target(imp, srcFiles);
    if (t === null) {
      const pkg = packageOf(imp.specifier);
      if (!rule.packages.includes(pkg)) out.push(`${imp.file}: ${imp.specifier} (package ${pkg} is not allowed in ${from})`);
      continue;
    }
    if (!srcFiles.has(t.file)) out.push(`${imp.file}: ${imp.specifier} (no such file ${t.file})`);
    if (t.module === from) continue;
    const allowed = (list: string[] | undefined) => (list ?? []).some((a) => a === t.module || a === t.file);
    if (allowed(rule.runtime) || (imp.typeOnly && allowed(rule.types))) continue;
    out.push(`${imp.file}: ${imp.specifier} (${from} may not import ${t.file}${imp.typeOnly ? ', even for types' : ''})`);
  }
  return out;
}

function srcTree(): Map<string, string> {
  const src = join(ROOT, 'src');
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.set(relative(src, p), readFileSync(p, 'utf8'));
    }
  };
  walk(src);
  return files;
}

describe('the layers of src/', () => {
  const tree = srcTree();
  const names = new Set(tree.keys());
  const imports = [...tree].flatMap(([file, source]) => importsOf(file, source));

  it('every import of every file goes where the rule table lets it', () => {
    expect(tree.size).toBeGreaterThan(100);
    expect(imports.length).toBeGreaterThan(500);
    expect(violations(imports, RULES, names)).toEqual([]);
  });

  it('no file imports a development dependency but the MCP client bundled into dist/mcp-pin.js', () => {
    const dev = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies as Record<string, string>);
    expect(dev).toContain('mvdan-sh');
    const used = imports.filter((i) => !i.specifier.startsWith('.') && dev.includes(packageOf(i.specifier)));
    expect([...new Set(used.map((i) => `${i.file}: ${packageOf(i.specifier)}`))]).toEqual(['mcp/pin.ts: @modelcontextprotocol/sdk']);
  });

  it('every module of src/ has a rule', () => {
    expect([...new Set([...names].map(moduleOf))].sort()).toEqual(Object.keys(RULES).sort());
  });

  it('core imports nothing at run time from outside core: no Node module, no package', () => {
    const fromCore = imports.filter((i) => moduleOf(i.file) === 'core' && !i.typeOnly);
    expect(fromCore.length).toBeGreaterThan(20);
    expect(fromCore.filter((i) => target(i, names)?.module !== 'core')).toEqual([]);
  });

  describe('the check fails on an import the table does not allow', () => {
    const files = new Set([
      'core/a.ts',
      'core/b.ts',
      'io/x.ts',
      'cli/main.ts',
      'hosts/host.ts',
      'hosts/other.ts',
      'hook/output.ts',
      'hook/run.ts',
    ]);
    const rules: Record<string, Rule> = {
      core: { runtime: [], types: ['io'], packages: [] },
      io: { runtime: ['core', 'hosts/host.ts'], packages: ['node:*'] },
      hosts: { runtime: ['core', 'hook/output.ts'], packages: [] },
      hook: { runtime: ['core', 'io', 'hosts'], packages: [] },
      cli: { runtime: ['core', 'io', 'hook', 'hosts'], packages: ['commander'] },
    };
    const check = (file: string, source: string) => violations(importsOf(file, source), rules, files);

    it('an upward import, from core to cli or io, fails', () => {
      expect(check('core/a.ts', "import { cliMain } from '../cli/main';")).toEqual([
        'core/a.ts: ../cli/main (core may not import cli/main.ts)',
      ]);
      expect(check('core/a.ts', "import { x } from '../io/x';\nexport { y } from '../io/x';")).toHaveLength(2);
      expect(check('core/a.ts', "const m = require('../io/x');")).toHaveLength(1);
      expect(check('core/a.ts', "const m = await import('../io/x');")).toHaveLength(1);
      expect(check('core/a.ts', "import '../io/x';")).toHaveLength(1);
    });

    it('a type-only import passes only where the table allows types', () => {
      expect(check('core/a.ts', "import type { X } from '../io/x';")).toEqual([]);
      expect(check('core/a.ts', "import { type X, type Y } from '../io/x';")).toEqual([]);
      expect(check('core/a.ts', "import { type X, y } from '../io/x';")).toHaveLength(1);
      expect(check('core/a.ts', "import type { X } from '../cli/main';")).toEqual([
        'core/a.ts: ../cli/main (core may not import cli/main.ts, even for types)',
      ]);
    });

    it('a file allowed by name allows no other file of its module', () => {
      expect(check('io/x.ts', "import { h } from '../hosts/host';")).toEqual([]);
      expect(check('io/x.ts', "import { o } from '../hosts/other';")).toHaveLength(1);
      expect(check('hosts/host.ts', "import { out } from '../hook/output';")).toEqual([]);
      expect(check('hosts/host.ts', "import { run } from '../hook/run';")).toHaveLength(1);
    });

    it('packages: only where listed; node: modules only where node:* is', () => {
      expect(check('cli/main.ts', "import { Command } from 'commander';")).toEqual([]);
      expect(check('hook/run.ts', "import { Command } from 'commander';")).toHaveLength(1);
      expect(check('core/a.ts', "import { readFileSync } from 'node:fs';")).toHaveLength(1);
      expect(check('io/x.ts', "import { readFileSync } from 'node:fs';")).toEqual([]);
    });

    it('imports inside the module, and imports quoted in comments, pass', () => {
      expect(check('core/a.ts', "import { b } from './b';\n// import { c } from '../cli/main';\n/* import '../io/x'; */")).toEqual([]);
    });

    it('a bundle required by its file name passes only where the table lists it', () => {
      const withBundle = { ...rules, cli: { ...rules.cli!, bundles: ['./hook.js'] } };
      expect(violations(importsOf('cli/main.ts', "require('./hook.js');"), withBundle, files)).toEqual([]);
      expect(violations(importsOf('io/x.ts', "require('./hook.js');"), withBundle, files)).toEqual([
        'io/x.ts: ./hook.js (no such file io/hook.js.ts)',
      ]);
    });

    it('a module without a rule, and an import of a file that does not exist, fail', () => {
      expect(check('shell/z.ts', "import { b } from '../core/b';")).toEqual(['shell/z.ts: module shell has no rule']);
      expect(check('core/a.ts', "import { c } from './missing';")).toEqual(['core/a.ts: ./missing (no such file core/missing.ts)']);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// (b) The packages in the hook's bundles.

const HEAVY = ['commander', 'conf', 'zod'];

/** The build's options for one entry, as scripts/build.mjs gives them: the bundles it loads lazily stay outside. */
function buildExternals(): string[] {
  const script = readFileSync(join(ROOT, 'scripts/build.mjs'), 'utf8');
  const m = /external:\s*\[([^\]]*)\]/.exec(script);
  if (!m) throw new Error('scripts/build.mjs: no external list found');
  return [...m[1]!.matchAll(/'([^']+)'/g)].map((x) => x[1]!);
}

/** The packages of node_modules/ bundled into the entry's bundle, by esbuild's metafile of the build's options. */
async function bundledPackages(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    define: { __BUNDLED__: 'true' },
    external: buildExternals(),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const packages = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.add(m[1]!);
  }
  return [...packages].sort();
}

/**
 * Strings that only the packages' own code holds (each checked below to be in the bundle that does
 * hold the package): the bundles are minified, so esbuild's `// node_modules/…` comments are gone.
 */
const MARKERS: Record<string, string> = { commander: 'commander.unknownOption', conf: 'Config schema violation', zod: 'ZodError' };

describe('the hook loads neither commander nor conf nor zod', () => {
  // dist/persona-gate.cjs runs dist/hook.js for `hook` (src/bin/persona-gate.ts); the hook loads
  // dist/shell.js for a Bash call and dist/hosts.js for another host than Claude Code (src/io/lazy.ts).
  // dist/policy-validate.js, which holds zod, is loaded only when the policy must be validated: its
  // cached validation is missing or stale (src/io/policy-source.ts), and on a policy file that is not
  // JSON, for the error's position. dist/cli.js and dist/mcp-pin.js are never loaded by the hook.
  const HOOK_PATH: [string, string][] = [
    ['src/bin/persona-gate.ts', 'persona-gate.cjs'],
    ['src/hook/entry.ts', 'hook.js'],
    ['src/shell/resolve-shell.ts', 'shell.js'],
    ['src/hosts/index.ts', 'hosts.js'],
  ];

  it.each(HOOK_PATH)('%s bundles none of them (esbuild metafile, with the build externals)', async (entry) => {
    const packages = await bundledPackages(entry);
    expect(packages.filter((p) => HEAVY.includes(p))).toEqual([]);
  });

  it('the metafile does show them where they are: zod in the validator, all three in the CLI', async () => {
    expect(await bundledPackages('src/policy/validate.ts')).toContain('zod');
    const cli = await bundledPackages('src/cli/main.ts');
    for (const p of HEAVY) expect(cli).toContain(p);
  });

  it('the hook bundle loads the validator only lazily, by its file name', () => {
    expect(buildExternals()).toEqual(
      expect.arrayContaining(['./policy-validate.js', './cli.js', './shell.js', './hosts.js', './mcp-pin.js']),
    );
    const lazy = readFileSync(join(ROOT, 'src/io/lazy.ts'), 'utf8');
    expect(lazy).not.toMatch(/^import (?!type)[^;]*from '\.\.\/policy\/validate'/m);
  });

  describe('in the built dist/ (npm run build)', () => {
    const dist = join(ROOT, 'dist');
    const read = (f: string) => {
      if (!existsSync(join(dist, f))) throw new Error(`dist/${f} is missing: run npm run build first`);
      return readFileSync(join(dist, f), 'utf8');
    };

    it('each marker is in dist/cli.js, which bundles all three', () => {
      const cli = read('cli.js');
      for (const p of HEAVY) expect(cli, p).toContain(MARKERS[p]);
    });

    it.each(HOOK_PATH.map(([, f]) => f))('dist/%s holds no marker of them, and requires none of them', (f) => {
      const text = read(f);
      for (const p of HEAVY) {
        expect(text, p).not.toContain(MARKERS[p]);
        expect(text, p).not.toMatch(new RegExp(`require\\(["']${p}["']\\)|node_modules/${p}/`));
      }
    });
  });
});
