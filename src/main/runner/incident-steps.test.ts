// An incident of the environment is named on the step it happened in, and on no step once the agent's steps are
// over (postconfig, grading): never on a step that was not taken. A real shell environment whose incidents are
// a test double, through the real step loop and store.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/run';
import type { Agent } from '../agents/agent';
import type { Environment, EnvironmentIncident } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { PostconfigError } from '../evaluators/grade';
import { defaultParts } from './parts';
import { runTasks } from './scheduler';
import { writeAnswerTask } from './testing/answer-task';

describe('incidents name the step they happened in', () => {
  it('an incident during postconfig after the last step is on no step', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-incident-'));
    writeAnswerTask(root, 't', { tags: ['cli', 'abstract'] });
    const { tasks } = await (await defaultParts()).loadTasks([root]);
    const pending: EnvironmentIncident[] = [];
    const incident = (name: string) =>
      pending.push({ at: new Date().toISOString(), incident: name, message: name });
    const agent = (): Agent => ({
      name: 'one-step',
      async start() {},
      async next() {
        incident('during.step');
        return { response: 'DONE', actions: [{ type: 'DONE' }] };
      },
    });
    const out = await runTasks(tasks, {
      agent,
      agentName: 'one-step',
      outDir: join(root, 'results'),
      parts: {
        async createEnvironment(r) {
          const real = await createShellEnvironment({ home: r.home });
          const incidents = () => pending.splice(0);
          return new Proxy(real, {
            get: (t, k, rcv) => (k === 'incidents' ? incidents : (Reflect.get(t, k, rcv) as unknown)),
          }) as Environment;
        },
        grade: () => {
          incident('during.postconfig');
          return Promise.reject(new PostconfigError('postconfig step 1 failed'));
        },
      },
    });
    const events = readFileSync(join(out.runDir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RunEvent)
      .filter((e) => e.kind === 'task.incident');
    expect(out.tasks[0]).toMatchObject({ state: 'env_error', steps: 1 });
    expect(events.map((e) => [e.incident, e.step])).toEqual([
      ['during.step', 1],
      ['during.postconfig', undefined],
    ]);
  });
});
