import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createShellEnvironment, type ShellEnvironment } from '../env/local/shell-environment';
import { loadTasks } from '../tasks/reader';
import type { SetupStep, Task } from '../../shared/task';
import { gradeTask, PostconfigError } from './grade';
import { runSetupSteps } from '../setup';
import { seedTaskDir, tempDir } from './testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);
let env: ShellEnvironment;
let cacheDir: string;
let n = 0;
beforeEach(async () => {
  env = await createShellEnvironment();
  cacheDir = join(tmp.dir, `cache-${n++}`);
});
afterEach(async () => env.close());

async function loadOne(path: string): Promise<Task> {
  const { tasks, problems } = await loadTasks([path]);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect(tasks).toHaveLength(1);
  return tasks[0];
}

const put = (guest: string, data: string | Buffer) => env.putFile(guest, Buffer.from(data));

/** Writes a Spider2-V-shaped task under tmp/examples/<app>/<id>/ with extra files; returns the task file. */
function spiderTask(
  app: string,
  id: string,
  evaluator: Record<string, unknown>,
  files: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): string {
  const dir = join(tmp.dir, 'examples', app, id);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const file = join(dir, `${id}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        id,
        snapshot: app,
        instruction: 'do it',
        source: [],
        config: [],
        related_apps: [app],
        tags: ['cli', 'verbose'],
        evaluator,
        ...extra,
      },
      null,
      2,
    ),
  );
  return file;
}

describe('gradeTask on a native seed task (compare_csv, local_expected + vm_result)', () => {
  const dir = seedTaskDir('00b43a0a');
  const gold = readFileSync(join(dir, 'gold.csv'));
  it('scores 1 when the guest file matches the gold CSV and records the fetched path', async () => {
    const task = await loadOne(dir);
    await put('/home/user/Desktop/allGames.csv', gold);
    const v = await gradeTask(task, { env, task, cacheDir, lastAction: 'DONE' });
    expect(v.score).toBe(1);
    expect(v.error).toBeUndefined();
    expect(v.metrics[0].metric).toBe('compare_csv');
    expect(String(v.metrics[0].result)).toBe(join(cacheDir, 'allGames.csv'));
    expect(readFileSync(String(v.metrics[0].result))).toEqual(gold);
    expect(v.metrics[0].getters).toEqual({
      result: { type: 'vm_file', path: '/home/user/Desktop/allGames.csv', dest: 'allGames.csv' },
      expected: { type: 'local_file', path: 'gold.csv' },
    });
  });
  it('scores 0 for a wrong CSV, and 0 with the reason in error when the result file does not exist', async () => {
    const task = await loadOne(dir);
    await put('/home/user/Desktop/allGames.csv', gold.toString().replace(/\d+/, '999'));
    const wrong = await gradeTask(task, { env, task, cacheDir });
    expect(wrong.score).toBe(0);
    expect(wrong.reason).toMatch(/frames differ: column '.*' row \d+/); // native: pandas frames
    expect(wrong.profile).toBe('native');
    const env2 = await createShellEnvironment();
    try {
      const missing = await gradeTask(task, { env: env2, task, cacheDir: join(cacheDir, 'b') });
      expect(missing.score).toBe(0);
      expect(missing.error).toContain('result file does not exist (vm_file /home/user/Desktop/allGames.csv)');
    } finally {
      await env2.close();
    }
  });
  it('FAIL on a feasible task scores 0 without grading; infeasible tasks need FAIL', async () => {
    const task = await loadOne(dir);
    await put('/home/user/Desktop/allGames.csv', gold);
    const failed = await gradeTask(task, { env, task, cacheDir, lastAction: 'FAIL' });
    expect(failed).toMatchObject({ score: 0, metrics: [] });
    expect(failed.reason).toContain('FAIL');
    const infeasible: Task = { ...task, infeasible: true, checks: [] };
    expect((await gradeTask(infeasible, { env, task: infeasible, cacheDir, lastAction: 'FAIL' })).score).toBe(
      1,
    );
    expect((await gradeTask(infeasible, { env, task: infeasible, cacheDir, lastAction: 'DONE' })).score).toBe(
      0,
    );
  });
});

describe('gradeTask on native composites', () => {
  it('evaluate_multiple_notebooks (or): one matching comparison is enough, and each part is recorded', async () => {
    const dir = seedTaskDir('214d5a3c');
    const task = await loadOne(dir);
    await put(
      '/home/user/Desktop/Categorical-Data.ipynb',
      readFileSync(join(dir, 'Categorical-Data_gold.ipynb')),
    );
    const v = await gradeTask(task, { env, task, cacheDir });
    expect(v.score).toBe(1);
    expect(v.metrics.map((m) => m.metric)).toEqual([
      'evaluate_multiple_notebooks › compare_notebook_cells',
      'evaluate_multiple_notebooks › compare_notebook_outputs',
      'evaluate_multiple_notebooks',
    ]);
    expect(v.metrics[0].score).toBe(1);
    await put(
      '/home/user/Desktop/Categorical-Data.ipynb',
      JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }),
    );
    expect((await gradeTask(task, { env, task, cacheDir: cacheDir + '-2' })).score).toBe(0);
  });
  it('compare_script_logs uploads and runs eval_script, then checks the log', async () => {
    const src = seedTaskDir('2ed53418');
    const dir = join(tmp.dir, 'native', 'jupyter', 'script-task');
    mkdirSync(dir, { recursive: true });
    const json = JSON.parse(readFileSync(join(src, `${src.split('/').pop()}.json`), 'utf8'));
    json.id = 'script-task';
    writeFileSync(join(dir, 'script-task.json'), JSON.stringify(json));
    writeFileSync(
      join(dir, 'eval.sh'),
      'if [ -f "$HOME/Desktop/done" ]; then echo "python3 ok" > "$HOME/eval.log"; else echo "jupyter-kernel only" > "$HOME/eval.log"; fi\n',
    );
    const task = await loadOne(join(dir, 'script-task.json'));
    expect((await gradeTask(task, { env, task, cacheDir })).score).toBe(0);
    await put('/home/user/Desktop/done', 'x');
    const v = await gradeTask(task, { env, task, cacheDir });
    expect(v.score).toBe(1);
    expect(v.metrics[0].result).toBe('python3 ok\n');
  });
});

describe('gradeTask on Spider2-V tasks', () => {
  const id = '0814b61e-0000-4000-8000-000000000001';
  const evaluator = {
    postconfig: [{ type: 'execute', parameters: { command: ['true'] } }],
    func: ['check_include_exclude', 'compare_json_file'],
    result: [
      {
        type: 'vm_script_output',
        src: `evaluation_examples/examples/dagster/${id}/eval.sh`,
        dest: '/home/user/eval.sh',
      },
      { type: 'vm_file', path: '/home/user/hacker_news/data/story_ids.json', dest: 'story_ids.json' },
    ],
    expected: [
      { type: 'rule', rules: { include: ['succeeded'], exclude: ['failed'] } },
      {
        type: 'local_file',
        path: `evaluation_examples/examples/dagster/${id}/gold_ids.json`,
        dest: 'gold_ids.json',
      },
    ],
  };
  const file = spiderTask('dagster', id, evaluator, {
    'eval.sh': 'cat "$HOME/status.txt"\n',
    'gold_ids.json': '[1, 2, 3]',
  });
  it('runs the postconfig first, then both checks; conj and = mean when none is 0', async () => {
    const task = await loadOne(file);
    const ran: SetupStep[][] = [];
    await put('/home/user/status.txt', 'run succeeded');
    await put('/home/user/hacker_news/data/story_ids.json', '[1,2,3]');
    const v = await gradeTask(task, {
      env,
      task,
      cacheDir,
      runPostSetup: async (steps) => void ran.push(steps),
    });
    expect(ran).toHaveLength(1);
    expect(ran[0][0].func).toBe('execute');
    expect(v.score).toBe(1);
    expect(v.conj).toBe('and');
    expect(v.metrics.map((m) => [m.metric, m.score])).toEqual([
      ['check_include_exclude', 1],
      ['compare_json_file', 1],
    ]);
    expect(v.metrics[0].result).toBe('run succeeded');
  });
  it('a postconfig step that fails stops the grading: PostconfigError naming the task and step, no score', async () => {
    const broken = spiderTask(
      'dagster',
      id.replace(/1$/, '2'),
      {
        ...evaluator,
        postconfig: [
          { type: 'execute', parameters: { command: ['sh', '-c', 'echo no display >&2; exit 3'] } },
        ],
      },
      {
        'eval.sh': 'cat "$HOME/status.txt"\n',
        'gold_ids.json': '[1, 2, 3]',
      },
    );
    const task = await loadOne(broken);
    await put('/home/user/status.txt', 'run succeeded');
    await put('/home/user/hacker_news/data/story_ids.json', '[1,2,3]');
    const post = (t: Task) => (steps: SetupStep[]) => runSetupSteps(steps, env, { taskDir: t.dir, task: t });
    const err = await gradeTask(task, { env, task, cacheDir, runPostSetup: post(task) }).catch((e) => e);
    expect(err).toBeInstanceOf(PostconfigError);
    expect(err.message).toBe(
      `postconfig failed: task ${task.id}: postconfig step 0 (execute, /evaluator/postconfig/0): the command exited with 3:\nno display`,
    );
    // The same task with a working postconfig is graded (1): the error came from the step, not the checks.
    const good = await loadOne(file);
    expect((await gradeTask(good, { env, task: good, cacheDir, runPostSetup: post(good) })).score).toBe(1);
  });
  it('conj and: one 0 makes 0; conj or: one 1 makes 1; diff_text_file makes fractions', async () => {
    const task = await loadOne(file);
    await put('/home/user/status.txt', 'run failed');
    await put('/home/user/hacker_news/data/story_ids.json', '[1,2,3]');
    expect((await gradeTask(task, { env, task, cacheDir })).score).toBe(0);
    const or: Task = { ...task, conj: 'or' };
    expect((await gradeTask(or, { env, task: or, cacheDir })).score).toBe(1);
    const frac = spiderTask(
      'dagster',
      'frac-task',
      {
        func: ['diff_text_file', 'check_include_exclude'],
        result: [
          { type: 'vm_file', path: '/home/user/p.toml', dest: 'p.toml' },
          { type: 'vm_command_line', command: 'echo succeeded' },
        ],
        expected: [
          { type: 'local_file', path: 'evaluation_examples/examples/dagster/frac-task/gold.toml' },
          { type: 'rule', rules: { include: ['succeeded'] } },
        ],
      },
      { 'gold.toml': 'a\nb\nc\nd\n' },
    );
    const ft = await loadOne(frac);
    await put('/home/user/p.toml', 'a\nb\nc\nX\n');
    const v = await gradeTask(ft, { env, task: ft, cacheDir });
    expect(v.score).toBeCloseTo((0.75 + 1) / 2);
  });
  it('a cloud getter reports "needs account: <service>"; an unknown metric names the closest', async () => {
    const acc = await loadOne(
      spiderTask(
        'snowflake',
        'acc-task',
        {
          func: 'compare_csv',
          result: { type: 'snowflake_table_to_csv', database: 'X', table: 'Y', dest: 'data.csv' },
          expected: { type: 'local_file', path: 'evaluation_examples/examples/snowflake/acc-task/gold.csv' },
        },
        { 'gold.csv': 'a\n' },
        { tags: ['account', 'gui'] },
      ),
    );
    const v = await gradeTask(acc, { env, task: acc, cacheDir });
    expect(v.score).toBe(0);
    expect(v.error).toContain('needs account: snowflake');
    expect(v.needsAccount).toEqual(['snowflake']);
    const typo = await loadOne(
      spiderTask('dbt', 'typo-task', {
        func: 'compare_csvv',
        result: { type: 'vm_file', path: '/home/user/a.csv' },
        expected: { type: 'rule', rules: {} },
      }),
    );
    const t = await gradeTask(typo, { env, task: typo, cacheDir });
    expect(t.error).toContain("unknown metric 'compare_csvv' (closest known: 'compare_csv')");
  });
  it('a missing gold file is the task’s fault and says so', async () => {
    const broken = await loadOne(
      spiderTask('airbyte', 'nogold-task', {
        func: 'compare_csv',
        result: { type: 'vm_file', path: '/home/user/a.csv', dest: 'a.csv' },
        expected: { type: 'local_file', path: 'evaluation_examples/examples/airbyte/nogold-task/gold.csv' },
      }),
    );
    await put('/home/user/a.csv', 'x\n');
    const v = await gradeTask(broken, { env, task: broken, cacheDir });
    expect(v.score).toBe(0);
    expect(v.error).toContain('expected file is missing from the task');
  });
});
