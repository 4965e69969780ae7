import { join } from 'node:path';
import type { ShellResolver } from '../core/decide';
import type { PolicyValidation } from '../policy/validate';
import type { jsonErrorAt } from '../core/json-error';
import type { listServers } from '../mcp/pin';
import type { launchPlan } from '../exec/plan';
import type { settleStart } from '../exec/settle';
import { claudeCode } from '../hosts/claude-code';
import type { HostAdapter, HostName } from '../hosts/host';
import { runBundle } from './code-cache';

declare const __BUNDLED__: boolean;

/**
 * zod (the validator), the shell reader and the other hosts' adapters live in bundles of their
 * own, loaded the first time a call needs them, so that the hook's common path never pays for
 * them; each is run through V8's code cache made at build time, like the hook itself (see
 * code-cache.ts). Code that runs from the sources instead of the bundles (tests, scripts) provides
 * the modules with `provideLazyModules`.
 */
interface LazyModules {
  validatePolicy: (value: unknown, locale?: 'en' | 'es', policyPath?: string) => PolicyValidation;
  jsonErrorAt: typeof jsonErrorAt;
  readShellCall: ShellResolver;
  launchPlan: typeof launchPlan;
  settleStart: typeof settleStart;
  listServers: typeof listServers;
  HOST_ADAPTERS: Record<HostName, HostAdapter>;
}

let provided: Partial<LazyModules> = {};

export function provideLazyModules(modules: Partial<LazyModules>): void {
  provided = { ...provided, ...modules };
}

function load<K extends keyof LazyModules>(name: K, bundle: string): LazyModules[K] {
  const existing = provided[name];
  if (existing) return existing;
  if (!__BUNDLED__) throw new Error(`${name} was not provided (running from sources: call provideLazyModules)`);
  const loaded = (runBundle(join(__dirname, bundle), require) as LazyModules)[name];
  provided = { ...provided, [name]: loaded };
  return loaded;
}

export function lazyValidator(value: unknown, locale?: 'en' | 'es', policyPath?: string): PolicyValidation {
  return load('validatePolicy', 'policy-validate.js')(value, locale, policyPath);
}

/** Where a policy stops being JSON: with the validator, since only a policy that does not parse needs it. */
export const lazyJsonErrorAt: typeof jsonErrorAt = (text, err) => load('jsonErrorAt', 'policy-validate.js')(text, err);

export const lazyShellResolver: ShellResolver = (index, event, opts) => {
  if (event.tool_name !== 'Bash' && event.tool_name !== 'PowerShell') return null;
  return load('readShellCall', 'shell.js')(index, event, opts);
};

/** The excluded launcher's reading of a line that names a launched program: with the shell reader, whose parser it uses. */
export const lazyLaunchPlan: typeof launchPlan = (command, map) => load('launchPlan', 'shell.js')(command, map);
export const lazySettleStart: typeof settleStart = (plan, map, event, decision, ctx) =>
  load('settleStart', 'shell.js')(plan, map, event, decision, ctx);

/** Claude Code's adapter is the hook's own; another host's comes from dist/hosts.js, loaded for that host's calls only. */
export function hostAdapter(name: HostName): HostAdapter {
  return name === 'claude-code' ? claudeCode : load('HOST_ADAPTERS', 'hosts.js')[name];
}

/** The MCP client (the SDK), for `persona-gate pin` only. */
export const lazyListServers: typeof listServers = (servers, opts) => load('listServers', 'mcp-pin.js')(servers, opts);
