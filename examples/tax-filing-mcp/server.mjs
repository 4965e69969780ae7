#!/usr/bin/env node
// A stand-in for the tax-filing agent's MCP server ("aeat"): the same tools as examples/tax-filing.json,
// each declaring what it does with MCP annotations. persona-gate pin reads these annotations into
// .claude/persona-gate.lock.json; the policy beside it takes its levels from there.
// Needs @modelcontextprotocol/sdk and zod (npm i @modelcontextprotocol/sdk zod).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'aeat', version: '1.0.0' });
let profile = 'Erika Example (NIF 00000000T)';

/** Reads only. */
const READ = { readOnlyHint: true, openWorldHint: false };
/** Changes the taxpayer's workspace; can be redone. */
const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
/** Changes the workspace in a way that cannot be undone. */
const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };

const args = { modelo: z.string().optional(), year: z.string().optional(), id: z.string().optional() };
const tool = (name, description, annotations, reply = 'done') =>
  server.registerTool(name, { description, inputSchema: args, annotations }, async () => ({ content: [{ type: 'text', text: reply }] }));

tool('modelo_list', 'List the modelos of the active profile.', READ, 'modelo 303 (draft)');
tool('modelo_show', 'Show one modelo.', READ);
tool('modelo_check', 'Check a modelo draft against the ledger.', READ);
tool('modelo_work_create', 'Create a modelo draft.', WRITE);
tool('modelo_work_update', 'Update a modelo draft.', { ...WRITE, idempotentHint: true });
tool('modelo_export', 'Export a modelo as the file that is filed with the tax agency (irreversible).', DESTRUCTIVE);
tool('modelo_record', 'Record a modelo as filed.', DESTRUCTIVE);
tool('ledger_list', 'List ledger entries.', READ);
tool('ledger_entry_add', 'Add a ledger entry.', WRITE);
tool('ledger_entry_update', 'Update a ledger entry.', { ...WRITE, idempotentHint: true });
tool('ledger_entry_classify', 'Classify a ledger entry into a tax category.', { ...WRITE, idempotentHint: true });
tool('ledger_entry_delete', 'Delete a ledger entry.', DESTRUCTIVE);
tool('ledger_export', 'A CSV of the ledger for the taxpayer; not a filing.', READ);
tool('bank_statement_list', 'List imported bank statements.', READ);
tool('bank_statement_import', 'Import a bank statement.', WRITE);
tool('bank_reconcile', 'Reconcile the ledger against the bank statements.', WRITE);
tool('documents_list', 'List invoices and receipts.', READ);
tool('documents_import', 'Import an invoice or a receipt.', WRITE);
server.registerTool('whoami', { description: 'The active taxpayer profile.', inputSchema: {}, annotations: READ }, async () => ({
  content: [{ type: 'text', text: profile }],
}));
tool('profile_list', 'List the taxpayer profiles.', READ);
server.registerTool(
  'profile_switch',
  { description: 'Switch the active taxpayer profile.', inputSchema: { profile: z.string() }, annotations: { ...WRITE, idempotentHint: true } },
  async (input) => {
    profile = input.profile;
    return { content: [{ type: 'text', text: `switched to ${profile}` }] };
  },
);
tool('profile_create', 'Create a taxpayer profile.', WRITE);
// The generic entry point: runs any command by key. It declares nothing, so the MCP defaults
// (open-world, destructive) apply; the policy treats it as a meta tool.
server.registerTool('execute', { description: 'Run any aeat command by key.', inputSchema: { command: z.string(), args: z.record(z.string(), z.unknown()).optional() } }, async (input) => ({
  content: [{ type: 'text', text: `ran ${input.command}` }],
}));

await server.connect(new StdioServerTransport());
