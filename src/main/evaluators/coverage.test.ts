import { describe, expect, it } from 'vitest';
import { loadTasks } from '../tasks/reader';
import { main } from '../cli/main';
import { coverageOf } from './coverage';
import { spider2vExamples, seedJupyter } from './testing/fixtures';
import { needsShared, sharedFixtures } from '../testing/shared-fixtures';

const full = sharedFixtures();

describe('evaluator coverage', () => {
  it.skipIf(!full)(
    `grades every Spider2-V task without the account tag, and the buckets add up to 494 (${needsShared})`,
    async () => {
      const { tasks } = await loadTasks([full!.spider2vExamples]);
      const cov = coverageOf(tasks);
      expect(cov.tasks).toBe(494);
      expect(cov.missing).toEqual({ metrics: {}, getters: {} });
      expect(cov.incomplete).toEqual([]);
      const withoutAccount = tasks.filter((t) => !t.tags.includes('account')).length;
      expect(cov.gradable).toBe(withoutAccount);
      expect(cov.gradable + Object.values(cov.needs_account).reduce((a, b) => a + b, 0)).toBe(494);
    },
  );
  it('grades every in-repo Spider2-V task without the account tag, and the buckets add up to 16', async () => {
    const { tasks } = await loadTasks([spider2vExamples]);
    const cov = coverageOf(tasks);
    expect(cov.tasks).toBe(16);
    expect(cov.missing).toEqual({ metrics: {}, getters: {} });
    expect(cov.incomplete).toEqual([]);
    const withoutAccount = tasks.filter((t) => !t.tags.includes('account')).length;
    expect(withoutAccount).toBe(12);
    expect(cov.gradable).toBe(withoutAccount);
    expect(cov.needs_account).toEqual({ google: 2, servicenow: 2 });
  });
  it.skipIf(!full)(`grades all 44 native seed tasks (${needsShared})`, async () => {
    const { tasks } = await loadTasks([full!.seedJupyter]);
    const cov = coverageOf(tasks);
    expect(cov).toMatchObject({ tasks: 44, gradable: 44, needs_account: {} });
  });
  it('grades all 12 in-repo native seed tasks', async () => {
    const { tasks } = await loadTasks([seedJupyter]);
    const cov = coverageOf(tasks);
    expect(cov).toMatchObject({ tasks: 12, gradable: 12, needs_account: {} });
  });
  it('counts unregistered names per task', async () => {
    const { tasks } = await loadTasks([seedJupyter]);
    const renamed = tasks
      .slice(0, 3)
      .map((t) => ({ ...t, checks: t.checks.map((c) => ({ ...c, metric: 'compare_everything' })) }));
    const cov = coverageOf(renamed);
    expect(cov.gradable).toBe(0);
    expect(cov.missing.metrics).toEqual({ compare_everything: 3 });
    expect(cov.missing_tasks.metrics.compare_everything).toEqual(renamed.map((t) => t.id));
    expect(cov.incomplete).toHaveLength(3);
  });
  const coverageJson = async (
    root: string,
  ): Promise<Record<string, unknown> & { tasks: number; departures: Record<string, number> }> => {
    const out: string[] = [];
    const code = await main(['evaluators', '--coverage', root, '--json'], {
      out: (l) => out.push(l),
      err: () => {},
    });
    expect(code).toBe(0);
    const json = JSON.parse(out.join('\n'));
    expect(Object.keys(json)).toEqual([
      'tasks',
      'gradable',
      'needs_account',
      'missing',
      'profiles',
      'departures',
      'missing_tasks',
      'unreadable',
    ]);
    expect(json.unreadable).toEqual([]);
    expect(json.missing).toEqual({ metrics: {}, getters: {} });
    return json;
  };
  it.skipIf(!full)(
    `proctor evaluators --coverage --json prints exactly the documented object (${needsShared})`,
    async () => {
      const json = await coverageJson(full!.spider2vExamples);
      expect(json.profiles).toEqual({ spider2v: 494 });
      expect(json.departures.compare_table).toBeGreaterThan(0);
      expect(json.tasks).toBe(494);
    },
  );
  it('proctor evaluators --coverage --json prints exactly the documented object (in-repo Spider2-V tasks)', async () => {
    const json = await coverageJson(spider2vExamples);
    expect(json.profiles).toEqual({ spider2v: 16 });
    expect(json.departures.compare_table).toBeGreaterThan(0);
    expect(json.tasks).toBe(16);
  });
});
