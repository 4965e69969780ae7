import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from './config';
import type { ListedTool } from './lock';

/**
 * Starts MCP servers as the host would and lists their tools. This is the only module that loads
 * the MCP SDK; it is bundled on its own and loaded by `persona-gate pin` alone.
 */

export type ServerListing = { server: string; ok: true; tools: ListedTool[] } | { server: string; ok: false; detail: string };

const MAX_PAGES = 1000;

function transportFor(config: ServerConfig, cwd: string, env: Readonly<Record<string, string | undefined>>, stderr: string[]): Transport {
  if (config.type === 'http') {
    return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
  }
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) merged[k] = v;
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...merged, ...config.env },
    cwd,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString('utf8'));
    while (stderr.join('').length > 4000 && stderr.length > 1) stderr.shift();
  });
  return transport;
}

async function listAll(client: Client): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const t of result.tools)
      tools.push({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: t.annotations as Record<string, unknown> | undefined,
      });
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '') return tools;
  }
  throw new Error(`tools/list returned more than ${MAX_PAGES} pages`);
}

/** Connects to one server, lists every page of its tools, and closes it; a failure or the timeout is a value. */
export async function listServer(
  server: string,
  config: ServerConfig,
  opts: { cwd: string; env: Readonly<Record<string, string | undefined>>; timeoutMs: number },
): Promise<ServerListing> {
  const stderr: string[] = [];
  let transport: Transport | null = null;
  const client = new Client({ name: 'persona-gate-pin', version: '0.1.0' });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
  });
  try {
    transport = transportFor(config, opts.cwd, opts.env, stderr);
    const tools = await Promise.race([
      (async () => {
        await client.connect(transport!, { timeout: opts.timeoutMs });
        return listAll(client);
      })(),
      timeout,
    ]);
    const names = new Set<string>();
    for (const t of tools) {
      if (names.has(t.name)) throw new Error(`tools/list names "${t.name}" twice`);
      names.add(t.name);
    }
    return { server, ok: true, tools };
  } catch (err) {
    const tail = stderr.join('').trim().split('\n').slice(-3).join(' | ');
    const detail = `${err instanceof Error ? err.message : String(err)}${tail ? ` (stderr: ${tail.slice(-500)})` : ''}`;
    return { server, ok: false, detail };
  } finally {
    clearTimeout(timer);
    await Promise.race([client.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
  }
}

/** Every server at once; the listings come back in the order given. */
export function listServers(
  servers: readonly [string, ServerConfig][],
  opts: { cwd: string; env: Readonly<Record<string, string | undefined>>; timeoutMs: number },
): Promise<ServerListing[]> {
  return Promise.all(servers.map(([name, config]) => listServer(name, config, opts)));
}
