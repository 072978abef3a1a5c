// Demonstration review: a lead's verdict on a person's run is stored beside the run's task, read back validated,
// and the latest accepted demonstration of a task is what `proctor run --agent demo` replays on a real sandbox.
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agents';
import { contextFor, screenshotObservation, tempTask } from '../agents/testing/task-fixture';
import { missingDemoPrograms, runProctor } from '../demo/testing-env';
import { projectRoot } from '../demo/paths';
import { taskDirOf } from '../store';
import { parseRunArgs } from '../cli/commands/run';
import {
  acceptedDemonstrations,
  demonstrationEntries,
  demonstrationFile,
  demonstrationStatus,
  reviewDemonstration,
} from './demonstration';
import { writeHumanRun } from './testing/human-run';

const tmp = mkdtempSync(join(tmpdir(), 'proctor-demos-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const taskId = '246ccb60-7635-46fa-a222-6f4261e826ee';
const oracle = JSON.parse(
  readFileSync(join(projectRoot, 'resources/demo/terminal', taskId, 'oracle.json'), 'utf8'),
) as { steps: string[] };
const lead = { author: 'lee', role: 'lead' as const };

describe('demonstration reviews', () => {
  it('stores accept / reject events beside the run task; the latest decides; only accepted ones are offered, newest first', async () => {
    const dir = join(tmp, 'unit');
    const a = await writeHumanRun(
      dir,
      { domain: 'terminal', id: 'task-1' },
      ["pyautogui.press('a')", 'not code', 'DONE'],
      'person-a',
    );
    const b = await writeHumanRun(
      dir,
      { domain: 'terminal', id: 'task-1' },
      ["pyautogui.press('b')", 'DONE'],
      'person-b',
    );
    expect(acceptedDemonstrations(dir, 'task-1')).toEqual([]);
    reviewDemonstration(a.runDir, a.taskKey, { verdict: 'accepted', reason: 'clean and short', ...lead });
    await new Promise((r) => setTimeout(r, 5));
    reviewDemonstration(b.runDir, b.taskKey, {
      verdict: 'rejected',
      reason: 'pressed the wrong key',
      ...lead,
    });
    expect(acceptedDemonstrations(dir, 'task-1').map((d) => d.runId)).toEqual(['person-a']);
    expect(acceptedDemonstrations(dir, 'other-task')).toEqual([]);
    // A lead changes their mind: the latest event decides, the history stays.
    await new Promise((r) => setTimeout(r, 5));
    reviewDemonstration(b.runDir, b.taskKey, {
      verdict: 'accepted',
      reason: 'the key was right after all',
      ...lead,
    });
    expect(acceptedDemonstrations(dir, 'task-1').map((d) => d.runId)).toEqual(['person-b', 'person-a']);
    const file = join(taskDirOf(b.runDir, b.taskKey), demonstrationFile);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    // A line that is not a valid review (no reason, unknown verdict) is passed over when read.
    appendFileSync(
      file,
      JSON.stringify({
        kind: 'demonstration.review',
        verdict: 'rejected',
        reason: '',
        author: 'x',
        at: new Date().toISOString(),
      }) + '\n',
    );
    appendFileSync(
      file,
      JSON.stringify({
        kind: 'demonstration.review',
        verdict: 'maybe',
        reason: 'r',
        author: 'x',
        at: new Date().toISOString(),
      }) + '\n',
    );
    expect(demonstrationStatus(b.runDir, b.taskKey)?.reason).toBe('the key was right after all');
    expect(demonstrationEntries(a)).toEqual(["pyautogui.press('a')", 'not code', 'DONE']);
  });

  it("refuses a review without a reason, of a run that is not a person's, or of a task the run lacks", async () => {
    const dir = join(tmp, 'refuse');
    const a = await writeHumanRun(dir, { domain: 'terminal', id: 'task-2' }, ['DONE'], 'person');
    expect(() =>
      reviewDemonstration(a.runDir, a.taskKey, { verdict: 'accepted', reason: '  ', ...lead }),
    ).toThrow(/needs a reason/);
    expect(() =>
      reviewDemonstration(a.runDir, 'terminal/nope', { verdict: 'accepted', reason: 'r', ...lead }),
    ).toThrow(/has no task 'terminal\/nope'/);
    expect(() =>
      reviewDemonstration(join(projectRoot, 'resources'), 'x/y', {
        verdict: 'accepted',
        reason: 'r',
        ...lead,
      }),
    ).toThrow(/not a Proctor run folder/);
  });

  it('the demo agent replays the entries that parsed, then DONE; without an accepted demonstration it names the task', async () => {
    const dir = join(tmp, 'agent');
    const run = await writeHumanRun(
      dir,
      { domain: 'terminal', id: 'x-task' },
      ["pyautogui.press('tab')", 'os.remove("/")', "pyautogui.write('hi')"],
      'p',
    );
    const task = { ...tempTask('x'), id: 'x-task' };
    const missing = await createAgent('demo', { demos: dir })
      .start(contextFor(task))
      .catch((e: Error) => e);
    expect((missing as Error).message).toMatch(
      /demo: task x-task has no accepted demonstration in the runs below .*agent/,
    );
    reviewDemonstration(run.runDir, run.taskKey, { verdict: 'accepted', reason: 'good', ...lead });
    const agent = createAgent('demo', { demos: dir });
    await agent.start(contextFor(task));
    const obs = await screenshotObservation(16, 16);
    const turns = [];
    for (let s = 1; s <= 3; s++) turns.push((await agent.next(obs, s, [])).actions);
    expect(turns).toEqual([
      [{ type: 'press', keys: ['tab'] }],
      [{ type: 'write', text: 'hi' }],
      [{ type: 'DONE' }],
    ]);
  });

  it('the demo agent scales a demonstration given on another screen size to this one', async () => {
    const dir = join(tmp, 'scaled');
    const run = await writeHumanRun(
      dir,
      { domain: 'terminal', id: 's-task' },
      ['pyautogui.click(640, 400)', 'pyautogui.moveTo(1280, 0)', "pyautogui.press('enter')"],
      'p',
      { width: 1280, height: 800 },
    );
    reviewDemonstration(run.runDir, run.taskKey, { verdict: 'accepted', reason: 'good', ...lead });
    expect(acceptedDemonstrations(dir, 's-task')[0].screen).toEqual({ width: 1280, height: 800 });
    const agent = createAgent('demo', { demos: dir });
    await agent.start(contextFor({ ...tempTask('s'), id: 's-task' }));
    const obs = await screenshotObservation(1920, 1080);
    const turns = [];
    for (let s = 1; s <= 3; s++) turns.push((await agent.next(obs, s, [])).actions[0]);
    expect(turns).toEqual([
      { type: 'click', x: 960, y: 540 },
      { type: 'moveTo', x: 1920, y: 0 },
      { type: 'press', keys: ['enter'] },
    ]);
    // The same size: the person's coordinates as given.
    const same = createAgent('demo', { demos: dir });
    await same.start(contextFor({ ...tempTask('s'), id: 's-task' }));
    expect((await same.next(await screenshotObservation(1280, 800), 1, [])).actions[0]).toEqual({
      type: 'click',
      x: 640,
      y: 400,
    });
  });
});

describe('proctor run --demos', () => {
  it('is an option of the demo agent only', () => {
    expect(parseRunArgs(['t', '--agent', 'demo', '--demos', 'results']).agentOptions).toEqual({
      demos: 'results',
    });
    expect(() => parseRunArgs(['t', '--agent', 'oracle', '--demos', 'results'])).toThrow(
      /--demos is an option of the demo agent/,
    );
  });
});

const missing = missingDemoPrograms();
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';

describe.skipIf(missing.length > 0)(`proctor run --agent demo on a sandbox display${why}`, () => {
  it('replays the accepted demonstration of a demo terminal task and scores 1; a rejected one is not offered', async () => {
    const demos = join(tmp, 'demos');
    const good = await writeHumanRun(demos, { domain: 'terminal', id: taskId }, oracle.steps, 'ada');
    reviewDemonstration(good.runDir, good.taskKey, {
      verdict: 'accepted',
      reason: 'does what the task asks',
      ...lead,
    });
    // Newer, rejected, and wrong: if it were offered the run would score 0.
    await new Promise((r) => setTimeout(r, 5));
    const bad = await writeHumanRun(
      demos,
      { domain: 'terminal', id: taskId },
      ["pyautogui.write('echo nothing')", "pyautogui.press('enter')", 'DONE'],
      'bob',
    );
    reviewDemonstration(bad.runDir, bad.taskKey, { verdict: 'rejected', reason: 'writes nothing', ...lead });

    const out = join(tmp, 'runs');
    const r = await runProctor(
      [
        'run',
        `resources/demo/terminal/${taskId}`,
        '--agent',
        'demo',
        '--demos',
        demos,
        '--screen',
        '800x600',
        '--out',
        out,
      ],
      240_000,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const runDir = resolve(projectRoot, /^run folder: (.+)$/m.exec(r.stdout)![1]);
    const results = findFiles(runDir, 'result.txt');
    expect(results).toHaveLength(1);
    expect(Number(readFileSync(results[0], 'utf8').trim())).toBe(1);
    const traj = readFileSync(join(results[0], '..', 'traj.jsonl'), 'utf8');
    expect(traj).toContain('region_totals.csv');

    // Without an accepted demonstration: a clear error naming the task.
    const none = await runProctor(
      [
        'run',
        `resources/demo/terminal/${taskId}`,
        '--agent',
        'demo',
        '--demos',
        join(tmp, 'unit'),
        '--screen',
        '800x600',
        '--out',
        out,
      ],
      240_000,
    );
    expect(none.stdout + none.stderr).toContain(`task ${taskId} has no accepted demonstration`);
  }, 300_000);
});

function findFiles(dir: string, name: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? findFiles(p, name) : e === name ? [p] : [];
  });
}
