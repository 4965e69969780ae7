import { dirname, join, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import type { MemoryPolicyIndex } from '../../core/policy-index';
import { globToRegExp } from '../../core/policy-index';
import { LOCK_FILE } from '../../mcp/lock';
import { readLock } from '../../mcp/read-lock';
import { mcpToolName } from '../../mcp/expand';
import { listEntries } from './list';

/**
 * The tool surface of a persona (SPEC §13): of every tool persona-gate knows — the host's built-in
 * tools, every tool name the policy gives, every tool of the MCP lock beside the policy — the ones
 * the persona may call for some input (`offered`), and the ones it may call for none (`hidden`).
 * What is offered here is what `list` says may run; a shell tool judged line by line, a meta tool
 * that reaches one allowed command, a command that needs an identity read first all stay offered,
 * since the hook still judges each call. A tool no catalog knows is refused under a persona, so it
 * is hidden. Names are exact tool names, except a family's tool glob (`mcp__github__*`), kept as a glob.
 */
export interface Surface {
  persona: string;
  stage: string | null;
  /** The host's own tools that stay offered, in the catalog's order. */
  builtinsOffered: string[];
  builtinsHidden: string[];
  /** MCP (and other non-built-in) tool names and globs that stay offered, sorted. */
  mcpOffered: string[];
  mcpHidden: string[];
}

/** Every tool of the MCP lock beside the policy, as `mcp__server__tool`; none when there is no lock (or it cannot be read). */
export function lockTools(policyPath: string | null): string[] {
  if (policyPath === null) return [];
  const read = readLock(join(dirname(resolve(policyPath)), LOCK_FILE));
  if (!read.ok) return [];
  return Object.entries(read.lock.servers).flatMap(([server, s]) => Object.keys(s.tools).map((tool) => mcpToolName(server, tool)));
}

export function toolSurface(
  index: MemoryPolicyIndex,
  personaName: string,
  stageName: string | undefined,
  env: Env,
  locked: readonly string[],
): Surface {
  const commandTools = new Set(Object.values(index.policy.catalog.commands).flatMap((c) => c.tools));
  const extra = [...new Set(locked)].filter((t) => !commandTools.has(t) && !index.builtinTools.has(t));
  const entries = listEntries(index, personaName, stageName, env, extra);
  const offered = new Set<string>();
  const hidden = new Set<string>();
  for (const e of entries) for (const tool of e.tools) (e.allowed ? offered : hidden).add(tool);
  // A meta tool carries any declared command: offered when one of them is allowed.
  const anyCommand = entries.some((e) => e.allowed && Object.hasOwn(index.policy.catalog.commands, e.key));
  for (const meta of Object.keys(index.policy.catalog.meta_tools)) (anyCommand ? offered : hidden).add(meta);
  for (const tool of offered) hidden.delete(tool);
  const builtins = [...index.builtinTools.keys()];
  const isBuiltin = (t: string) => index.builtinTools.has(t);
  return {
    persona: personaName,
    stage: stageName ?? null,
    builtinsOffered: builtins.filter((t) => offered.has(t)),
    builtinsHidden: builtins.filter((t) => hidden.has(t)),
    mcpOffered: [...offered].filter((t) => !isBuiltin(t)).sort(),
    mcpHidden: [...hidden].filter((t) => !isBuiltin(t)).sort(),
  };
}

const isGlob = (name: string) => name.includes('*');
/** Whether `name` (a tool name or glob) is reached by one of `names` (tool names or globs). */
function reached(name: string, names: readonly string[]): boolean {
  return names.some(
    (n) => n === name || (isGlob(n) && globToRegExp(n).test(name)) || (isGlob(name) && !isGlob(n) && globToRegExp(name).test(n)),
  );
}

/**
 * The tools to remove from a whole host session launched as `surface`'s persona. The host applies
 * such a list to the subagents the session launches as well (Claude Code 2.1.332, measured), so a
 * tool a delegate's persona may use stays: `delegates` are the surfaces of the personas whose
 * agents this one may launch. A hidden glob that would also take an offered tool is replaced by the
 * hidden tools it matches that are known by name.
 */
export function sessionHidden(
  surface: Surface,
  delegates: readonly Surface[],
  locked: readonly string[],
): { builtins: string[]; tools: string[] } {
  const wanted = [surface, ...delegates];
  const offeredAnywhere = wanted.flatMap((s) => [...s.builtinsOffered, ...s.mcpOffered]);
  const builtins = surface.builtinsHidden.filter((t) => !reached(t, offeredAnywhere));
  const tools: string[] = [];
  for (const t of surface.mcpHidden) {
    if (!reached(t, offeredAnywhere)) tools.push(t);
    else if (isGlob(t)) tools.push(...locked.filter((l) => globToRegExp(t).test(l) && !reached(l, offeredAnywhere)));
  }
  return { builtins, tools: [...new Set(tools)].sort() };
}

/** The personas whose bound agents `persona` may launch, and theirs in turn. */
export function delegateClosure(index: MemoryPolicyIndex, persona: string): string[] {
  const seen = new Set<string>([persona]);
  const queue = [persona];
  while (queue.length > 0) {
    for (const d of index.persona(queue.shift()!)?.delegates ?? []) {
      if (!seen.has(d) && index.persona(d)) {
        seen.add(d);
        queue.push(d);
      }
    }
  }
  seen.delete(persona);
  return [...seen];
}

/**
 * The surface as an allowlist a per-agent file can hold (Claude Code's `tools:`), which takes exact
 * names only: a glob over a whole server (`mcp__github__*`) becomes the server (`mcp__github`),
 * another glob is dropped (the lock's tools it matches are listed by name already).
 */
export function allowlist(surface: Surface): string[] {
  const mcp = surface.mcpOffered.flatMap((t) => {
    if (!isGlob(t)) return [t];
    const server = /^(mcp__[^*]+?)__\*$/.exec(t);
    return server ? [server[1]!] : [];
  });
  return [...surface.builtinsOffered, ...new Set(mcp)];
}
