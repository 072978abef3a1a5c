// A local OpenAI-compatible stand-in server for tests: http on 127.0.0.1:<free port> serving
// POST /v1/chat/completions (and /chat/completions) with scripted replies, in order. Every request is recorded
// (body, path, authorization) so tests can check what the client sent. Test-only: paid model APIs are the one
// thing tests replace with a stand-in.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinRequest {
  /** 0-based order of arrival. */
  index: number;
  path: string;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: ChatBody | undefined;
  rawBody: string;
  /** The `authorization` header as received (tests check the key was sent, and only here). */
  authorization?: string;
  at: number;
}

export interface ChatBody {
  model?: string;
  messages: { role: string; content: string | ContentPart[] }[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  [key: string]: unknown;
}

export type ContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: string } };

export type ScriptedReply =
  /** A normal completion with this assistant text. */
  | {
      kind: 'text';
      content: string;
      usage?: { prompt_tokens: number; completion_tokens: number };
      delayMs?: number;
    }
  /** An error status (429, 500, 503, …) with an optional Retry-After (seconds) header. */
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  /** Waits `ms` before answering with `content` (to force a client timeout). */
  | { kind: 'delay'; ms: number; content?: string }
  /** 200 with a body that is not a chat completion (`json`: valid JSON of the wrong shape; `garbage`: not JSON). */
  | { kind: 'malformed'; body?: 'json' | 'garbage' };

/** A reply, or a function that picks one from the request (for replies that depend on the prompt). */
export type ScriptStep = ScriptedReply | ((request: StandinRequest) => ScriptedReply);

export interface ScriptedOpenAIStandin {
  /** Base URL to give the `openai` SDK, e.g. http://127.0.0.1:34567/v1 */
  baseUrl: string;
  requests: StandinRequest[];
  /** Appends more scripted replies. */
  push(...steps: ScriptStep[]): void;
  /** Replies not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

function completion(
  content: string,
  model: string | undefined,
  usage?: { prompt_tokens: number; completion_tokens: number },
) {
  const u = usage ?? { prompt_tokens: 100, completion_tokens: Math.max(1, Math.ceil(content.length / 4)) };
  return {
    id: `chatcmpl-standin-${Math.random().toString(36).slice(2, 10)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: model ?? 'standin',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ],
    usage: { ...u, total_tokens: u.prompt_tokens + u.completion_tokens },
  };
}

/** Starts the stand-in on 127.0.0.1 with a free port; replies are used one per chat request, in order. */
export async function startScriptedOpenAIStandin(script: ScriptStep[] = []): Promise<ScriptedOpenAIStandin> {
  const queue: ScriptStep[] = [...script];
  const requests: StandinRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '').split('?')[0];
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        if (res.destroyed) return;
        const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(text);
      };
      if (req.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(path)) {
        send(404, {
          error: { message: `scripted-openai-standin: no route ${req.method} ${path}`, type: 'not_found' },
        });
        return;
      }
      let body: ChatBody | undefined;
      try {
        body = JSON.parse(rawBody) as ChatBody;
      } catch {
        body = undefined;
      }
      const auth = req.headers.authorization;
      const request: StandinRequest = {
        index: requests.length,
        path,
        body,
        rawBody,
        authorization: auth,
        at: Date.now(),
      };
      requests.push(request);
      const step = queue.shift();
      if (step === undefined) {
        send(400, {
          error: {
            message: `scripted-openai-standin: no scripted reply left for request #${request.index}`,
            type: 'invalid_request_error',
          },
        });
        return;
      }
      const reply = typeof step === 'function' ? step(request) : step;
      switch (reply.kind) {
        case 'text': {
          const go = () => send(200, completion(reply.content, body?.model, reply.usage));
          if (reply.delayMs) setTimeout(go, reply.delayMs);
          else go();
          return;
        }
        case 'status': {
          const headers: Record<string, string> = {};
          if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
          send(
            reply.status,
            {
              error: {
                message: reply.message ?? `scripted status ${reply.status}`,
                type: reply.status === 429 ? 'rate_limit_error' : 'server_error',
              },
            },
            headers,
          );
          return;
        }
        case 'delay':
          setTimeout(() => send(200, completion(reply.content ?? 'WAIT', body?.model)), reply.ms);
          return;
        case 'malformed':
          if (reply.body === 'json') send(200, { object: 'chat.completion', choices: [] });
          else send(200, '{"choices": [ {"message": oops');
          return;
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...steps) => void queue.push(...steps),
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The text parts of a recorded request's messages, joined (for assertions on prompts). */
export function requestText(request: StandinRequest): string {
  const out: string[] = [];
  for (const m of request.body?.messages ?? []) {
    if (typeof m.content === 'string') out.push(m.content);
    else for (const p of m.content) if (p.type === 'text') out.push(p.text);
  }
  return out.join('\n');
}

/** The image URLs of a recorded request's messages, in order. */
export function requestImages(request: StandinRequest): string[] {
  const out: string[] = [];
  for (const m of request.body?.messages ?? []) {
    if (typeof m.content !== 'string')
      for (const p of m.content) if (p.type === 'image_url') out.push(p.image_url.url);
  }
  return out;
}
