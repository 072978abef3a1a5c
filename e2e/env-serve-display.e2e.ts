// `proctor env serve --display :N` on a display that already runs (as in a VM or a container with its own X
// server): the test starts an Xvfb with its window manager itself, serves it, and the guest browser comes up the
// way the osworld environment starts it (its DevTools answer), and the bundled demo passes over the protocol.
// (Before: the server ran the browser as root without --no-sandbox, Chromium exited at once, and every Chromium
// expectation failed with "the guest browser … did not answer … within 30 s".)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingDemoPrograms, runProctor } from '../src/main/demo/testing-env';
import { startDisplay, type SandboxDisplay } from '../src/main/env/local/display';
import { createOsworldEnvironmentFromSpec } from '../src/main/env/osworld';
import { freePort } from '../src/main/free-port';
import { startEnvServe, type EnvServer } from './support/env-serve';

const missing = missingDemoPrograms();
const why = missing.length ? `needs ${missing.join(', ')}` : '';

describe.skipIf(!!why)(`proctor env serve --display :N (a display it did not start) ${why}`, () => {
  let display: SandboxDisplay;
  let server: EnvServer;
  let url: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'proctor-env-serve-display-e2e-'));
    // The machine's own X server and window manager, on the host, no session bus: what a VM or container has.
    display = await startDisplay({ width: 1280, height: 800, noDbus: true });
    server = await startEnvServe(['--display', display.display, '--port', '0'], {
      ...process.env,
      DISPLAY: '',
    });
    url = server.url;
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await display?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the display it was given', () => {
    expect(server.output()).toContain(`driving display ${display.display}`);
    expect(server.output()).not.toContain('(sandbox)');
  });

  it("starts the guest browser the osworld environment's way, and its DevTools answer", async () => {
    const port = new URL(url).port;
    const devtools = await freePort();
    const env = await createOsworldEnvironmentFromSpec(
      `osworld://127.0.0.1:${port}?browser=http://127.0.0.1:${devtools}`,
    );
    try {
      const endpoint = await env.launchBrowser!(['about:blank']);
      expect(endpoint).toBe(`http://127.0.0.1:${devtools}`);
      const version = (await (await fetch(`${endpoint}/json/version`)).json()) as { Browser?: string };
      expect(version.Browser).toMatch(/Chrom/);
      // its window is on the served display
      const shot = await env.screenshot();
      expect(shot.width).toBe(1280);
    } finally {
      await env.reset(); // the next test's demo starts from a machine with no browser running
      await env.close();
    }
  }, 90_000);

  it('runs the bundled demo over the protocol: oracle 1 and noop 0 on every task, Chromium ones included', async () => {
    const port = new URL(url).port;
    const devtools = await freePort();
    const r = await runProctor(
      [
        'demo',
        '--env',
        `osworld://127.0.0.1:${port}?browser=http://127.0.0.1:${devtools}`,
        '--out',
        join(root, 'demo'),
      ],
      600_000,
    );
    expect(r.stdout, r.stderr).toMatch(/chromium\/062b8160\S*: success, score 1/);
    expect(r.stdout, r.stderr).toMatch(/PASS: (\d+) of \1 expectations met/);
    expect(r.code).toBe(0);
  }, 660_000);
});
