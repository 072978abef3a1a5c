// An environment that comes up after its attempt stopped (the time limit struck, or the run was stopped, while it
// was starting) is closed once it is up, not left running. Real shell environments, started late on purpose.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../agents/agent';
import type { Environment } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { readRun } from '../store/reader';
import { defaultParts, type RunnerParts } from './parts';
import { runTasks } from './scheduler';
import { writeAnswerTask } from './testing/answer-task';

const agent = (): Agent => ({
  name: 'idle',
  async start() {},
  async next() {
    return { response: 'DONE', actions: [{ type: 'DONE' }] };
  },
});

/** A shell environment that is ready only after `delayMs`; `seen` says when it was made and when it was closed. */
function slowShell(delayMs: number, seen: { made?: boolean; closed?: boolean }): Partial<RunnerParts> {
  return {
    async createEnvironment(r) {
      await new Promise((res) => setTimeout(res, delayMs));
      const real = await createShellEnvironment({ home: r.home });
      seen.made = true;
      return new Proxy(real, {
        get: (t, k, rcv) =>
          k === 'close'
            ? async () => {
                seen.closed = true;
                await real.close();
              }
            : (Reflect.get(t, k, rcv) as unknown),
      }) as Environment;
    },
  };
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

async function oneTask() {
  const root = mkdtempSync(join(tmpdir(), 'proctor-late-env-'));
  writeAnswerTask(root, 't', { tags: ['cli', 'abstract'] });
  const { tasks } = await (await defaultParts()).loadTasks([root]);
  return { root, tasks };
}

describe('an environment that starts after its attempt stopped', () => {
  it('is closed once up when the time limit struck while it was starting', async () => {
    const { root, tasks } = await oneTask();
    const seen: { made?: boolean; closed?: boolean } = {};
    const out = await runTasks(tasks, {
      agent,
      agentName: 'idle',
      parts: slowShell(600, seen),
      taskTimeoutMs: 150,
      outDir: join(root, 'results'),
    });
    expect(readRun(out.runDir).tasks[0]).toMatchObject({ state: 'timed_out', cause: 'env_error' });
    await until(() => !!seen.closed, 5000);
    expect(seen).toEqual({ made: true, closed: true });
  });

  it('is closed once up when the run was stopped while it was starting', async () => {
    const { root, tasks } = await oneTask();
    const seen: { made?: boolean; closed?: boolean } = {};
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 150);
    const out = await runTasks(tasks, {
      agent,
      agentName: 'idle',
      parts: slowShell(600, seen),
      signal: stop.signal,
      outDir: join(root, 'results'),
    });
    expect(out.cancelled).toBe(true);
    await until(() => !!seen.closed, 5000);
    expect(seen).toEqual({ made: true, closed: true });
  });
});
