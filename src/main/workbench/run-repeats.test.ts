// `runs.start` with `repeats` (the Start a run form's repeats field) through the contract: every task runs N times,
// each attempt its own entry, folder and cause, like `proctor run --repeats N`; combinations whose approvals or
// stops are kept per task are refused. Real workbench, store and shell environment (a registered test kind).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/run';
import { environmentKinds } from '../env/registry';
import { createShellEnvironment } from '../env/local/shell-environment';
import { createWorkbench } from './workbench';

if (!environmentKinds.has('test-shell-repeats'))
  environmentKinds.register('test-shell-repeats', {
    summary: 'test-shell-repeats  a shell environment (run-repeats.test.ts)',
    capabilities: { provides: ['shell', 'files', 'launch', 'browser'], runsOn: 'this-machine' },
    check() {},
    async create(_spec, request) {
      return createShellEnvironment({ home: request.home });
    },
  });

const root = mkdtempSync(join(tmpdir(), 'proctor-wb-repeats-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const taskDir = join(root, 'tasks', 'cli', 'echo');
mkdirSync(taskDir, { recursive: true });
writeFileSync(join(taskDir, 'gold.txt'), 'hello\n');
writeFileSync(
  join(taskDir, 'echo.json'),
  JSON.stringify({
    id: 'echo',
    snapshot: 'os',
    instruction: 'Write hello to ~/answer.txt',
    source: ['https://example.org'],
    related_apps: ['os'],
    tags: ['cli', 'abstract'],
    config: [],
    evaluation: {
      func: 'compare_text_file',
      arguments: { local_expected: 'gold.txt', vm_result: '/home/user/answer.txt' },
    },
  }),
);

describe('runs.start with repeats', () => {
  const wb = createWorkbench(root, { transport: 'ipc' });
  afterAll(() => wb.close());

  it('runs the task twice: two attempts, each with its own folder, attempt number and cause', async () => {
    const events: RunEvent[] = [];
    let finished!: () => void;
    const done = new Promise<void>((ok) => (finished = ok));
    const off = wb.events.subscribeAll((name, e) => {
      if (name !== 'run') return;
      events.push(e as RunEvent);
      if ((e as RunEvent).kind === 'run.finished') finished();
    });
    try {
      const { runId } = await wb.handlers['runs.start']({
        tasks: ['tasks/cli/echo'],
        agent: 'noop',
        env: 'test-shell-repeats',
        repeats: 2,
      });
      await done;
      const detail = await wb.handlers['runs.get']({ runId });
      expect(detail.tasks.map((t) => [t.key, t.taskId, t.attempt, t.state])).toEqual([
        ['cli/echo#1', 'echo', 1, 'success'],
        ['cli/echo#2', 'echo', 2, 'success'],
      ]);
      // noop says it is done without writing the answer: each attempt scored 0, the agent's failure
      expect(detail.tasks.map((t) => t.cause)).toEqual(['agent_failure', 'agent_failure']);
      const manifest = JSON.parse(
        readFileSync(join(root, 'results', runId.split('/').pop()!, 'manifest.json'), 'utf8'),
      );
      expect(manifest.repeats).toBe(2);
      expect(
        new Set(Object.values(manifest.taskInfo as Record<string, { dir: string }>).map((i) => i.dir)).size,
      ).toBe(2);
      // the live events name each attempt and its cause
      const ends = events.filter(
        (e): e is Extract<RunEvent, { kind: 'task.finished' }> => e.kind === 'task.finished',
      );
      expect(ends.map((e) => [e.taskKey, e.cause]).sort()).toEqual([
        ['cli/echo#1', 'agent_failure'],
        ['cli/echo#2', 'agent_failure'],
      ]);
    } finally {
      off();
    }
  });

  it('refuses repeats with approval of each action (approvals are kept per task), starting nothing', async () => {
    await expect(
      wb.handlers['runs.start']({
        tasks: ['tasks/cli/echo'],
        agent: 'noop',
        env: 'test-shell-repeats',
        repeats: 3,
        approveEachAction: true,
      }),
    ).rejects.toThrow(/repeats 3: not with approve each action/);
  });
});
