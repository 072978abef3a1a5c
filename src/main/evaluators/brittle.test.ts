// Brittle-evaluator flags end to end: a bundled demo task graded from a real sandbox home, its verdict written
// into a run folder through the store, and `proctor report` counting the flagged tasks.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createShellEnvironment } from '../env/local/shell-environment';
import { demoDir } from '../demo/paths';
import { loadTasks } from '../tasks/reader';
import { RunWriter, taskDirFor } from '../store';
import { main } from '../cli/main';
import type { RuleVerdict } from '../../shared/run';
import type { Task } from '../../shared/task';
import { gradeTask } from './grade';
import type { GradingProfile } from './profile';
import { tempDir } from './testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);

const taskId = '48e74c8b-081c-4294-9402-fb511e790d36';
const taskFile = join(demoDir, 'terminal', taskId, `${taskId}.json`);
const resultPath = '/home/user/Desktop/region_totals.csv';
/** What the task's oracle writes: sqlite3 -csv output, CRLF line ends. */
const oracleOutput = 'region,total_quantity\r\nEast,13\r\nNorth,10\r\nSouth,9\r\nWest,15\r\n';
const quotedOutput = '"region","total_quantity"\n"East","13"\n"North","10"\n"South","9"\n"West","15"\n';

async function demoTask(): Promise<Task> {
  const { tasks } = await loadTasks([taskFile]);
  expect(tasks).toHaveLength(1);
  return tasks[0];
}

async function grade(
  task: Task,
  content: string,
  profile?: GradingProfile,
  secondOpinion?: boolean,
): Promise<RuleVerdict> {
  const env = await createShellEnvironment();
  try {
    await env.putFile(resultPath, Buffer.from(content));
    return await gradeTask(task, {
      env,
      task,
      cacheDir: join(tmp.dir, `cache-${Math.random().toString(36).slice(2)}`),
      lastAction: 'DONE',
      profile,
      secondOpinion,
    });
  } finally {
    await env.close();
  }
}

let lastRunDir = '';

async function reportOf(verdicts: RuleVerdict[]): Promise<string[]> {
  const layout = { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'oracle' } as const;
  const keys = verdicts.map((_, i) => `terminal/${taskId.slice(0, -1)}${i}`);
  const taskInfo = Object.fromEntries(
    keys.map((k) => [k, { dir: taskDirFor(layout, 'terminal', k.split('/')[1]) }]),
  );
  const run = await RunWriter.create(join(tmp.dir, 'runs'), { ...layout, args: [], tasks: keys, taskInfo });
  for (const [i, key] of keys.entries()) {
    const tw = run.openTask(key);
    tw.started();
    run.appendVerdict(key, verdicts[i]);
    await tw.finish('success', {
      taskFields: { id: key.split('/')[1], instruction: 'write region totals' },
      results: {
        score: verdicts[i].score,
        eval_error: null,
        state: 'success',
        messages: [],
        total_tokens: 0,
        total_timing: 0,
        steps: 0,
      },
    });
  }
  run.event({ kind: 'run.finished', runId: run.runId, at: new Date().toISOString() });
  lastRunDir = run.runDir;
  const out: string[] = [];
  const code = await main(['report', run.runDir], { out: (l) => out.push(l), err: (l) => out.push(l) });
  expect(code, out.join('\n')).toBe(0);
  return out;
}

describe('brittle-evaluator flags on a demo task (native compare_csv)', () => {
  it("the oracle's output: score 1 under the native profile, no flag; the report shows zero brittle flags", async () => {
    const task = await demoTask();
    const v = await grade(task, oracleOutput);
    expect(v.profile).toBe('native');
    expect(v.score).toBe(1);
    expect(v.brittle).toBeUndefined();
    expect(v.metrics[0].secondOpinion).toBeUndefined();
    const report = await reportOf([v]);
    expect(report).toContain('Brittle evaluator flags: 0 of 1 tasks (faithful and robust verdicts disagree)');
  });

  it('a quoted-CSV result graded as Spider2-V does: faithful 0, robust 1, one flag in the verdict and the report', async () => {
    const task = await demoTask();
    const v = await grade(task, quotedOutput, 'spider2v');
    expect(v.profile).toBe('spider2v');
    expect(v.score).toBe(0);
    expect(v.metrics[0].secondOpinion?.score).toBe(1);
    expect(v.metrics[0].brittle).toBe('quoted cells: faithful 0, robust 1');
    expect(v.brittle).toEqual(['compare_csv (/evaluation): quoted cells: faithful 0, robust 1']);
    const ok = await grade(task, oracleOutput, 'spider2v');
    const report = await reportOf([v, ok]);
    expect(report).toContain('Brittle evaluator flags: 1 of 2 tasks (faithful and robust verdicts disagree)');
    // the run folder with these verdicts is valid against the run-file schemas
    const checked: string[] = [];
    const code = await main(['validate', '--strict', lastRunDir], {
      out: (l) => checked.push(l),
      err: (l) => checked.push(l),
    });
    expect(code, checked.join('\n')).toBe(0);
    // and a wrongly typed flag is not
    const bad = await reportOf([{ ...v, brittle: 'not a list' as unknown as string[] }]);
    expect(bad.length).toBeGreaterThan(0);
    const refused: string[] = [];
    expect(
      await main(['validate', '--strict', lastRunDir], {
        out: (l) => refused.push(l),
        err: (l) => refused.push(l),
      }),
    ).not.toBe(0);
    expect(refused.join('\n')).toMatch(/brittle/);
  });

  it('under its own (native) profile the quoted result passes: pandas drops the quotes, as the robust reading', async () => {
    const v = await grade(await demoTask(), quotedOutput);
    expect(v.score).toBe(1);
    expect(v.brittle).toBeUndefined();
  });

  it('a space before each number under native: pandas reads the numbers (1), the robust strict reading does not (0)', async () => {
    const v = await grade(
      await demoTask(),
      'region,total_quantity\nEast, 13\nNorth, 10\nSouth, 9\nWest, 15\n',
    );
    expect(v.score).toBe(1);
    expect(v.brittle).toEqual(['compare_csv (/evaluation): spaces around cells: faithful 1, robust 0']);
  });

  it('without the second opinion nothing is flagged and the robust metric never runs', async () => {
    const v = await grade(await demoTask(), quotedOutput, 'spider2v', false);
    expect(v.score).toBe(0);
    expect(v.brittle).toBeUndefined();
    expect(v.metrics[0].secondOpinion).toBeUndefined();
  });
});
