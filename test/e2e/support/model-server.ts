import type { ServerResponse } from 'node:http';
import { serveScripted } from './scripted-http';

/**
 * A scripted stand-in for the Messages API on 127.0.0.1. Each agent (the main session, or a
 * subagent recognised by a marker in its system prompt) has a queue of turns; every request that
 * carries tools gets the next turn of its agent as `tool_use` blocks, streamed as server-sent
 * events, and a final text once the queue is empty. Every request is kept, so a test can read
 * the tool results Claude Code sent back.
 */

export interface ToolUse {
  name: string;
  input: Record<string, unknown>;
}

export interface ScriptedModel {
  url: string;
  requests: { role: string; body: any }[];
  close(): Promise<void>;
}

export function toolResults(requests: ScriptedModel['requests'], role = 'main'): { name: string; content: string; isError: boolean }[] {
  const names = new Map<string, string>();
  const results: { name: string; content: string; isError: boolean }[] = [];
  for (const request of requests.filter((r) => r.role === role)) {
    for (const message of request.body.messages ?? []) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content) {
        if (block.type === 'tool_use') names.set(block.id, block.name);
        if (block.type === 'tool_result' && !results.some((r) => (r as any).id === block.tool_use_id)) {
          const content = typeof block.content === 'string' ? block.content : (block.content ?? []).map((c: any) => c.text ?? '').join('');
          results.push(
            Object.assign(
              { name: names.get(block.tool_use_id) ?? '?', content, isError: block.is_error === true },
              { id: block.tool_use_id },
            ),
          );
        }
      }
    }
  }
  return results;
}

function systemText(body: any): string {
  if (typeof body.system === 'string') return body.system;
  if (Array.isArray(body.system)) return body.system.map((b: any) => b.text ?? '').join('\n');
  return '';
}

function sse(
  res: ServerResponse,
  blocks: ({ type: 'tool_use'; id: string; name: string; input: unknown } | { type: 'text'; text: string })[],
  model: string,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', {
    type: 'message_start',
    message: {
      id: `msg_${Date.now()}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      send('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  const toolUse = blocks.some((b) => b.type === 'tool_use');
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: toolUse ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

export async function startModel(scripts: Record<string, ToolUse[][]>, markers: Record<string, string> = {}): Promise<ScriptedModel> {
  const queues = new Map(Object.entries(scripts).map(([role, turns]) => [role, [...turns]]));
  const requests: ScriptedModel['requests'] = [];
  let counter = 0;
  const server = await serveScripted(({ method, path, body }, res) => {
    if (method !== 'POST' || !path.startsWith('/v1/messages')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
      return;
    }
    if (path.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
      return;
    }
    const system = systemText(body);
    const role = Object.entries(markers).find(([, marker]) => system.includes(marker))?.[0] ?? 'main';
    requests.push({ role, body });
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const turn = hasTools ? queues.get(role)?.shift() : undefined;
    const blocks = turn
      ? turn.map((t) => ({ type: 'tool_use' as const, id: `toolu_e2e_${++counter}`, name: t.name, input: t.input }))
      : [{ type: 'text' as const, text: 'done' }];
    if (body.stream === false || body.stream === undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `msg_${counter}`,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: blocks,
          stop_reason: turn ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
      return;
    }
    sse(res, blocks, body.model ?? 'claude-test');
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, close: server.close };
}
