import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * The state directory's files (session snapshots, receipts, the policy cache) are opened without
 * following symbolic links and used only when they are regular files of this user that no other
 * user can write, in directories of this user that no other user can write. A file is checked
 * on the descriptor that is then read or written (open with O_NOFOLLOW, then fstat), never by a
 * stat of the path followed by an open.
 *
 * What is refused is a StateError whose message says what is wrong and what to do about it.
 */
export class StateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateError';
  }
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** A FIFO put in place of a file must not block the open: it is then refused by its type. */
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW | O_NONBLOCK;

export function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

const currentUid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** Whether `uid` is the user running this process (never where there are no uids). */
export function isThisUser(uid: number): boolean {
  const current = currentUid();
  return current !== null && uid === current;
}

function kindOf(st: Stats): string {
  if (st.isFile()) return 'a file';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** ELOOP is what Linux and macOS answer for O_NOFOLLOW on a link; FreeBSD answers EMLINK. */
const isLinkRefusal = (code: string | undefined) => code === 'ELOOP' || code === 'EMLINK';

function linkError(path: string): StateError {
  return new StateError(`${path} is a symbolic link, which persona-gate never follows in its state directory; remove it`);
}

function ownerAndMode(path: string, st: Stats, what: 'file' | 'directory'): void {
  const uid = currentUid();
  if (uid !== null && st.uid !== uid) {
    throw new StateError(
      `${path} belongs to uid ${st.uid}, not to this user (uid ${uid}); remove it${what === 'directory' ? ' or use a state directory of your own' : ''}`,
    );
  }
  if ((st.mode & 0o022) !== 0) {
    throw new StateError(
      what === 'directory'
        ? `${path} is writable by other users; run chmod go-w ${path}`
        : `${path} is writable by other users, so it may not be what persona-gate wrote; remove it`,
    );
  }
}

/** A file read or appended: regular, this user's, not writable by others; `maxLinks` hard links at most. */
export function checkPrivateFile(path: string, st: Stats, maxLinks = 1): void {
  if (!st.isFile()) throw new StateError(`${path} is ${kindOf(st)}, not a file persona-gate wrote; remove it`);
  ownerAndMode(path, st, 'file');
  if (st.nlink > maxLinks) throw new StateError(`${path} has ${st.nlink} hard links, not one as the files persona-gate writes; remove it`);
}

/** A directory of the state: a real directory (not a link), this user's, not writable by others. */
export function checkPrivateDir(path: string, st: Stats): void {
  if (st.isSymbolicLink()) throw linkError(path);
  if (!st.isDirectory()) throw new StateError(`${path} is ${kindOf(st)}, not a directory; remove it`);
  ownerAndMode(path, st, 'directory');
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch (err) {
    throw new StateError(`cannot read ${path}: ${errno(err) ?? String(err)}`);
  }
}

/** Checks `dir`, a directory inside an already checked one, creating it 0700 when missing. */
export function ensurePrivateDir(dir: string, create = true): boolean {
  let st = lstatOrNull(dir);
  if (!st) {
    if (!create) return false;
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if (errno(err) !== 'EEXIST') throw new StateError(`cannot create ${dir}: ${errno(err) ?? String(err)}`);
    }
    st = lstatOrNull(dir);
    if (!st) throw new StateError(`cannot create ${dir}: it disappeared`);
  }
  checkPrivateDir(dir, st);
  return true;
}

/**
 * Checks the state directory and the path that leads to it, creating what is missing (0700).
 *
 * No component of the path may be a symbolic link the agent could have made: one owned by this
 * user, or by any user other than root, is refused. A link owned by root is accepted (when this
 * user is not root) and followed: only root can make or change it, and systems do use them for
 * the home directories (/home -> /usr/home on FreeBSD, /tmp -> /private/tmp on macOS). For root
 * itself every link is refused, since the agent's shell could have made it. The components above
 * the state directory are otherwise not checked: a parent writable by others is the system's
 * /tmp, whose sticky bit keeps others from replacing what is in it.
 */
export function ensureStateDir(stateDir: string): void {
  const target = resolve(stateDir);
  if (sep !== '/') {
    // No uids and no O_NOFOLLOW on Windows: the directory's own checks are what is done.
    ensurePrivateDirRecursive(target);
    return;
  }
  const uid = currentUid();
  let current = '/';
  let pending = target.split('/').filter(Boolean);
  let hops = 0;
  while (pending.length > 0) {
    const next = join(current, pending[0]!);
    const st = lstatOrNull(next);
    if (!st) {
      ensurePrivateDirRecursive(join(next, ...pending.slice(1)));
      return;
    }
    if (st.isSymbolicLink()) {
      if (st.uid !== 0 || uid === 0) {
        throw new StateError(
          `the state directory ${stateDir} is reached through ${next}, a symbolic link ${st.uid === uid ? 'of this user' : `of uid ${st.uid}`}; use the directory it points to (PERSONA_GATE_STATE_DIR) or remove the link`,
        );
      }
      if (++hops > 40) throw new StateError(`the state directory ${stateDir} is reached through too many symbolic links`);
      let link: string;
      try {
        link = readlinkSync(next);
      } catch (err) {
        throw new StateError(`cannot read ${next}: ${errno(err) ?? String(err)}`);
      }
      pending = [...resolve(current, link).split('/').filter(Boolean), ...pending.slice(1)];
      current = '/';
      continue;
    }
    if (pending.length === 1) {
      checkPrivateDir(stateDir, st);
      return;
    }
    if (!st.isDirectory()) throw new StateError(`${next}, on the way to the state directory ${stateDir}, is not a directory; remove it`);
    current = next;
    pending = pending.slice(1);
  }
  // The state directory is the root directory itself.
  const st = lstatOrNull('/');
  if (st) checkPrivateDir(stateDir, st);
}

function ensurePrivateDirRecursive(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    if (errno(err) !== 'EEXIST') throw new StateError(`cannot create ${dir}: ${errno(err) ?? String(err)}`);
  }
  const st = lstatOrNull(dir);
  if (!st) throw new StateError(`cannot create ${dir}: it disappeared`);
  checkPrivateDir(dir, st);
}

/**
 * Opens a file of the state for reading without following a link; null when there is none. The
 * caller checks the descriptor (fstat) before reading anything.
 */
export function openPrivateFile(path: string): number | null {
  try {
    return openSync(path, READ_FLAGS);
  } catch (err) {
    const code = errno(err);
    if (code === 'ENOENT') return null;
    if (isLinkRefusal(code)) throw linkError(path);
    // ENXIO and the like: not a file persona-gate wrote.
    throw new StateError(`cannot read ${path}: ${code ?? String(err)}; remove it`);
  }
}

/** Reads `size` bytes from the start of an open descriptor. */
export function readWhole(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let done = 0;
  while (done < size) {
    const n = readSync(fd, buffer, done, size - done, done);
    if (n === 0) break;
    done += n;
  }
  return done === size ? buffer : buffer.subarray(0, done);
}

/** Reads a whole private file (checked as in checkPrivateFile); null when it does not exist or is larger than `max` bytes. */
export function readPrivateFile(path: string, max = Number.POSITIVE_INFINITY): Buffer | null {
  const fd = openPrivateFile(path);
  if (fd === null) return null;
  try {
    const st = fstatSync(fd);
    checkPrivateFile(path, st);
    return st.size > max ? null : readWhole(fd, st.size);
  } finally {
    closeSync(fd);
  }
}

/**
 * A private file's JSON value, when `accept` takes it and the file is no larger than `max` bytes;
 * null when there is no file, or it is too large, not JSON or not accepted. A link is an error
 * (openPrivateFile).
 */
export function readPrivateJson<T>(path: string, max: number, accept: (v: unknown) => v is T): T | null {
  const fd = openPrivateFile(path);
  if (fd === null) return null;
  try {
    const st = fstatSync(fd);
    checkPrivateFile(path, st);
    if (st.size > max) return null;
    const v: unknown = JSON.parse(readWhole(fd, st.size).toString('utf8'));
    return accept(v) ? v : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Appends `text` to a private file, creating it 0600; the file is checked on the open descriptor first. */
export function appendPrivateFile(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, APPEND_FLAGS, 0o600);
  } catch (err) {
    const code = errno(err);
    if (isLinkRefusal(code)) throw linkError(path);
    throw new StateError(`cannot write ${path}: ${code ?? String(err)}`);
  }
  try {
    checkPrivateFile(path, fstatSync(fd));
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Whether only root can change `path`, the file it resolves to and the directories holding both. */
export function onlyRootChanges(path: string): boolean {
  const rootOnly = (p: string) => {
    const st = statSync(p);
    return st.uid === 0 && (st.mode & 0o022) === 0;
  };
  try {
    return [path, dirname(path), realpathSync(path), dirname(realpathSync(path))].every(rootOnly);
  } catch {
    return false;
  }
}

/**
 * Goes through the `.json` records of a private directory: each one `keep` does not keep is
 * removed (a record another process removed first is gone already). Returns how many were kept;
 * none when the directory does not exist.
 */
export function sweepRecords(dir: string, keep: (path: string) => boolean): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if (errno(err) === 'ENOENT') return 0;
    throw err;
  }
  let kept = 0;
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const path = join(dir, name);
    if (keep(path)) kept++;
    else {
      try {
        unlinkSync(path);
      } catch {
        // another process's sweep took it
      }
    }
  }
  return kept;
}
