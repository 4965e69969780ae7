import type { ServerResponse } from 'node:http';
import { serveScripted } from './scripted-http';
import type { ToolUse } from './model-server';

/**
 * A scripted stand-in for an OpenAI-style Chat Completions endpoint on 127.0.0.1 (the API Copilot,
 * Qwen Code and Droid speak to a custom model). Every request that offers tools gets the next turn
 * as `tool_calls`, streamed when asked; once the queue is empty, a final text. Every request is
 * kept, so a test can read the tool results the host sent back (`role: "tool"` messages).
 */

export interface ChatModel {
  url: string;
  requests: { path: string; body: any }[];
  close(): Promise<void>;
}

export interface ChatToolResult {
  name: string;
  content: string;
}

/** The tool results the host sent back, in order, each with the name of the call it answers. */
export function chatToolResults(requests: ChatModel['requests']): ChatToolResult[] {
  const names = new Map<string, string>();
  const seen = new Set<string>();
  const results: ChatToolResult[] = [];
  for (const request of requests) {
    for (const message of request.body?.messages ?? []) {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function?.name ?? '?');
      if (message.role === 'tool' && typeof message.tool_call_id === 'string' && !seen.has(message.tool_call_id)) {
        seen.add(message.tool_call_id);
        const content =
          typeof message.content === 'string' ? message.content : (message.content ?? []).map((c: any) => c.text ?? '').join('');
        results.push({ name: names.get(message.tool_call_id) ?? '?', content });
      }
    }
  }
  return results;
}

function send(res: ServerResponse, body: any, calls: { id: string; name: string; arguments: string }[], text: string | null): void {
  const model = body.model ?? 'scripted';
  const created = Math.floor(Date.now() / 1000);
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const toolCalls = calls.map((c, index) => ({ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${created}`,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, ...(calls.length > 0 ? { tool_calls: toolCalls } : {}) },
            finish_reason: finish,
          },
        ],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: unknown, finishReason: string | null, extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id: `chatcmpl-${created}`, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant', content: text ?? '' }, null);
  if (calls.length > 0) chunk({ tool_calls: toolCalls }, null);
  chunk({}, finish, { usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

export async function startChatModel(turns: ToolUse[][]): Promise<ChatModel> {
  const queue = [...turns];
  const requests: ChatModel['requests'] = [];
  let counter = 0;
  const server = await serveScripted(({ method, path, body }, res) => {
    if (method === 'GET' && /\/models\/?$/.test(path)) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model', owned_by: 'test' }] }));
      return;
    }
    if (method !== 'POST' || !/\/chat\/completions\/?$/.test(path.split('?')[0]!)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}');
      return;
    }
    requests.push({ path, body });
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const turn = hasTools ? queue.shift() : undefined;
    // A string input is sent as the raw arguments: a freeform tool (Droid's ApplyPatch for GPT models) takes its text as is.
    const calls = (turn ?? []).map((t) => ({
      id: `call_e2e_${++counter}`,
      name: t.name,
      arguments: typeof t.input === 'string' ? t.input : JSON.stringify(t.input),
    }));
    send(res, body, calls, turn ? null : 'done');
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, requests, close: server.close };
}
