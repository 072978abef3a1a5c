// runs.queue through the workbench's handlers: a run enqueued on a real redis-server shows its jobs; a run without
// a queue has none; a queue that is down is a clear error, quickly.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultParts } from '../runner/parts';
import { enqueueRun } from '../queue/enqueue';
import { freePort, hasRedisServer, TestRedis } from '../queue/testing/redis-server';
import { createWorkbench } from './workbench';

function writeTask(root: string, id: string): string {
  const dir = join(root, 'tasks', 'os', id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gold.txt'), 'x\n');
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      id,
      snapshot: 'os',
      instruction: 'Write x to ~/answer.txt',
      source: ['https://example.org'],
      related_apps: ['os'],
      config: [],
      evaluation: {
        func: 'compare_text_file',
        arguments: { local_expected: 'gold.txt', vm_result: '/home/user/answer.txt' },
      },
    }),
  );
  return dir;
}

describe.skipIf(!hasRedisServer)('runs.queue (needs redis-server)', () => {
  let redis: TestRedis;
  let root: string;

  beforeAll(async () => {
    redis = await TestRedis.start();
    root = mkdtempSync(join(tmpdir(), 'proctor-queue-view-'));
  }, 60_000);

  afterAll(async () => {
    await redis?.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it("shows a queued run's jobs by state; nothing for a run without a queue; a down queue as an error", async () => {
    const { tasks } = await (await defaultParts()).loadTasks([writeTask(root, 'a1'), writeTask(root, 'b2')]);
    const q = await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results') },
      { queue: redis.url, name: 'queued-run' },
    );
    const wb = createWorkbench(join(root, 'results'), { transport: 'http' });
    try {
      const view = await wb.handlers['runs.queue']({ runId: 'queued-run' });
      expect(view?.queue).toBe(redis.url);
      expect(view?.status).toMatchObject({
        runId: 'queued-run',
        total: 2,
        waiting: 2,
        active: 0,
        done: 0,
        failed: 0,
      });
      expect(q.runDir).toContain('queued-run');

      // the same run pointed at a queue nobody listens on
      const port = await freePort();
      const manifest = join(q.runDir, 'manifest.json');
      const text = readFileSync(manifest, 'utf8');
      writeFileSync(manifest, text.replace(redis.url, `redis://127.0.0.1:${port}`));
      const down = await wb.handlers['runs.queue']({ runId: 'queued-run' });
      expect(down?.error).toMatch(new RegExp(`127\\.0\\.0\\.1:${port} cannot be reached \\(ECONNREFUSED\\)`));
    } finally {
      await wb.close();
    }
  }, 60_000);

  it('answers null for a run that went through no queue', async () => {
    const dir = join(root, 'plain', '20261122-000000-oracle');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        runId: '20261122-000000-oracle',
        createdAt: new Date().toISOString(),
        agent: 'oracle',
        actionSpace: 'pyautogui',
        observation: 'screenshot',
        tasks: [],
        args: [],
      }),
    );
    writeFileSync(join(dir, 'events.jsonl'), '');
    const wb = createWorkbench(join(root, 'plain'), { transport: 'http' });
    try {
      expect(await wb.handlers['runs.queue']({ runId: '20261122-000000-oracle' })).toBeNull();
    } finally {
      await wb.close();
    }
  });
});
