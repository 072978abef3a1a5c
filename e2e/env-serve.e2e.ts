// `proctor env serve` as people use it: a real server process on a sandbox display, holding a model key in its
// own environment. The bundled demo runs over the protocol (`proctor demo --env osworld://…`) and grades like
// the local demo (oracle 1, noop 0 on every task), and a command sent to the server's session finds no key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingDemoPrograms, runProctor } from '../src/main/demo/testing-env';
import { isolationSupport } from '../src/main/env/local/confinement';
import { startEnvServe, type EnvServer } from './support/env-serve';

const missing = missingDemoPrograms();
const why = missing.length ? `needs ${missing.join(', ')}` : '';
const KEY = `LEAKCHECK-envserve-${process.pid}`;

describe.skipIf(!!why)(`proctor env serve ${why}`, () => {
  let server: EnvServer;
  let url: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'proctor-env-serve-e2e-'));
    server = await startEnvServe(['--port', '0'], { ...process.env, PROCTOR_API_KEY: KEY });
    url = server.url;
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it.skipIf(!isolationSupport().available)(
    "its sessions see none of the server's environment (the key stays out)",
    async () => {
      const r = await fetch(`${url}/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          command: 'grep -al LEAKCHECK /proc/[0-9]*/environ; env | grep -c LEAKCHECK; echo probe-done',
          shell: true,
        }),
      });
      const body = (await r.json()) as { output: string };
      expect(body.output).toContain('probe-done');
      expect(body.output).not.toMatch(/\/proc\/\d+\/environ/);
      expect(body.output).toMatch(/^0$/m);
    },
  );

  it('runs the bundled demo over the protocol: oracle 1 and noop 0 on every task, like the local demo', async () => {
    const port = new URL(url).port;
    const r = await runProctor(
      ['demo', '--env', `osworld://127.0.0.1:${port}`, '--out', join(root, 'demo')],
      600_000,
    );
    expect(r.stdout, r.stderr).toMatch(/PASS: (\d+) of \1 expectations met/);
    expect(r.code).toBe(0);
  }, 660_000);
});
