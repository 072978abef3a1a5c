// What the demo's end-to-end tests need on this machine; a test that cannot run says which is missing.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { onPath } from '../tasks/needs';
import { projectRoot } from './paths';

const needed = ['Xvfb', 'openbox', 'xdotool', 'xterm', 'mousepad', 'sqlite3', 'chromium', 'dbus-daemon'];

/** Programs the demo tasks need that are not on PATH (empty when the demo can run here). */
export function missingDemoPrograms(): string[] {
  return needed.filter((p) => !onPath(p));
}

/** Runs `node bin/proctor.mjs <args>` from the project root (with `env` added); SIGINT after `timeoutMs`. With
 * `asUid` (the caller must be root) it runs as that user, with no supplementary groups. */
export function runProctor(
  args: string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = {},
  asUid?: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const argv = [process.execPath, resolve(projectRoot, 'bin/proctor.mjs'), ...args];
    if (asUid !== undefined)
      argv.unshift('setpriv', `--reuid=${asUid}`, `--regid=${asUid}`, '--clear-groups', '--');
    const child = spawn(argv[0], argv.slice(1), {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGINT'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr });
    });
  });
}
