import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Env } from '../../core/decide';
import { codexHome } from '../../hosts/registration';
import { stateDirFor } from '../context';
import { CliError } from '../errors';
import type { CliMessages } from '../messages';
import { commandTarget } from './doctor';
import { within, type Finding, type Guarded } from './hardened';
import { openStateDir, projectGuards } from './init';
import { tomlString, unquote } from './codex-trust';

/**
 * Codex's OS sandbox in the default deployment (SPEC §9.2), measured on Codex CLI 0.171.0, Linux
 * (`codex sandbox -P <profile> -C <dir> -- CMD` and `codex exec`):
 * - A permission profile (`default_permissions = "<name>"`, `[permissions.<name>.filesystem]`) maps
 *   paths to `read`, `write` or `none`; the most specific entry wins, so `read` inside a writable
 *   root is a read-only carve-out (bubblewrap binds it read-only: "Read-only file system").
 *   `":root" = "read"` keeps the rest of the machine readable, `":workspace_roots"` `"." = "write"`
 *   the project writable; `":tmpdir"` and `/tmp` stay writable as in the built-in `:workspace`.
 * - Codex binds `.git`, `.codex`, `.agents` (and `.aws`) of a workspace root read-only itself
 *   (so `git add` and `git commit` fail in the shell; `git status` works).
 * - A denied file's directory can be renamed away when it sits in a writable directory and is not
 *   itself a mount point (`mv home home2` moved `home/.codex/hooks.json` with it): each guarded
 *   path inside a writable root is therefore denied from the top directory under that root on
 *   its way (`.claude`, `/tmp/<dir>`); a denied directory is a mount point, and renaming it fails
 *   ("Device or resource busy").
 * - A denied path that does not exist under a denied directory stops every command ("bwrap: Can't
 *   create file at …"): only existing paths are named, and none below another denied one.
 * - `sandbox_mode` in any loaded config (or `--sandbox`) makes Codex use its older sandbox settings
 *   instead of `default_permissions`; those have no read-only carve-out.
 * - Hooks run outside the sandbox: the hook still writes its state directory.
 * - Codex refuses to make its helper links under the system temp directory: a CODEX_HOME inside
 *   $TMPDIR (or /tmp) leaves every sandboxed command failing ("execvp codex-linux-sandbox").
 */

/** The permission profile init writes and selects. */
export const CODEX_PROFILE = 'persona-gate';
const BEGIN = '# >>> persona-gate sandbox (added by `persona-gate init --host codex`; `persona-gate uninstall --host codex` removes it)';
const END = '# <<< persona-gate sandbox';

/**
 * A light structural read of a config.toml: each line outside a multi-line string or value is
 * blank, a comment, a table header or `key = value`. Returns the problem, or null. Also gives the
 * top-level keys (before the first table header) and where that header is.
 */
export function scanToml(toml: string): { problem: string | null; topKeys: Map<string, string>; firstHeader: number; lines: string[] } {
  const lines = toml.split(/\r?\n/);
  const topKeys = new Map<string, string>();
  let firstHeader = -1;
  let open: string | null = null; // the closing delimiter of a multi-line string
  let depth = 0; // open [ and { of a multi-line value
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (open !== null) {
      if (line.includes(open)) open = null;
      continue;
    }
    if (depth > 0) {
      depth += bracketDepth(line);
      if (depth < 0) return { problem: `line ${i + 1}: unbalanced brackets`, topKeys, firstHeader, lines };
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (trimmed.startsWith('[')) {
      if (!/^\[\[?\s*[^\]\s][^\]]*\]\]?\s*(#.*)?$/.test(trimmed))
        return { problem: `line ${i + 1}: a table header is not closed`, topKeys, firstHeader, lines };
      if (firstHeader < 0) firstHeader = i;
      continue;
    }
    const kv = /^("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.-]+(?:\s*\.\s*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=\s*(.*)$/.exec(
      trimmed,
    );
    if (!kv || kv[2]!.trim() === '') return { problem: `line ${i + 1}: not a key = value line`, topKeys, firstHeader, lines };
    const value = kv[2]!;
    if (firstHeader < 0) topKeys.set(kv[1]!.replace(/^["']|["']$/g, ''), value.trim());
    for (const delim of ['"""', "'''"]) {
      if (value.startsWith(delim) && value.split(delim).length === 2) open = delim;
    }
    if (open === null) depth = Math.max(0, bracketDepth(value));
  }
  if (open !== null) return { problem: 'a multi-line string is not closed', topKeys, firstHeader, lines };
  if (depth > 0) return { problem: 'a multi-line value is not closed', topKeys, firstHeader, lines };
  return { problem: null, topKeys, firstHeader, lines };
}

/** Opening minus closing brackets of a line, outside strings and comments. */
function bracketDepth(text: string): number {
  let d = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#') break;
    else if (c === '[' || c === '{') d++;
    else if (c === ']' || c === '}') d--;
  }
  return d;
}

/** The config.toml with persona-gate's sandbox blocks taken out; every other line kept. */
export function withoutCodexSandbox(toml: string): string {
  const kept: string[] = [];
  let inside = false;
  let after = false;
  for (const line of toml.split(/\r?\n/)) {
    const blankAfter = after && line.trim() === '';
    after = false;
    if (line === BEGIN) inside = true;
    else if (line === END && inside) {
      inside = false;
      after = true;
    } else if (!inside && !blankAfter) kept.push(line);
  }
  // A blank line init put after its top-level block goes with it.
  const text = kept.join('\n').replace(/^\n+/, '');
  return text.trim() === '' ? '' : text.replace(/\n*$/, '\n');
}

/** The lines of persona-gate's sandbox blocks, markers included: what init compares to say it changed nothing. */
function sandboxLines(toml: string): string {
  const out: string[] = [];
  let inside = false;
  for (const line of toml.split(/\r?\n/)) {
    if (line === BEGIN) inside = true;
    if (inside) out.push(line);
    if (line === END) inside = false;
  }
  return out.join('\n');
}

export function hasCodexSandbox(toml: string): boolean {
  return toml.split(/\r?\n/).includes(BEGIN);
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The directories the profile leaves writable: the project, the temp directory, /tmp. */
export function codexWritableRoots(env: Env, dir: string): string[] {
  const roots = [realOr(dir), realOr('/tmp')];
  const tmp = env.TMPDIR?.trim();
  if (tmp) roots.push(realOr(tmp));
  return [...new Set(roots)];
}

/**
 * Every path the sandbox must hold for Codex: the default deployment's guarded paths, the
 * project's `.claude` (the policy's directory) and `.codex`, CODEX_HOME (hooks.json, config.toml,
 * its trust records), and the program the registered hook command starts.
 */
export function codexGuarded(env: Env, dir: string, policyPath: string, hookCommand: string | null): Guarded[] {
  const list: Guarded[] = [
    ...projectGuards(env, dir, policyPath),
    { path: join(dir, '.claude'), tree: true, what: 'policy' },
    { path: join(dir, '.codex'), tree: true, what: 'settings' },
    { path: codexHome(env), tree: true, what: 'settings' },
  ];
  const target = hookCommand === null ? null : commandTarget(hookCommand, dir, env)?.target;
  if (target) {
    list.push({ path: target, tree: false, what: 'install' });
    list.push({ path: realOr(target), tree: false, what: 'install' });
  }
  return list;
}

/**
 * Where each guarded path is denied: a path inside a writable root from the top directory under
 * that root on its way (so that no directory above it can be renamed away), for every writable
 * root that holds it (the project inside a temp directory: both), except in the project's
 * node_modules (denying it whole would stop every install). Only existing paths, and none that
 * a denied one already covers with no writable root between them.
 */
export function codexDenyPoints(guarded: readonly Guarded[], roots: readonly string[], dir: string): string[] {
  const project = realOr(dir);
  const points = new Set<string>();
  for (const g of guarded) {
    const path = realOr(g.path);
    let inRoot = false;
    for (const root of roots) {
      if (path === root || !within(path, root)) continue;
      inRoot = true;
      const first = relative(root, path).split(sep)[0]!;
      const top = root === project && first === 'node_modules' ? path : join(root, first);
      if (!roots.includes(top) && existsSync(top)) points.add(top);
    }
    if (!inRoot && !roots.includes(path) && existsSync(path)) points.add(path);
  }
  const all = [...points];
  const covered = (p: string, o: string) => o !== p && within(p, o) && !roots.some((r) => r !== o && within(p, r) && within(r, o));
  return all.filter((p) => !all.some((o) => covered(p, o))).sort();
}

/** The TOML init adds: the profile, and (when the file chooses none) the line that selects it. */
export function codexSandboxBlocks(points: readonly string[], select: boolean): { top: string[]; tables: string[] } {
  const name = tomlString(CODEX_PROFILE);
  return {
    top: select ? [BEGIN, `default_permissions = ${name}`, END] : [],
    tables: [
      BEGIN,
      `[permissions.${name}.filesystem]`,
      '":root" = "read"',
      '":tmpdir" = "write"',
      '"/tmp" = "write"',
      ...points.map((p) => `${tomlString(p)} = "read"`),
      '',
      `[permissions.${name}.filesystem.":workspace_roots"]`,
      '"." = "write"',
      END,
    ],
  };
}

/** The config.toml with persona-gate's sandbox (re)written: the selection before the first table, the profile at the end. */
export function withCodexSandbox(toml: string, points: readonly string[], path: string, t: CliMessages): { text: string; select: boolean } {
  const base = withoutCodexSandbox(toml);
  const scan = scanToml(base);
  if (scan.problem !== null) throw new CliError(t.codexConfigUnparsable(path, scan.problem));
  if (scan.lines.some((l) => /^\s*\[\s*permissions\s*\.\s*("persona-gate"|'persona-gate'|persona-gate)\s*[.\]]/.test(l)))
    throw new CliError(t.codexProfileTaken(path, CODEX_PROFILE));
  const select = !scan.topKeys.has('default_permissions');
  const blocks = codexSandboxBlocks(points, select);
  const lines = base === '' ? [] : base.replace(/\n$/, '').split('\n');
  const at = scan.firstHeader < 0 ? lines.length : scan.firstHeader;
  const top = blocks.top.length > 0 ? [...blocks.top, ...(at < lines.length ? [''] : [])] : [];
  const merged = [...lines.slice(0, at), ...top, ...lines.slice(at)];
  while (merged.length > 0 && merged[merged.length - 1]!.trim() === '') merged.pop();
  const text = `${[...merged, ...(merged.length > 0 ? [''] : []), ...blocks.tables].join('\n')}\n`;
  return { text, select };
}

/** Unquoted value of a simple TOML string (`"x"` or `'x'`), or the raw text. */
function tomlValue(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const m = /^("(?:[^"\\]|\\.)*"|'[^']*')/.exec(raw);
  if (!m) return raw.replace(/\s*#.*$/, '');
  return unquote(m[1]!);
}

/** What chooses Codex's sandbox in a config.toml: `sandbox_mode` and `default_permissions` at top level. */
export function codexSandboxChoice(toml: string): { sandboxMode?: string; profile?: string; problem: string | null } {
  const scan = scanToml(toml);
  return {
    sandboxMode: tomlValue(scan.topKeys.get('sandbox_mode')),
    profile: tomlValue(scan.topKeys.get('default_permissions')),
    problem: scan.problem,
  };
}

/** Whether persona-gate turns Codex's sandbox on here: Linux (bubblewrap ships with Codex) and macOS (Seatbelt). */
export function codexSandboxPlatform(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'linux' || platform === 'darwin';
}

/**
 * init's sandbox step for Codex, planned before anything is written (a config.toml that cannot be
 * read changes nothing); `apply` returns the config text with it, and the lines init prints.
 */
export function planCodexSandbox(
  env: Env,
  dir: string,
  policyPath: string,
  hookCommand: string,
  config: { path: string; text: string },
  wanted: boolean,
  t: CliMessages,
  platform: NodeJS.Platform = process.platform,
): { apply(text: string, original: string): { text: string; lines: string[] } } {
  if (!wanted) return { apply: (text) => ({ text, lines: [t.codexSandboxOptedOut()] }) };
  if (!codexSandboxPlatform(platform)) return { apply: (text) => ({ text, lines: [t.codexSandboxNoPlatform(platform)] }) };
  // Read (and refuse) before anything is written.
  const choice = codexSandboxChoice(config.text);
  if (choice.problem !== null) throw new CliError(t.codexConfigUnparsable(config.path, choice.problem));
  const stateDir = stateDirFor(env);
  return {
    apply(text, original) {
      openStateDir(stateDir, t);
      const points = codexDenyPoints(codexGuarded(env, dir, policyPath, hookCommand), codexWritableRoots(env, dir), dir);
      const { text: next, select } = withCodexSandbox(text, points, config.path, t);
      const lines = [
        sandboxLines(next) === sandboxLines(original)
          ? t.codexSandboxKept(config.path)
          : t.codexSandbox(config.path, CODEX_PROFILE, points.length),
        t.codexReadOnlyDirs(join(dir, '.claude')),
      ];
      if (!select) lines.push(t.codexProfileChosenElsewhere(config.path, choice.profile ?? '?', CODEX_PROFILE));
      if (choice.sandboxMode !== undefined) lines.push(t.codexSandboxModeSet(config.path, choice.sandboxMode));
      return { text: next, lines };
    },
  };
}

/** The Codex program doctor probes with: PERSONA_GATE_CODEX_BIN, else `codex` on PATH. */
const codexBin = (env: Env) => env.PERSONA_GATE_CODEX_BIN?.trim() || 'codex';

/**
 * Asks Codex's own sandbox which of `paths` its shell could write: `codex sandbox -P <profile>`
 * runs `test -w` on each (a read-only mount answers no), changing nothing.
 */
export function probeCodexSandbox(
  env: Env,
  dir: string,
  profile: string,
  paths: readonly string[],
): { ran: true; writable: string[] } | { ran: false; missing: boolean; detail: string } {
  const script = 'for p in "$@"; do if test -w "$p"; then printf "%s\\n" "$p"; fi; done; echo persona-gate-probe-done';
  const run = spawnSync(codexBin(env), ['sandbox', '-P', profile, '-C', dir, '--', 'sh', '-c', script, 'sh', ...paths], {
    encoding: 'utf8',
    timeout: 30_000,
    env: env as NodeJS.ProcessEnv,
    cwd: dir,
  });
  if (run.error) return { ran: false, missing: (run.error as NodeJS.ErrnoException).code === 'ENOENT', detail: run.error.message };
  const out = run.stdout ?? '';
  if (run.status !== 0 || !out.includes('persona-gate-probe-done'))
    return { ran: false, missing: false, detail: ((run.stderr ?? '').trim().split('\n').at(-1) ?? '') || `exit ${run.status}` };
  return { ran: true, writable: out.split('\n').filter((l) => l !== '' && l !== 'persona-gate-probe-done') };
}

/** doctor --host codex: whether Codex's sandbox is chosen, and whether it holds the guarded paths (probed in Codex's own sandbox). */
export function codexSandboxFindings(
  env: Env,
  dir: string,
  policyPath: string,
  hookCommand: string | null,
  config: { path: string; text: string },
  t: CliMessages,
): Finding[] {
  const fix = t.fixRegisterHost('codex');
  const user = codexSandboxChoice(config.text);
  if (user.problem !== null) return [{ level: 'fail', text: t.codexConfigUnparsable(config.path, user.problem), fix: t.fixCodexConfig() }];
  const findings: Finding[] = [];
  const projectConfig = join(dir, '.codex', 'config.toml');
  const project: { sandboxMode?: string; profile?: string } = existsSync(projectConfig) ? codexSandboxChoice(readText(projectConfig)) : {};
  const mode = project.sandboxMode ?? user.sandboxMode;
  if (mode !== undefined) {
    const where = project.sandboxMode !== undefined ? projectConfig : config.path;
    return [{ level: 'warn', text: t.codexSandboxModeSet(where, mode), fix }];
  }
  const profile = project.profile ?? user.profile;
  if (profile === undefined || profile === ':danger-full-access') return [{ level: 'warn', text: t.codexSandboxOff(config.path), fix }];
  findings.push({
    level: profile === CODEX_PROFILE ? 'ok' : 'warn',
    text: t.codexProfileActive(profile, project.profile !== undefined ? projectConfig : config.path),
  });
  const guarded = codexGuarded(env, dir, policyPath, hookCommand)
    .map((g) => g.path)
    .filter((p) => existsSync(p));
  const probe = probeCodexSandbox(env, dir, profile, [...new Set(guarded)]);
  if (!probe.ran)
    // No codex program to ask: unknown (warn); one that cannot start a sandboxed command: the sandbox does not hold (fail).
    findings.push({
      level: probe.missing ? 'warn' : 'fail',
      text: t.codexProbeFailed(codexBin(env), probe.detail),
      fix: t.fixCodexProbe(),
    });
  else if (probe.writable.length > 0)
    for (const p of probe.writable) findings.push({ level: 'fail', text: t.codexGuardWritable(p, profile), fix });
  else findings.push({ level: 'ok', text: t.codexSandboxHolds(profile, guarded.length) });
  return findings;
}

/** A file's text, or '' when it cannot be read (absent: nothing there to keep). */
export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
