// A real, display-free Proctor run for the share tests: one native task graded against its gold file on a shell
// environment, with a scripted agent that writes the answer, reports tokens, then says DONE.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent, AgentTurn } from '../../agents/agent';
import type { Environment } from '../../env/environment';
import { createShellEnvironment } from '../../env/local/shell-environment';
import { runTasks } from '../../runner/scheduler';
import { loadTasks } from '../../tasks/reader';

/** Writes the task set below `root`/shell-tasks and runs it into `root`/shell-runs; returns the run folder and its score. */
export async function shellRun(
  root: string,
): Promise<{ runDir: string; score: number | undefined; tasksDir: string }> {
  const tasksDir = join(root, 'shell-tasks');
  const dir = join(tasksDir, 'cli', 'text');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gold.txt'), 'the answer\n');
  writeFileSync(
    join(dir, 'text.json'),
    JSON.stringify({
      id: 'text',
      snapshot: 'os',
      instruction: 'Write the answer',
      source: ['https://example.org'],
      related_apps: ['os'],
      tags: ['cli', 'traditional_data_processing', 'abstract'],
      action_number: 2,
      config: [],
      evaluation: {
        func: 'compare_text_file',
        arguments: { local_expected: 'gold.txt', vm_result: '/home/user/answer.txt' },
      },
    }),
  );
  const { tasks } = await loadTasks([tasksDir]);
  let env: Environment | undefined;
  const agent = (): Agent => ({
    name: 'scripted',
    async start() {},
    async next(_o, step): Promise<AgentTurn> {
      if (step === 1) {
        await env!.putFile('/home/user/answer.txt', Buffer.from('the answer\n'));
        return {
          response: 'I write the answer file.',
          actions: [{ type: 'WAIT' }],
          tokens: { prompt: 1200, completion: 40 },
        };
      }
      return { response: 'DONE', actions: [{ type: 'DONE' }], tokens: { prompt: 1300, completion: 5 } };
    },
  });
  const outcome = await runTasks(tasks, {
    agent,
    agentName: 'scripted',
    outDir: join(root, 'shell-runs'),
    waitMs: 1,
    parts: {
      async createEnvironment(r) {
        env = await createShellEnvironment({ home: r.home });
        return env;
      },
    },
  });
  return { runDir: outcome.runDir, score: outcome.tasks[0]?.score, tasksDir };
}
