import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Why Claude Code's Linux sandbox (bubblewrap and socat) cannot run here, or null when it can. */
export function sandboxUnavailable(): string | null {
  if (process.platform !== 'linux') return `Claude Code's sandbox on ${process.platform} is not bubblewrap; this test drives the Linux one`;
  for (const program of ['bwrap', 'socat']) {
    const found = (process.env.PATH ?? '').split(delimiter).some((dir) => {
      try {
        accessSync(join(dir, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    if (!found) return `${program} is not installed (apt-get install -y bubblewrap socat)`;
  }
  const probe = spawnSync(
    'bwrap',
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent', 'true'],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (probe.status !== 0)
    return `bubblewrap cannot make a sandbox on this machine: ${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()}`;
  return null;
}

/** A `node -e` write whose target no static reader can see: the path is decoded at run time. */
export function hiddenWrite(path: string): string {
  return `node -e "require('fs').writeFileSync(Buffer.from('${Buffer.from(path).toString('base64')}', 'base64').toString(), 'forged')"`;
}
