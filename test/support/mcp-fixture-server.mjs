#!/usr/bin/env node
// An MCP server (built with the SDK) whose tools come from a JSON spec file, read again on every
// tools/list, so that a test can change what the server declares between two pins.
//   node mcp-fixture-server.mjs SPEC.json            stdio
//   node mcp-fixture-server.mjs SPEC.json --http     streamable HTTP on 127.0.0.1 (prints "PORT n")
// Spec: { "tools": [{ "name", "description", "annotations", "inputSchema" }], "pageSize": n,
//         "hang": true (never answers initialize), "log": "calls.jsonl" }
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const specPath = process.argv[2];
const spec = () => JSON.parse(readFileSync(specPath, 'utf8'));

if (spec().hang) {
  process.stdin.resume();
  setInterval(() => {}, 1 << 30);
} else {
  const make = () => {
    const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const { tools, pageSize } = spec();
      const all = tools.map((t) => ({ inputSchema: { type: 'object' }, ...t }));
      const size = pageSize ?? all.length;
      const start = Number(request.params?.cursor ?? 0);
      const page = all.slice(start, start + size);
      return start + size < all.length ? { tools: page, nextCursor: String(start + size) } : { tools: page };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { log } = spec();
      if (log) appendFileSync(log, `${JSON.stringify({ tool: request.params.name, args: request.params.arguments ?? {} })}\n`);
      return { content: [{ type: 'text', text: `ran ${request.params.name}` }] };
    });
    return server;
  };
  if (process.argv.includes('--http')) {
    const http = createServer(async (req, res) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => transport.close());
      await make().connect(transport);
      await transport.handleRequest(req, res);
    });
    http.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${http.address().port}\n`));
  } else {
    await make().connect(new StdioServerTransport());
  }
}
