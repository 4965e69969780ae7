import {
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { applyOps, emptyState, parseState, type SessionState, type StateOp } from '../core/state';
import { sessionKey } from './hash';

/**
 * Per-session state as a chain of immutable snapshots `<key>.<seq>.json`. A writer publishes
 * snapshot seq+1 with link(2), which fails if the name exists: a compare-and-swap on the sequence
 * number. There is no lock to go stale, a killed writer leaves at most a temporary file, and a
 * reader only ever sees whole snapshots. `<key>.head` is a hint to the latest sequence number, so a
 * read costs the same at the 1st and the 10,000th decision; old snapshots are deleted as new ones land.
 */

export class StateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateError';
  }
}

export const KEEP_SNAPSHOTS = 8;
export const SWEEP_EVERY = 64;

export interface Snapshot {
  seq: number;
  state: SessionState;
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** Creates the directory 0700 if missing; refuses a symlink, another user's directory or one others can write. */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    if (errno(err) !== 'EEXIST') throw new StateError(`cannot create ${dir}: ${errno(err) ?? String(err)}`);
  }
  let st;
  try {
    st = lstatSync(dir);
  } catch (err) {
    throw new StateError(`cannot read ${dir}: ${errno(err) ?? String(err)}`);
  }
  if (st.isSymbolicLink()) throw new StateError(`${dir} is a symbolic link`);
  if (!st.isDirectory()) throw new StateError(`${dir} is not a directory`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new StateError(`${dir} belongs to another user (uid ${st.uid})`);
  }
  if ((st.mode & 0o022) !== 0) throw new StateError(`${dir} is writable by other users`);
}

export class StateStore {
  readonly sessionsDir: string;

  constructor(readonly stateDir: string) {
    this.sessionsDir = join(stateDir, 'sessions');
  }

  /** Checks the state directory once per process; throws StateError. */
  open(): this {
    ensurePrivateDir(this.stateDir);
    ensurePrivateDir(this.sessionsDir);
    return this;
  }

  private snapshotPath(key: string, seq: number): string {
    return join(this.sessionsDir, `${key}.${seq}.json`);
  }

  private headPath(key: string): string {
    return join(this.sessionsDir, `${key}.head`);
  }

  private readHint(key: string): number {
    try {
      const n = Number.parseInt(readFileSync(this.headPath(key), 'utf8'), 10);
      return Number.isSafeInteger(n) && n > 0 ? n : 0;
    } catch {
      return 0;
    }
  }

  private exists(path: string): boolean {
    try {
      lstatSync(path);
      return true;
    } catch (err) {
      if (errno(err) === 'ENOENT') return false;
      throw new StateError(`cannot read ${path}: ${errno(err) ?? String(err)}`);
    }
  }

  private latestByScan(key: string): number {
    const prefix = `${key}.`;
    let latest = 0;
    for (const name of readdirSync(this.sessionsDir)) {
      if (!name.startsWith(prefix) || !name.endsWith('.json')) continue;
      const n = Number(name.slice(prefix.length, -'.json'.length));
      if (Number.isSafeInteger(n) && n > latest) latest = n;
    }
    return latest;
  }

  read(sessionId: string, attempt = 0): Snapshot {
    const key = sessionKey(sessionId);
    let seq = this.readHint(key);
    if (seq > 0 && !this.exists(this.snapshotPath(key, seq))) seq = this.latestByScan(key);
    while (this.exists(this.snapshotPath(key, seq + 1))) seq += 1;
    if (seq === 0) return { seq: 0, state: emptyState() };
    let text: string;
    try {
      text = readFileSync(this.snapshotPath(key, seq), 'utf8');
    } catch (err) {
      // Deleted as old between the probe and the read: newer snapshots exist; look again.
      if (errno(err) === 'ENOENT' && attempt < 20) return this.read(sessionId, attempt + 1);
      throw new StateError(`cannot read the session state: ${errno(err) ?? String(err)}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new StateError('the session state file is corrupt');
    }
    const state = parseState(value);
    if (!state) throw new StateError('the session state file is corrupt');
    return { seq, state };
  }

  /** Publishes `state` as seq+1; false when another process got there first. */
  private publish(sessionId: string, seq: number, state: SessionState): boolean {
    const key = sessionKey(sessionId);
    const target = this.snapshotPath(key, seq + 1);
    const tmp = join(this.sessionsDir, `${key}.${seq + 1}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    try {
      writeFileSync(tmp, JSON.stringify(state), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      throw new StateError(`cannot write the session state: ${errno(err) ?? String(err)}`);
    }
    try {
      linkSync(tmp, target);
    } catch (err) {
      // EEXIST: another process published first. ENOENT: our temporary file was swept because
      // the slot it was meant for is already taken. Either way, decide again on the newer state.
      if (errno(err) === 'EEXIST' || errno(err) === 'ENOENT') return false;
      throw new StateError(`cannot write the session state: ${errno(err) ?? String(err)}`);
    } finally {
      try {
        unlinkSync(tmp);
      } catch {
        // a leftover temporary file is never read
      }
    }
    try {
      const headTmp = `${this.headPath(key)}.${process.pid}.tmp`;
      writeFileSync(headTmp, String(seq + 1), { mode: 0o600 });
      renameSync(headTmp, this.headPath(key));
    } catch {
      // the hint only saves probing
    }
    this.collect(key, seq + 1);
    return true;
  }

  /**
   * Deletes the snapshot that just fell out of the kept window; every SWEEP_EVERY publishes, also
   * any older one a writer killed between publishing and deleting left behind.
   */
  private collect(key: string, latest: number): void {
    const unlink = (seq: number) => {
      try {
        unlinkSync(this.snapshotPath(key, seq));
      } catch {
        // already gone
      }
    };
    if (latest - KEEP_SNAPSHOTS > 0) unlink(latest - KEEP_SNAPSHOTS);
    if (latest % SWEEP_EVERY !== 0) return;
    const prefix = `${key}.`;
    for (const name of readdirSync(this.sessionsDir)) {
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      const seq = Number(rest.slice(0, rest.indexOf('.')));
      if (rest.endsWith('.json') && Number.isSafeInteger(seq) && seq <= latest - KEEP_SNAPSHOTS) unlink(seq);
      else if (rest.endsWith('.tmp') && Number.isSafeInteger(seq) && seq <= latest) {
        try {
          unlinkSync(join(this.sessionsDir, name));
        } catch {
          // another sweeper got it
        }
      }
    }
  }

  /**
   * Runs `decide` on the latest state and publishes the operations it returns. When another
   * process published first, decides again on the newer state, until `deadline` (epoch ms).
   */
  transact<R extends { ops: readonly StateOp[] }>(sessionId: string, deadline: number, decide: (state: SessionState) => R): R & { state: SessionState } {
    for (let attempt = 0; ; attempt++) {
      const snap = this.read(sessionId);
      const result = decide(snap.state);
      if (result.ops.length === 0) return { ...result, state: snap.state };
      const next = applyOps(snap.state, result.ops);
      if (JSON.stringify(next) === JSON.stringify(snap.state)) return { ...result, state: next };
      if (this.publish(sessionId, snap.seq, next)) return { ...result, state: next };
      if (Date.now() >= deadline) throw new StateError('too many concurrent updates to the session state before the deadline');
      sleepMs(Math.min(1 + Math.floor(Math.random() * (2 + attempt)), 20));
    }
  }

  update(sessionId: string, ops: readonly StateOp[], deadline = Date.now() + 5000): SessionState {
    return this.transact(sessionId, deadline, () => ({ ops })).state;
  }
}
