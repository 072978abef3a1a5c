// Starts `proctor serve` as a child process on a free port and a Debian Chromium driven by playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const projectRoot = resolve(import.meta.dirname, '../..');
export const chromiumPath = process.env.PROCTOR_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumMissing = existsSync(chromiumPath) ? undefined : `no Chromium at ${chromiumPath}`;

export interface Served {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export async function serve(folder: string, extra: string[] = []): Promise<Served> {
  const child = spawn(
    process.execPath,
    [resolve(projectRoot, 'bin/proctor.mjs'), 'serve', '--port', '0', ...extra, folder],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`proctor serve did not start:\n${out}`)), 120_000);
    const check = () => {
      const m = /Open (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => fail(new Error(`proctor serve exited with ${code}:\n${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export const artefactsDir = resolve(projectRoot, 'test-results', 'screens');

export interface Workbench {
  /** A fresh folder that `proctor serve` serves. */
  root: string;
  served: Served;
  browser: Browser;
}

/**
 * Registers beforeAll/afterAll for a describe block: a temp folder filled by `prepare`, `proctor serve` on it,
 * and Debian Chromium. The returned object is filled in before the tests run.
 */
export function useWorkbench(
  prefix: string,
  prepare: (root: string) => Promise<void> | void = () => undefined,
): Workbench {
  const w = {} as Workbench;
  beforeAll(async () => {
    w.root = mkdtempSync(join(tmpdir(), `proctor-${prefix}-`));
    await prepare(w.root);
    w.served = await serve(w.root);
    w.browser = await launchChromium();
    mkdirSync(artefactsDir, { recursive: true });
  });
  afterAll(async () => {
    await w.browser?.close();
    await w.served?.stop();
    if (w.root) rmSync(w.root, { recursive: true, force: true });
  });
  return w;
}
