// The display worker bundled into one JavaScript file (run by Node alone): it loads, keeps nut.js and sharp
// outside by absolute file URL, is reused for the same content, and a worker forked from it answers.
import { describe, expect, it } from 'vitest';
import { fork } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundledWorker } from './worker-bundle';

const entry = fileURLToPath(new URL('./worker.ts', import.meta.url));

describe('bundled display worker', () => {
  it('is one private .mjs file that imports nut.js and sharp from their absolute paths, the same for the same source', async () => {
    const file = await bundledWorker(entry);
    expect(file).toMatch(/worker-[0-9a-f]{16}\.mjs$/);
    const code = readFileSync(file!, 'utf8');
    expect(code).toMatch(/import\("file:\/\/\/[^"]*@nut-tree-fork\/nut-js[^"]*"\)/);
    expect(code).toMatch(/file:\/\/\/[^"]*\/sharp\//);
    expect(code).not.toMatch(/from "\.\/keys"/); // the worker's own modules are inside
    expect(statSync(file!).mode & 0o077).toBe(0);
    expect(await bundledWorker(entry)).toBe(file);
  });

  it('runs under Node alone: without a display it says so and exits, as worker.ts does', async () => {
    const file = (await bundledWorker(entry))!;
    const child = fork(file, [], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: [],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(2);
    expect(stderr).toContain('the display worker needs DISPLAY');
  });
});
