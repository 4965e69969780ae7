import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Env } from '../../core/decide';
import { CliError } from '../errors';
import type { CliMessages } from '../messages';
import { onPath, within, type Json } from './hardened';

/**
 * The starters `init --example NAME` writes: a policy (examples/NAME.json) and its test file
 * (examples/NAME.test.json), as `.claude/persona-gate.json` and `.claude/persona-gate.test.json`.
 */

/** The installed package: dist/ holds the bundles, examples/ and schema.json sit beside it. */
export function packageRoot(): string {
  return resolve(__dirname, '..');
}

/** The test file beside a policy: NAME.test.json for NAME.json, which `persona-gate test` reads by default. */
export function testFileFor(policyPath: string): string {
  return policyPath.replace(/\.json$/, '') + '.test.json';
}

/**
 * An example file as init writes it, line for line: only `$schema` is pointed at the installed
 * schema (or dropped when it lies outside the project), and `locale` is written only when asked
 * for. The text edits must give exactly the intended JSON; otherwise it is written whole.
 */
export function exampleText(source: string, target: string, schemaFile: string, locale?: 'en' | 'es'): string {
  const text = readFileSync(source, 'utf8');
  const want = JSON.parse(text) as Json;
  const rel = relative(dirname(target), schemaFile).split(sep).join('/');
  const schemaInside = within(schemaFile, dirname(dirname(target)));
  if (schemaInside) want.$schema = rel;
  else delete want.$schema;
  delete want.locale;
  if (locale !== undefined) want.locale = locale;

  let out = text;
  out = schemaInside
    ? out.replace(/("\$schema":\s*)"[^"]*"/, (_, k: string) => `${k}${JSON.stringify(rel)}`)
    : out.replace(/\n[ \t]*"\$schema":\s*"[^"]*",?/, '');
  out = out.replace(/,(\s*\n[ \t]*"locale":\s*"[^"]*")(\s*\n\})/, '$2').replace(/\n[ \t]*"locale":\s*"[^"]*",/, '');
  if (locale !== undefined) out = out.replace(/\s*\n\}\s*$/, `,\n  "locale": ${JSON.stringify(locale)}\n}\n`);
  try {
    if (JSON.stringify(JSON.parse(out)) === JSON.stringify(want)) return out.endsWith('\n') ? out : `${out}\n`;
  } catch {
    // fall through
  }
  return `${JSON.stringify(want, null, 2)}\n`;
}

export function examplePolicyText(example: string, policyPath: string, locale?: 'en' | 'es'): string {
  return exampleText(join(packageRoot(), 'examples', `${example}.json`), policyPath, join(packageRoot(), 'schema.json'), locale);
}

function exampleTestText(example: string, testPath: string): string {
  return exampleText(join(packageRoot(), 'examples', `${example}.test.json`), testPath, join(packageRoot(), 'test-schema.json'));
}

/** Whether a file holds an example file as init writes it (its `$schema` and `locale` aside). */
function sameExample(path: string, exampleFile: string): boolean {
  const strip = (text: string) => {
    const json = JSON.parse(text) as Json;
    delete json.$schema;
    delete json.locale;
    return JSON.stringify(json);
  };
  try {
    return strip(readFileSync(path, 'utf8')) === strip(readFileSync(exampleFile, 'utf8'));
  } catch {
    return false;
  }
}

export interface StarterRequest {
  example: string;
  /** `--example` was given: the user asked for this starter, not only for the hooks. */
  asked: boolean;
  /** `--force`: replace the policy (and its test file) that is there. */
  force: boolean;
  locale?: 'en' | 'es';
}

/**
 * Writes the starter policy and its test file, or keeps the ones there, and returns the lines to
 * print. An existing policy is replaced only with `--force`; asked for another starter without it,
 * this throws before anything is written, so that init changes nothing it was not asked to.
 */
export function writeStarter(policyPath: string, req: StarterRequest, t: CliMessages, cli: string): string[] {
  const testPath = testFileFor(policyPath);
  const exists = existsSync(policyPath);
  if (exists && !req.force) {
    if (req.asked && !sameExample(policyPath, join(packageRoot(), 'examples', `${req.example}.json`)))
      throw new CliError(t.initPolicyExists(policyPath, req.example));
    return [t.initKeptPolicy(policyPath, cli)];
  }
  writeFileSync(policyPath, examplePolicyText(req.example, policyPath, req.locale));
  const lines = [exists ? t.initReplacedPolicy(policyPath, req.example) : t.initWrotePolicy(policyPath, req.example)];
  if (existsSync(join(packageRoot(), 'examples', `${req.example}.test.json`)) && (req.force || !existsSync(testPath))) {
    const replaced = existsSync(testPath);
    writeFileSync(testPath, exampleTestText(req.example, testPath));
    lines.push(replaced ? t.initReplacedTests(testPath, cli) : t.initWroteTests(testPath, cli));
  }
  return lines;
}

/** `--purge`: the test file init wrote beside the policy goes with it, when it is still an example's; one the user changed is kept. */
export function purgeStarterTests(policyPath: string, t: CliMessages, examples: readonly string[]): string[] {
  const testPath = testFileFor(policyPath);
  if (!existsSync(testPath)) return [];
  if (!examples.some((example) => sameExample(testPath, join(packageRoot(), 'examples', `${example}.test.json`))))
    return [t.uninstallKeptTests(testPath)];
  unlinkSync(testPath);
  return [t.uninstallTestsRemoved(testPath)];
}

/**
 * How to run persona-gate in the install init found, for the next steps it prints: `npx
 * persona-gate` in a project install, `persona-gate` for one on PATH, else this installation by
 * its path.
 */
export function cliInvocation(install: 'project' | 'global', env: Env): string {
  if (install === 'project') return 'npx persona-gate';
  if (onPath('persona-gate', env)) return 'persona-gate';
  return `node ${JSON.stringify(join(packageRoot(), 'dist', 'persona-gate.cjs'))}`;
}
