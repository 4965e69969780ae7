import { closeSync, fstatSync, linkSync, lstatSync, readdirSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { applyOps, emptyState, parseState, type SessionState, type StateOp } from '../core/state';
import { sessionKey } from './hash';
import {
  checkPrivateDir,
  checkPrivateFile,
  ensurePrivateDir,
  ensureStateDir,
  errno,
  openPrivateFile,
  readWhole,
  StateError,
} from './private-fs';
import { utf8Text } from './text';

export { ensurePrivateDir, StateError };

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
 * Deleting frees names, so a writer must never link into a number that was used and deleted: its
 * update would land below the latest, where nobody reads it. Three rules prevent it:
 * 1. a writer writes its temporary file `<n>.<pid>.<id>.tmp` first, then looks again and links
 *    only if the latest is still the snapshot it read (a writer descheduled while it decided
 *    stops here);
 * 2. snapshot n is deleted only by a writer publishing n + KEEP_SNAPSHOTS or more, whose listing
 *    shows a latest past n, and so was taken after that look, with the temporary file in it;
 * 3. such a writer removes the temporary files of numbers up to its own before it deletes any
 *    snapshot. A writer descheduled between its look and its link therefore finds its temporary
 *    file gone (ENOENT) before its number can be free, and decides again.
 *
 * Every directory and snapshot is checked as private-fs.ts says (no links followed, this user's,
 * not writable by others). A snapshot has two names, `<n>.json` and its temporary file, between a
 * writer's link and unlink: a reader accepts a second link only when it is that temporary file.
 */

export const KEEP_SNAPSHOTS = 8;

export interface Snapshot {
  seq: number;
  state: SessionState;
}

/** Points where tests interleave other writers, to reproduce a descheduled process. */
export interface StoreInterleaving {
  beforeLink?: () => void;
  beforeDeletingSnapshots?: (dir: string, deleting: readonly number[]) => void;
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

interface Listing {
  latest: number;
  snapshots: number[];
  temporaries: string[];
}

export class StateStore {
  readonly sessionsDir: string;

  constructor(
    readonly stateDir: string,
    private readonly interleaving: StoreInterleaving = {},
  ) {
    this.sessionsDir = join(stateDir, 'sessions');
  }

  /** Checks the state directory (and the path to it) and sessions/; throws StateError. */
  open(): this {
    ensureStateDir(this.stateDir);
    ensurePrivateDir(this.sessionsDir);
    return this;
  }

  sessionDir(sessionId: string): string {
    return join(this.sessionsDir, sessionKey(sessionId));
  }

  private list(dir: string): Listing {
    let names: string[];
    try {
      const st = lstatSync(dir, { throwIfNoEntry: false });
      if (!st) return { latest: 0, snapshots: [], temporaries: [] };
      checkPrivateDir(dir, st);
      names = readdirSync(dir);
    } catch (err) {
      if (err instanceof StateError) throw err;
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

  private readLatest(dir: string): Snapshot & { listing: Listing } {
    for (let attempt = 0; attempt < 20; attempt++) {
      const listing = this.list(dir);
      if (listing.latest === 0) return { seq: 0, state: emptyState(), listing };
      const text = this.readSnapshot(dir, listing);
      // Deleted as old between the listing and the read: newer snapshots exist; list again.
      if (text === null) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new StateError('the session state file is corrupt');
      }
      const state = parseState(value);
      if (!state) throw new StateError('the session state file is corrupt');
      return { seq: listing.latest, state, listing };
    }
    throw new StateError('the session state changed too fast to be read');
  }

  /** The latest snapshot's text, checked on its descriptor; null when it was deleted meanwhile. */
  private readSnapshot(dir: string, listing: Listing): string | null {
    const path = join(dir, `${listing.latest}.json`);
    const fd = openPrivateFile(path);
    if (fd === null) return null;
    try {
      let st = fstatSync(fd);
      let maxLinks = 1;
      if (st.nlink === 2 && st.isFile()) {
        if (this.isBeingPublished(dir, listing, st)) maxLinks = 2;
        // The temporary name may have been removed since the listing.
        else st = fstatSync(fd);
      }
      checkPrivateFile(path, st, maxLinks);
      return utf8Text(readWhole(fd, st.size));
    } catch (err) {
      if (err instanceof StateError) throw err;
      throw new StateError(`cannot read the session state: ${errno(err) ?? String(err)}`);
    } finally {
      closeSync(fd);
    }
  }

  /** Whether the snapshot's second link is the temporary file its writer has not yet removed. */
  private isBeingPublished(dir: string, listing: Listing, st: Stats): boolean {
    const prefix = `${listing.latest}.`;
    for (const name of listing.temporaries) {
      if (!name.startsWith(prefix)) continue;
      const tmp = lstatSync(join(dir, name), { throwIfNoEntry: false });
      if (tmp && tmp.ino === st.ino && tmp.dev === st.dev) return true;
    }
    return false;
  }

  read(sessionId: string): Snapshot {
    const { seq, state } = this.readLatest(this.sessionDir(sessionId));
    return { seq, state };
  }

  /** Publishes `state` as the successor of `parent` (rules 1 and 3 above); false when another process got there first. */
  private publish(dir: string, parent: Snapshot & { listing: Listing }, state: SessionState): boolean {
    if (parent.seq === 0) ensurePrivateDir(dir);
    const seq = parent.seq + 1;
    const target = join(dir, `${seq}.json`);
    const tmp = join(dir, `${seq}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    try {
      writeFileSync(tmp, JSON.stringify(state), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      throw new StateError(`cannot write the session state: ${errno(err) ?? String(err)}`);
    }
    try {
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
    this.collect(dir, parent.listing, seq);
    return true;
  }

  /**
   * After publishing `latest`: removes the temporary files of numbers up to it, then the snapshots
   * that fell out of the kept window, in that order (rule 3 above).
   */
  private collect(dir: string, listing: Listing, latest: number): void {
    const remove = (name: string) => {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // already gone
      }
    };
    for (const name of listing.temporaries) {
      const seq = Number(name.slice(0, name.indexOf('.')));
      if (Number.isSafeInteger(seq) && seq <= latest) remove(name);
    }
    const old = listing.snapshots.filter((seq) => seq <= latest - KEEP_SNAPSHOTS);
    if (old.length === 0) return;
    this.interleaving.beforeDeletingSnapshots?.(dir, old);
    for (const seq of old) remove(`${seq}.json`);
  }

  /**
   * Runs `decide` on the latest state and publishes the operations it returns. When another
   * process published first, decides again on the newer state, until `deadline` (epoch ms).
   */
  transact<R extends { ops: readonly StateOp[] }>(
    sessionId: string,
    deadline: number,
    decide: (state: SessionState) => R,
  ): R & { state: SessionState } {
    const dir = this.sessionDir(sessionId);
    for (let attempt = 0; ; attempt++) {
      const latest = this.readLatest(dir);
      const result = decide(latest.state);
      if (result.ops.length === 0) return { ...result, state: latest.state };
      const next = applyOps(latest.state, result.ops);
      if (JSON.stringify(next) === JSON.stringify(latest.state)) return { ...result, state: next };
      if (this.publish(dir, latest, next)) return { ...result, state: next };
      if (Date.now() >= deadline) throw new StateError('too many concurrent updates to the session state before the deadline');
      sleepMs(Math.min(1 + Math.floor(Math.random() * (2 + attempt)), 20));
    }
  }

  update(sessionId: string, ops: readonly StateOp[], deadline = Date.now() + 5000): SessionState {
    return this.transact(sessionId, deadline, () => ({ ops })).state;
  }
}
