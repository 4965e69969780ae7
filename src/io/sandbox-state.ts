import { basename, dirname, join, resolve } from 'node:path';
import { expandHome, kernelPath, landingPathOf, realPathOf, within } from './protect';
import type { Env } from '../core/decide';
import type { DecideOptions } from '../core/types';
import { isPlainObject } from '../core/event';
import { readJsonObject } from './read-file';

/**
 * Whether Claude Code's OS sandbox holds the guarded paths for this project (SPEC §9.2), read from
 * the settings Claude Code itself reads, in its order of precedence: managed settings, the
 * project's local settings, the project's settings, the user's settings. The sandbox counts only
 * when the setting that wins for each key says: on, never run unsandboxed when it cannot start,
 * no way out of it; and the policy and the state directory are write-denied. The agent cannot change any of these files
 * (the sandbox write-protects the project's, the others are guarded paths). Read only when the
 * answer changes a verdict, once per call.
 */

type Json = Record<string, unknown>;
export const MAX_SETTINGS_BYTES = 1024 * 1024;

export function managedSettingsFile(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/** The project a policy belongs to: the directory holding its `.claude/`, else the session's project directory. */
export function projectOf(policyPath: string, env: Env, cwd: string): string {
  const dir = dirname(policyPath);
  if (basename(dir) === '.claude') return dirname(dir);
  return env.CLAUDE_PROJECT_DIR?.trim() || cwd;
}

interface SandboxOpts {
  policyPath: string;
  env: Env;
  cwd: string;
  stateDir?: string;
  managed?: string;
}

/** Each scope's settings, highest precedence first, and the project they belong to. */
function scopesOf(opts: SandboxOpts): { project: string; scopes: Json[] } {
  const project = projectOf(opts.policyPath, opts.env, opts.cwd);
  const configDir = opts.env.CLAUDE_CONFIG_DIR?.trim() || join(opts.env.HOME ?? '', '.claude');
  const scopes = [
    opts.managed ?? managedSettingsFile(),
    join(project, '.claude', 'settings.local.json'),
    join(project, '.claude', 'settings.json'),
    join(configDir, 'settings.json'),
  ]
    .map((path) => readJsonObject(path, MAX_SETTINGS_BYTES))
    .filter((s): s is Json => s !== null);
  return { project, scopes };
}

const sandboxOf = (s: Json): Json => (isPlainObject(s.sandbox) ? s.sandbox : {});
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : []);

function holds(opts: SandboxOpts, scopes: Json[]): boolean {
  const sandboxes = scopes.map(sandboxOf);
  const winning = (key: string): unknown => sandboxes.find((s) => s[key] !== undefined)?.[key];
  if (winning('enabled') !== true || winning('failIfUnavailable') !== true || winning('allowUnsandboxedCommands') !== false) return false;
  const denied = new Set(
    sandboxes.flatMap((s) => strings(isPlainObject(s.filesystem) ? s.filesystem.denyWrite : undefined)).map((p) => resolve(p)),
  );
  // the policy, and the state directory where the session's confirmations live
  return [opts.policyPath, ...(opts.stateDir !== undefined ? [opts.stateDir] : [])].every((p) => denied.has(resolve(p)));
}

/**
 * What Claude Code's sandbox is here, read from its settings once: whether it holds, and the
 * directories it lets the agent's shell write when it does (else null) — the project, the working
 * directories the settings add, every `sandbox.filesystem.allowWrite`, the sandbox's temporary
 * directory and npm's logs — and whether it runs a sandboxed Bash call without asking
 * (`autoAllowBashIfSandboxed`, on unless a setting turns it off).
 */
export function claudeSandbox(opts: SandboxOpts): { holds: boolean; writable: string[] | null; autoAllow: boolean } {
  const { project, scopes } = scopesOf(opts);
  if (!holds(opts, scopes)) return { holds: false, writable: null, autoAllow: false };
  // Claude Code runs a sandboxed Bash call without asking unless the winning setting says otherwise.
  const autoAllow = scopes.map(sandboxOf).find((s) => s.autoAllowBashIfSandboxed !== undefined)?.autoAllowBashIfSandboxed !== false;
  const home = opts.env.HOME ?? '';
  const added = [
    ...scopes.flatMap((s) => strings(isPlainObject(s.permissions) ? s.permissions.additionalDirectories : undefined)),
    ...scopes.flatMap((s) => {
      const sandbox = sandboxOf(s);
      return strings(isPlainObject(sandbox.filesystem) ? sandbox.filesystem.allowWrite : undefined);
    }),
  ];
  return { holds: true, writable: writableDirs(project, home, added), autoAllow };
}

/** The directories the sandbox lets the shell write: the project, those the settings add, its own TMPDIR (not the rest of /tmp), npm's logs. */
function writableDirs(project: string, home: string, added: readonly string[]): string[] {
  const spelled = [project, ...added, `/tmp/claude-${process.getuid?.() ?? 0}`, ...(home ? [join(home, '.npm', '_logs')] : [])];
  return [...new Set(spelled.map((p) => resolve(project, home ? expandHome(p, home) : p)))];
}

/**
 * Gate 0 as if the sandbox init writes held for `project`, with no directory added: for a policy
 * test case that asks for it (`"sandbox": true`), whatever this machine's settings say.
 */
export function assumedSandbox(project: string, home: string | undefined): Pick<DecideOptions, 'sandboxed' | 'outsideSandbox'> {
  return { sandboxed: () => true, outsideSandbox: outsideSandboxCheck(() => writableDirs(project, home ?? '', []), home) };
}

export function claudeSandboxHolds(opts: SandboxOpts): boolean {
  return holds(opts, scopesOf(opts).scopes);
}

/**
 * The check of DecideOptions.outsideSandbox: where writing `path` lands, as the kernel resolves it
 * (links followed, a link before `..` first), when that is outside every directory `writable`
 * gives; a path whose landing cannot be known now is outside. `writable` is read once, when a file
 * tool first asks.
 */
export function outsideSandboxCheck(
  writable: () => string[] | null,
  home: string | undefined,
): (path: string, cwd: string | undefined) => { landing: string; writable: readonly string[] } | null {
  let roots: { spelled: string[]; real: string[] } | null | undefined;
  return (path, cwd) => {
    if (roots === undefined) {
      const dirs = writable();
      roots = dirs === null ? null : { spelled: dirs, real: dirs.map(realPathOf) };
    }
    if (roots === null) return null;
    const spelled = home ? expandHome(path, home) : path;
    const kernel = kernelPath(cwd ?? process.cwd(), spelled);
    const landing = kernel === null ? resolve(cwd ?? process.cwd(), spelled) : landingPathOf(kernel);
    if (kernel !== null && roots.real.some((r) => within(landing, r))) return null;
    return { landing, writable: roots.spelled };
  };
}

/** Claude Code's sandbox as its settings say, read once, when a gate or the broker's rewrite first asks. */
export type SandboxView = () => ReturnType<typeof claudeSandbox>;

export function sandboxView(opts: SandboxOpts): SandboxView {
  let view: ReturnType<typeof claudeSandbox> | undefined;
  return () => (view ??= claudeSandbox(opts));
}

/**
 * The view for a dry run (explain, replay), which says what it read: `held()` is whether the
 * sandbox holds, once a gate asked, else null.
 */
export function watchedSandboxView(opts: SandboxOpts): { view: SandboxView; held: () => boolean | null } {
  const read = sandboxView(opts);
  let held: boolean | null = null;
  const view: SandboxView = () => {
    const v = read();
    held = v.holds;
    return v;
  };
  return { view, held: () => held };
}

/** What the sandbox holds, and the directories it lets the shell write, for gate 0: the hook's options, and explain's. */
export function sandboxOptions(read: SandboxView, home: string | undefined): Pick<DecideOptions, 'sandboxed' | 'outsideSandbox'> {
  return { sandboxed: () => read().holds, outsideSandbox: outsideSandboxCheck(() => read().writable, home) };
}
