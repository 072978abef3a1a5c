// The HTTP side of the osworld environment: one call = a few attempts under a per-attempt timeout and a
// bound on the whole call, with the retry habits of OSWorld's own client (osworld-protocol.md, "The client's
// habits"). Every failure is an EnvironmentError naming the server, the endpoint, the HTTP status or the
// network error, and how many attempts were made.
import { EnvironmentError } from '../../errors';

export interface OsworldTiming {
  /** Attempts of a retried call. Upstream: 3. */
  attempts: number;
  /** Wait between attempts. Upstream: 5 s. Uploads double it after each failure. */
  retryDelayMs: number;
  /** Per attempt of GET /screenshot. Upstream: 10 s. */
  screenshotTimeoutMs: number;
  /** Per attempt of /accessibility, /terminal, /file (upstream has none). */
  readTimeoutMs: number;
  /** Bound on a whole read call, retries included. */
  readTotalMs: number;
  /** /execute (perform, run). Upstream: 90 s; run() widens it to its own timeout. */
  executeTimeoutMs: number;
  /** Small control calls: /screen_size, /setup/launch, window calls, /proctor/*. */
  controlTimeoutMs: number;
  /** /setup/upload, the whole call. Upstream: 600 s per try. */
  uploadTimeoutMs: number;
  /** /setup/open_file, which waits for the window. Upstream: 1810 s. */
  openTimeoutMs: number;
  /** Readiness: poll GET /screenshot for at most this long. Upstream: 300 s, */
  readyTimeoutMs: number;
  /** … once a second. */
  readyIntervalMs: number;
}

export const DEFAULT_TIMING: Readonly<OsworldTiming> = Object.freeze({
  attempts: 3,
  retryDelayMs: 5_000,
  screenshotTimeoutMs: 10_000,
  readTimeoutMs: 120_000,
  readTotalMs: 300_000,
  executeTimeoutMs: 90_000,
  controlTimeoutMs: 30_000,
  uploadTimeoutMs: 600_000,
  openTimeoutMs: 1_810_000,
  readyTimeoutMs: 300_000,
  readyIntervalMs: 1_000,
});

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  json?: unknown;
  /** application/x-www-form-urlencoded fields (OSWorld's /file, /window_size). */
  form?: Record<string, string>;
  /** multipart/form-data (OSWorld's /setup/upload). Built afresh for each attempt. */
  multipart?: () => FormData;
}

export interface HttpAnswer {
  status: number;
  body: Buffer;
  contentType: string;
}

export interface CallPolicy {
  attempts: number;
  /** Per attempt; cut to what is left of totalMs. */
  timeoutMs: number;
  /** Bound on the whole call, waits included. */
  totalMs: number;
  /** Statuses besides 2xx that are answers, handed back to the caller and never retried (e.g. 404 of /file). */
  answers?: readonly number[];
  /** Retry an attempt that got another non-2xx status that may pass (5xx, 408, 429; other 4xx never change). */
  retryStatus: boolean;
  /** Retry an attempt that timed out (never for /execute: the command may be running). */
  retryTimeout: boolean;
  /** Retry a connection error: `any`, or only `refused` (nothing reached the server). */
  retryNetwork: 'any' | 'refused';
  /** Double the wait after each failed attempt. */
  backoff?: boolean;
  /** Checks a 2xx answer; a reason string makes the attempt fail (and be retried like a bad status). */
  check?: (answer: HttpAnswer) => string | undefined;
}

/** An osworld call that failed; `status` is the last HTTP status, if any answer came. */
export class OsworldHttpError extends EnvironmentError {
  constructor(
    message: string,
    readonly endpoint: string,
    readonly status?: number,
    readonly body?: string,
  ) {
    super(message);
    this.name = 'OsworldHttpError';
  }
}

type Failure =
  | { kind: 'status'; answer: HttpAnswer }
  | { kind: 'invalid'; answer: HttpAnswer; reason: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'network'; code: string; refused: boolean };

const REFUSED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Statuses worth asking again: the server's trouble, not the request's. */
function transient(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** A short, printable excerpt of a body for error messages. */
export function excerpt(body: Buffer | string, max = 300): string {
  const text = (typeof body === 'string' ? body : body.subarray(0, max * 4).toString('utf8'))
    .replace(/\s+/g, ' ')
    .trim();
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '?');
  return clean.length > max ? clean.slice(0, max) + '…' : clean;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function describe(f: Failure): string {
  switch (f.kind) {
    case 'status': {
      const b = excerpt(f.answer.body);
      return `answered HTTP ${f.answer.status}${b ? `: ${b}` : ''}`;
    }
    case 'invalid':
      return `answered HTTP ${f.answer.status} but ${f.reason}`;
    case 'timeout':
      return `did not answer within ${seconds(f.ms)}`;
    case 'network':
      return `could not be reached (${f.code})`;
  }
}

function networkCode(e: unknown): string {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ERR_INVALID_STATE') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return e instanceof Error ? e.message : String(e);
}

/** The client of one control server. close() aborts every call in flight and refuses new ones. */
export class OsworldHttp {
  private readonly closer = new AbortController();

  constructor(
    /** `http://host:port` */
    readonly baseUrl: string,
    private readonly token?: string,
  ) {}

  get closed(): boolean {
    return this.closer.signal.aborted;
  }

  close(): void {
    this.closer.abort();
  }

  private closedError(what: string): OsworldHttpError {
    return new OsworldHttpError(`the osworld environment ${this.baseUrl} is closed (${what})`, what);
  }

  /** One attempt. Resolves with the answer or the failure; rejects only when the client is closed. */
  private async attempt(
    req: HttpRequest,
    timeoutMs: number,
    endpoint: string,
  ): Promise<{ answer?: HttpAnswer; failure?: Failure }> {
    const timer = new AbortController();
    const t = setTimeout(() => timer.abort(), Math.max(1, timeoutMs));
    const signal = AbortSignal.any([this.closer.signal, timer.signal]);
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | FormData | undefined;
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(req.form).toString();
    } else if (req.multipart) {
      body = req.multipart();
    }
    try {
      const res = await fetch(this.baseUrl + req.path, {
        method: req.method,
        headers,
        body,
        signal,
        redirect: 'error',
      });
      const data = Buffer.from(await res.arrayBuffer());
      return {
        answer: { status: res.status, body: data, contentType: res.headers.get('content-type') ?? '' },
      };
    } catch (e) {
      if (this.closer.signal.aborted) throw this.closedError(endpoint);
      if (timer.signal.aborted) return { failure: { kind: 'timeout', ms: timeoutMs } };
      const code = networkCode(e);
      return { failure: { kind: 'network', code, refused: REFUSED.has(code) } };
    } finally {
      clearTimeout(t);
    }
  }

  private wait(ms: number, endpoint: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closer.signal.aborted) return reject(this.closedError(endpoint));
      const onAbort = (): void => {
        clearTimeout(t);
        reject(this.closedError(endpoint));
      };
      const t = setTimeout(() => {
        this.closer.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.closer.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Calls `req` under `policy` and `retryDelayMs`. Resolves with a 2xx answer (passing `policy.check`) or an
   * answer whose status is in `policy.answers`; otherwise throws OsworldHttpError after the last attempt.
   */
  async call(req: HttpRequest, policy: CallPolicy, retryDelayMs: number): Promise<HttpAnswer> {
    const endpoint = `${req.method} ${req.path}`;
    if (this.closed) throw this.closedError(endpoint);
    const started = Date.now();
    const deadline = started + policy.totalMs;
    let delay = retryDelayMs;
    let made = 0;
    let last: Failure | undefined;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      made++;
      const timeoutMs = Math.min(policy.timeoutMs, left);
      const { answer, failure } = await this.attempt(req, timeoutMs, endpoint);
      let f = failure;
      if (answer) {
        const ok = answer.status >= 200 && answer.status < 300;
        if (!ok && policy.answers?.includes(answer.status)) return answer;
        if (ok) {
          const reason = policy.check?.(answer);
          if (!reason) return answer;
          f = { kind: 'invalid', answer, reason };
        } else {
          f = { kind: 'status', answer };
        }
      }
      last = f!;
      const retryable =
        last.kind === 'timeout'
          ? policy.retryTimeout
          : last.kind === 'network'
            ? policy.retryNetwork === 'any' || last.refused
            : policy.retryStatus && (last.kind === 'invalid' || transient(last.answer.status));
      if (!retryable || made >= policy.attempts) break;
      if (Date.now() + delay >= deadline) break;
      await this.wait(delay, endpoint);
      if (policy.backoff) delay *= 2;
    }
    const status =
      last && (last.kind === 'status' || last.kind === 'invalid') ? last.answer.status : undefined;
    const body = last && last.kind === 'status' ? excerpt(last.answer.body) : undefined;
    const why = last ? describe(last) : `got no time to try (bound ${seconds(policy.totalMs)})`;
    const tries = made === 1 ? '1 attempt' : `${made} attempts over ${seconds(Date.now() - started)}`;
    throw new OsworldHttpError(
      `osworld server ${this.baseUrl}: ${endpoint} ${why} (${tries})`,
      endpoint,
      status,
      body,
    );
  }
}

/** PNG's eight-byte signature. */
export function isPng(b: Buffer): boolean {
  return (
    b.length >= 24 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  );
}

export function isJpeg(b: Buffer): boolean {
  return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(b: Buffer): { width: number; height: number } {
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}
