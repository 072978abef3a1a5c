// Reports over run folders written through the real store, with rates computed by hand below.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunWriter, taskDirFor } from '../store';
import type { ManifestTaskInfo } from '../store';
import type { TaskState } from '../../shared/run';
import { loadTasks } from '../tasks';
import { main } from '../cli/main';
import {
  breakdown,
  categoryName,
  categoryNames,
  compareRuns,
  rowFromItem,
  readReportRun,
  type BucketStats,
  type ReportRow,
} from '.';
import { formatBreakdown, formatComparison } from './format';
import { compareLinksFor } from './links';
import { needsShared, repoFixtures, sharedFixtures } from '../testing/shared-fixtures';

// The airbyte task and the categories come from the in-repo Spider2-V fixtures; the whole set is checked too when
// the full benchmark fixtures are beside the clone.
const spider2v = repoFixtures.spider2vExamples;
const full = sharedFixtures();
const airbyteId = 'd2f74fe6-0d19-46cc-8fe4-8a62dcd8818b';
const airbyteFile = join(spider2v, 'airbyte', airbyteId, `${airbyteId}.json`);

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'proctor-report-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** How a task of a written run ends: a summary (finished, errored, skipped), started only, or never started. */
type Ending =
  | { state: TaskState; score: number; tokens?: number; seconds?: number; steps?: number }
  | 'interrupted'
  | 'not started';

interface TaskSpec {
  key: string;
  info: Omit<ManifestTaskInfo, 'dir'>;
  ending: Ending;
}

/** Writes a run through RunWriter/TaskWriter as the runner does: steps with tokens, then the summary. */
async function writeRun(out: string, model: string, specs: TaskSpec[]): Promise<string> {
  const layout = { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'llm', model } as const;
  const taskInfo = Object.fromEntries(
    specs.map((s) => {
      const [domain, id] = s.key.split('/');
      return [s.key, { dir: taskDirFor(layout, domain, id), ...s.info }];
    }),
  );
  const run = await RunWriter.create(out, { ...layout, args: [], tasks: specs.map((s) => s.key), taskInfo });
  run.event({
    kind: 'run.started',
    runId: run.runId,
    at: new Date().toISOString(),
    tasks: specs.map((s) => s.key),
  });
  for (const s of specs) {
    if (s.ending === 'not started') continue;
    const tw = run.openTask(s.key);
    tw.started();
    if (s.ending === 'interrupted') {
      tw.close();
      continue;
    }
    const steps = s.ending.steps ?? 0;
    for (let n = 1; n <= steps; n++)
      await tw.recordStep(
        {
          step: n,
          at: new Date().toISOString(),
          actions: [{ type: 'WAIT' }],
          tokens: { prompt: 1000, completion: 100 },
        },
        undefined,
        { action: 'WAIT' },
      );
    const { state, score, tokens = 0, seconds = 0 } = s.ending;
    await tw.finish(state, {
      taskFields: { id: s.key.split('/')[1] },
      results: {
        score,
        eval_error: null,
        state,
        messages: state === 'success' ? [] : [`${state} in ${s.key}`],
        total_tokens: tokens,
        total_timing: seconds,
        steps,
      },
    });
  }
  run.event({ kind: 'run.finished', runId: run.runId, at: new Date().toISOString() });
  return run.runDir;
}

const tags = (...t: string[]) => t;

/**
 * Run A, 8 tasks; 3 pass (t1, t4, airbyte). By hand:
 *   overall 3/8 = 37.5%; failed 2 (t2, t8), errored 1 (t5), skipped 1 (t3), unfinished 1 (t6)
 *   category: ingestion t1 t2 airbyte 2/3; warehousing t3 0/1; transformation t4 1/1; traditional t5 t6 0/2; unknown t8 0/1
 *   difficulty: easy t1 t4 2/2; medium t2 t5 airbyte 1/3; hard t3 t6 0/2; unknown t8 0/1
 *   interface: cli t4 1/1; gui t2 t6 0/2; cli+gui t1 t3 t5 airbyte 2/4; unknown t8
 *   style: abstract t2 t4 t6 1/3; verbose t1 t3 t5 airbyte 2/4; unknown t8
 *   account: with t3 0/1; without the 6 others with tags 3/6; unknown t8
 * The airbyte task's manifest entry names only its task file: its metadata comes from the Spider2-V fixture.
 */
const runA: TaskSpec[] = [
  {
    key: 'airbyte/t1',
    info: {
      app: 'airbyte',
      tags: tags('cli+gui', 'data_ingestion_and_integration', 'verbose'),
      actionNumber: 3,
    },
    ending: { state: 'success', score: 1, tokens: 2200, seconds: 10, steps: 2 },
  },
  {
    key: 'airbyte/t2',
    info: {
      app: 'airbyte',
      tags: tags('gui', 'data_ingestion_and_integration', 'abstract'),
      difficulty: 'medium',
    },
    ending: { state: 'max_steps_error', score: 0, tokens: 4400, seconds: 30, steps: 4 },
  },
  {
    key: 'bigquery/t3',
    info: {
      app: 'bigquery',
      tags: tags('cli+gui', 'data_warehousing', 'account', 'verbose'),
      actionNumber: 20,
    },
    ending: { state: 'skipped', score: 0 },
  },
  {
    key: 'dbt/t4',
    info: { app: 'dbt', tags: tags('cli', 'data_transformation', 'abstract'), actionNumber: 2 },
    ending: { state: 'success', score: 1, tokens: 1100, seconds: 5, steps: 1 },
  },
  {
    key: 'jupyter/t5',
    info: {
      app: 'jupyter',
      tags: tags('cli+gui', 'traditional_data_processing', 'verbose'),
      actionNumber: 10,
    },
    ending: { state: 'env_error', score: 0, tokens: 0, seconds: 2 },
  },
  {
    key: 'jupyter/t6',
    info: { app: 'jupyter', tags: tags('gui', 'traditional_data_processing', 'abstract'), actionNumber: 16 },
    ending: 'interrupted',
  },
  {
    key: `airbyte/${airbyteId}`,
    info: { file: airbyteFile },
    ending: { state: 'success', score: 1, tokens: 3300, seconds: 15, steps: 3 },
  },
  { key: 'misc/t8', info: {}, ending: { state: 'success', score: 0, tokens: 1100, seconds: 4, steps: 1 } },
];

/** Run B: the same tasks but t8; t1 now fails, t2 and t5 pass: 4/7 (t2, t4, t5, airbyte). */
const runB: TaskSpec[] = runA
  .filter((s) => s.key !== 'misc/t8')
  .map((s) => {
    if (s.key === 'airbyte/t1')
      return { ...s, ending: { state: 'success' as const, score: 0, tokens: 2200, seconds: 12, steps: 2 } };
    if (s.key === 'airbyte/t2' || s.key === 'jupyter/t5')
      return { ...s, ending: { state: 'success' as const, score: 1, tokens: 1100, seconds: 8, steps: 1 } };
    return s;
  });

const bucket = (list: BucketStats[] | undefined, name: string) => {
  const b = list?.find((s) => s.bucket === name);
  if (!b) throw new Error(`no bucket '${name}' in ${list?.map((s) => s.bucket).join(', ')}`);
  return b;
};
const rateOf = (list: BucketStats[] | undefined, name: string) => {
  const b = bucket(list, name);
  return [b.passed, b.tasks, b.rate];
};

let out: string;
let dirA: string;
let dirB: string;
const written = (async () => {
  out = tmp();
  dirA = await writeRun(out, 'model-a', runA);
  dirB = await writeRun(out, 'model-b', runB);
})();

describe('report: breakdowns of a run written through the store', () => {
  it('divides by every task of the run: skipped, errored and unfinished tasks count as 0 and are counted', async () => {
    await written;
    const run = await readReportRun(dirA);
    expect(run.rows).toHaveLength(8);
    const { overall } = breakdown(run.rows);
    expect(overall).toMatchObject({
      tasks: 8,
      passed: 3,
      scoreSum: 3,
      failed: 2,
      errored: 1,
      skipped: 1,
      unfinished: 1,
    });
    expect(overall.rate).toBeCloseTo(3 / 8, 10);
    // Per-task cost is over the tasks that ran (not the skipped t3 nor the interrupted t6): 6 tasks.
    expect(overall.tokens).toEqual({
      tasks: 6,
      total: 2200 + 4400 + 1100 + 0 + 3300 + 1100,
      mean: 12100 / 6,
    });
    expect(overall.timeMs?.mean).toBeCloseTo(((10 + 30 + 5 + 2 + 15 + 4) * 1000) / 6, 6);
  });

  it('breaks the rate down by category (paper names), difficulty, interface, style, account and app', async () => {
    await written;
    const { by } = breakdown((await readReportRun(dirA)).rows);
    expect(by.category?.map((b) => b.bucket)).toEqual([
      'data warehousing',
      'transformation',
      'ingestion',
      'traditional data processing',
      'unknown',
    ]);
    expect(rateOf(by.category, 'ingestion')).toEqual([2, 3, 2 / 3]);
    expect(rateOf(by.category, 'data warehousing')).toEqual([0, 1, 0]);
    expect(bucket(by.category, 'data warehousing').skipped).toBe(1);
    expect(rateOf(by.category, 'transformation')).toEqual([1, 1, 1]);
    expect(bucket(by.category, 'traditional data processing')).toMatchObject({
      tasks: 2,
      passed: 0,
      errored: 1,
      unfinished: 1,
      rate: 0,
    });

    expect(by.difficulty?.map((b) => b.bucket)).toEqual(['easy', 'medium', 'hard', 'unknown']);
    expect(rateOf(by.difficulty, 'easy')).toEqual([2, 2, 1]);
    expect(rateOf(by.difficulty, 'medium')).toEqual([1, 3, 1 / 3]);
    expect(rateOf(by.difficulty, 'hard')).toEqual([0, 2, 0]);
    expect(rateOf(by.difficulty, 'unknown')).toEqual([0, 1, 0]);

    expect(rateOf(by.interface, 'cli')).toEqual([1, 1, 1]);
    expect(rateOf(by.interface, 'gui')).toEqual([0, 2, 0]);
    expect(rateOf(by.interface, 'cli+gui')).toEqual([2, 4, 0.5]);
    expect(rateOf(by.style, 'abstract')).toEqual([1, 3, 1 / 3]);
    expect(rateOf(by.style, 'verbose')).toEqual([2, 4, 0.5]);
    expect(rateOf(by.account, 'with account')).toEqual([0, 1, 0]);
    expect(rateOf(by.account, 'without account')).toEqual([3, 6, 0.5]);
    expect(rateOf(by.account, 'unknown')).toEqual([0, 1, 0]);
    expect(rateOf(by.app, 'airbyte')).toEqual([2, 3, 2 / 3]);
    expect(rateOf(by.app, 'unknown')).toEqual([0, 1, 0]);
    // Every dimension's buckets add up to the whole run.
    for (const list of Object.values(by)) expect(list.reduce((n, b) => n + b.tasks, 0)).toBe(8);
  });

  it('takes what the manifest lacks from the task file it names, and warns when that file is gone', async () => {
    await written;
    const row = (await readReportRun(dirA)).rows.find((r) => r.taskId === airbyteId);
    expect(row).toMatchObject({
      app: 'airbyte',
      category: 'data_ingestion_and_integration',
      interface: 'cli+gui',
      style: 'verbose',
      difficulty: 'medium',
      account: false,
    });

    const gone = await writeRun(tmp(), 'm', [
      { key: 'x/y', info: { file: join(tmp(), 'missing.json') }, ending: { state: 'success', score: 1 } },
    ]);
    const run = await readReportRun(gone);
    expect(run.rows[0]).toMatchObject({ key: 'x/y', score: 1 });
    expect(run.rows[0].category).toBeUndefined();
    expect(run.problems.map((p) => `${p.pointer} ${p.message}`).join('\n')).toMatch(
      /\/taskInfo\/x~1y\/file task file .*missing\.json is gone/,
    );
  });

  it("counts cost per task from the steps' tokens with a price table, only for the run's model", async () => {
    await written;
    const prices = { 'model-a': { input: 2, output: 10 } };
    const rows = (await readReportRun(dirA, { prices })).rows;
    const cost = (key: string) => rows.find((r) => r.key === key)?.costUsd;
    // t1: 2 steps of 1000 prompt + 100 completion tokens = (2000 × 2 + 200 × 10) / 1e6.
    expect(cost('airbyte/t1')).toBeCloseTo(0.006, 12);
    expect(cost('airbyte/t2')).toBeCloseTo(0.012, 12);
    expect(cost('bigquery/t3')).toBeUndefined();
    const overall = breakdown(rows).overall;
    expect(overall.costUsd?.tasks).toBe(5); // t1 t2 t4 airbyte t8 ran with steps; t5 had none
    expect(overall.costUsd?.total).toBeCloseTo(0.003 * (2 + 4 + 1 + 3 + 1), 12);
    expect((await readReportRun(dirB, { prices })).rows.every((r) => r.costUsd === undefined)).toBe(true);
  });
});

describe('report: run versus run', () => {
  it('gives each bucket per run with its difference to the first, and the tasks that flipped', async () => {
    await written;
    const a = await readReportRun(dirA);
    const b = await readReportRun(dirB);
    const c = compareRuns([
      { label: 'A', rows: a.rows },
      { label: 'B', rows: b.rows },
    ]);
    expect(c.runs).toEqual(['A', 'B']);
    expect(c.overall.runs.map((s) => s?.rate)).toEqual([3 / 8, 4 / 7]);
    expect(c.overall.diff[1]).toBeCloseTo(4 / 7 - 3 / 8, 12);
    // medium: A t2 ✗ t5 ✗ airbyte ✓ = 1/3; B all three pass = 3/3.
    const medium = c.by.difficulty?.find((x) => x.bucket === 'medium');
    expect(medium?.runs.map((s) => [s?.passed, s?.tasks])).toEqual([
      [1, 3],
      [3, 3],
    ]);
    expect(medium?.diff[1]).toBeCloseTo(2 / 3, 12);
    // easy: t1 flips to fail: 2/2 → 1/2.
    expect(c.by.difficulty?.find((x) => x.bucket === 'easy')?.diff[1]).toBeCloseTo(-0.5, 12);
    // The unknown bucket has t8 only in A.
    const unknown = c.by.difficulty?.find((x) => x.bucket === 'unknown');
    expect(unknown?.runs[1]).toBeUndefined();
    expect(unknown?.diff[1]).toBeUndefined();

    const [f] = c.flips;
    expect(f.gained.map((t) => t.key).sort()).toEqual(['airbyte/t2', 'jupyter/t5']);
    expect(f.gained.find((t) => t.key === 'jupyter/t5')).toMatchObject({
      baseline: { state: 'env_error', score: 0 },
      other: { state: 'success', score: 1 },
    });
    expect(f.lost.map((t) => t.key)).toEqual(['airbyte/t1']);
    expect(f.onlyInBaseline).toEqual(['misc/t8']);
    expect(f.onlyInOther).toEqual([]);

    const text = formatComparison(c).join('\n');
    expect(text).toContain('+19.6 pt'); // 57.1% − 37.5%
    expect(text).toMatch(/\+ airbyte\/t2 +\(max_steps_error 0 → success 1\)/);
    expect(text).toMatch(/- airbyte\/t1 +\(success 1 → success 0\)/);
    expect(text).toContain('only in run 1: misc/t8');

    // With links: each flipped task names its side-by-side route below the runs' common folder.
    const links = compareLinksFor([dirA, dirB]);
    const linked = formatComparison(c, undefined, links).join('\n');
    expect(linked).toContain(`npx proctor serve ${links.serveRoot}`);
    expect(linked).toContain(
      `- airbyte/t1  (success 1 → success 0)  #/compare?run=${encodeURIComponent(links.runPaths[0])}&run=${encodeURIComponent(links.runPaths[1])}&task=airbyte%2Ft1`,
    );
  });

  it('refuses a comparison of one run', () => {
    expect(() => compareRuns([{ label: 'A', rows: [] }])).toThrow(/two or more runs/);
  });
});

describe('report: text', () => {
  it('shows each rate with its counts and a bar', () => {
    const rows: ReportRow[] = [
      { key: 'a/1', taskId: '1', domain: 'a', state: 'success', score: 1, difficulty: 'easy' },
      { key: 'a/2', taskId: '2', domain: 'a', state: 'skipped', score: 0, difficulty: 'easy' },
      { key: 'a/3', taskId: '3', domain: 'a', state: 'pending', difficulty: 'hard' },
      { key: 'a/4', taskId: '4', domain: 'a', state: 'success', score: 1, difficulty: 'hard' },
    ];
    const text = formatBreakdown('Run x', breakdown(rows, ['difficulty'])).join('\n');
    expect(text).toContain(
      'Success rate 50.0% ██████████░░░░░░░░░░  (2 of 4 passed; 1 skipped, 1 unfinished)',
    );
    expect(text).toMatch(/^easy +2 +1 +50\.0% +██████████░░░░░░░░░░ +0 +0 +1 +0/m);
    expect(text).toMatch(/^hard +2 +1 +50\.0% +██████████░░░░░░░░░░ +0 +0 +0 +1/m);
    expect(text).not.toContain('Task category');
  });
});

describe('report: rows from run table items', () => {
  it('reads interface, style, category and account from tags, and nothing from no tags', () => {
    const item = { key: 'd/1', taskId: '1', domain: 'd', state: 'success' as const, steps: 0 };
    expect(
      rowFromItem({ ...item, tags: ['account', 'cli', 'data_orchestration', 'abstract'] }),
    ).toMatchObject({
      interface: 'cli',
      style: 'abstract',
      category: 'data_orchestration',
      account: true,
    });
    expect(rowFromItem({ ...item, tags: ['gui'] }).account).toBe(false);
    const bare = rowFromItem({ ...item, tags: [] });
    expect([bare.account, bare.category, bare.interface]).toEqual([undefined, undefined, undefined]);
    expect(categoryName('data_orchestration')).toBe('orchestration');
    expect(categoryName('office_work')).toBe('office work');
    expect(categoryName(undefined)).toBe('unknown');
  });
});

describe('report: category names', () => {
  it.skipIf(!full)(
    `maps every category tag of the Spider2-V tasks to one of the paper's seven categories (${needsShared})`,
    async () => {
      const { tasks } = await loadTasks([full!.spider2vExamples]);
      expect(tasks.length).toBeGreaterThan(400);
      const seen = new Set(tasks.map((t) => t.category));
      expect([...seen].sort()).toEqual(Object.keys(categoryNames).sort());
      expect(new Set(Object.values(categoryNames)).size).toBe(7);
    },
  );

  it("maps every category tag of the in-repo Spider2-V tasks (one or more of each) to one of the paper's seven categories", async () => {
    const { tasks } = await loadTasks([spider2v]);
    expect(tasks).toHaveLength(16);
    const seen = new Set(tasks.map((t) => t.category));
    expect([...seen].sort()).toEqual(Object.keys(categoryNames).sort());
    expect(new Set(Object.values(categoryNames)).size).toBe(7);
  });
});

describe("report: other tools' result folders", () => {
  it('reports an OSWorld result folder with unknown metadata, filled in from --tasks', async () => {
    const root = tmp();
    const model = join(root, 'pyautogui', 'screenshot', 'some-model');
    const task = (domain: string, id: string, result?: string) => {
      const d = join(model, domain, id);
      mkdirSync(d, { recursive: true });
      writeFileSync(
        join(d, 'traj.jsonl'),
        JSON.stringify({
          step_num: 1,
          action_timestamp: '20240101@120000',
          action: 'WAIT',
          response: '',
          reward: 0,
          done: false,
          info: {},
          screenshot_file: null,
        }) + '\n',
      );
      if (result !== undefined) writeFileSync(join(d, 'result.txt'), result);
    };
    task('airbyte', airbyteId, '1');
    task('airbyte', 'no-such-task', '0');
    task('jupyter', 'crashed'); // no result.txt: it never finished

    const bare = await readReportRun(model);
    expect(bare.format).toBe('osworld');
    const o = breakdown(bare.rows).overall;
    expect([o.passed, o.tasks]).toEqual([1, 3]);
    expect(bare.rows.every((r) => r.category === undefined && r.difficulty === undefined)).toBe(true);

    const { tasks } = await loadTasks([join(spider2v, 'airbyte')]);
    const filled = await readReportRun(model, { tasks });
    const { by } = breakdown(filled.rows);
    expect(rateOf(by.category, 'ingestion')).toEqual([1, 1, 1]);
    expect(rateOf(by.category, 'unknown')).toEqual([0, 2, 0]);
    expect(rateOf(by.difficulty, 'medium')).toEqual([1, 1, 1]);
  });
});

describe('proctor report (CLI)', () => {
  const run = async (argv: string[]) => {
    const outLines: string[] = [];
    const errLines: string[] = [];
    const code = await main(['report', ...argv], {
      out: (l) => outLines.push(l),
      err: (l) => errLines.push(l),
    });
    return { code, out: outLines.join('\n'), err: errLines.join('\n') };
  };

  it('prints the breakdown asked for as a table', async () => {
    await written;
    const r = await run([dirA, '--by', 'difficulty']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Success rate 37.5%');
    expect(r.out).toContain('(3 of 8 passed; 2 failed, 1 errored, 1 skipped, 1 unfinished)');
    expect(r.out).toMatch(/^easy +2 +2 +100\.0% +█{20} /m);
    expect(r.out).toMatch(/^medium +3 +1 +33\.3% /m);
    expect(r.out).not.toContain('Task category');
  });

  it('prints JSON with the reports and the comparison', async () => {
    await written;
    const r = await run([dirA, dirB, '--compare', '--json', '--by', 'category,style']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as {
      runs: { report: { overall: BucketStats; by: Record<string, BucketStats[]> } }[];
      comparison: { flips: { lost: { key: string }[] }[] };
    };
    expect(json.runs.map((x) => [x.report.overall.passed, x.report.overall.tasks])).toEqual([
      [3, 8],
      [4, 7],
    ]);
    expect(Object.keys(json.runs[0].report.by)).toEqual(['category', 'style']);
    expect(json.comparison.flips[0].lost.map((t) => t.key)).toEqual(['airbyte/t1']);
  });

  it('prints a comparison table in text', async () => {
    await written;
    const r = await run([dirA, dirB, '--compare', '--by', 'style']);
    expect(r.code).toBe(0);
    // verbose: A t1 ✓ t3 ✗ t5 ✗ airbyte ✓ = 2/4; B t1 ✗ t3 ✗ t5 ✓ airbyte ✓ = 2/4.
    expect(r.out).toMatch(/^verbose +50\.0% .* 2\/4 +50\.0% .* 2\/4 +±0\.0 pt$/m);
    // abstract: A t2 ✗ t4 ✓ t6 ✗ = 1/3; B t2 ✓ t4 ✓ t6 ✗ = 2/3.
    expect(r.out).toMatch(/^abstract +33\.3% .* 1\/3 +66\.7% .* 2\/3 +\+33\.3 pt$/m);
  });

  it('refuses usage mistakes (exit 2) and unreadable run folders (exit 1, naming the folder)', async () => {
    expect((await run(['--by', 'colour', 'x'])).code).toBe(2);
    expect((await run([])).code).toBe(2);
    await written;
    // One folder may hold many runs; one that holds a single run has nothing to compare with.
    const single = await run([dirA, '--compare']);
    expect(single.code).toBe(1);
    expect(single.err).toContain('--compare needs two or more runs');
    const empty = tmp();
    const r = await run([empty]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${empty}: no run folder in it or below it`);
  });
});
