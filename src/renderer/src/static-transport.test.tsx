// A `proctor export html` site answers what it can without an engine: runs compared from the exported
// trajectories (a repeated run by its first attempt), no labelling work for the reader, and every change refused.
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskTrajectory } from '../../shared/api';
import { runDataKey, SITE_LOAD, taskDataKey, type SiteIndex } from '../../shared/static-site';
import { staticClient } from './static-transport';
import { runListItem, stepOf, trajectory } from './test/fixtures';

const site: SiteIndex = {
  format: 'proctor-site',
  version: 1,
  proctorVersion: '1.0.0',
  createdAt: '2026-01-01T00:00:00Z',
  title: 'two runs',
  runs: [runListItem('runs/a', { agent: 'oracle' }), runListItem('runs/b', { agent: 'llm', model: 'm1' })],
  index: [
    { runId: 'a', path: 'runs/a', data: 'data/runs/0.js', tasks: ['chrome/t1'] },
    { runId: 'b', path: 'runs/b', data: 'data/runs/1.js', tasks: ['chrome/t1#1', 'chrome/t1#2'] },
  ],
};

/** What the exported data files hand to the loader (a <script> tag each, in a browser). */
function exported(): void {
  const load = (window as unknown as Record<string, (key: string, value: unknown) => void>)[SITE_LOAD];
  const traj = (runId: string, taskKey: string, x: number): TaskTrajectory => ({
    ...trajectory({ runId, taskKey }),
    steps: [
      stepOf(1, { actions: [{ type: 'click', x: 10, y: 10 }] }),
      stepOf(2, { actions: [{ type: 'click', x, y: 10 }] }),
    ],
  });
  load(runDataKey(0), { detail: {}, stats: null, statsWithErrors: null });
  load(taskDataKey(0, 0), { trajectory: traj('a', 'chrome/t1', 40), demo: null });
  load(taskDataKey(1, 0), { trajectory: traj('b', 'chrome/t1#1', 400), demo: null });
}

afterEach(() => document.documentElement.classList.remove('read-only'));

describe('the static site transport', () => {
  it("compares a task in two runs from their exported trajectories, a repeated run's by its first attempt", async () => {
    const client = staticClient(site);
    exported();
    const cmp = await client.call('runs.compare', { runIds: ['a', 'b'], taskKey: 'chrome/t1' });
    expect(cmp.runs.map((r) => [r.run.path, r.run.agent, r.taskKey])).toEqual([
      ['runs/a', 'oracle', 'chrome/t1'],
      ['runs/b', 'llm', 'chrome/t1#1'],
    ]);
    expect(cmp.actionDivergence).toBe(2);
    await expect(client.call('runs.compare', { runIds: ['a', 'a'], taskKey: 'chrome/t1' })).rejects.toThrow(
      'a run is named twice',
    );
    await expect(client.call('runs.compare', { runIds: ['a', 'zzz'], taskKey: 'chrome/t1' })).rejects.toThrow(
      "no run 'zzz' in this export",
    );
  });

  it('gives the reader no labelling work, and refuses what would change something or needs the engine', async () => {
    const client = staticClient(site);
    expect(await client.call('labels.queue', {})).toEqual({ person: 'reader', items: [], done: 0, total: 0 });
    await expect(client.call('runs.stepDiffs', { runIds: ['a', 'b'], taskKey: 'chrome/t1' })).rejects.toThrow(
      'this is a read-only export: runs.stepDiffs needs `proctor serve`',
    );
    await expect(
      client.call('labels.add', { runId: 'a', taskKey: 'chrome/t1', label: { complete: 'yes' } }),
    ).rejects.toThrow('read-only export');
    expect(document.documentElement.classList.contains('read-only')).toBe(true);
  });
});
