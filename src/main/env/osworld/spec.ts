// `osworld://host[:port][?token=…&browser=…]` → the options of an osworld environment. The spec is what a
// person types after `--env`, so every refusal says what was wrong and what a good spec looks like.

/** The port OSWorld's VM control server listens on. */
export const OSWORLD_DEFAULT_PORT = 5000;
/** The port of the guest's Chrome DevTools in OSWorld and Spider2-V images. */
export const OSWORLD_DEVTOOLS_PORT = 9222;

export interface OsworldSpec {
  /** Host name or IP literal (IPv6 without brackets). */
  host: string;
  port: number;
  /** Bearer token for a Proctor server of the protocol (`proctor env serve` off loopback). */
  token?: string;
  /** The guest browser's DevTools endpoint, when it is not `http://host:9222`. */
  browserEndpoint?: string;
}

export class OsworldSpecError extends Error {
  constructor(spec: string, why: string) {
    super(
      `--env '${redactToken(spec)}': ${why} (expected osworld://HOST[:PORT][?token=TOKEN], e.g. osworld://127.0.0.1:5000)`,
    );
    this.name = 'OsworldSpecError';
  }
}

/** The spec with its token value hidden, for messages and logs. */
export function redactToken(spec: string): string {
  return spec.replace(/([?&]token=)[^&#]*/gi, '$1***');
}

const KNOWN_PARAMS = new Set(['token', 'browser']);

export function parseOsworldSpec(spec: string): OsworldSpec {
  if (typeof spec !== 'string' || !spec.trim()) throw new OsworldSpecError(String(spec), 'the spec is empty');
  const text = spec.trim();
  if (!/^osworld:\/\//i.test(text))
    throw new OsworldSpecError(text, 'an osworld spec starts with osworld://');
  if (/^osworld:\/\/[^/?#]*@/i.test(text))
    throw new OsworldSpecError(text, 'pass a token as ?token=…, not as user:password@');
  const portText = /^osworld:\/\/(\[[^\]]*\]|[^/:?#]*)(?::([^/?#]*))?/i.exec(text)?.[2];
  let port = OSWORLD_DEFAULT_PORT;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      throw new OsworldSpecError(text, `port '${portText}' is not a number from 1 to 65535`);
    }
    port = Number(portText);
  }
  let url: URL;
  try {
    // Parsed as http: for its host rules (IPv6 brackets, lower-cased names, bad characters refused).
    url = new URL('http://' + text.slice('osworld://'.length));
  } catch {
    throw new OsworldSpecError(text, 'it is not a valid URL');
  }
  if (!url.hostname) throw new OsworldSpecError(text, 'it names no host');
  if (url.pathname !== '/' && url.pathname !== '')
    throw new OsworldSpecError(text, `unexpected path '${url.pathname}'`);
  if (url.hash) throw new OsworldSpecError(text, 'unexpected #fragment');
  for (const key of url.searchParams.keys()) {
    if (!KNOWN_PARAMS.has(key))
      throw new OsworldSpecError(text, `unknown parameter '${key}' (known: ${[...KNOWN_PARAMS].join(', ')})`);
  }
  const out: OsworldSpec = { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
  const token = url.searchParams.get('token');
  if (token !== null) {
    if (!token) throw new OsworldSpecError(text, 'token is empty');
    // eslint-disable-next-line no-control-regex
    if (/[\s\x00-\x1f\x7f]/.test(token))
      throw new OsworldSpecError(text, 'token holds spaces or control characters');
    out.token = token;
  }
  const browser = url.searchParams.get('browser');
  if (browser !== null) {
    let b: URL;
    try {
      b = new URL(browser);
    } catch {
      throw new OsworldSpecError(text, `browser '${browser}' is not a URL (e.g. http://10.0.0.5:9222)`);
    }
    if (b.protocol !== 'http:')
      throw new OsworldSpecError(text, `browser '${browser}' must be an http:// DevTools endpoint`);
    out.browserEndpoint = b.origin;
  }
  return out;
}

/** The base URL of the control server (`http://host:port`), IPv6 literals bracketed. */
export function serverUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The spec back as text, token hidden unless asked (run manifests record it without the secret). */
export function formatOsworldSpec(s: OsworldSpec, opts: { withToken?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (s.token) params.set('token', opts.withToken ? s.token : '***');
  if (s.browserEndpoint) params.set('browser', s.browserEndpoint);
  const q = params.toString();
  return `osworld://${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}${q ? `?${q}` : ''}`;
}
