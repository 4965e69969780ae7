import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One server of `.mcp.json`, as the host would start it. */
export type ServerConfig =
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { type: 'http'; url: string; headers: Record<string, string> };

export type ServersRead = { ok: true; servers: Map<string, ServerConfig> } | { ok: false; problem: 'missing' | 'invalid'; detail: string };

type Env = Readonly<Record<string, string | undefined>>;

/** `${VAR}` and `${VAR:-default}`, as Claude Code expands them in `.mcp.json`. */
function expand(text: string, env: Env, missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}

const isStringRecord = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

function serverConfig(name: string, raw: unknown, env: Env): ServerConfig | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `server "${name}": not an object`;
  const r = raw as Record<string, unknown>;
  const type = r.type ?? (r.command !== undefined ? 'stdio' : undefined);
  const missing = new Set<string>();
  let config: ServerConfig;
  if (type === 'stdio') {
    if (typeof r.command !== 'string' || r.command === '') return `server "${name}": "command" must be a non-empty string`;
    if (r.args !== undefined && !(Array.isArray(r.args) && r.args.every((a) => typeof a === 'string')))
      return `server "${name}": "args" must be an array of strings`;
    if (r.env !== undefined && !isStringRecord(r.env)) return `server "${name}": "env" must map names to strings`;
    config = {
      type: 'stdio',
      command: expand(r.command, env, missing),
      args: ((r.args as string[] | undefined) ?? []).map((a) => expand(a, env, missing)),
      env: Object.fromEntries(
        Object.entries((r.env as Record<string, string> | undefined) ?? {}).map(([k, v]) => [k, expand(v, env, missing)]),
      ),
    };
  } else if (type === 'http') {
    if (typeof r.url !== 'string' || r.url === '') return `server "${name}": "url" must be a non-empty string`;
    if (r.headers !== undefined && !isStringRecord(r.headers)) return `server "${name}": "headers" must map names to strings`;
    config = {
      type: 'http',
      url: expand(r.url, env, missing),
      headers: Object.fromEntries(
        Object.entries((r.headers as Record<string, string> | undefined) ?? {}).map(([k, v]) => [k, expand(v, env, missing)]),
      ),
    };
  } else {
    return `server "${name}": transport ${JSON.stringify(type)} is not supported (stdio and http are)`;
  }
  if (missing.size > 0) return `server "${name}": environment variable ${[...missing].join(', ')} is not set and has no default`;
  return config;
}

/** The project's MCP servers from `<dir>/.mcp.json` (`mcpServers`). */
export function readMcpServers(dir: string, env: Env): ServersRead {
  const path = join(dir, '.mcp.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, problem: code === 'ENOENT' ? 'missing' : 'invalid', detail: `${path}: ${code ?? String(err)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: 'invalid', detail: `${path}: ${(err as Error).message}` };
  }
  const servers = (json as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    return { ok: false, problem: 'invalid', detail: `${path}: no "mcpServers" object` };
  const out = new Map<string, ServerConfig>();
  for (const name of Object.keys(servers).sort()) {
    const config = serverConfig(name, (servers as Record<string, unknown>)[name], env);
    if (typeof config === 'string') return { ok: false, problem: 'invalid', detail: `${path}: ${config}` };
    out.set(name, config);
  }
  return { ok: true, servers: out };
}
