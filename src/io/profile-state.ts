import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../core/decide';
import { readPath } from '../core/post';
import type { ProfileObservation, ProfileStateReader } from '../core/types';
import type { IdentityDef } from '../policy/schema';
import { sha256Hex } from './hash';
import { readRegularFile } from './read-file';

/** The most of a profile file or command output that is read (SPEC §9.7: nothing unbounded). */
const MAX_PROFILE_BYTES = 1024 * 1024;
/** The longest a profile command may run, within what is left of the hook's deadline. */
const MAX_COMMAND_MS = 3000;

type ProfileState = NonNullable<IdentityDef['profile_state']>;

/** Where a profile file is: absolute, from the home directory, or relative to the policy file. */
export function profileFilePath(file: string, policyPath: string, env: Env): string {
  if (file === '~' || file.startsWith('~/')) return join(env.HOME ?? '', file.slice(1));
  return isAbsolute(file) ? file : resolve(dirname(policyPath), file);
}

/** The fingerprint of a profile file's content, as the hook and the launcher read it. */
export function profileFileState(path: string): ProfileObservation {
  const read = readRegularFile(path, MAX_PROFILE_BYTES);
  if (read.ok) return { ok: true, fingerprint: `file:${sha256Hex(read.bytes)}` };
  // No file is a state of its own (no profile active); anything else cannot be told apart from a change.
  if (read.code === 'ENOENT') return { ok: true, fingerprint: 'file:absent' };
  return {
    ok: false,
    detail: read.code === 'not_regular' ? 'not a regular file' : read.code === 'too_large' ? 'larger than 1 MiB' : read.code,
  };
}

function runCommandState(def: { command: string[]; path?: string | undefined }, env: Env, cwd: string, msLeft: number): ProfileObservation {
  if (msLeft <= 0) return { ok: false, detail: 'no time left before the deadline' };
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const ran = spawnSync(def.command[0]!, def.command.slice(1), {
    cwd,
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: Math.min(MAX_COMMAND_MS, msLeft),
    maxBuffer: MAX_PROFILE_BYTES,
  });
  if (ran.error) return { ok: false, detail: (ran.error as NodeJS.ErrnoException).code ?? ran.error.message };
  if (ran.status !== 0) return { ok: false, detail: ran.signal ? `ended by ${ran.signal}` : `exit code ${ran.status}` };
  let value: unknown = ran.stdout;
  if (def.path !== undefined) {
    value = readPath(ran.stdout, def.path);
    if (value === undefined) return { ok: false, detail: `no ${def.path} in its output` };
  }
  return { ok: true, fingerprint: `command:${sha256Hex(typeof value === 'string' ? value : JSON.stringify(value))}` };
}

/**
 * A fingerprint is the SHA-256 of the state, not a faster hash: whoever can write the profile
 * file could otherwise pick another profile's content that collides with the confirmed one.
 *
 * The reader the hook hands the decision: the profile state read once per call, when a gate first
 * asks (a call that changes no state never reads it). A command runs without a shell, in the
 * event's working directory, with what is left of the deadline.
 */
export function profileStateReader(
  def: ProfileState,
  opts: { policyPath: string; env: Env; cwd: string; deadline: number },
): ProfileStateReader {
  let seen: ProfileObservation | undefined;
  return () =>
    (seen ??=
      'file' in def
        ? profileFileState(profileFilePath(def.file, opts.policyPath, opts.env))
        : runCommandState(def, opts.env, opts.cwd, opts.deadline - Date.now() - 100));
}
