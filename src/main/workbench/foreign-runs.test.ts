// Other harnesses' result folders through the API the UI uses (runs.list / runs.get / runs.task), served at the
// top folder each harness writes: OSWorld's dated traces, an OSWorld fork's renamed scenario folders, Spider2-V.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunDetail, TaskTrajectory } from '../../shared/api';
import type { RunListItem } from '../../shared/run';
import {
  foreignFixtureFacts as facts,
  writeForeignFixtures,
  type ForeignFixtures,
} from '../store/testing/foreign-fixtures';
import { createWorkbench } from './workbench';
import { dispatch } from './dispatch';

let dir: string;
let fx: ForeignFixtures;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proctor-foreign-'));
  fx = await writeForeignFixtures(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The three calls the UI makes, against a workbench serving `root`. */
async function api<T>(
  root: string,
  method: 'runs.list' | 'runs.get' | 'runs.task',
  params: unknown,
): Promise<T> {
  const wb = createWorkbench(root, { transport: 'http' });
  try {
    const r = await dispatch(wb.handlers, method, params);
    if (!r.ok) throw new Error(r.error.message);
    return r.result as T;
  } finally {
    await wb.close();
  }
}
const list = (root: string) => api<RunListItem[]>(root, 'runs.list', {});
const get = (root: string, runId: string) => api<RunDetail>(root, 'runs.get', { runId });
const task = (root: string, runId: string, taskKey: string) =>
  api<TaskTrajectory>(root, 'runs.task', { runId, taskKey });
const local = (...p: [number, number, number, number, number, number, number?]) =>
  new Date(...(p as [number, number, number, number, number, number, number])).toISOString();

describe('an OSWorld output folder with dated runs side by side', () => {
  it('lists every run below the top folder with a distinct id and the settings its layout gives', async () => {
    const runs = await list(fx.osworldTop);
    expect(runs.map((r) => r.runId).sort()).toEqual([...facts.osworld.runs].sort());
    expect(
      runs.every((r) => r.path === r.runId && r.format === 'osworld' && r.startedAtSource === 'harness'),
    ).toBe(true);
    const day1 = runs.find((r) => r.runId === facts.osworld.runs[0])!;
    expect(day1.settings).toEqual({
      actionSpace: 'pyautogui',
      observation: 'screenshot_a11y_tree',
      model: 'gpt-4o',
    });
    expect(day1.startedAt).toBe(local(2025, 0, 30, 10, 15, 0, 123));
    expect(runs.find((r) => r.runId === facts.osworld.runs[2])!.settings?.observation).toBe('screenshot');
  });

  it('says how each episode ended apart from its score: finished with 0, error, aborted', async () => {
    const [day1, day2, claude] = await Promise.all(facts.osworld.runs.map((id) => get(fx.osworldTop, id)));
    expect(day1.tasks[0]).toMatchObject({
      key: 'chrome/task-1',
      outcome: 'finished',
      score: 0,
      timeSource: 'harness',
      startedAt: local(2025, 0, 30, 10, 15, 0, 123),
      timingMs: 14_877,
      recording: 'chrome/task-1/recording.mp4',
      steps: 4,
    });
    expect(day2.tasks[0]).toMatchObject({
      key: 'chrome/task-1',
      outcome: 'error',
      error: 'chrome/task-1 - Connection to the VM was lost',
    });
    expect(day2.tasks[0].score).toBeUndefined();
    expect(day2.tasks[0].recording).toBeUndefined();
    const byKey = Object.fromEntries(claude.tasks.map((t) => [t.key, t]));
    expect(byKey['os/task-2']).toMatchObject({ outcome: 'finished', score: 1 });
    expect(byKey['os/task-3']).toMatchObject({ outcome: 'aborted' });
  });

  it("replays the harness's steps line by line: pointer carried, scrolls drawn beside clicks, nothing refused", async () => {
    const t = await task(fx.osworldTop, facts.osworld.runs[0], facts.osworld.task);
    expect(t.runId).toBe(facts.osworld.runs[0]);
    expect(t.steps.map((s) => s.step)).toEqual(facts.osworld.steps);
    expect(t.steps.map((s) => s.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(t.steps[1].actions).toEqual([{ type: 'click', x: 546, y: 524 }]);
    expect(t.steps[2].actions).toEqual([
      { type: 'click', x: 300, y: 200 },
      { type: 'scroll', dx: 0, dy: -800, x: 300, y: 200 },
    ]);
    expect(t.steps.filter((s) => s.wouldRefuse || s.feedback || s.toolAction)).toEqual([]);
    // The model's words from the lines' response fields; times and the recording from the harness's timestamps.
    expect(t.steps[0].model).toEqual([
      { role: 'assistant', text: 'I will move to the search box and click it.', source: 'traj.jsonl:1' },
    ]);
    expect(t.steps.map((s) => s.recordingAt)).toEqual([0, 1.877, 4.877, 9.877, 10.877, 14.877]);
    expect(t.steps[0].screenshot).toBe(
      `${facts.osworld.runs[0]}/chrome/task-1/step_1_20250130@101500123456.png`,
    );
    expect(t.item.recording).toBe('chrome/task-1/recording.mp4');
  });

  it('opens the other day of the same task as its own run, with its Error line in the step it ended', async () => {
    const t = await task(fx.osworldTop, facts.osworld.runs[1], 'chrome/task-1');
    expect(t.runId).toBe(facts.osworld.runs[1]);
    expect(t.steps.map((s) => [s.step, s.line])).toEqual([
      [1, 1],
      [2, 2],
      [2, 3],
    ]);
    expect(t.steps[2]).toMatchObject({ error: 'chrome/task-1 - Connection to the VM was lost', actions: [] });
    expect(t.steps[1].actions).toEqual([{ type: 'click', x: 640, y: 360, clicks: 2 }]);
  });

  it('dates a task by its folder name, and by mtime only as the labelled last resort', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-foreign-times-'));
    try {
      const renamed = join(root, 'sec', 'scenario', '20250301@080910-failed');
      cpSync(
        join(fx.forkTop, 'sec_eval_results', 'malicious_download_prompt', '20250226@161539-failed'),
        renamed,
        { recursive: true },
      );
      writeFileSync(join(renamed, 'traj.jsonl'), JSON.stringify({ step_num: 1, action: 'WAIT' }) + '\n');
      const plain = join(root, 'osw', 'pyautogui', 'screenshot', 'm', 'os', 't');
      cpSync(
        join(
          fx.osworldTop,
          'traces',
          '20250203-1',
          'pyautogui',
          'screenshot',
          'claude-3-7-sonnet-20250219',
          'os',
          'task-3',
        ),
        plain,
        { recursive: true },
      );
      writeFileSync(join(plain, 'traj.jsonl'), JSON.stringify({ step_num: 1, action: 'WAIT' }) + '\n');
      const runs = await list(root);
      const sec = runs.find((r) => r.path === 'sec')!;
      expect(sec.startedAtSource).toBe('folder name');
      expect((await get(root, sec.runId)).tasks[0]).toMatchObject({
        timeSource: 'folder name',
        startedAt: local(2025, 2, 1, 8, 9, 10),
      });
      const osw = runs.find((r) => r.path === 'osw/pyautogui/screenshot/m')!;
      expect(osw.startedAtSource).toBe('mtime');
      expect((await get(root, osw.runId)).tasks[0].timeSource).toBe('mtime');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("an OSWorld fork's renamed scenario folders", () => {
  it('finds the runs by their content: the scenario is the task, the folder no model, the verdict a label', async () => {
    const [run] = await list(fx.forkTop);
    expect(run).toMatchObject({
      runId: facts.fork.runs[0],
      format: 'osworld',
      tasks: 2,
      startedAtSource: 'harness',
    });
    expect(run.model).toBeUndefined();
    expect(run.settings).toBeUndefined();
    const detail = await get(fx.forkTop, run.runId);
    const item = detail.tasks.find((t) => t.key === facts.fork.task)!;
    expect(item).toMatchObject({
      taskId: 'malicious_download_prompt',
      outcome: 'finished',
      score: 0,
      human: 'no',
      recording: `${facts.fork.task}/recording.mp4`,
    });
    expect(item.app).toBeUndefined();
    expect(item.instruction).toMatch(/^The support page says/);
    expect(detail.tasks.find((t) => t.key !== facts.fork.task)).toMatchObject({
      taskId: 'phishing_email_link',
      human: 'yes',
      score: 1,
    });
  });

  it("shows shell commands as shell commands, the scroll over the cap beside its click, and the model's words per step", async () => {
    const t = await task(fx.forkTop, facts.fork.runs[0], facts.fork.task);
    expect(t.steps.map((s) => s.step)).toEqual(facts.fork.steps);
    const [move, click, shell, scroll, done] = t.steps;
    expect(move.actions).toEqual([{ type: 'moveTo', x: 546, y: 524 }]);
    expect(click.actions).toEqual([{ type: 'click', x: 546, y: 524 }]);
    expect(shell).toMatchObject({
      actions: [],
      toolAction: { kind: 'shell', name: 'bash', text: facts.fork.shell },
    });
    expect(shell.wouldRefuse).toMatch(/shell/);
    expect(scroll.actions).toEqual([
      { type: 'scroll', dx: 0, dy: -5000, x: 546, y: 524 },
      { type: 'click', x: 700, y: 400 },
    ]);
    expect(scroll.wouldRefuse).toMatch(/'clicks' must be between -1000 and 1000, not -5000$/);
    expect(done.actions).toEqual([{ type: 'DONE' }]);
    // k-th assistant turn with tool calls ↔ k-th step; the closing words go to the DONE step.
    expect(move.model?.[0]).toMatchObject({
      role: 'assistant',
      text: 'I will open the file manager first.',
      source: 'messages.json[1]',
    });
    expect(move.model?.[0].toolCalls?.map((c) => c.name)).toEqual(['computer', 'computer']);
    expect(click.model).toEqual(move.model);
    expect(shell.model?.[0].toolCalls).toEqual([{ name: 'bash', input: { command: facts.fork.shell } }]);
    expect(shell.model?.[1]).toMatchObject({ role: 'tool', text: '[screenshot omitted]' });
    expect(done.model).toEqual([
      { role: 'assistant', text: 'The tool ran. I am done.', source: 'messages.json[7]' },
    ]);
    expect(t.verdicts).toEqual([
      {
        kind: 'human',
        author: 'folder name',
        complete: 'no',
        comment: "folder '20250226@161539-failed': failed",
        source: 'folder name',
        at: local(2025, 1, 26, 16, 15, 39),
      },
    ]);
    expect(t.item.timeSource).toBe('harness');
    expect(t.steps.map((s) => s.recordingAt)).toEqual([0, 1, 12, 18, 28]);
  });

  it('reads one scenario folder served on its own', async () => {
    const root = join(fx.forkTop, 'sec_eval_results', 'malicious_download_prompt');
    const [run] = await list(root);
    expect(run).toMatchObject({ path: '.', tasks: 1 });
    const detail = await get(root, run.runId);
    expect(detail.tasks[0]).toMatchObject({
      key: 'malicious_download_prompt/20250226@161539-failed',
      taskId: 'malicious_download_prompt',
    });
    const t = await task(root, run.runId, detail.tasks[0].key);
    expect(t.steps).toHaveLength(5);
  });
});

describe('a Spider2-V results folder', () => {
  it('parses the run folder names into settings with their flags', async () => {
    const runs = await list(fx.spider2vTop);
    expect(runs.map((r) => r.runId).sort()).toEqual([...facts.spider2v.runs].sort());
    const som = runs.find((r) => r.runId === facts.spider2v.runs[0])!;
    expect(som).toMatchObject({
      format: 'spider2v',
      model: 'o4-mini-2025-04-16',
      settings: facts.spider2v.settings,
      startedAtSource: 'harness',
    });
    expect(runs.find((r) => r.runId === facts.spider2v.runs[1])!.settings).toEqual({
      actionSpace: 'pyautogui',
      observation: 'screenshot',
      model: 'gpt-4o-2024-05-13',
      flags: ['rag'],
    });
  });

  it('replays its lines (no screenshot_file) under the step numbers, with the replies of its log', async () => {
    const runId = facts.spider2v.runs[0];
    const detail = await get(fx.spider2vTop, runId);
    expect(detail.tasks[0]).toMatchObject({
      key: facts.spider2v.task,
      outcome: 'finished',
      score: 1,
      steps: 3,
      timeSource: 'harness',
      timingMs: 19_000,
    });
    const t = await task(fx.spider2vTop, runId, facts.spider2v.task);
    expect(t.steps.map((s) => s.step)).toEqual(facts.spider2v.steps);
    expect(t.steps[0].actions).toEqual([{ type: 'click', x: 995, y: 597 }]);
    expect(t.steps[1].actions).toEqual([{ type: 'scroll', dx: 0, dy: -800, x: 995, y: 597 }]);
    expect(t.steps.filter((s) => s.wouldRefuse || s.toolAction)).toEqual([]);
    expect(t.steps[0].observation).toBe(`${runId}/excel/task-a/screenshots/step_1_20250420@100001.png`);
    expect(t.steps[1].observation).toBe(`${runId}/excel/task-a/screenshots/step_1_20250420@100003.png`);
    expect(t.steps[2].model).toEqual([
      { role: 'assistant', text: 'Type the word total.', source: 'result-2025-04-20-10-00-00.log:8' },
    ]);
    expect(t.item.recording).toBe('excel/task-a/recording.mp4');
    expect(t.steps.map((s) => s.recordingAt)).toEqual([0, 2, 9, 19]);
  });
});

describe('a single task folder served on its own', () => {
  it('is a run of that one task', async () => {
    const root = join(fx.forkTop, 'sec_eval_results', 'malicious_download_prompt', '20250226@161539-failed');
    const [run] = await list(root);
    expect(run).toMatchObject({ path: '.', runId: '20250226@161539-failed', tasks: 1 });
    const detail = await get(root, run.runId);
    expect(detail.tasks[0]).toMatchObject({
      key: 'malicious_download_prompt/20250226@161539-failed',
      taskId: 'malicious_download_prompt',
      human: 'no',
    });
    const t = await task(root, run.runId, detail.tasks[0].key);
    expect(t.steps.map((s) => s.step)).toEqual(facts.fork.steps);
    expect(t.steps[0].screenshot).toBe('step_1_20250226@161545.png');
  });
});
