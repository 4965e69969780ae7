import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The agent hosts the end-to-end tests drive, pinned. They are installed from the npm registry into
 * a cache folder the first time a test asks for one, never as dependencies of the package.
 */
export const HOST_CLIS = {
  'claude-code': { spec: '@anthropic-ai/claude-code@2.1.332', pkg: '@anthropic-ai/claude-code', bin: 'claude' },
  codex: { spec: '@openai/codex@0.171.0', pkg: '@openai/codex', bin: 'codex' },
  copilot: { spec: '@github/copilot@1.0.102', pkg: '@github/copilot', bin: 'copilot' },
  gemini: { spec: '@google/gemini-cli@0.61.0', pkg: '@google/gemini-cli', bin: 'gemini' },
  qwen: { spec: '@qwen-code/qwen-code@0.24.4', pkg: '@qwen-code/qwen-code', bin: 'qwen' },
  droid: { spec: '@factory/cli-linux-x64@0.225.2', pkg: '@factory/cli-linux-x64', bin: 'bin/droid' },
} as const;

export type TestHost = keyof typeof HOST_CLIS;

/** Where test runtimes and hosts are kept between runs: $XDG_CACHE_HOME/persona-gate-test, else ~/.cache/persona-gate-test. */
export function testCacheRoot(): string {
  const xdg = process.env.XDG_CACHE_HOME?.trim();
  return join(xdg ? xdg : join(homedir(), '.cache'), 'persona-gate-test');
}

function installedVersion(dir: string, pkg: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/**
 * Installs one npm package spec (name@version) into its own folder of the cache, atomically (a
 * staging folder renamed into place), unless that exact version is there. Returns the folder.
 */
export function installedPackage(spec: string, pkg: string, timeoutMs = 900_000): string {
  const version = spec.slice(spec.lastIndexOf('@') + 1);
  const dir = join(testCacheRoot(), spec.replace(/^@/, '').replace(/[/@]/g, '-'));
  if (installedVersion(dir, pkg) === version) return dir;
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    execFileSync(
      'npm',
      ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', spec],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: timeoutMs,
      },
    );
    if (installedVersion(staging, pkg) !== version) throw new Error(`npm install ${spec} did not install ${pkg}@${version}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

/** The path of a host's CLI, installed into the cache on first use. */
export function hostCli(host: TestHost): string {
  const { spec, pkg, bin } = HOST_CLIS[host];
  const dir = installedPackage(spec, pkg);
  const path = join(dir, 'node_modules', '.bin', bin);
  if (!bin.includes('/') && existsSync(path)) return path;
  // Packages that ship a bare binary without a bin entry: the path inside the package.
  const direct = join(dir, 'node_modules', pkg, bin);
  if (existsSync(direct)) return direct;
  throw new Error(`${spec} is installed in ${dir}, but has no ${bin} program`);
}
