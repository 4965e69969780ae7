import { createHash } from 'node:crypto';
import { stableJson } from '../../io/hash';
import { isObject, type Json } from './hardened';
import { isGateHook } from './init';

/**
 * Codex runs a hook of hooks.json only once the user has trusted it: the user's config.toml holds
 * `[hooks.state."<hooks.json path>:<event in snake case>:<group index>:<handler index>"]` with
 * `trusted_hash`, the sha256 of the handler's identity — `{event_name, matcher (when set; never for
 * UserPromptSubmit or Stop), hooks: [{type, command, timeout (600 when unset, at least 1), async
 * (false when unset), statusMessage (when set)}]}` — serialised with sorted keys and no whitespace
 * (measured on Codex 0.171.0 against its own hook listing). A changed command, timeout or matcher
 * is a different hash: Codex then skips the hook until it is trusted again.
 */

const MATCHERLESS = new Set(['UserPromptSubmit', 'Stop']);
const snake = (event: string) => event.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toLowerCase();

/** The trust key and hash of each of persona-gate's handlers in a hooks.json. */
export function codexTrust(hooksPath: string, file: Json): { key: string; hash: string }[] {
  const out: { key: string; hash: string }[] = [];
  const hooks = isObject(file.hooks) ? file.hooks : {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((handler, h) => {
        if (!isObject(handler) || !isGateHook(handler.command)) return;
        const identity: Json = {
          event_name: snake(event),
          hooks: [
            {
              type: 'command',
              command: handler.command,
              timeout: Math.max(1, typeof handler.timeout === 'number' ? handler.timeout : 600),
              async: typeof handler.async === 'boolean' ? handler.async : false,
              ...(handler.statusMessage !== undefined ? { statusMessage: handler.statusMessage } : {}),
            },
          ],
        };
        if (group.matcher !== undefined && !MATCHERLESS.has(event)) identity.matcher = group.matcher;
        out.push({
          key: `${hooksPath}:${snake(event)}:${g}:${h}`,
          hash: `sha256:${createHash('sha256').update(stableJson(identity)).digest('hex')}`,
        });
      });
    });
  }
  return out;
}

export const tomlString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const HEADER = /^\s*\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(#.*)?$/;

/** The text of a TOML string written `"…"` (with escapes) or `'…'`. */
export function unquote(key: string): string {
  return key.startsWith("'") ? key.slice(1, -1) : (JSON.parse(key) as string);
}

/** The `[hooks.state."…"]` tables of a config.toml: key → its trusted_hash and enabled values. */
export function readCodexTrust(toml: string): Map<string, { hash: string | null; enabled: boolean | null }> {
  const tables = new Map<string, { hash: string | null; enabled: boolean | null }>();
  let current: { hash: string | null; enabled: boolean | null } | null = null;
  for (const line of toml.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header) {
      current = { hash: null, enabled: null };
      tables.set(unquote(header[1]!), current);
      continue;
    }
    if (/^\s*\[/.test(line)) {
      current = null;
      continue;
    }
    if (!current) continue;
    const hash = /^\s*trusted_hash\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')/.exec(line);
    if (hash) current.hash = unquote(hash[1]!);
    const enabled = /^\s*enabled\s*=\s*(true|false)\b/.exec(line);
    if (enabled) current.enabled = enabled[1] === 'true';
  }
  return tables;
}

/**
 * The config.toml with the `[hooks.state]` tables of `remove` taken out (stale hashes, `enabled =
 * false`) and one table per entry of `add` appended; every other line kept as it was.
 */
export function withCodexTrust(toml: string, remove: ReadonlySet<string>, add: readonly { key: string; hash: string }[]): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of toml.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header) skipping = remove.has(unquote(header[1]!));
    else if (/^\s*\[/.test(line)) skipping = false;
    if (!skipping) kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === '') kept.pop();
  const tables = add.map((t) => `[hooks.state.${tomlString(t.key)}]\ntrusted_hash = ${tomlString(t.hash)}`);
  const parts = [...kept, ...(kept.length > 0 && tables.length > 0 ? [''] : []), ...(tables.length > 0 ? [tables.join('\n\n')] : [])];
  return parts.length === 0 ? '' : `${parts.join('\n')}\n`;
}
