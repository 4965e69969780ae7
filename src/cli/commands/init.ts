import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import { CliError, type CommandResult } from '../errors';
import { cliMessages } from '../messages';

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'SessionStart'] as const;
export const EXAMPLES = ['tax-filing', 'merge-captain'] as const;
export const HOOK_TIMEOUT_SECONDS = 10;

/** The installed package: dist/ holds the bundles, examples/ and schema.json sit beside it. */
export function packageRoot(): string {
  return resolve(__dirname, '..');
}

export function defaultHookCommand(): string {
  return `node ${JSON.stringify(join(packageRoot(), 'dist', 'persona-gate.js'))} hook`;
}

/** A hook entry runs persona-gate's hook subcommand, however it is spelled. */
export function isGateHook(command: unknown): command is string {
  return typeof command === 'string' && /persona-gate/.test(command) && /\shook(\s|$)/.test(command);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Adds (or completes) persona-gate's entry for each event, keeping every other setting and hook. */
export function mergeHooks(settings: Json, command: string, path: string, t: ReturnType<typeof cliMessages>): { settings: Json; changed: string[] } {
  const next = structuredClone(settings);
  if (next.hooks === undefined) next.hooks = {};
  if (!isObject(next.hooks)) throw new CliError(t.initNotObject(path, 'hooks'));
  const hooks = next.hooks;
  const changed: string[] = [];
  for (const event of HOOK_EVENTS) {
    if (hooks[event] === undefined) hooks[event] = [];
    const groups = hooks[event];
    if (!Array.isArray(groups)) throw new CliError(t.initNotObject(path, `hooks.${event}`));
    let found = false;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const hook of group.hooks) {
        if (!isObject(hook) || !isGateHook(hook.command)) continue;
        found = true;
        const before = JSON.stringify(hook);
        hook.onFailure = 'block';
        if (typeof hook.timeout !== 'number') hook.timeout = HOOK_TIMEOUT_SECONDS;
        if (JSON.stringify(hook) !== before) changed.push(event);
      }
    }
    if (!found) {
      const entry = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS, onFailure: 'block' };
      groups.push(event === 'SessionStart' ? { hooks: [entry] } : { matcher: '*', hooks: [entry] });
      changed.push(event);
    }
  }
  return { settings: next, changed: [...new Set(changed)] };
}

export function initCommand(env: Env, opts: { dir?: string; example?: string; command?: string }): CommandResult {
  const t = cliMessages(env);
  const dir = resolve(opts.dir ?? process.cwd());
  const example = opts.example ?? 'tax-filing';
  if (!(EXAMPLES as readonly string[]).includes(example)) throw new CliError(t.initBadExample(example, EXAMPLES.join(', ')));
  const claudeDir = join(dir, '.claude');
  const settingsPath = join(claudeDir, 'settings.json');
  const policyPath = join(claudeDir, 'persona-gate.json');

  // Read and merge the settings first: a settings file we cannot parse changes nothing at all.
  let settings: Json = {};
  let original: string | null = null;
  if (existsSync(settingsPath)) {
    original = readFileSync(settingsPath, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(original);
    } catch (err) {
      throw new CliError(t.initUnparsable(settingsPath, (err as Error).message));
    }
    if (!isObject(parsed)) throw new CliError(t.initNotObject(settingsPath, '(root)'));
    settings = parsed;
  }
  const merged = mergeHooks(settings, opts.command ?? defaultHookCommand(), settingsPath, t);

  const lines: string[] = [];
  mkdirSync(claudeDir, { recursive: true });
  if (existsSync(policyPath)) lines.push(t.initKeptPolicy(policyPath));
  else {
    const policy = JSON.parse(readFileSync(join(packageRoot(), 'examples', `${example}.json`), 'utf8')) as Json;
    policy.$schema = relative(dirname(policyPath), join(packageRoot(), 'schema.json'));
    writeFileSync(policyPath, `${JSON.stringify(policy, null, 2)}\n`);
    lines.push(t.initWrotePolicy(policyPath, example));
  }
  if (merged.changed.length > 0 || original === null) {
    writeFileSync(settingsPath, `${JSON.stringify(merged.settings, null, 2)}\n`);
    lines.push(t.initRegistered(settingsPath, (merged.changed.length > 0 ? merged.changed : HOOK_EVENTS).join(', ')));
  } else {
    lines.push(t.initUnchanged(settingsPath));
  }
  lines.push(t.initNext());
  return { stdout: `${lines.join('\n')}\n`, exitCode: 0 };
}
