// Test helpers: plain fetch calls against a guest server, as OSWorld's Python client makes them.
export interface Reply {
  status: number;
  type: string;
  body: Buffer;
  json<T = Record<string, unknown>>(): T;
  text(): string;
}

export function guestClient(base: string, token?: string) {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  async function call(
    method: string,
    path: string,
    init: { body?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const r = await fetch(base + path, { method, body: init.body, headers: { ...auth, ...init.headers } });
    const body = Buffer.from(await r.arrayBuffer());
    return {
      status: r.status,
      type: r.headers.get('content-type') ?? '',
      body,
      json: <T>() => JSON.parse(body.toString('utf8')) as T,
      text: () => body.toString('utf8'),
    };
  }
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, json?: unknown) =>
      call(
        'POST',
        path,
        json === undefined
          ? {}
          : { body: JSON.stringify(json), headers: { 'content-type': 'application/json' } },
      ),
    form: (path: string, fields: Record<string, string>) =>
      call('POST', path, { body: new URLSearchParams(fields) }),
    multipart: (path: string, form: FormData) => call('POST', path, { body: form }),
    raw: call,
    /** OSWorld's way of acting: pyautogui code sent as `python -c` to /execute. */
    pyautogui: (code: string) =>
      call('POST', '/execute', {
        body: JSON.stringify({
          command: ['python', '-c', `import pyautogui; import time; pyautogui.FAILSAFE = False; ${code}`],
          shell: false,
        }),
        headers: { 'content-type': 'application/json' },
      }),
  };
}

export type GuestClient = ReturnType<typeof guestClient>;
