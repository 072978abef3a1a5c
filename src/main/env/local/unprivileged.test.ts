// A sandbox session opened by an unprivileged user, as most people run Proctor (the other tests run as root, where
// the sandbox switches to uid 65534 itself). Root here only to become that user: the session runs as uid 65534
// from the start, in namespaces it makes without privilege.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { projectRoot } from '../../demo/paths';
import { missingDemoPrograms } from '../../demo/testing-env';
import { removeTree } from '../remove-tree';

const USER = 65534;
const asUser = ['setpriv', `--reuid=${USER}`, `--regid=${USER}`, '--clear-groups', '--'];
const script = fileURLToPath(new URL('./testing/unprivileged-session.ts', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function whyNot(): string {
  if (process.getuid?.() !== 0) return 'runs as root, to become an unprivileged user';
  const missing = [
    ...missingDemoPrograms(),
    ...['setpriv', 'bwrap', 'nsenter', 'unshare', 'script'].filter(
      (p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0,
    ),
  ];
  if (missing.length) return `needs ${missing.join(', ')}`;
  if (
    spawnSync(asUser[0], [...asUser.slice(1), 'test', '-r', join(projectRoot, 'package.json')]).status !== 0
  )
    return `uid ${USER} cannot read ${projectRoot}`;
  return '';
}
const why = whyNot();

describe.skipIf(!!why)(`a sandbox session of an unprivileged user${why ? ` (skipped: ${why})` : ''}`, () => {
  it(
    'is isolated in namespaces it made without root: its own pids and hostname, the caller uid, ptys, a display, accessibility',
    { timeout: 120_000 },
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'proctor-unprivileged-'));
      chownSync(home, USER, USER);
      try {
        const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const child = spawn(asUser[0], [...asUser.slice(1), process.execPath, '--import', tsx, script], {
            cwd: home,
            env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.stderr.on('data', (d: Buffer) => (err += d.toString()));
          child.on('close', (code) => resolve({ code, out, err }));
        });
        expect(r.code, r.err).toBe(0);
        expect(r.err).not.toMatch(/NOT isolated/);
        const seen = JSON.parse(r.out.trim().split('\n').pop()!) as Record<string, unknown>;
        expect(seen).toMatchObject({
          isolation: 'namespaces',
          callerUid: USER,
          uid: USER, // the caller's own uid inside, never root: apps that refuse root (VLC) run
          hostname: 'proctor-sandbox',
          hostOwner: USER,
          window: true,
          screenshot: [800, 600],
        });
        expect(seen.pids as number).toBeLessThan(30); // its own PID namespace, not the host's processes
        expect(seen.tty).toMatch(/^\/dev\/pts\/\d+$/);
        expect(seen.accessible).toContain('mousepad'); // its accessibility tree, over the sandbox's own bus
      } finally {
        await removeTree(home);
      }
    },
  );
});
