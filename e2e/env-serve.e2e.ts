// `proctor env serve` as people use it: a real server process on a sandbox display, holding a model key in its
// own environment. The bundled demo runs over the protocol (`proctor demo --env osworld://…`) and grades like
// the local demo (oracle 1, noop 0 on every task), and a command sent to the server's session finds no key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { missingDemoPrograms, runProctor } from '../src/main/demo/testing-env';
import { isolationSupport } from '../src/main/env/local/confinement';
import { projectRoot } from './support/serve';

const missing = missingDemoPrograms();
const why = missing.length ? `needs ${missing.join(', ')}` : '';
const KEY = `LEAKCHECK-envserve-${process.pid}`;

describe.skipIf(!!why)(`proctor env serve ${why}`, () => {
  let server: ChildProcess;
  let url: string;
  let out: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'proctor-env-serve-e2e-'));
    server = spawn(process.execPath, [resolve(projectRoot, 'bin/proctor.mjs'), 'env', 'serve', '--port', '0'], {
      cwd: projectRoot,
      env: { ...process.env, PROCTOR_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    out = '';
    server.stdout!.on('data', (d) => (out += d));
    server.stderr!.on('data', (d) => (out += d));
    url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`proctor env serve did not start:\n${out}`)), 120_000);
      server.stdout!.on('data', () => {
        const m = /env server on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          ok(m[1]);
        }
      });
      server.once('exit', (c) => fail(new Error(`proctor env serve exited ${c}:\n${out}`)));
    });
  }, 150_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    server?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it.skipIf(!isolationSupport().available)("its sessions see none of the server's environment (the key stays out)", async () => {
    const r = await fetch(`${url}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ command: 'grep -al LEAKCHECK /proc/[0-9]*/environ; env | grep -c LEAKCHECK; echo probe-done', shell: true }),
    });
    const body = (await r.json()) as { output: string };
    expect(body.output).toContain('probe-done');
    expect(body.output).not.toMatch(/\/proc\/\d+\/environ/);
    expect(body.output).toMatch(/^0$/m);
  });

  it('runs the bundled demo over the protocol: oracle 1 and noop 0 on every task, like the local demo', async () => {
    const port = new URL(url).port;
    const r = await runProctor(['demo', '--env', `osworld://127.0.0.1:${port}`, '--out', join(root, 'demo')], 600_000);
    expect(r.stdout, r.stderr).toMatch(/PASS: (\d+) of \1 expectations met/);
    expect(r.code).toBe(0);
  }, 660_000);
});
