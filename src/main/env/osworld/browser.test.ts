// The guest browser of an osworld machine: tabs through DevTools when a browser answers, otherwise started
// OSWorld's way (Chrome on 1337, socat on the endpoint's port) and waited for.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOsworldEnvironment, type OsworldEnvironment } from './osworld-environment';
import { DEFAULT_TIMING } from './http-client';
import { FakeOsworldServer } from './testing/fake-osworld-server';

/** TEST DOUBLE: a DevTools HTTP endpoint that is down (503) until `up`, and records the tabs it opens. */
class FakeDevTools {
  up = false;
  readonly tabs: string[] = [];
  private server!: Server;
  port = 0;
  static async start(): Promise<FakeDevTools> {
    const d = new FakeDevTools();
    d.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (!d.up) return void res.writeHead(503).end();
      if (url.pathname === '/json/version')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"Browser":"Fake/1"}');
      if (url.pathname === '/json/new' && req.method === 'PUT') {
        d.tabs.push(decodeURIComponent(url.search.slice(1)));
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => d.server.listen(0, '127.0.0.1', r));
    d.port = (d.server.address() as AddressInfo).port;
    return d;
  }
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

let server: FakeOsworldServer;
let devtools: FakeDevTools;
let env: OsworldEnvironment;

async function setup(): Promise<void> {
  server = await FakeOsworldServer.start();
  devtools = await FakeDevTools.start();
  env = await createOsworldEnvironment({
    host: '127.0.0.1',
    port: server.port,
    browserEndpoint: devtools.url,
    timing: { ...DEFAULT_TIMING, retryDelayMs: 20, readyIntervalMs: 20, readyTimeoutMs: 2_000 },
  });
}

afterEach(async () => {
  await env?.close();
  await server?.close();
  await devtools?.close();
});

describe('osworld launchBrowser', () => {
  it('opens every URL as a tab when the guest browser already answers, starting nothing', async () => {
    await setup();
    devtools.up = true;
    expect(await env.launchBrowser(['https://a.example/', 'https://b.example/x?y=1'])).toBe(devtools.url);
    expect(devtools.tabs).toEqual(['https://a.example/', 'https://b.example/x?y=1']);
    expect(server.launched).toEqual([]);
  });

  it("starts the guest's browser on 1337 behind socat, waits for it, then opens the other URLs", async () => {
    await setup();
    server.stubCommand(/command -v "\$b"/, { output: '/usr/bin/google-chrome\n' });
    server.stubCommand(/command -v socat/, { output: '/usr/bin/socat\n' });
    server.onLaunch = (c) => {
      if (Array.isArray(c) && c[0] === 'socat') setTimeout(() => (devtools.up = true), 100);
    };
    await env.launchBrowser(['https://a.example/', 'https://b.example/']);
    expect(server.launched).toEqual([
      [
        '/usr/bin/google-chrome',
        '--remote-debugging-port=1337',
        '--no-first-run',
        '--no-default-browser-check',
        'https://a.example/',
      ],
      ['socat', `tcp-listen:${devtools.port},fork,reuseaddr`, 'tcp:localhost:1337'],
    ]);
    expect(devtools.tabs).toEqual(['https://b.example/']);
  });

  it('says what the guest lacks', async () => {
    await setup();
    server.stubCommand(/command -v "\$b"/, { returncode: 1 });
    await expect(env.launchBrowser([])).rejects.toThrow(
      /the guest has no browser to start \(looked for google-chrome, chromium, chromium-browser\)/,
    );
  });

  it("without socat in the guest, starts the browser on the endpoint's own port", async () => {
    await setup();
    server.stubCommand(/command -v "\$b"/, { output: '/usr/bin/chromium\n' });
    server.stubCommand(/command -v socat/, { returncode: 1 });
    server.onLaunch = () => setTimeout(() => (devtools.up = true), 100);
    await env.launchBrowser([]);
    expect(server.launched).toEqual([
      [
        '/usr/bin/chromium',
        `--remote-debugging-port=${devtools.port}`,
        '--no-first-run',
        '--no-default-browser-check',
        'about:blank',
      ],
    ]);
  });
});
