#!/usr/bin/env node
// A stand-in for a tax-filing MCP server: every tool that actually runs is appended to $E2E_MCP_LOG.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const log = process.env.E2E_MCP_LOG;
const server = new McpServer({ name: 'aeat', version: '1.0.0' });
let profile = process.env.E2E_PROFILE ?? 'Erika Example (NIF 00000000T)';

function record(tool, args) {
  if (log) appendFileSync(log, `${JSON.stringify({ tool, args })}\n`);
}

const simple = (name, description, reply) =>
  server.registerTool(name, { description, inputSchema: { modelo: z.string().optional(), year: z.string().optional() } }, async (args) => {
    record(name, args);
    return { content: [{ type: 'text', text: typeof reply === 'function' ? reply(args) : reply }] };
  });

server.registerTool('whoami', { description: 'The active taxpayer profile.', inputSchema: {} }, async () => {
  record('whoami', {});
  return { content: [{ type: 'text', text: profile }] };
});
server.registerTool(
  'profile_switch',
  { description: 'Switch the active taxpayer profile.', inputSchema: { profile: z.string() } },
  async (args) => {
    record('profile_switch', args);
    profile = args.profile;
    return { content: [{ type: 'text', text: `switched to ${profile}` }] };
  },
);
simple('modelo_list', 'List modelos.', 'modelo 303 (draft)');
simple('modelo_work_create', 'Create a modelo draft.', 'draft created');
simple('modelo_export', 'Export a modelo for filing (irreversible).', 'exported');
simple('ledger_list', 'List ledger entries.', 'no entries');
server.registerTool(
  'execute',
  { description: 'Run any aeat command by key.', inputSchema: { command: z.string(), args: z.record(z.string(), z.unknown()).optional() } },
  async (args) => {
    record(`execute:${args.command}`, args);
    return { content: [{ type: 'text', text: `ran ${args.command}` }] };
  },
);

await server.connect(new StdioServerTransport());
