// demos.review / demos.get over real HTTP as people of a team: only a lead reviews, the reason is required, the
// verdict is stored with its author and role, and the task's review evidence lists the accepted demonstration.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHumanRun } from '../annotate/testing/human-run';
import { osworldRun } from '../annotate/testing/runs';
import { projectRoot } from '../demo/paths';
import { serveForTest, type Served } from '../server/testing/served';

const taskId = '246ccb60-7635-46fa-a222-6f4261e826ee';
let root: string;
let served: Served;
let run: { runId: string; taskKey: string };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proctor-demo-handlers-'));
  mkdirSync(join(root, 'tasks'));
  copyFileSync(
    join(projectRoot, 'resources/demo/terminal', taskId, `${taskId}.json`),
    join(root, 'tasks', `${taskId}.json`),
  );
  run = await writeHumanRun(
    join(root, 'results'),
    { domain: 'terminal', id: taskId },
    ["pyautogui.press('enter')", 'DONE'],
    'ada-demo',
  );
  osworldRun(root, 'agentRun', { t1: 1 });
  served = await serveForTest(root, { ann: 'annotator', rev: 'reviewer', lee: 'lead' });
});
afterAll(async () => {
  await served?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('demonstration review over the workbench', () => {
  it("lets only a lead accept a person's run, with a reason, and shows it in the task's review evidence", async () => {
    const params = {
      runId: run.runId,
      taskKey: run.taskKey,
      verdict: 'accepted',
      reason: 'clean, the file is right',
    };
    for (const person of ['ann', 'rev']) {
      const r = await served.call(person, 'demos.review', params);
      expect(r.status).toBe(403);
      expect(r.error?.message).toMatch(/only leads may review demonstrations/);
    }
    expect((await served.call('lee', 'demos.review', { ...params, reason: '   ' })).status).toBe(400);
    expect((await served.call('ann', 'demos.get', { runId: run.runId, taskKey: run.taskKey })).status).toBe(
      403,
    );
    const before = await served.call('rev', 'demos.get', { runId: run.runId, taskKey: run.taskKey });
    expect(before.result).toEqual({
      runId: run.runId,
      taskKey: run.taskKey,
      byPerson: true,
      score: 0,
      reviews: [],
    }); // the person's run scored 0 by the rule

    const accepted = await served.call('lee', 'demos.review', params);
    expect(accepted.status).toBe(200);
    expect(accepted.result).toMatchObject({
      byPerson: true,
      status: 'accepted',
      reviews: [{ verdict: 'accepted', reason: 'clean, the file is right', author: 'lee', role: 'lead' }],
    });

    const evidence = await served.call('rev', 'reviews.get', { task: `tasks/${taskId}.json` });
    expect(evidence.status).toBe(200);
    expect(evidence.result.demonstrations).toMatchObject([
      { runId: 'ada-demo', taskKey: `terminal/${taskId}`, author: 'lee', reason: 'clean, the file is right' },
    ]);

    const rejected = await served.call('lee', 'demos.review', {
      ...params,
      verdict: 'rejected',
      reason: 'it skipped a check',
    });
    expect(rejected.result).toMatchObject({ status: 'rejected' });
    expect(rejected.result.reviews).toHaveLength(2);
    expect(
      (await served.call('rev', 'reviews.get', { task: `tasks/${taskId}.json` })).result.demonstrations,
    ).toEqual([]);
  });

  it("refuses to review a run that is not a person's, saying why", async () => {
    const got = await served.call('lee', 'demos.get', { runId: 'agentRun', taskKey: 'demo/t1' });
    expect(got.result).toMatchObject({ byPerson: false, reviews: [] });
    const r = await served.call('lee', 'demos.review', {
      runId: 'agentRun',
      taskKey: 'demo/t1',
      verdict: 'accepted',
      reason: 'r',
    });
    expect(r.status).toBe(400);
    expect(r.error?.message).toMatch(/only a person's run can be a demonstration/);
    expect(r.error?.message).not.toContain(root);
  });
});
