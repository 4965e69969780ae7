import { serveScripted } from './scripted-http';
import type { ToolUse } from './model-server';

/**
 * A scripted stand-in for Google's Gemini API (`generateContent`, `streamGenerateContent?alt=sse`),
 * the API Gemini CLI speaks to `GOOGLE_GEMINI_BASE_URL`. Every request that offers function
 * declarations gets the next turn as `functionCall` parts; once the queue is empty, a final text.
 * Requests that offer none are the host's own utility calls (model routing, next-speaker checks):
 * they get a JSON text that satisfies every one of them. Every request is kept, so a test can read
 * the `functionResponse` parts the host sent back.
 *
 * The server listens on a Unix socket, not on a TCP port: the host runs in its own network
 * namespace (loopback only) and reaches the socket through a relay on its own 127.0.0.1.
 */

export interface GeminiModel {
  /** The Unix socket the server listens on. */
  socket: string;
  requests: { path: string; body: any }[];
  close(): Promise<void>;
}

export interface GeminiToolResult {
  name: string;
  /** The `response` object of the `functionResponse` part: `{output}` when the tool ran, `{error}` when it failed or was blocked. */
  response: Record<string, unknown>;
  /** The response as one text: its `output`, else its `error`, else its JSON. */
  text: string;
}

function responseText(response: Record<string, unknown>): string {
  if (typeof response.output === 'string') return response.output;
  if (typeof response.error === 'string') return response.error;
  if (Array.isArray(response.content)) return response.content.map((c: any) => c?.text ?? '').join('');
  return JSON.stringify(response);
}

/** The function responses the host sent back, in order, each once (later requests repeat the history). */
export function geminiToolResults(requests: GeminiModel['requests']): GeminiToolResult[] {
  const seen = new Set<string>();
  const results: GeminiToolResult[] = [];
  for (const request of requests) {
    for (const content of request.body?.contents ?? []) {
      for (const part of content.parts ?? []) {
        const fr = part.functionResponse;
        if (!fr) continue;
        const key = `${fr.id ?? ''}\u0000${fr.name}\u0000${JSON.stringify(fr.response)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const response = (fr.response ?? {}) as Record<string, unknown>;
        results.push({ name: fr.name, response, text: responseText(response) });
      }
    }
  }
  return results;
}

/** The names of the function declarations the host offered in its first tool-bearing request. */
export function offeredTools(requests: GeminiModel['requests']): string[] {
  const first = requests.find((r) => hasDeclarations(r.body));
  return (first?.body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name as string));
}

function hasDeclarations(body: any): boolean {
  return (
    Array.isArray(body?.tools) && body.tools.some((t: any) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.length > 0)
  );
}

// One text that every utility call parses: the router's classifiers and the next-speaker check.
const UTILITY_TEXT = JSON.stringify({
  reasoning: 'scripted',
  next_speaker: 'user',
  model_choice: 'flash',
  complexity_reasoning: 'scripted',
  complexity_score: 1,
});

export async function startGeminiModel(socket: string, turns: ToolUse[][]): Promise<GeminiModel> {
  const queue = [...turns];
  const requests: GeminiModel['requests'] = [];
  let counter = 0;
  const server = await serveScripted(
    ({ method, path, body }, res) => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (method !== 'POST' || !/\/models\/[^/:]+:(generateContent|streamGenerateContent|countTokens)/.test(path)) {
        json(404, { error: { code: 404, message: 'not here', status: 'NOT_FOUND' } });
        return;
      }
      if (path.includes(':countTokens')) {
        json(200, { totalTokens: 10 });
        return;
      }
      requests.push({ path, body });
      const turn = hasDeclarations(body) ? queue.shift() : undefined;
      const parts = turn
        ? turn.map((t) => ({ functionCall: { id: `call_e2e_${++counter}`, name: t.name, args: t.input } }))
        : [{ text: hasDeclarations(body) ? 'done' : UTILITY_TEXT }];
      const payload = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
        modelVersion: 'scripted',
      };
      if (path.includes(':streamGenerateContent')) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(`data: ${JSON.stringify(payload)}\n\n`);
        return;
      }
      json(200, payload);
    },
    { socket },
  );
  return { socket, requests, close: server.close };
}
