import type { ServerResponse } from 'node:http';
import { serveScripted } from './scripted-http';

/**
 * A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`, server-sent events) on
 * 127.0.0.1: the API Codex speaks to a custom model provider. Every request that offers tools gets
 * the next turn of the script as `function_call` items (or `custom_tool_call` items for a
 * free-form tool such as `apply_patch`); once the script is spent, a final assistant message.
 * Every request is kept, so a test can read the tool outputs the host sent back.
 */

export interface ResponsesCall {
  name: string;
  /** A function tool's arguments (sent as a JSON string). */
  input?: Record<string, unknown>;
  /** A free-form (custom) tool's raw input, e.g. an apply_patch body. */
  raw?: string;
  /** The namespace of a namespaced tool (Codex offers MCP tools in one per server). */
  namespace?: string;
  /** An output item sent as it is (a hosted tool's call, such as `web_search_call`); `name` is then only a label. */
  item?: Record<string, unknown>;
}

export interface ResponsesModel {
  url: string;
  requests: { path: string; body: any }[];
  close(): Promise<void>;
}

export interface ResponsesToolOutput {
  /** The tool name of the call this output answers. */
  name: string;
  callId: string;
  output: string;
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((c: any) => (typeof c === 'string' ? c : (c?.text ?? ''))).join('');
  if (output && typeof output === 'object' && 'content' in output) return outputText((output as { content: unknown }).content);
  return output === undefined || output === null ? '' : JSON.stringify(output);
}

/** The tool outputs the host sent back, in order of first appearance, each with the name of the call it answers. */
export function responsesToolOutputs(requests: ResponsesModel['requests']): ResponsesToolOutput[] {
  const names = new Map<string, string>();
  const seen = new Set<string>();
  const results: ResponsesToolOutput[] = [];
  for (const request of requests) {
    const input = Array.isArray(request.body?.input) ? request.body.input : [];
    for (const item of input) {
      if ((item?.type === 'function_call' || item?.type === 'custom_tool_call') && typeof item.call_id === 'string')
        names.set(item.call_id, item.name ?? '?');
      if (
        (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') &&
        typeof item.call_id === 'string' &&
        !seen.has(item.call_id)
      ) {
        seen.add(item.call_id);
        results.push({ name: names.get(item.call_id) ?? '?', callId: item.call_id, output: outputText(item.output) });
      }
    }
  }
  return results;
}

function stream(res: ServerResponse, body: any, items: Record<string, unknown>[], id: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  const base = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: body.model ?? 'scripted',
    status: 'in_progress',
    output: [] as unknown[],
  };
  send('response.created', { response: base });
  items.forEach((item, output_index) => {
    send('response.output_item.added', { output_index, item });
    send('response.output_item.done', { output_index, item });
  });
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  send('response.completed', { response: { ...base, status: 'completed', output: items, usage } });
  res.end();
}

/** A turn of the script: the calls to make, or a function of the requests so far (the last one is the current). */
export type ResponsesTurn = ResponsesCall[] | ((requests: ResponsesModel['requests']) => ResponsesCall[]);

export async function startResponsesModel(turns: ResponsesTurn[]): Promise<ResponsesModel> {
  const queue = [...turns];
  const requests: ResponsesModel['requests'] = [];
  let counter = 0;
  const server = await serveScripted(({ method, path, body }, res) => {
    if (method === 'GET' && /\/models\/?(\?.*)?$/.test(path)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [], models: [] }));
      return;
    }
    if (method !== 'POST' || !/\/responses\/?$/.test(path.split('?')[0]!)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}');
      return;
    }
    requests.push({ path, body });
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const next = hasTools ? queue.shift() : undefined;
    const turn = typeof next === 'function' ? next(requests) : next;
    const id = `resp_e2e_${++counter}`;
    const items: Record<string, unknown>[] = turn
      ? turn.map((call) => {
          const n = ++counter;
          const ns = call.namespace ? { namespace: call.namespace } : {};
          if (call.item) return { id: `item_e2e_${n}`, ...call.item };
          return call.raw !== undefined
            ? {
                type: 'custom_tool_call',
                id: `ctc_e2e_${n}`,
                call_id: `call_e2e_${n}`,
                name: call.name,
                input: call.raw,
                status: 'completed',
                ...ns,
              }
            : {
                type: 'function_call',
                id: `fc_e2e_${n}`,
                call_id: `call_e2e_${n}`,
                name: call.name,
                arguments: JSON.stringify(call.input ?? {}),
                status: 'completed',
                ...ns,
              };
        })
      : [
          {
            type: 'message',
            id: `msg_e2e_${++counter}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'done', annotations: [] }],
          },
        ];
    stream(res, body, items, id);
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, requests, close: server.close };
}
