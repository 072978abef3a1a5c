// A step the agent has taken is stored even when the run is stopped while its after-screenshot is being taken (a
// person pressing Stop just as a refused step paused the run lost that step: found by the safety e2e on a loaded
// machine). Real shell environment; its screenshot made slow on purpose, and the stop pressed during it.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

function filesNamed(dir: string, name: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesNamed(p, name) : f === name ? [p] : [];
  });
}

describe('a run stopped in the middle of a step', () => {
  it('keeps the step the agent took, then ends the attempt as stopped', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-stop-mid-step-'));
    writeAnswerTask(root, 't', { tags: ['cli', 'abstract'] });
    const { tasks } = await (await defaultParts()).loadTasks([root]);
    const stop = new AbortController();
    const parts: Partial<RunnerParts> = {
      async createEnvironment(r) {
        const real = await createShellEnvironment({ home: r.home });
        const capabilities = new Set([...real.capabilities, 'screenshot' as const]);
        return new Proxy(real, {
          get: (t, k, rcv) =>
            k === 'capabilities'
              ? capabilities
              : k === 'screenshot'
                ? () => {
                    stop.abort(); // the person presses Stop while the screen is being taken
                    return new Promise((_, reject) => setTimeout(() => reject(new Error('too late')), 2000));
                  }
                : (Reflect.get(t, k, rcv) as unknown),
        }) as Environment;
      },
      observe: async (_env, type) => ({ type, bindings: {} }),
    };
    const agent = (): Agent => ({
      name: 'cautious',
      async start() {},
      async next() {
        return { response: 'wait a moment', actions: [{ type: 'WAIT' }] };
      },
    });
    const out = await runTasks(tasks, {
      agent,
      agentName: 'cautious',
      parts,
      waitMs: 1,
      signal: stop.signal,
      outDir: join(root, 'results'),
    });
    const [steps] = filesNamed(out.runDir, 'steps.jsonl');
    expect(steps, 'steps.jsonl written').toBeDefined();
    const lines = readFileSync(steps, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { step: number });
    expect(lines.map((l) => l.step)).toEqual([1]);
    expect(readRun(out.runDir).tasks[0].state).not.toBe('success');
  });
});
