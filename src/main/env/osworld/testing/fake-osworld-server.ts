// TEST DOUBLE: a fake OSWorld VM control server on 127.0.0.1 for the osworld client's tests. It speaks the
// status codes and JSON shapes of osworld-protocol.md's table (not the real server's behaviour behind them:
// files live in memory, windows are a list, pyautogui code is recorded, not performed), runs other /execute
// commands for real as the test's user, and can be told to fail N times, hang, or answer a non-image.
// Never use it outside tests.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export const FAKE_PYAUTOGUI_PREFIX = 'import pyautogui; import time; pyautogui.FAILSAFE = False; ';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  json?: unknown;
  form?: Record<string, string>;
}

export type Misbehaviour =
  | { kind: 'status'; status: number; body?: string; contentType?: string }
  | { kind: 'hang' }
  | { kind: 'non-image' }
  | { kind: 'reset-connection' };

export interface FakeOsworldOptions {
  width?: number;
  height?: number;
  /** The AT XML `/accessibility` answers with. */
  accessibilityXml?: string;
  /** Required `Authorization: Bearer` token; 401 without it. */
  token?: string;
  /** Answer GET /proctor/info as a Proctor server; `reset` says whether POST /proctor/reset exists. */
  proctor?: { reset: boolean };
  /** Windows (titles) for activate/close. */
  windows?: string[];
  /** Status for activate/close of a window that is not there: 200 as upstream on Linux, or 404 as on Windows. */
  missingWindowStatus?: 200 | 404;
  /** Kill /execute commands after this long (upstream 120 s). */
  commandTimeoutMs?: number;
  /** Programs /setup/open_file accepts by name (besides stored files). */
  programs?: string[];
}

interface UploadedPart {
  name: string;
  filename?: string;
  data: Buffer;
}

/** Minimal multipart/form-data reader (the test double's own; requests come from the client under test). */
function parseMultipart(body: Buffer, contentType: string): UploadedPart[] {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) throw new Error('no multipart boundary');
  const boundary = Buffer.from('--' + (m[1] ?? m[2]).trim());
  const parts: UploadedPart[] = [];
  let pos = body.indexOf(boundary);
  while (pos >= 0) {
    const start = pos + boundary.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headerEnd = body.indexOf('\r\n\r\n', start);
    const next = body.indexOf(boundary, headerEnd);
    if (headerEnd < 0 || next < 0) break;
    const headers = body.subarray(start + 2, headerEnd).toString('utf8');
    const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? '';
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    parts.push({ name, filename, data: body.subarray(headerEnd + 4, next - 2) });
    pos = next;
  }
  return parts;
}

function expandUser(p: string): string {
  return p === '~' ? '/home/user' : p.startsWith('~/') ? '/home/user/' + p.slice(2) : p;
}

export class FakeOsworldServer {
  readonly requests: RecordedRequest[] = [];
  /** pyautogui code received at /execute (without OSWorld's prefix). */
  readonly pyautoguiCode: string[] = [];
  /** Guest files by absolute path. */
  readonly files = new Map<string, Buffer>();
  readonly launched: unknown[] = [];
  readonly opened: string[] = [];
  readonly windowCalls: { path: string; json: unknown }[] = [];
  resets = 0;
  /** What the next pyautogui /execute answers (returncode, stderr). */
  pyautoguiResult: { returncode: number; error: string } = { returncode: 0, error: '' };
  windows: string[];
  /** Called for each /setup/launch command (e.g. to bring a fake browser up). */
  onLaunch?: (command: unknown) => void;
  private readonly stubs: { match: RegExp; result: { output: string; error: string; returncode: number } }[] =
    [];
  private readonly misbehaviours = new Map<string, Misbehaviour[]>();
  private readonly sockets = new Set<import('node:net').Socket>();
  private png!: Buffer;
  private server!: Server;
  port = 0;

  private constructor(readonly options: FakeOsworldOptions) {
    this.windows = [...(options.windows ?? [])];
  }

  static async start(options: FakeOsworldOptions = {}): Promise<FakeOsworldServer> {
    const s = new FakeOsworldServer(options);
    s.png = await sharp({
      create: {
        width: options.width ?? 320,
        height: options.height ?? 200,
        channels: 3,
        background: { r: 30, g: 90, b: 160 },
      },
    })
      .png()
      .toBuffer();
    s.server = createServer((req, res) => void s.handle(req, res));
    s.server.on('connection', (sock) => {
      s.sockets.add(sock);
      sock.once('close', () => s.sockets.delete(sock));
    });
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    s.port = (s.server.address() as AddressInfo).port;
    return s;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get screenshotPng(): Buffer {
    return this.png;
  }

  /** The next `times` requests to `path` misbehave as told (then it answers normally). */
  misbehave(path: string, times: number, how: Misbehaviour): void {
    const list = this.misbehaviours.get(path) ?? [];
    for (let i = 0; i < times; i++) list.push(how);
    this.misbehaviours.set(path, list);
  }

  failNext(path: string, times: number, status = 500, body = 'Internal Server Error'): void {
    this.misbehave(path, times, { kind: 'status', status, body });
  }

  hang(path: string, times = Infinity): void {
    this.misbehave(path, Math.min(times, 1000), { kind: 'hang' });
  }

  /** /execute commands whose text (argv joined by spaces) matches `match` answer `result` instead of running. */
  stubCommand(match: RegExp, result: { output?: string; error?: string; returncode?: number }): void {
    this.stubs.push({
      match,
      result: { output: result.output ?? '', error: result.error ?? '', returncode: result.returncode ?? 0 },
    });
  }

  /** Requests made to `path`. */
  count(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? '/').split('?')[0];
    const contentType = req.headers['content-type'] ?? '';
    const rec: RecordedRequest = { method: req.method ?? '', path, headers: req.headers };
    let parts: UploadedPart[] = [];
    try {
      if (contentType.startsWith('application/json')) rec.json = JSON.parse(body.toString('utf8'));
      else if (contentType.startsWith('application/x-www-form-urlencoded'))
        rec.form = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
      else if (contentType.startsWith('multipart/form-data')) {
        parts = parseMultipart(body, contentType);
        rec.form = Object.fromEntries(
          parts.filter((p) => p.filename === undefined).map((p) => [p.name, p.data.toString('utf8')]),
        );
      }
    } catch {
      return this.send(res, 400, 'bad request body', 'text/plain');
    }
    this.requests.push(rec);

    if (this.options.token !== undefined && req.headers.authorization !== `Bearer ${this.options.token}`) {
      return this.json(res, 401, { error: 'a bearer token is required' });
    }
    const queue = this.misbehaviours.get(path);
    const mis = queue?.shift();
    if (mis) {
      if (mis.kind === 'hang') return; // never answered; close() destroys the socket
      if (mis.kind === 'reset-connection') return void req.socket.destroy();
      if (mis.kind === 'non-image') return this.send(res, 200, '<html>not an image</html>', 'text/html');
      return this.send(res, mis.status, mis.body ?? '', mis.contentType ?? 'text/html');
    }
    const json = (rec.json ?? {}) as Record<string, unknown>;
    const key = `${req.method} ${path}`;
    switch (key) {
      case 'GET /screenshot':
        return this.send(res, 200, this.png, 'image/png');
      case 'POST /screen_size':
        return this.json(res, 200, { width: this.options.width ?? 320, height: this.options.height ?? 200 });
      case 'GET /accessibility':
        return this.json(res, 200, {
          AT:
            this.options.accessibilityXml ??
            '<desktop-frame xmlns:st="https://accessibility.ubuntu.example.org/ns/state"/>',
        });
      case 'GET /terminal':
        return this.json(res, 200, { output: null, status: 'success' });
      case 'GET /platform':
        return this.send(res, 200, 'Linux', 'text/html');
      case 'POST /execute':
      case 'POST /setup/execute':
        return this.execute(res, json);
      case 'POST /setup/launch': {
        const command = json.command;
        if (!command || (Array.isArray(command) && !command.length))
          return this.json(res, 500, { status: 'error', message: 'list index out of range' });
        this.launched.push(command);
        this.onLaunch?.(command);
        return this.send(
          res,
          200,
          `${Array.isArray(command) ? command.join(' ') : String(command)} launched successfully`,
          'text/html',
        );
      }
      case 'POST /file': {
        const p = rec.form?.file_path;
        if (!p) return this.json(res, 400, { error: 'file_path is required' });
        const data = this.files.get(expandUser(p));
        if (!data) return this.json(res, 404, { error: 'File not found' });
        res.setHeader('content-disposition', `attachment; filename=${JSON.stringify(p.split('/').pop())}`);
        return this.send(res, 200, data, 'application/octet-stream');
      }
      case 'POST /setup/upload': {
        const p = rec.form?.file_path;
        const file = parts.find((x) => x.name === 'file_data' && x.filename !== undefined);
        if (!p || !file) return this.json(res, 400, { error: 'file_path and file_data are required' });
        this.files.set(expandUser(p), Buffer.from(file.data));
        return this.send(res, 200, `File Uploaded: ${file.data.length} bytes`, 'text/html');
      }
      case 'POST /setup/open_file': {
        const p = typeof json.path === 'string' ? json.path : '';
        if (!p) return this.send(res, 400, 'Path not supplied!', 'text/html');
        if (!this.files.has(expandUser(p)) && !(this.options.programs ?? []).includes(p))
          return this.send(res, 404, `Application/file not found: ${p}`, 'text/html');
        this.opened.push(p);
        return this.send(res, 200, 'File opened and window activated successfully', 'text/html');
      }
      case 'POST /setup/activate_window':
      case 'POST /setup/close_window': {
        const name = json.window_name;
        if (typeof name !== 'string' || !name)
          return this.send(res, 400, 'window_name required', 'text/html');
        this.windowCalls.push({ path, json });
        const strict = json.strict === true;
        const hit = this.windows.findIndex((w) =>
          strict ? w === name : w.toLowerCase().includes(name.toLowerCase()),
        );
        if (hit < 0 && this.options.missingWindowStatus === 404)
          return this.send(res, 404, `Window ${name} not found (empty results)`, 'text/html');
        if (hit >= 0 && path.endsWith('close_window')) this.windows.splice(hit, 1);
        return this.send(
          res,
          200,
          path.endsWith('close_window') ? 'Window closed successfully.' : 'Window activated successfully',
          'text/html',
        );
      }
      case 'GET /proctor/info':
        if (!this.options.proctor) break;
        return this.json(res, 200, { proctor: true, reset: this.options.proctor.reset, version: 'fake' });
      case 'POST /proctor/reset':
        if (!this.options.proctor?.reset) break;
        this.resets++;
        return this.json(res, 200, { status: 'success' });
    }
    return this.send(res, 404, '<!doctype html><title>404 Not Found</title><h1>Not Found</h1>', 'text/html');
  }

  private execute(res: ServerResponse, json: Record<string, unknown>): void {
    const shell = json.shell === true;
    let command = json.command;
    if (typeof command === 'string' && !shell) command = command.trim().split(/\s+/);
    if (
      Array.isArray(command) &&
      command.length === 3 &&
      /^python3?$/.test(String(command[0])) &&
      command[1] === '-c' &&
      String(command[2]).startsWith(FAKE_PYAUTOGUI_PREFIX)
    ) {
      this.pyautoguiCode.push(String(command[2]).slice(FAKE_PYAUTOGUI_PREFIX.length));
      const r = this.pyautoguiResult;
      return this.json(res, 200, { status: 'success', output: '', error: r.error, returncode: r.returncode });
    }
    if (
      shell
        ? typeof command !== 'string'
        : !Array.isArray(command) || !command.length || command.some((c) => typeof c !== 'string')
    ) {
      return this.json(res, 500, { status: 'error', message: 'bad command' });
    }
    const argv = shell ? ['/bin/sh', '-c', command as string] : (command as string[]).map(expandUser);
    const stub = this.stubs.find((x) => x.match.test(shell ? (command as string) : argv.join(' ')));
    if (stub) return this.json(res, 200, { status: 'success', ...stub.result });
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const limit = this.options.commandTimeoutMs ?? 120_000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limit);
    child.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      this.json(res, 500, {
        status: 'error',
        message: e.code === 'ENOENT' ? `[Errno 2] No such file or directory: '${argv[0]}'` : e.message,
      });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (res.headersSent) return;
      if (timedOut)
        return this.json(res, 500, {
          status: 'error',
          message: `Command '${JSON.stringify(argv)}' timed out after ${limit / 1000} seconds`,
        });
      this.json(res, 200, { status: 'success', output: stdout, error: stderr, returncode: code ?? -9 });
    });
  }

  private json(res: ServerResponse, status: number, value: unknown): void {
    this.send(res, status, JSON.stringify(value), 'application/json');
  }

  private send(res: ServerResponse, status: number, body: string | Buffer, type: string): void {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }
}
