// `proctor stop` on a real `proctor run` process (the demo's terminal tasks on a sandbox display): the run's
// process ends, its running task is cancelled, and the run is left resumable; a finished run is said to be so.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingDemoPrograms, runProctor } from '../../demo/testing-env';

const projectRoot = resolve(__dirname, '../../../..');
const missing = missingDemoPrograms().filter((p) =>
  ['Xvfb', 'openbox', 'xdotool', 'xterm', 'sqlite3', 'dbus-daemon'].includes(p),
);
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';
const out = mkdtempSync(join(tmpdir(), 'proctor-stop-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const waitFor = async <T>(what: string, ms: number, probe: () => T | undefined): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.skipIf(!!why)(`proctor stop${why}`, () => {
  it('stops a running proctor run: its process ends, the running task is cancelled, the run resumable', async () => {
    const run = spawn(
      process.execPath,
      [
        resolve(projectRoot, 'bin/proctor.mjs'),
        'run',
        join(projectRoot, 'resources/demo/terminal'),
        '--agent',
        'oracle',
        '--out',
        out,
      ],
      {
        cwd: projectRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let said = '';
    run.stdout.on('data', (d) => (said += d));
    run.stderr.on('data', (d) => (said += d));
    const ended = new Promise<number | null>((ok) => run.on('exit', (code) => ok(code)));
    const runDir = await waitFor('run folder with a started task', 120_000, () => {
      const name = existsSync(out) ? readdirSync(out)[0] : undefined;
      const events = name ? join(out, name, 'events.jsonl') : undefined;
      return events && existsSync(events) && readFileSync(events, 'utf8').includes('"task.started"')
        ? join(out, name!)
        : undefined;
    });
    const stop = await runProctor(['stop', runDir], 120_000);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toMatch(/stopping .* its running tasks are cancelled/);
    expect(stop.stdout).toMatch(/stopped; proctor run --resume .* continues it/);
    expect(await ended).not.toBeNull(); // the run's own process has ended, by itself
    expect(said).toMatch(/stopping: the running tasks are cancelled and the run stays resumable/);
    const finished = readFileSync(join(runDir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; state?: string })
      .filter((e) => e.kind === 'task.finished');
    expect(finished.length).toBeLessThan(3); // not every task ran
    expect(finished.map((e) => e.state)).toContain('cancelled');

    const again = await runProctor(['stop', runDir], 30_000);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/is not running \(its process has ended\); proctor run --resume/);
  }, 300_000);

  it('refuses a folder that is no run', async () => {
    const r = await runProctor(['stop', out], 30_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is no Proctor run folder \(no manifest.json\)/);
  });
});
