import { appendFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { appendVerdict, listRuns, readRun, readTaskTrajectory } from './index';
import { MAX_FOREIGN_FILE_BYTES } from './foreign-files';
import { spider2vActions, spider2vRunSettings } from './spider2v-reader';

const tmp = () => mkdtempSync(join(tmpdir(), 'proctor-spider2v-'));

async function png(file: string, width = 32, height = 20): Promise<void> {
  await sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .png()
    .toFile(file);
}

/** A real PNG over the size limit: random pixels, stored without compression. */
async function bigPng(file: string): Promise<void> {
  const side = 2700; // 2700 × 2700 × 3 bytes ≈ 21.9 MB
  await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toFile(file);
}

const line = (v: unknown) => JSON.stringify(v) + '\n';

/** Spider2-V's runner output for one som-mode run, as lib_run_single.py and run_spider2.py lay it out. */
async function somRun(root: string): Promise<string> {
  const run = join(root, 'results', 'pyautogui_som_gpt-4o-2024-05-13_temp1.0_traj3');
  const task = join(run, 'excel', 'task-a');
  mkdirSync(join(task, 'screenshots'), { recursive: true });
  mkdirSync(join(task, 'a11y_trees'), { recursive: true });
  writeFileSync(
    join(task, 'trajectory.jsonl'),
    // step 1: one reply, two actions (the som agent binds index_3 before the code); newer %f timestamp
    line({
      step_num: 1,
      action_timestamp: '20240701@120001123456',
      action: 'index_3 = (100, 200)\npyautogui.click(index_3)',
      reward: 0,
      done: false,
      info: { status: 'success', message: '', error: '' },
    }) +
      line({
        step_num: 1,
        action_timestamp: '20240701@120003',
        action: "pyautogui.typewrite('hi')",
        reward: 0,
        done: false,
        info: {},
      }) +
      '{"step_num": 2, "action_timestamp": \n' + // damaged line
      line({
        step_num: 2,
        action_timestamp: '20240701@120010',
        action: "import os\nos.system('rm -rf /')",
        reward: 0,
        done: false,
        info: { status: 'error', message: 'NameError: os', error: '' },
      }) +
      // step 3's reply gave no action (no line); step 4 ends the episode
      line({
        step_num: 4,
        action_timestamp: '20240701@120030',
        action: 'DONE',
        reward: 0,
        done: true,
        info: { done: true },
      }),
  );
  await png(join(task, 'screenshots', 'step_1_20240701@120001123456.png'));
  await png(join(task, 'screenshots', 'step_1_20240701@120003.png'));
  // step 2's screenshot is missing; step 4's is too big
  await bigPng(join(task, 'screenshots', 'step_4_20240701@120030.png'));
  writeFileSync(
    join(task, 'a11y_trees', 'step_1_20240701@120001123456.txt'),
    "INDEX\tTAG\tNAME\n3\tpush-button\t'Save'\n",
  );
  writeFileSync(join(task, 'result.txt'), '1.0\n');
  writeFileSync(
    join(task, 'result-20240701@120000.log'),
    [
      '[2024-07-01 12:00:00,010 INFO run_spider2/180]: [Domain]: excel',
      '[2024-07-01 12:00:00,011 INFO run_spider2/184]: [Instruction]: Save the sheet as report.xlsx',
      '[2024-07-01 12:00:01,000 INFO agent/700]: RESPONSE: I will click Save.',
      '```python',
      'pyautogui.click(index_3)',
      '```',
      '[2024-07-01 12:00:01,001 INFO lib_run_single/31]: [Action]: Step 1: pyautogui.click(index_3)',
      '[2024-07-01 12:00:09,000 INFO agent/700]: RESPONSE: ```python\nimport os\n```',
      '[2024-07-01 12:00:20,000 INFO agent/700]: RESPONSE: I am not sure what to do.',
      '[2024-07-01 12:00:29,000 INFO agent/700]: RESPONSE: DONE',
      '',
    ].join('\n'),
  );

  const crashed = join(run, 'excel', 'task-b');
  mkdirSync(join(crashed, 'screenshots'), { recursive: true });
  writeFileSync(
    join(crashed, 'trajectory.jsonl'),
    line({ Error: 'Error msg in excel/task-b: VM did not respond' }),
  );

  const unfinished = join(run, 'jupyter', 'task-c');
  mkdirSync(join(unfinished, 'a11y_trees'), { recursive: true });
  writeFileSync(
    join(unfinished, 'trajectory.jsonl'),
    line({
      step_num: 1,
      action_timestamp: '20240701@130000',
      action: 'WAIT',
      reward: 0,
      done: false,
      info: {},
    }),
  );
  return run;
}

describe('Spider2-V result folders', () => {
  it('reads the run folder name the runner writes and OSWorld-style nesting', () => {
    expect(
      spider2vRunSettings('/r/verbose_pyautogui_screenshot_a11y_tree_gpt-4o_temp0.5_traj3'),
    ).toMatchObject({
      flags: ['verbose', 'temp0.5', 'traj3'],
      actionSpace: 'pyautogui',
      observation: 'screenshot_a11y_tree',
      model: 'gpt-4o',
      temperature: 0.5,
      trajectoryLength: 3,
    });
    expect(spider2vRunSettings('/r/computer_13/som/claude-3')).toEqual({
      actionSpace: 'computer_13',
      observation: 'som',
      model: 'claude-3',
    });
  });

  it('parses actions without running them: SoM bindings, computer_13 dicts, refusals', () => {
    expect(spider2vActions('index_7 = (5, 6)\npyautogui.doubleClick(index_7)').actions).toEqual([
      { type: 'click', x: 5, y: 6, clicks: 2 },
    ]);
    expect(spider2vActions({ action_type: 'TYPING', text: 'abc' }).actions).toEqual([
      { type: 'write', text: 'abc' },
    ]);
    const refused = spider2vActions("__import__('os').system('x')");
    expect(refused.actions).toEqual([]);
    expect(refused.feedback).toMatch(/^Proctor would refuse: /);
  });

  it('lists tasks with scores, crashes and unfinished ones', async () => {
    const root = tmp();
    const run = await somRun(root);
    const detail = readRun(run, root);
    expect(detail.run).toMatchObject({
      runId: 'results/pyautogui_som_gpt-4o-2024-05-13_temp1.0_traj3',
      settings: {
        actionSpace: 'pyautogui',
        observation: 'som',
        model: 'gpt-4o-2024-05-13',
        flags: ['temp1.0', 'traj3'],
      },
      startedAtSource: 'harness',
      path: 'results/pyautogui_som_gpt-4o-2024-05-13_temp1.0_traj3',
      format: 'spider2v',
      model: 'gpt-4o-2024-05-13',
      tasks: 3,
      finished: 2,
      live: false,
    });
    expect(detail.run.successRate).toBeCloseTo(1 / 3);
    expect(detail.run.startedAt).toBe(new Date(2024, 6, 1, 12, 0, 1, 123).toISOString()); // its first step
    expect(detail.manifest).toMatchObject({
      layout: 'spider2v',
      actionSpace: 'pyautogui',
      observation: 'som',
    });
    const byKey = Object.fromEntries(detail.tasks.map((t) => [t.key, t]));
    expect(byKey['excel/task-a']).toMatchObject({
      state: 'success',
      outcome: 'finished',
      score: 1,
      steps: 3,
      instruction: 'Save the sheet as report.xlsx',
    });
    expect(byKey['excel/task-b']).toMatchObject({
      state: 'env_error',
      outcome: 'error',
      error: 'Error msg in excel/task-b: VM did not respond',
    });
    expect(byKey['jupyter/task-c']).toMatchObject({ state: 'cancelled', outcome: 'aborted', steps: 1 });
    expect(byKey['jupyter/task-c'].error).toMatch(/no result\.txt/);
    expect(detail.problems.some((p) => p.line === 3 && /not JSON/.test(p.message))).toBe(true);
  });

  it('gives each trajectory line its entry under the harness step: its own screenshot, SoM, a11y table, actions, refusals, replies from the log', async () => {
    const root = tmp();
    const run = await somRun(root);
    const traj = readTaskTrajectory(run, 'excel/task-a');
    expect(traj.runId).toBe('pyautogui_som_gpt-4o-2024-05-13_temp1.0_traj3');
    expect(traj.task).toMatchObject({
      id: 'task-a',
      domain: 'excel',
      instruction: 'Save the sheet as report.xlsx',
    });
    expect(traj.steps.map((s) => [s.step, s.line])).toEqual([
      [1, 1],
      [1, 2],
      [2, 4],
      [3, undefined],
      [4, 5],
    ]);
    const [click, type, s2, s3, s4] = traj.steps;

    expect(click.actions).toEqual([{ type: 'click', x: 100, y: 200 }]);
    expect(type.actions).toEqual([{ type: 'write', text: 'hi' }]);
    expect(click.rawAction).toBe('index_3 = (100, 200)\npyautogui.click(index_3)');
    // Each line has the screenshot the runner saved under its own timestamp.
    expect(click.observation).toBe(
      join('excel', 'task-a', 'screenshots', 'step_1_20240701@120001123456.png'),
    );
    expect(type.observation).toBe(join('excel', 'task-a', 'screenshots', 'step_1_20240701@120003.png'));
    expect(click.somObservation).toBe(click.observation); // som mode: the saved screenshot is the tagged one
    expect(click.a11yTable).toBe(join('excel', 'task-a', 'a11y_trees', 'step_1_20240701@120001123456.txt'));
    expect(click.at).toBe(new Date(2024, 6, 1, 12, 0, 1, 123).toISOString());
    expect(click.response).toContain('I will click Save.');
    expect(click.model).toEqual([
      { role: 'assistant', text: click.response, source: 'result-20240701@120000.log:3' },
    ]);
    expect(type.response).toBe(click.response); // one reply, two actions
    expect(click.feedback).toBeUndefined();
    expect(click.wouldRefuse).toBeUndefined();

    // What the harness ran is shown; that Proctor would refuse it is said apart.
    expect(s2.actions).toEqual([]);
    expect(s2.wouldRefuse).toMatch(/os/);
    expect(s2.feedback).toContain('execution failed: NameError: os');
    expect(s2.observation).toBeUndefined();
    expect(click.screenshot).toBeUndefined(); // the next step's observation is missing

    expect(s3).toMatchObject({
      actions: [],
      response: 'I am not sure what to do.',
      at: new Date(2024, 6, 1, 12, 0, 20).toISOString(),
    });
    expect(s3.feedback).toMatch(/no action/);

    expect(s4).toMatchObject({ actions: [{ type: 'DONE' }], done: true, response: 'DONE' });
    expect(s4.observation).toBeUndefined();
    const big = traj.problems.find((p) => p.file?.endsWith('step_4_20240701@120030.png'));
    expect(big?.severity).toBe('error');
    expect(big?.message).toMatch(/step 4\) is 2\d\.\d MB, over the 20\.0 MB limit/);
    expect(MAX_FOREIGN_FILE_BYTES).toBe(20 * 1024 * 1024);
    expect(traj.problems.some((p) => /no screenshot for step 2/.test(p.message))).toBe(true);
    expect(traj.problems.some((p) => p.line === 3)).toBe(true);
  });

  it('reads computer_13 dict actions in the nested layout, and keeps verdicts appended to its tasks', async () => {
    const root = tmp();
    const run = join(root, 'computer_13', 'screenshot', 'qwen-vl');
    const task = join(run, 'chrome', 't1');
    mkdirSync(join(task, 'screenshots'), { recursive: true });
    writeFileSync(
      join(task, 'trajectory.jsonl'),
      line({
        step_num: 1,
        action_timestamp: '20240702@080000',
        action: { action_type: 'CLICK', x: 10, y: 20 },
        reward: 0,
        done: false,
        info: {},
      }) +
        line({
          step_num: 2,
          action_timestamp: '20240702@080005',
          action: { action_type: 'DONE' },
          reward: 0,
          done: true,
          info: {},
        }),
    );
    await png(join(task, 'screenshots', 'step_1_20240702@080000.png'));
    await png(join(task, 'screenshots', 'step_2_20240702@080005.png'));
    writeFileSync(join(task, 'result.txt'), '0.0\n');
    // a third task whose screenshot is a link out of the run folder
    const linked = join(run, 'chrome', 't2');
    mkdirSync(join(linked, 'screenshots'), { recursive: true });
    writeFileSync(
      join(linked, 'trajectory.jsonl'),
      line({ step_num: 1, action_timestamp: '20240702@090000', action: 'WAIT', done: false, info: {} }),
    );
    const outside = join(root, 'outside.png');
    await png(outside);
    symlinkSync(outside, join(linked, 'screenshots', 'step_1_20240702@090000.png'));
    const linkedTraj = readTaskTrajectory(run, 'chrome/t2');
    expect(linkedTraj.steps[0].observation).toBeUndefined();
    expect(linkedTraj.problems.some((p) => /links outside the run folder/.test(p.message))).toBe(true);

    const [listed] = listRuns(root);
    expect(listed).toMatchObject({
      format: 'spider2v',
      runId: 'computer_13/screenshot/qwen-vl',
      path: join('computer_13', 'screenshot', 'qwen-vl'),
      settings: { actionSpace: 'computer_13', observation: 'screenshot', model: 'qwen-vl' },
    });
    const traj = readTaskTrajectory(run, 'chrome/t1');
    expect(traj.steps[0].actions).toEqual([{ type: 'click', x: 10, y: 20 }]);
    expect(traj.steps[0].somObservation).toBeUndefined();
    expect(traj.steps[0].screenshot).toBe(traj.steps[1].observation);
    expect(traj.item).toMatchObject({ state: 'success', score: 0, timingMs: 5000 });

    appendVerdict(run, 'chrome/t1', {
      kind: 'human',
      author: 'ana',
      complete: 'no',
      at: new Date().toISOString(),
    });
    expect(readTaskTrajectory(run, 'chrome/t1').verdicts).toMatchObject([
      { kind: 'human', author: 'ana', complete: 'no' },
    ]);
    expect(readRun(run, root).tasks.find((t) => t.key === 'chrome/t1')?.state).toBe('success');
    expect(() => readTaskTrajectory(run, '../chrome/t1')).toThrow(/not a task key|holds no/);
    appendFileSync(join(task, 'trajectory.jsonl'), '{"step_num": 3'); // a cut last line
    expect(readTaskTrajectory(run, 'chrome/t1').problems.some((p) => /cut short/.test(p.message))).toBe(true);
  });
});
