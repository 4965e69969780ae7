import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyOps, emptyState, parseState, type SessionState, type StateOp } from '../core/state';
import { sessionKey } from './hash';

/**
 * Per-session state as a chain of immutable snapshots `sessions/<key>/<seq>.json`. A writer
 * publishes snapshot latest+1 with link(2), which fails if the name exists: a compare-and-swap on
 * the sequence number. The latest is the highest number in the session's directory, read with one
 * readdir of a directory that holds only the last few snapshots, so a read costs the same at the
 * 1st and the 10,000th decision. There is no lock to go stale, a killed writer leaves at most a
 * temporary file, and a reader only ever sees whole snapshots. Old snapshots are deleted as new
 * ones land; since the newest KEEP_SNAPSHOTS are never deleted, the highest number present is
 * always the latest.
 *
 * Deleting old numbers frees their names: a writer that read snapshot N and was descheduled while
 * more than KEEP_SNAPSHOTS others landed finds N+1 gone, and its link succeeds into a number below
 * the latest, where no reader looks. So every snapshot carries its lineage (its own random id and
 * those of the snapshots it descends from), and a writer whose number is not the highest after
 * its link checks that the latest descends from it. If not, its update was not kept: it removes
 * its snapshot and decides again on the newer state. If the latest is too far ahead to tell, it
 * reports an error, and the hook denies.
 */

export class StateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateError';
  }
}

export const KEEP_SNAPSHOTS = 8;
/** Ids of the snapshots a snapshot descends from, itself first: how far ahead a writer can still tell. */
export const LINEAGE_LENGTH = 64;

export interface Snapshot {
  seq: number;
  state: SessionState;
}

interface StoredSnapshot extends Snapshot {
  lineage: string[];
}

/** Points where tests interleave other writers, to reproduce a descheduled process. */
export interface StoreInterleaving {
  beforeLink?: () => void;
  afterLink?: () => void;
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

interface Listing {
  latest: number;
  snapshots: number[];
  temporaries: string[];
}

function newSnapshotId(): string {
  const part = () => Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  return part() + part();
}

function parseLineage(value: unknown): string[] {
  const lineage = (value as { lineage?: unknown }).lineage;
  return Array.isArray(lineage) && lineage.every((id) => typeof id === 'string') ? lineage : [];
}

export class StateStore {
  readonly sessionsDir: string;

  constructor(
    readonly stateDir: string,
    private readonly interleaving: StoreInterleaving = {},
  ) {
    this.sessionsDir = join(stateDir, 'sessions');
  }

  /** Checks the state directory once per process; throws StateError. */
  open(): this {
    ensurePrivateDir(this.stateDir);
    ensurePrivateDir(this.sessionsDir);
    return this;
  }

  sessionDir(sessionId: string): string {
    return join(this.sessionsDir, sessionKey(sessionId));
  }

  private list(dir: string): Listing {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      if (errno(err) === 'ENOENT') return { latest: 0, snapshots: [], temporaries: [] };
      throw new StateError(`cannot read the session state: ${errno(err) ?? String(err)}`);
    }
    const snapshots: number[] = [];
    const temporaries: string[] = [];
    for (const name of names) {
      if (name.endsWith('.tmp')) temporaries.push(name);
      else if (/^\d+\.json$/.test(name)) snapshots.push(Number(name.slice(0, -5)));
    }
    return { latest: snapshots.length === 0 ? 0 : Math.max(...snapshots), snapshots, temporaries };
  }

  private readLatest(dir: string): StoredSnapshot & { listing: Listing } {
    for (let attempt = 0; attempt < 20; attempt++) {
      const listing = this.list(dir);
      if (listing.latest === 0) return { seq: 0, state: emptyState(), lineage: [], listing };
      let text: string;
      try {
        text = readFileSync(join(dir, `${listing.latest}.json`), 'utf8');
      } catch (err) {
        // Deleted as old between the listing and the read: newer snapshots exist; list again.
        if (errno(err) === 'ENOENT') continue;
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
      return { seq: listing.latest, state, lineage: parseLineage(value), listing };
    }
    throw new StateError('the session state changed too fast to be read');
  }

  read(sessionId: string): Snapshot {
    const { seq, state } = this.readLatest(this.sessionDir(sessionId));
    return { seq, state };
  }

  /** Publishes `state` as the successor of `parent`; false when another process got there first. */
  private publish(sessionId: string, parent: StoredSnapshot, state: SessionState): boolean {
    const dir = this.sessionDir(sessionId);
    if (parent.seq === 0) ensurePrivateDir(dir);
    const seq = parent.seq + 1;
    const id = newSnapshotId();
    const lineage = [id, ...parent.lineage].slice(0, LINEAGE_LENGTH);
    const target = join(dir, `${seq}.json`);
    const tmp = join(dir, `${seq}.${process.pid}.${id}.tmp`);
    try {
      writeFileSync(tmp, JSON.stringify({ ...state, lineage }), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      throw new StateError(`cannot write the session state: ${errno(err) ?? String(err)}`);
    }
    try {
      // Cheap early look: most lost races show here, before anything is linked.
      if (this.list(dir).latest !== parent.seq) return false;
      this.interleaving.beforeLink?.();
      linkSync(tmp, target);
    } catch (err) {
      // EEXIST: another process published first. ENOENT: our temporary file was swept because
      // the number it was meant for is already taken. Either way, decide again on the newer state.
      if (errno(err) === 'EEXIST' || errno(err) === 'ENOENT') return false;
      throw err instanceof StateError ? err : new StateError(`cannot write the session state: ${errno(err) ?? String(err)}`);
    } finally {
      try {
        unlinkSync(tmp);
      } catch {
        // a leftover temporary file is never read, and is swept below by a later writer
      }
    }
    this.interleaving.afterLink?.();
    const after = this.list(dir);
    if (after.latest !== seq && !this.descendsFrom(dir, seq, id)) {
      // Linked into a number deleted before: nobody reads it. Remove it and decide again.
      try {
        unlinkSync(target);
      } catch {
        // swept already
      }
      return false;
    }
    this.collect(dir, after);
    return true;
  }

  /** Whether the latest snapshot descends from snapshot `seq` with id `id`; throws when it is too far ahead to tell. */
  private descendsFrom(dir: string, seq: number, id: string): boolean {
    const latest = this.readLatest(dir);
    const distance = latest.seq - seq;
    if (distance < 0 || distance >= latest.lineage.length) {
      throw new StateError(`cannot tell whether this update of the session state was kept: ${distance} others landed while it was written`);
    }
    return latest.lineage[distance] === id;
  }

  /** Deletes the snapshots that fell out of the kept window, and temporary files of numbers already taken. */
  private collect(dir: string, listing: Listing): void {
    const latest = listing.latest;
    const remove = (name: string) => {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // already gone
      }
    };
    for (const seq of listing.snapshots) if (seq <= latest - KEEP_SNAPSHOTS) remove(`${seq}.json`);
    for (const name of listing.temporaries) {
      const seq = Number(name.slice(0, name.indexOf('.')));
      if (Number.isSafeInteger(seq) && seq <= latest) remove(name);
    }
  }

  /**
   * Runs `decide` on the latest state and publishes the operations it returns. When another
   * process published first, decides again on the newer state, until `deadline` (epoch ms).
   */
  transact<R extends { ops: readonly StateOp[] }>(sessionId: string, deadline: number, decide: (state: SessionState) => R): R & { state: SessionState } {
    const dir = this.sessionDir(sessionId);
    for (let attempt = 0; ; attempt++) {
      const latest = this.readLatest(dir);
      const result = decide(latest.state);
      if (result.ops.length === 0) return { ...result, state: latest.state };
      const next = applyOps(latest.state, result.ops);
      if (JSON.stringify(next) === JSON.stringify(latest.state)) return { ...result, state: next };
      if (this.publish(sessionId, latest, next)) return { ...result, state: next };
      if (Date.now() >= deadline) throw new StateError('too many concurrent updates to the session state before the deadline');
      sleepMs(Math.min(1 + Math.floor(Math.random() * (2 + attempt)), 20));
    }
  }

  update(sessionId: string, ops: readonly StateOp[], deadline = Date.now() + 5000): SessionState {
    return this.transact(sessionId, deadline, () => ({ ops })).state;
  }
}
