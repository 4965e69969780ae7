import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HostName } from './host';

type Env = Record<string, string | undefined>;

export type HookRole = 'pre' | 'post' | 'session';

/** How a host's file lays out its hook entries (SPEC §10): one shape, read and written by one engine. */
export interface HookLayout {
  /** Keys from the top of the file to the object keyed by event name; [] = the top level itself. */
  hooksPath: readonly string[];
  /** Top-level fields every such file carries. */
  fileFields?: Readonly<Record<string, unknown>>;
  /** The events persona-gate registers for, with the matcher of their group (null: no matcher). */
  events: readonly { name: string; role: HookRole; matcher: string | null }[];
  /** The entry's timeout, in the host's unit. */
  timeout: number;
  timeoutUnit: 'ms' | 's';
  /** Fields persona-gate's entries always carry: the most fail-closed options the host offers. */
  enforced: Readonly<Record<string, unknown>>;
}

export interface HostRegistration {
  host: HostName;
  title: string;
  layout: HookLayout;
  /** The file init writes: the project's own when the host reads one, else the user's. */
  file(dir: string, env: Env): { path: string; level: 'project' | 'user' };
  /** Every file the host reads registrations from, for doctor and uninstall. */
  files(dir: string, env: Env): string[];
  /** Whether the host gives hooks `CLAUDE_PROJECT_DIR` (the portable project command needs it). */
  setsProjectDir: boolean;
  /** Flags after `hook` this host needs. */
  hookFlags: string;
}

export const HOOK_TIMEOUT_SECONDS = 10;

/** The user's home as the hosts find it: $HOME, else the account's. */
export const home = (env: Env) => env.HOME?.trim() || homedir();
export const codexHome = (env: Env) => env.CODEX_HOME?.trim() || join(home(env), '.codex');

export const CLAUDE_LAYOUT: HookLayout = {
  hooksPath: ['hooks'],
  events: [
    { name: 'PreToolUse', role: 'pre', matcher: '*' },
    { name: 'PostToolUse', role: 'post', matcher: '*' },
    // A failed call has no PostToolUse: this is where its broker record goes (SPEC §9.3).
    { name: 'PostToolUseFailure', role: 'post', matcher: '*' },
    { name: 'SessionStart', role: 'session', matcher: null },
  ],
  timeout: HOOK_TIMEOUT_SECONDS,
  timeoutUnit: 's',
  enforced: { onFailure: 'block' },
};

const claudeStyle = (events: HookLayout['events'], unit: 'ms' | 's', extra: Partial<HookLayout> = {}): HookLayout => ({
  hooksPath: ['hooks'],
  events,
  timeout: unit === 'ms' ? HOOK_TIMEOUT_SECONDS * 1000 : HOOK_TIMEOUT_SECONDS,
  timeoutUnit: unit,
  enforced: {},
  ...extra,
});

const PRE_POST = [
  { name: 'PreToolUse', role: 'pre', matcher: '*' },
  { name: 'PostToolUse', role: 'post', matcher: '*' },
] as const;

export const HOST_REGISTRATIONS: Record<Exclude<HostName, 'claude-code'>, HostRegistration> = {
  codex: {
    host: 'codex',
    title: 'Codex',
    layout: claudeStyle([...PRE_POST, { name: 'SessionStart', role: 'session', matcher: null }], 's'),
    file: (_dir, env) => ({ path: join(codexHome(env), 'hooks.json'), level: 'user' }),
    files: (_dir, env) => [join(codexHome(env), 'hooks.json')],
    setsProjectDir: false,
    hookFlags: '--host codex',
  },
  copilot: {
    host: 'copilot',
    title: 'Copilot',
    layout: claudeStyle(PRE_POST, 's', { fileFields: { version: 1 } }),
    file: (dir) => ({ path: join(dir, '.github', 'hooks', 'persona-gate.json'), level: 'project' }),
    files: (dir, env) => [join(dir, '.github', 'hooks', 'persona-gate.json'), join(home(env), '.copilot', 'hooks', 'persona-gate.json')],
    setsProjectDir: true,
    hookFlags: '--host copilot',
  },
  gemini: {
    host: 'gemini',
    title: 'Gemini CLI',
    layout: claudeStyle(
      [
        { name: 'BeforeTool', role: 'pre', matcher: '.*' },
        { name: 'AfterTool', role: 'post', matcher: '.*' },
        { name: 'SessionStart', role: 'session', matcher: null },
      ],
      'ms',
    ),
    file: (dir) => ({ path: join(dir, '.gemini', 'settings.json'), level: 'project' }),
    files: (dir, env) => [join(dir, '.gemini', 'settings.json'), join(home(env), '.gemini', 'settings.json')],
    setsProjectDir: true,
    hookFlags: '--host gemini',
  },
  qwen: {
    host: 'qwen',
    title: 'Qwen Code',
    layout: claudeStyle([...PRE_POST, { name: 'SessionStart', role: 'session', matcher: null }], 'ms'),
    file: (dir) => ({ path: join(dir, '.qwen', 'settings.json'), level: 'project' }),
    files: (dir, env) => [join(dir, '.qwen', 'settings.json'), join(env.QWEN_HOME?.trim() || join(home(env), '.qwen'), 'settings.json')],
    setsProjectDir: true,
    hookFlags: '--host qwen',
  },
  droid: {
    host: 'droid',
    title: 'Droid',
    layout: claudeStyle(PRE_POST, 's', { hooksPath: [] }),
    file: (dir) => ({ path: join(dir, '.factory', 'hooks.json'), level: 'project' }),
    files: (dir, env) => [join(dir, '.factory', 'hooks.json'), join(home(env), '.factory', 'hooks.json')],
    setsProjectDir: true,
    hookFlags: '--host droid',
  },
};
