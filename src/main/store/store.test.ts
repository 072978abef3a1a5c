import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/run';
import type { Screenshot } from '../env/environment';
import {
  RunWriter,
  TaskLockedError,
  appendVerdict,
  listRuns,
  parseOsworldTimestamp,
  osworldTimestamp,
  readJsonLines,
  readRun,
  readTaskTrajectory,
  runEvents,
  taskDirFor,
  type ManifestInput,
} from './index';

const tmp = () => mkdtempSync(join(tmpdir(), 'proctor-store-'));
const png: Screenshot = {
  data: Buffer.from('not-really-a-png'),
  format: 'png',
  width: 4,
  height: 3,
  toScreen: 1,
};

function input(keys: string[]): ManifestInput {
  const run = { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'oracle' } as const;
  return {
    ...run,
    args: ['run', 'x'],
    tasks: keys,
    taskInfo: Object.fromEntries(
      keys.map((k) => [
        k,
        { dir: taskDirFor(run, k.split('/')[0], k.split('/')[1]), instruction: `do ${k}` },
      ]),
    ),
  };
}

const results = (score: number) => ({
  score,
  eval_error: null,
  state: 'success' as const,
  messages: [],
  total_tokens: 0,
  total_timing: 1.5,
  steps: 1,
});

describe('run store', () => {
  it('writes the agreed layout and reads it back, publishing every event it writes', async () => {
    const out = tmp();
    const seen: RunEvent[] = [];
    const listener = (e: RunEvent) => seen.push(e);
    runEvents.on('event', listener);
    const run = await RunWriter.create(out, input(['demo/a', 'demo/b']), new Date(2026, 10, 22, 3, 15, 0));
    expect(run.runId).toBe('20261122-031500-oracle');
    run.event({
      kind: 'run.started',
      runId: run.runId,
      at: new Date().toISOString(),
      tasks: run.manifest.tasks,
    });
    const t = run.openTask('demo/a');
    t.started();
    const saved = await t.saveObservation(1, { screenshot: png, a11yTable: 'tag\tname' });
    await t.recordStep(
      {
        step: 1,
        at: new Date().toISOString(),
        response: 'DONE',
        actions: [{ type: 'DONE' }],
        ...saved,
        done: true,
      },
      png,
      { action: 'DONE' },
    );
    await t.finish('success', { taskFields: { id: 'a', instruction: 'do a' }, results: results(1) });
    runEvents.off('event', listener);

    const dir = join(run.runDir, 'pyautogui/screenshot/oracle/demo/a');
    expect(readFileSync(join(dir, 'result.txt'), 'utf8')).toBe('1\n');
    const traj = readJsonLines<Record<string, unknown>>(join(dir, 'traj.jsonl')).values;
    expect(traj[0]).toMatchObject({ step_num: 1, action: 'DONE', done: true, reward: 0 });
    expect(String(traj[0].action_timestamp)).toMatch(/^\d{8}@\d{12}$/);
    expect(existsSync(join(dir, String(traj[0].screenshot_file)))).toBe(true);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))).toMatchObject({
      id: 'a',
      results: { score: 1 },
    });

    const detail = readRun(run.runDir, out);
    expect(detail.run).toMatchObject({
      runId: run.runId,
      path: run.runId,
      format: 'proctor',
      tasks: 2,
      finished: 1,
    });
    expect(detail.run.successRate).toBe(0.5); // the unstarted task stays in the denominator
    expect(detail.tasks.map((x) => x.state)).toEqual(['success', 'pending']);
    const traj2 = readTaskTrajectory(run.runDir, 'demo/a');
    // DONE left the screen as observed: the observation is the step's one file.
    expect(traj2.steps[0].observation).toBe(
      join('pyautogui/screenshot/oracle/demo/a', String(traj[0].screenshot_file)),
    );
    expect(existsSync(join(dir, 'observations', 'step_1.png'))).toBe(false);
    expect(existsSync(join(run.runDir, traj2.steps[0].screenshot!))).toBe(true);
    expect(seen.map((e) => e.kind)).toEqual(['run.started', 'task.started', 'task.step', 'task.finished']);
    const logged = readJsonLines<RunEvent>(join(run.runDir, 'events.jsonl')).values;
    expect(logged).toEqual(seen);
  });

  it('never reuses a run id, even for two runs started in the same second', async () => {
    const out = tmp();
    const when = new Date(2026, 0, 1, 0, 0, 0);
    const a = await RunWriter.create(out, input(['d/x']), when);
    const b = await RunWriter.create(out, input(['d/x']), when);
    expect(a.runId).not.toBe(b.runId);
    expect(b.runId).toBe(`${a.runId}-2`);
  });

  it('lets only one writer hold a task, and treats the lock of a dead process as stale', async () => {
    const run = await RunWriter.create(tmp(), input(['d/x']));
    const t = run.openTask('d/x');
    expect(() => run.openTask('d/x')).toThrow(TaskLockedError);
    // A lock held by another live process.
    t.close();
    const lock = join(run.taskDir('d/x'), '.lock');
    const { hostname } = await import('node:os');
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), at: '' }));
    expect(() => run.openTask('d/x')).toThrow(/being written by process/);
    expect(() => run.moveAsidePartial('d/x')).toThrow(TaskLockedError);
    // A lock of a process that has exited.
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    writeFileSync(lock, JSON.stringify({ pid: Number(dead), host: hostname(), at: '' }));
    expect(run.moveAsidePartial('d/x')).toBe(`${run.taskDir('d/x')}.partial-1`);
    run.openTask('d/x').close();
    expect(run.moveAsidePartial('d/x')).toBe(`${run.taskDir('d/x')}.partial-2`);
  });

  it('reads a run cut at any point: partial lines are warnings, an interrupted task is cancelled', async () => {
    const run = await RunWriter.create(tmp(), input(['d/x']));
    run.event({ kind: 'run.started', runId: run.runId, at: '', tasks: ['d/x'] });
    const t = run.openTask('d/x');
    t.started();
    await t.recordStep({ step: 1, at: new Date().toISOString(), actions: [] }, png, { action: 'WAIT' });
    // Simulate a crash mid-write of step 2 and of an event.
    appendFileSync(join(t.dir, 'steps.jsonl'), '{"step":2,"at":"20');
    appendFileSync(join(run.runDir, 'events.jsonl'), '{"kind":"task.st');
    // The writer is "dead": a reader in a process other than the writer sees it as not live.
    const manifestFile = join(run.runDir, 'manifest.json');
    const m = JSON.parse(readFileSync(manifestFile, 'utf8'));
    writeFileSync(manifestFile, JSON.stringify({ ...m, pid: 2 ** 22 + 1 }));
    const detail = readRun(run.runDir);
    expect(detail.run.live).toBe(false);
    expect(detail.tasks[0]).toMatchObject({ state: 'cancelled', steps: 1 });
    expect(detail.problems.some((p) => p.severity === 'warning' && /cut short/.test(p.message))).toBe(true);
    const trajectory = readTaskTrajectory(run.runDir, 'd/x');
    expect(trajectory.steps.map((s) => s.step)).toEqual([1]);
    expect(trajectory.problems[0]).toMatchObject({ line: 2, severity: 'warning' });
  });

  it('appends verdicts without overwriting, with UFO lines for judge verdicts', async () => {
    const run = await RunWriter.create(tmp(), input(['d/x']));
    appendVerdict(run.runDir, 'd/x', { kind: 'rule', score: 1, metrics: [], at: 'a' });
    appendVerdict(run.runDir, 'd/x', {
      kind: 'judge',
      reason: 'ok',
      subScores: [{ name: 's', evaluation: 'yes' }],
      complete: 'yes',
      model: 'm',
      options: {},
      at: 'b',
    });
    appendVerdict(run.runDir, 'd/x', { kind: 'human', author: 'ann', complete: 'no', at: 'c' });
    const t = readTaskTrajectory(run.runDir, 'd/x');
    expect(t.verdicts.map((v) => v.kind)).toEqual(['rule', 'judge', 'human']);
    expect(t.item).toMatchObject({ judge: 'yes', human: 'no' });
    const ufo = readJsonLines(join(run.taskDir('d/x'), 'evaluation.log')).values;
    expect(ufo).toEqual([{ reason: 'ok', sub_scores: [{ name: 's', evaluation: 'yes' }], complete: 'yes' }]);
    expect(() =>
      appendVerdict(run.runDir, 'd/nope', { kind: 'rule', score: 0, metrics: [], at: '' }),
    ).toThrow(/not in .*manifest.json/);
  });
});

describe('OSWorld result folders', () => {
  it('parses both timestamp forms and round-trips its own', () => {
    const d = new Date(2024, 3, 12, 10, 15, 30, 123);
    expect(osworldTimestamp(d)).toBe('20240412@101530123000');
    expect(parseOsworldTimestamp('20240412@101530123000')?.getTime()).toBe(d.getTime());
    expect(parseOsworldTimestamp('20240412@101530')?.getTime()).toBe(
      new Date(2024, 3, 12, 10, 15, 30).getTime(),
    );
    expect(parseOsworldTimestamp('2024-04-12')).toBeUndefined();
  });

  it('reads traj.jsonl, step images, result.txt and Error lines as OSWorld writes them', () => {
    const root = tmp();
    const model = join(root, 'pyautogui', 'screenshot', 'gpt-4o');
    const ok = join(model, 'chrome', 'task-ok');
    const crashed = join(model, 'os', 'task-crash');
    const cut = join(model, 'os', 'task-cut');
    for (const d of [ok, crashed, cut]) mkdirSync(d, { recursive: true });
    writeFileSync(join(ok, 'step_1_20240412@101530123456.png'), 'x');
    writeFileSync(
      join(ok, 'traj.jsonl'),
      [
        {
          step_num: 1,
          action_timestamp: '20240412@101530123456',
          action: 'pyautogui.click(1, 2)',
          response: 'r',
          reward: 0,
          done: false,
          info: {},
          screenshot_file: 'step_1_20240412@101530123456.png',
        },
        {
          step_num: 2,
          action_timestamp: '20240412@101540',
          action: { action_type: 'DONE' },
          reward: 0,
          done: true,
          info: {},
          screenshot_file: 'step_2_20240412@101540.png',
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    writeFileSync(join(ok, 'result.txt'), '1.0\n');
    writeFileSync(
      join(crashed, 'traj.jsonl'),
      JSON.stringify({ Error: 'Time limit exceeded in task-crash' }) + '\n',
    );
    writeFileSync(join(crashed, 'result.txt'), '0\n');
    writeFileSync(join(cut, 'traj.jsonl'), '{"step_num": 1, "action_timest');

    const runs = listRuns(root);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      format: 'osworld',
      path: 'pyautogui/screenshot/gpt-4o',
      tasks: 3,
      finished: 2,
    });
    expect(runs[0].successRate).toBeCloseTo(1 / 3);
    // The run started at its first step (local time, as OSWorld writes it), not when its folder last changed.
    expect(runs[0].startedAt).toBe(new Date(2024, 3, 12, 10, 15, 30, 123).toISOString());
    const detail = readRun(model, root);
    const byKey = Object.fromEntries(detail.tasks.map((t) => [t.key, t]));
    expect(byKey['chrome/task-ok']).toMatchObject({
      state: 'success',
      score: 1,
      steps: 2,
      timingMs: 9877,
      app: 'chrome',
    });
    expect(byKey['os/task-cut'].app).toBe('os'); // the domain folder is the app
    expect(byKey['os/task-crash']).toMatchObject({
      state: 'timed_out',
      score: 0,
      error: 'Time limit exceeded in task-crash',
    });
    expect(byKey['os/task-cut']).toMatchObject({ state: 'cancelled' });
    const t = readTaskTrajectory(model, 'chrome/task-ok');
    expect(t.steps[0]).toMatchObject({
      step: 1,
      rawAction: 'pyautogui.click(1, 2)',
      screenshot: 'chrome/task-ok/step_1_20240412@101530123456.png',
    });
    expect(t.steps[1].screenshot).toBeUndefined(); // the file is not there
    expect(t.steps[1].done).toBe(true);
    expect(t.task).toMatchObject({ domain: 'chrome', app: 'chrome' });
    expect(() => readTaskTrajectory(model, '../x')).toThrow(/task key/);
    expect(readdirSync(root)).toEqual(['pyautogui']);
  });

  it('lists Proctor runs and OSWorld folders side by side', async () => {
    const root = tmp();
    await RunWriter.create(join(root, 'results'), input(['d/x']));
    const osw = join(root, 'osworld', 'pyautogui', 'a11y_tree', 'm', 'os', 't');
    mkdirSync(osw, { recursive: true });
    writeFileSync(join(osw, 'result.txt'), '0');
    expect(
      listRuns(root)
        .map((r) => r.format)
        .sort(),
    ).toEqual(['osworld', 'proctor']);
  });
});
