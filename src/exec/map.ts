import { closeSync, fstatSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { checkPrivateFile, openPrivateFile, readWhole, StateError } from '../io/private-fs';
import type { BrokerPaths } from './brokered';

/**
 * The launched programs of this deployment, as `init --hardened` recorded them in the state
 * directory (a guarded path: the sandboxed shell cannot change it). Read by the hook on a Bash
 * call and by the launcher; nothing here loads the shell reader.
 */

/** What `init --hardened` records of the launched programs, read by the hook and by the launcher. */
export interface ExecMap {
  v: 1;
  /** The Node the launcher runs with, by its absolute path (a `node` looked up on PATH could be one the agent planted). */
  runtime: string;
  /** The launcher's absolute path. */
  launcher: string;
  /** Program name → the real, absolute path of the program it starts. */
  programs: Record<string, string>;
  /** Paths the launched program may not write (persona-gate's guarded paths). */
  readOnly: string[];
  /** Directories outside the project the launched program writes: the domain's own state (`identity.profile_state`). */
  writable: string[];
  /** Where the broker serves starts made by other programs (absent: the launched programs start only as calls of their own). */
  broker?: BrokerPaths;
}

/** The file under the state directory. */
export function execMapFile(stateDir: string): string {
  return join(stateDir, 'exec.json');
}

const MAX_MAP_BYTES = 64 * 1024;

/** The map, or null when this deployment launches no program; a map that is not one is an error. */
export function readExecMap(stateDir: string): ExecMap | null {
  const path = execMapFile(stateDir);
  const fd = openPrivateFile(path);
  if (fd === null) return null;
  let text: string;
  try {
    const st = fstatSync(fd);
    checkPrivateFile(path, st);
    if (st.size > MAX_MAP_BYTES) throw new StateError(`${path} is larger than ${MAX_MAP_BYTES} bytes; run init --hardened again`);
    text = readWhole(fd, st.size).toString('utf8');
  } finally {
    closeSync(fd);
  }
  const parsed = parseExecMap(text);
  if (parsed === null) throw new StateError(`${path} is not a map of launched programs; run init --hardened again`);
  return parsed;
}

export function parseExecMap(text: string): ExecMap | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const m = v as Record<string, unknown>;
  if (
    m.v !== 1 ||
    typeof m.launcher !== 'string' ||
    !m.launcher.startsWith('/') ||
    typeof m.runtime !== 'string' ||
    !m.runtime.startsWith('/')
  )
    return null;
  if (typeof m.programs !== 'object' || m.programs === null || Array.isArray(m.programs)) return null;
  const programs: Record<string, string> = Object.create(null);
  for (const [name, path] of Object.entries(m.programs as Record<string, unknown>)) {
    if (typeof path !== 'string' || !path.startsWith('/') || name === '') return null;
    programs[name] = path;
  }
  const readOnly = Array.isArray(m.readOnly) ? m.readOnly.filter((p): p is string => typeof p === 'string' && p.startsWith('/')) : [];
  const writable = Array.isArray(m.writable) ? m.writable.filter((p): p is string => typeof p === 'string' && p.startsWith('/')) : [];
  const b = m.broker as Record<string, unknown> | undefined;
  const absolute = (x: unknown): x is string => typeof x === 'string' && x.startsWith('/');
  const broker =
    typeof b === 'object' && b !== null && absolute(b.broker) && absolute(b.shims) && absolute(b.requests)
      ? { broker: { broker: b.broker, shims: b.shims, requests: b.requests } }
      : {};
  return { v: 1, runtime: m.runtime, launcher: m.launcher, programs, readOnly, writable, ...broker };
}

/** Characters a word may hold unquoted and still be the same word after the shell reads it. */
export const PLAIN_WORD = /^[A-Za-z0-9_./=:,@%+^-]+$/;

/** A word as the shell must be given it to pass exactly `value`. */
export function quoteWord(value: string): string {
  return PLAIN_WORD.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The launcher's first argument in a rewritten call: the secret of the ticket the hook left for it. */
export const TICKET_OPTION = '--persona-gate-ticket=';

/** Parts joined again by the operators that joined them (`&&`, `||`, `;`). */
export function joinParts(texts: readonly string[], ops: readonly string[]): string {
  return texts.reduce((acc, text, k) => (k === 0 ? text : `${acc} ${ops[k - 1]} ${text}`), '');
}

/**
 * The rewritten call: each start as the excluded command runs it, `<node> <launcher> <program>`,
 * with its ticket's secret first when there is one, then the program's arguments.
 */
export function launcherCommand(
  map: ExecMap,
  starts: readonly { program: string; args: readonly string[] }[],
  ops: readonly string[],
  secrets: readonly string[] = [],
): string {
  return joinParts(
    starts.map((s, k) =>
      [map.runtime, map.launcher, s.program, ...(secrets[k] !== undefined ? [`${TICKET_OPTION}${secrets[k]}`] : []), ...s.args]
        .map(quoteWord)
        .join(' '),
    ),
    ops,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The line with line continuations, quotes and backslashes taken out. */
const unquoted = (command: string): string => command.replace(/\\\n/g, '').replace(/['"\\]/g, '');

/**
 * Whether the line may name a launched program (its name as a word of its own, its real path, or
 * the launcher), read with line continuations, quotes and backslashes taken out: `/opt/la''uncher`,
 * `ae\at` and `ae\<newline>at` are the same words to the shell, and may be to the host's matcher.
 * Returns a program's name.
 */
export function mentioned(command: string, map: ExecMap): string | null {
  const text = unquoted(command);
  for (const [name, program] of Object.entries(map.programs)) {
    if (text.includes(program)) return name;
    if (new RegExp(`(^|[^A-Za-z0-9_.-])${escapeRegExp(name)}($|[^A-Za-z0-9_.-])`).test(text)) return name;
  }
  return text.includes(map.launcher) ? (Object.keys(map.programs)[0] ?? '') : null;
}

/** Whether the line may name a launched program's real path or the launcher itself, read as `mentioned` reads it. */
export function namesPath(command: string, map: ExecMap): boolean {
  const text = unquoted(command);
  return text.includes(map.launcher) || Object.values(map.programs).some((program) => text.includes(program));
}

/** A directory an installation keeps its versions or environments in: `1.2`, `v3`, `.venv`, `venv`, `env`, `current`. */
const INSIDE_AN_INSTALLATION = /^(v?\d[\w.+-]*|\.?venv|env|current|latest)$/;

/** A directory named for the program, alone or with a version or variant (`aeat`, `aeat-1.0`, `aeat_2`, `aeat@3`). */
function ownInstallation(dir: string, name: string): boolean {
  return dir === name || (dir.startsWith(name) && /^[-_.@]/.test(dir.slice(name.length)));
}

/** What the sandbox hides of a launched program: its own installation (…/NAME/bin/NAME, …/NAME-1.0/bin/NAME, a package of node_modules), else the file. */
export function hiddenPaths(program: string, name: string): { path: string; tree: boolean }[] {
  const parts = program.split(sep);
  const modules = parts.lastIndexOf('node_modules');
  if (modules !== -1 && modules + 1 < parts.length - 1) {
    const scoped = parts[modules + 1]!.startsWith('@') ? 2 : 1;
    return [{ path: parts.slice(0, modules + 1 + scoped).join(sep), tree: true }];
  }
  const dir = dirname(program);
  if (basename(dir) !== 'bin') return [{ path: program, tree: false }];
  const root = dirname(dir);
  if (ownInstallation(basename(root), name)) return [{ path: root, tree: true }];
  // …/aeat/1.2/bin/aeat, …/aeat/.venv/bin/aeat: a version or an environment inside the program's own directory
  if (INSIDE_AN_INSTALLATION.test(basename(root)) && ownInstallation(basename(dirname(root)), name))
    return [{ path: dirname(root), tree: true }];
  return [{ path: program, tree: false }];
}

/**
 * What a launched program's own confinement hides from it and everything it starts: the other
 * launched programs' installations, which the sandbox hides from the agent's shell (a build the
 * launcher started must not start them unchecked), and the exec directory of the state (the
 * tickets and call records, whose secrets start programs).
 */
export function hiddenFromStart(map: ExecMap, program: string, execDir: string): { path: string; tree: boolean }[] {
  const others = Object.entries(map.programs).filter(([, real]) => real !== program);
  return [...others.flatMap(([name, real]) => hiddenPaths(real, name)), { path: execDir, tree: true }];
}
