// `proctor env serve`: usage mistakes, and the real command serving a sandbox display with a token from a file.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../main';

const bin = fileURLToPath(new URL('../../../../bin/proctor.mjs', import.meta.url));
const hasX = spawnSync('sh', ['-c', 'command -v Xvfb openbox xdotool']).status === 0;

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('proctor env', () => {
  it('refuses usage mistakes before starting anything', async () => {
    for (const [argv, message] of [
      [['env'], 'give a subcommand'],
      [['env', 'start'], "unknown subcommand 'env start'"],
      [['env', 'serve', '--port', 'x'], '--port must be'],
      [['env', 'serve', '--display', '7'], '--display must look like :N'],
      [['env', 'serve', '--width', '10'], '--width must be'],
      [['env', 'serve', '--token-file', '/nonexistent/token'], '--token-file: no file'],
      [['env', 'serve', '--allow-paths', '/nonexistent/dir'], '--allow-paths: not a folder'],
      [['env', 'serve', 'extra'], "unexpected 'extra'"],
    ] as const) {
      const c = capture();
      expect(await main([...argv], c.io)).toBe(2);
      expect(c.err.join('\n')).toContain(message);
    }
  });

  it.skipIf(!hasX)(
    'serves a sandbox display, requiring the token from --token-file, until stopped',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'proctor-env-cli-'));
      const tokenFile = join(dir, 'token');
      const token = 'token-from-a-file-0123456789';
      writeFileSync(tokenFile, `${token}\n`);
      const child = spawn(
        process.execPath,
        [bin, 'env', 'serve', '--port', '0', '--width', '640', '--height', '480', '--token-file', tokenFile],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      try {
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        const url = await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no address printed: ${out}`)), 60_000);
          child.stdout.on('data', () => {
            const m = /on (http:\/\/127\.0\.0\.1:\d+) driving display :\d+ \(sandbox\)/.exec(out);
            if (m) {
              clearTimeout(timer);
              resolve(m[1]);
            }
          });
        });
        expect(out).not.toContain(token); // a token from a file is never printed
        expect((await fetch(`${url}/screen_size`, { method: 'POST' })).status).toBe(401);
        const ok = await fetch(`${url}/screen_size`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(await ok.json()).toEqual({ width: 640, height: 480 });
        child.kill('SIGTERM');
        expect(await new Promise((r) => child.once('exit', (code) => r(code)))).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
