import { afterEach, describe, expect, it } from 'vitest';
import { backoffMs, ChatModel, defaultRetryPolicy, ModelCallError, retryAfterMs } from './chat';
import {
  startScriptedOpenAIStandin,
  type ScriptedOpenAIStandin,
  type ScriptStep,
} from './testing/scripted-openai-standin';

const fast = { baseDelayMs: 20, maxDelayMs: 100, timeoutMs: 2_000 };
let standin: ScriptedOpenAIStandin | undefined;

async function modelWith(
  script: ScriptStep[],
  options: ConstructorParameters<typeof ChatModel>[1] = {},
  apiKey = 'sk-test-chat-0000',
) {
  standin = await startScriptedOpenAIStandin(script);
  return new ChatModel(
    { baseUrl: standin.baseUrl, model: 'standin-model', apiKey },
    { retry: fast, ...options },
  );
}

afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

describe('ChatModel against the scripted stand-in', () => {
  it('sends the paper defaults (temperature 0.5, top_p 0.9, 1,500 tokens) and the key as a bearer token', async () => {
    const model = await modelWith([{ kind: 'text', content: 'DONE' }]);
    const result = await model.complete([{ role: 'user', content: 'hi' }]);
    expect(result.text).toBe('DONE');
    const body = standin!.requests[0].body!;
    expect(body.temperature).toBe(0.5);
    expect(body.top_p).toBe(0.9);
    expect(body.max_tokens).toBe(1500);
    expect(body.model).toBe('standin-model');
    expect(standin!.requests[0].authorization).toBe('Bearer sk-test-chat-0000');
  });

  it('waits for the Retry-After of a 429, then takes the next reply', async () => {
    const lines: string[] = [];
    const model = await modelWith(
      [
        { kind: 'status', status: 429, retryAfter: '1' },
        { kind: 'text', content: 'ok' },
      ],
      { log: (l) => lines.push(l) },
    );
    const started = Date.now();
    const result = await model.complete([{ role: 'user', content: 'hi' }]);
    expect(result.text).toBe('ok');
    expect(result.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(standin!.requests).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/HTTP 429.*retrying in 1000 ms/);
  });

  it('retries a request that times out', async () => {
    const model = await modelWith(
      [
        { kind: 'delay', ms: 1_500 },
        { kind: 'text', content: 'late but fine' },
      ],
      { retry: { ...fast, timeoutMs: 300 } },
    );
    const result = await model.complete([{ role: 'user', content: 'hi' }]);
    expect(result.text).toBe('late but fine');
    expect(result.attempts).toBe(2);
  });

  it('retries 5xx and malformed replies, then succeeds', async () => {
    const model = await modelWith([
      { kind: 'status', status: 500 },
      { kind: 'malformed', body: 'garbage' },
      { kind: 'malformed', body: 'json' },
      { kind: 'status', status: 503 },
      { kind: 'text', content: 'fine' },
    ]);
    const result = await model.complete([{ role: 'user', content: 'hi' }]);
    expect(result.text).toBe('fine');
    expect(result.attempts).toBe(5);
  });

  it('gives up after the bounded number of attempts with the last status', async () => {
    const model = await modelWith(
      [
        { kind: 'status', status: 500 },
        { kind: 'status', status: 502 },
        { kind: 'status', status: 503 },
        { kind: 'text', content: 'never reached' },
      ],
      { retry: { ...fast, maxAttempts: 3 } },
    );
    const error = await model.complete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).attempts).toBe(3);
    expect((error as ModelCallError).status).toBe(503);
    expect(standin!.remaining()).toBe(1);
  });

  it('does not retry a rejected key, and keeps the key out of the error and the log even if the server echoes it', async () => {
    const key = 'sk-secret-echo-12345';
    const lines: string[] = [];
    const model = await modelWith(
      [{ kind: 'status', status: 401, message: `Incorrect API key provided: ${key}` }],
      { log: (l) => lines.push(l) },
      key,
    );
    const error = (await model
      .complete([{ role: 'user', content: 'hi' }])
      .catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.status).toBe(401);
    expect(standin!.requests).toHaveLength(1);
    expect(error.message).toMatch(/check the API key/);
    expect(error.message).not.toContain(key);
    expect(lines.join('\n')).not.toContain(key);
    expect(lines.length).toBeGreaterThan(0);
  });

  it('counts tokens from usage and prices them when the table knows the model', async () => {
    const usage = { prompt_tokens: 1_000, completion_tokens: 200 };
    const model = await modelWith(
      [
        { kind: 'text', content: 'a', usage },
        { kind: 'text', content: 'b', usage },
      ],
      {
        prices: { 'standin*': { input: 2, output: 10 } },
      },
    );
    const priced = await model.complete([{ role: 'user', content: 'hi' }]);
    expect(priced.tokens).toEqual({ prompt: 1000, completion: 200 });
    expect(priced.costUsd).toBeCloseTo((1000 * 2 + 200 * 10) / 1e6, 12);
    const unpriced = new ChatModel(
      { baseUrl: standin!.baseUrl, model: 'other', apiKey: 'k' },
      { retry: fast },
    );
    expect((await unpriced.complete([{ role: 'user', content: 'hi' }])).costUsd).toBeUndefined();
  });

  it('stops waiting when the signal is aborted', async () => {
    const model = await modelWith([{ kind: 'delay', ms: 5_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    await expect(
      model.complete([{ role: 'user', content: 'hi' }], { signal: controller.signal }),
    ).rejects.toThrow(/cancelled/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('retry timing', () => {
  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms', () => {
    const h = (o: Record<string, string>) => new Headers(o);
    expect(retryAfterMs(h({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after-ms': '250' }))).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(h({}))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': 'soon' }))).toBeUndefined();
  });

  it('backs off exponentially with jitter between half and all of the step, capped', () => {
    const p = { ...defaultRetryPolicy, baseDelayMs: 1000, maxDelayMs: 5000 };
    expect(backoffMs(1, p, () => 0)).toBe(500);
    expect(backoffMs(1, p, () => 1)).toBe(1000);
    expect(backoffMs(3, p, () => 1)).toBe(4000);
    expect(backoffMs(10, p, () => 1)).toBe(5000);
    expect(backoffMs(10, p, () => 0)).toBe(2500);
  });
});
