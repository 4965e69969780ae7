import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { dirname, isAbsolute, join } from 'node:path';
import { CliError } from '../errors';
import type { CliMessages } from '../messages';
import { isObject, type Json } from './hardened';

/**
 * What init added to each file it merges into (settings, the launch settings, the exec map), kept
 * in the state directory so that uninstall takes back exactly that and nothing the user had:
 * - `ours`: the list entries and values persona-gate put there that were not there before, a
 *   value with the one it replaced;
 * - `made`: the objects and lists persona-gate made (removed when left empty);
 * - `owners`: per project, everything its init ensures in the file, so that a file several
 *   projects' inits share (the user's launch settings, the exec map) keeps what another still needs;
 * - `original`: the file's text before persona-gate first changed it (null: there was no file),
 *   written back when the last owner goes and the file holds again exactly what it held then.
 * Uninstall only removes entries and puts back the values recorded as replaced, and only those
 * init could have written (the paths under `allowed` for the file's kind), so a changed record
 * cannot make it write a setting of its own.
 */

type Scalar = string | number | boolean | null;
type Path = string[];

interface Item {
  path: Path;
  /** A string entry of the list at `path`; else `value` is the value at `path`. */
  entry?: string;
  value?: Scalar;
  /** The value `value` replaced (absent: there was none). */
  before?: Scalar;
}

interface FileRecord {
  original: string | null;
  ours: Item[];
  made: Path[];
  owners: Record<string, string[]>;
  /** The owners whose init registered persona-gate's hook in this file (`init --hardened`). */
  hooks: string[];
}

interface RecordFile {
  v: 1;
  files: Record<string, FileRecord>;
  /** Directories init made (Droid's placeholders), by the projects that made them. */
  dirs: Record<string, string[]>;
}

/** Which files a record entry may touch, and where in them. */
export type FileKind = 'claude' | 'droid' | 'exec-map';

const ALLOWED: Record<FileKind, { prefixes: Path[]; before: (v: Scalar) => boolean }> = {
  claude: { prefixes: [['sandbox'], ['permissions', 'deny']], before: (v) => typeof v === 'boolean' },
  droid: { prefixes: [['sandbox']], before: (v) => typeof v === 'boolean' },
  // init makes a new map or keeps the one there: a value it replaced in a map is never put back
  'exec-map': { prefixes: [[]], before: () => false },
};

const isScalar = (v: unknown): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const keyOf = (i: { path: Path; entry?: string }) => JSON.stringify(i.entry === undefined ? [i.path] : [i.path, i.entry]);
const isPath = (p: unknown): p is Path => Array.isArray(p) && p.every((k) => typeof k === 'string');

export function installRecordFile(stateDir: string): string {
  return join(stateDir, 'installed.json');
}

/** The leaves of a fragment: each string entry of a list, each value that is not an object or a list. */
function leaves(fragment: Json, at: Path = []): Item[] {
  const out: Item[] = [];
  for (const [key, value] of Object.entries(fragment)) {
    const path = [...at, key];
    if (Array.isArray(value)) for (const v of value) if (typeof v === 'string') out.push({ path, entry: v });
    if (isObject(value)) out.push(...leaves(value, path));
    else if (!Array.isArray(value) && isScalar(value)) out.push({ path, value });
  }
  return out;
}

/** The objects and lists of a fragment, outermost first. */
function containers(fragment: Json, at: Path = []): Path[] {
  const out: Path[] = [];
  for (const [key, value] of Object.entries(fragment)) {
    if (isObject(value)) out.push([...at, key], ...containers(value, [...at, key]));
    else if (Array.isArray(value)) out.push([...at, key]);
  }
  return out;
}

function get(settings: Json, path: Path): unknown {
  let at: unknown = settings;
  for (const key of path) {
    if (!isObject(at) || !(key in at)) return undefined;
    at = at[key];
  }
  return at;
}

function checkRecord(parsed: unknown): RecordFile {
  const fail = () => {
    throw new Error('not an install record');
  };
  if (!isObject(parsed) || parsed.v !== 1 || !isObject(parsed.files)) fail();
  const p = parsed as Json;
  const dirs = p.dirs === undefined ? {} : p.dirs;
  if (!isObject(dirs) || !Object.values(dirs).every((o) => Array.isArray(o) && o.every((x) => typeof x === 'string'))) fail();
  for (const [file, r] of Object.entries(p.files as Json)) {
    if (!isAbsolute(file) || !isObject(r)) fail();
    const f = r as Json;
    if (!(f.original === null || typeof f.original === 'string')) fail();
    if (!Array.isArray(f.made) || !f.made.every(isPath)) fail();
    if (!Array.isArray(f.hooks) || !f.hooks.every((x) => typeof x === 'string')) fail();
    if (!isObject(f.owners) || !Object.values(f.owners).every((o) => Array.isArray(o) && o.every((x) => typeof x === 'string'))) fail();
    if (!Array.isArray(f.ours)) fail();
    for (const i of f.ours as unknown[]) {
      if (!isObject(i) || !isPath(i.path) || i.path.length === 0) fail();
      const item = i as Json;
      const entry = typeof item.entry === 'string';
      if (entry === 'value' in item || (!entry && !isScalar(item.value)) || ('before' in item && !isScalar(item.before))) fail();
    }
  }
  return { v: 1, files: p.files as Record<string, FileRecord>, dirs: dirs as Record<string, string[]> };
}

/** A change uninstall is to write: the new text of a file, or null to remove it. */
export interface TakeBack {
  file: string;
  text: string | null;
  /** What went, by setting: `sandbox.enabled`, `sandbox.filesystem.denyWrite (12)`, … */
  removed: string[];
  /** The file is again byte for byte what it was before init. */
  restored: boolean;
}

export class InstallRecord {
  private constructor(
    readonly path: string,
    private readonly record: RecordFile,
    private readonly t: CliMessages,
  ) {}

  /** The record of a state directory; one that is not a record is an error naming it, and nothing changes. */
  static open(stateDir: string, t: CliMessages): InstallRecord {
    const path = installRecordFile(stateDir);
    if (!existsSync(path)) return new InstallRecord(path, { v: 1, files: {}, dirs: {} }, t);
    try {
      return new InstallRecord(path, checkRecord(JSON.parse(readFileSync(path, 'utf8'))), t);
    } catch (err) {
      throw new CliError(t.installRecordBad(path, err instanceof Error ? err.message : String(err)));
    }
  }

  /**
   * Notes what `owner`'s init ensures in `file` (`fragment`, as merged into `before`, the file as it
   * was; `original` its text, null when there was none), and which of it was not there before.
   */
  note(
    file: string,
    owner: string,
    before: Json,
    original: string | null,
    fragment: Json,
    hooks: 'added' | 'present' | false = false,
  ): void {
    const existing = this.record.files[file];
    // a file removed since: what was recorded of it went with it
    const r: FileRecord = existing && original !== null ? existing : { original, ours: [], made: [], owners: {}, hooks: [] };
    const ours = new Set(r.ours.map(keyOf));
    const wanted = new Set(r.owners[owner] ?? []);
    for (const item of leaves(fragment)) {
      const key = keyOf(item);
      wanted.add(key);
      if (ours.has(key)) continue;
      const now = get(before, item.path);
      if (item.entry !== undefined) {
        if (Array.isArray(now) && now.includes(item.entry)) continue;
        r.ours.push(item);
      } else {
        if (isDeepStrictEqual(now, item.value)) continue;
        r.ours.push(now === undefined ? item : { ...item, before: isScalar(now) ? now : null });
      }
      ours.add(key);
    }
    const made = new Set(r.made.map((p) => JSON.stringify(p)));
    for (const path of containers(fragment))
      if (get(before, path) === undefined && !made.has(JSON.stringify(path))) {
        r.made.push(path);
        made.add(JSON.stringify(path));
      }
    r.owners[owner] = [...wanted];
    // a registration that was there before is persona-gate's only when an earlier init added it
    if ((hooks === 'added' || (hooks === 'present' && r.hooks.length > 0)) && !r.hooks.includes(owner)) r.hooks.push(owner);
    this.record.files[file] = r;
  }

  /**
   * Notes the directories `owner`'s init needs: made now when they are not there, or made by an
   * earlier init (the user's own are never recorded). `absent` says which were not there before init.
   */
  noteDirs(owner: string, dirs: string[], absent: (dir: string) => boolean = (d) => !existsSync(d)): void {
    for (const d of dirs) {
      if (!absent(d) && this.record.dirs[d] === undefined) continue;
      const owners = this.record.dirs[d] ?? [];
      if (!owners.includes(owner)) owners.push(owner);
      this.record.dirs[d] = owners;
    }
  }

  /** Whether `owner`'s init is recorded for `file`. */
  owns(file: string, owner: string): boolean {
    return this.record.files[file]?.owners[owner] !== undefined;
  }

  /** The files `owner`'s init is recorded for. */
  filesOf(owner: string): string[] {
    return Object.keys(this.record.files).filter((f) => this.owns(f, owner));
  }

  /** Whether the hook registration in `file` goes with `owner`: its init added it, and no other project's init relies on it. */
  hooksGo(file: string, owner: string): boolean {
    const r = this.record.files[file];
    return r !== undefined && r.hooks.length === 1 && r.hooks[0] === owner;
  }

  /**
   * Takes `owner`'s part out of `file` (read as `current`, null when it is not there; `edited`
   * when the caller changed it already): what persona-gate put there and no other project's init
   * still needs. Returns the change to write, or null when there is nothing to change. A setting
   * that is not the shape init left is an error naming the file, and nothing changes.
   */
  takeBack(file: string, owner: string, current: Json | null, kind: FileKind, edited = false): TakeBack | null {
    const r = this.record.files[file];
    if (!r || r.owners[owner] === undefined) return null;
    delete r.owners[owner];
    r.hooks = r.hooks.filter((o) => o !== owner);
    const still = new Set(Object.values(r.owners).flat());
    const last = Object.keys(r.owners).length === 0;
    if (last) delete this.record.files[file];
    if (current === null) return null;
    const next = structuredClone(current);
    const allowed = ALLOWED[kind];
    const counts = new Map<string, number>();
    const kept: Item[] = [];
    for (const item of r.ours) {
      const inside = allowed.prefixes.some((p) => p.every((k, i) => item.path[i] === k));
      const fits = item.before === undefined || allowed.before(item.before);
      if (still.has(keyOf(item)) || !inside || !fits) {
        kept.push(item);
        continue;
      }
      const parent = get(next, item.path.slice(0, -1));
      const leaf = item.path[item.path.length - 1]!;
      const field = item.path.join('.');
      if (parent === undefined) continue;
      if (!isObject(parent)) throw new CliError(this.t.initNotObject(file, item.path.slice(0, -1).join('.')));
      if (item.entry !== undefined) {
        const list = parent[leaf];
        if (list === undefined) continue;
        if (!Array.isArray(list)) throw new CliError(this.t.initNotObject(file, field));
        const rest = list.filter((v) => v !== item.entry);
        if (rest.length === list.length) continue;
        parent[leaf] = rest;
      } else {
        if (!isDeepStrictEqual(parent[leaf], item.value)) continue; // changed since: the user's now
        if (item.before === undefined) delete parent[leaf];
        else parent[leaf] = item.before;
      }
      counts.set(field, (counts.get(field) ?? 0) + 1);
    }
    r.ours = kept;
    // the objects and lists persona-gate made, innermost first, when nothing is left in them
    const made = [...r.made].sort((a, b) => b.length - a.length);
    r.made = [];
    for (const path of made) {
      const value = get(next, path);
      const empty = (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
      const parent = get(next, path.slice(0, -1));
      if (empty && isObject(parent)) delete parent[path[path.length - 1]!];
      else if (value !== undefined) r.made.push(path);
    }
    const removed = [...counts].map(([field, n]) => (n > 1 ? `${field} (${n})` : field));
    if (!edited && isDeepStrictEqual(next, current)) return null;
    if (last && r.original !== null && isDeepStrictEqual(parse(r.original), next))
      return { file, text: r.original, removed, restored: true };
    if (last && r.original === null && Object.keys(next).length === 0) return { file, text: null, removed, restored: true };
    return { file, text: `${JSON.stringify(next, null, 2)}\n`, removed, restored: false };
  }

  /** The directories `owner`'s init made that no other project's init made too: removed by the caller when empty. */
  takeDirs(owner: string): string[] {
    const out: string[] = [];
    for (const [d, owners] of Object.entries(this.record.dirs)) {
      if (!owners.includes(owner)) continue;
      const rest = owners.filter((o) => o !== owner);
      if (rest.length === 0) {
        delete this.record.dirs[d];
        out.push(d);
      } else this.record.dirs[d] = rest;
    }
    return out.sort((a, b) => b.length - a.length);
  }

  /** Writes the record (removes it when it records nothing). */
  save(): void {
    if (Object.keys(this.record.files).length === 0 && Object.keys(this.record.dirs).length === 0) {
      if (existsSync(this.path)) unlinkSync(this.path);
      return;
    }
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    writePrivateJson(this.path, this.record);
  }
}

/** Writes a file of the state directory whole or not at all, readable by its owner only. */
export function writePrivateJson(file: string, value: unknown): void {
  writeFileSync(`${file}.new`, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.new`, file);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Writes the changes uninstall planned; a file left as it was before init is written back byte for byte. */
export function applyTakeBack(change: TakeBack, mode?: number): void {
  if (change.text === null) {
    if (existsSync(change.file)) unlinkSync(change.file);
  } else writeFileSync(change.file, change.text, mode === undefined ? undefined : { mode });
}

/** Removes a directory when it is empty; says whether it did. */
export function removeEmptyDir(dir: string): boolean {
  try {
    if (readdirSync(dir).length > 0) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

/** The name a project's init is recorded under, per host: a project may be set up for several. */
export function recordOwner(host: string, dir: string): string {
  return `${host} ${dir}`;
}

/** What `mergeHardened` ensures, for the record: the fragment merged into an empty file. */
export function fragmentOf(merge: (empty: Json) => Json, ...extra: Json[]): Json {
  const fragment = merge({});
  for (const e of extra) mergeInto(fragment, e);
  return fragment;
}

function mergeInto(target: Json, source: Json): void {
  for (const [key, value] of Object.entries(source)) {
    if (Array.isArray(value)) {
      const list = Array.isArray(target[key]) ? (target[key] as unknown[]) : (target[key] = []);
      for (const v of value) if (!(list as unknown[]).includes(v)) (list as unknown[]).push(v);
    } else if (isObject(value)) {
      if (!isObject(target[key])) target[key] = {};
      mergeInto(target[key] as Json, value);
    } else target[key] = value;
  }
}
