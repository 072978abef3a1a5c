// One chat-completion call to any OpenAI-compatible server through the `openai` SDK, with bounded retries
// (exponential backoff + jitter; Retry-After honoured) on 429, 5xx, timeouts, dropped connections and
// malformed replies. Used by the llm agent and the judge. The API key goes to the SDK and nowhere else:
// log lines and error messages are scrubbed of it.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Endpoint } from './endpoint';
import { costOf, type PriceTable } from '../price-table';
import { sleep } from '../sleep';

export type ChatMessage = ChatCompletionMessageParam;

export interface RetryPolicy {
  /** Attempts in all (first try included). Default 5. */
  maxAttempts: number;
  /** First backoff delay; doubles each retry. Default 1,000 ms. */
  baseDelayMs: number;
  /** Cap of one backoff delay. Default 30,000 ms. */
  maxDelayMs: number;
  /** Cap of a server's Retry-After. Default 60,000 ms. */
  maxRetryAfterMs: number;
  /** Time limit of one request. Default 120,000 ms. */
  timeoutMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  timeoutMs: 120_000,
};

export interface Sampling {
  temperature: number;
  topP: number;
  maxTokens: number;
}

export const defaultSampling: Sampling = { temperature: 0.5, topP: 0.9, maxTokens: 1_500 };

export interface ChatResult {
  text: string;
  tokens: { prompt: number; completion: number };
  /** USD, when the price table knows the model. */
  costUsd?: number;
  attempts: number;
  ms: number;
}

/** The model could not be asked: a non-retryable error, or retries exhausted. `status` is the last HTTP status. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

export interface ChatModelOptions {
  sampling?: Partial<Sampling>;
  retry?: Partial<RetryPolicy>;
  prices?: PriceTable;
  /** Where progress lines go (retries, errors); never receives the key. */
  log?: (line: string) => void;
  /** Name used in log lines. */
  label?: string;
}

interface Failure {
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  message: string;
}

/** Milliseconds a Retry-After / retry-after-ms header asks for, if it parses. */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Backoff before retry number `retry` (1-based): exponential, capped, with jitter in [50 %, 100 %]. */
export function backoffMs(retry: number, policy: RetryPolicy, random = Math.random): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(full * (0.5 + 0.5 * random()));
}

function classify(error: unknown): Failure {
  if (error instanceof OpenAI.APIUserAbortError) return { retryable: false, message: 'aborted' };
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return { retryable: true, message: 'request timed out' };
  if (error instanceof OpenAI.APIConnectionError)
    return { retryable: true, message: `connection error: ${error.message}` };
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const retryable =
      status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
    return {
      retryable,
      status,
      retryAfterMs: retryAfterMs(error.headers),
      message: `HTTP ${status ?? '?'}: ${error.message}`,
    };
  }
  if (error instanceof SyntaxError)
    return { retryable: true, message: `malformed reply (not JSON): ${error.message}` };
  return { retryable: false, message: error instanceof Error ? error.message : String(error) };
}

/** Removes every occurrence of `secret` from `text`. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}

export class ChatModel {
  readonly sampling: Sampling;
  readonly retry: RetryPolicy;
  private readonly client: OpenAI;
  private readonly log: (line: string) => void;
  private readonly label: string;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly options: ChatModelOptions = {},
  ) {
    this.sampling = { ...defaultSampling, ...options.sampling };
    this.retry = { ...defaultRetryPolicy, ...options.retry };
    this.label = options.label ?? 'model';
    const sink = options.log ?? (() => {});
    this.log = (line) => sink(redact(line, endpoint.apiKey));
    this.client = new OpenAI({
      apiKey: endpoint.apiKey ?? 'none',
      baseURL: endpoint.baseUrl,
      maxRetries: 0,
      timeout: this.retry.timeoutMs,
      logLevel: 'off',
      dangerouslyAllowBrowser: false,
    });
  }

  get model(): string {
    return this.endpoint.model;
  }

  /** Asks the model once (with retries); returns the text, tokens and cost, or throws ModelCallError. */
  async complete(messages: ChatMessage[], options: { signal?: AbortSignal } = {}): Promise<ChatResult> {
    const started = Date.now();
    const policy = this.retry;
    let last: Failure | undefined;
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
      if (options.signal?.aborted) throw new ModelCallError(`${this.label}: cancelled`, attempt - 1);
      try {
        const response = await this.client.chat.completions.create(
          {
            model: this.endpoint.model,
            messages,
            temperature: this.sampling.temperature,
            top_p: this.sampling.topP,
            max_tokens: this.sampling.maxTokens,
          },
          { signal: options.signal, timeout: policy.timeoutMs },
        );
        const text = response?.choices?.[0]?.message?.content;
        if (typeof text !== 'string') {
          last = { retryable: true, message: 'malformed reply: no choices[0].message.content' };
        } else {
          const tokens = {
            prompt: response.usage?.prompt_tokens ?? 0,
            completion: response.usage?.completion_tokens ?? 0,
          };
          return {
            text,
            tokens,
            costUsd: costOf(this.options.prices, this.endpoint.model, tokens),
            attempts: attempt,
            ms: Date.now() - started,
          };
        }
      } catch (error) {
        if (options.signal?.aborted) throw new ModelCallError(`${this.label}: cancelled`, attempt);
        last = classify(error);
      }
      const message = redact(last.message, this.endpoint.apiKey);
      if (!last.retryable || attempt === policy.maxAttempts) {
        this.log(`${this.label}: attempt ${attempt}/${policy.maxAttempts} failed (${message}); giving up`);
        throw new ModelCallError(
          `${this.label} ${this.endpoint.model} at ${this.endpoint.baseUrl}: ${message}` +
            (last.retryable ? ` (after ${attempt} attempts)` : '') +
            (last.status === 401 || last.status === 403
              ? ' — check the API key (flag, PROCTOR_API_KEY or the config file)'
              : ''),
          attempt,
          last.status,
        );
      }
      const wait =
        last.retryAfterMs !== undefined
          ? Math.min(last.retryAfterMs, policy.maxRetryAfterMs)
          : backoffMs(attempt, policy);
      this.log(
        `${this.label}: attempt ${attempt}/${policy.maxAttempts} failed (${message}); retrying in ${wait} ms`,
      );
      try {
        await sleep(wait, options.signal);
      } catch {
        throw new ModelCallError(`${this.label}: cancelled`, attempt);
      }
    }
    throw new ModelCallError(`${this.label}: no attempt made`, 0);
  }
}
