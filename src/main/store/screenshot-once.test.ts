// Each screenshot of a step is stored once: observations equal to the screen after the step before are referenced,
// and an observation the action left unchanged becomes the step file. Older runs with both files still read.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Screenshot } from '../env/environment';
import type { StepRecord } from '../../shared/run';
import { RunWriter, observationFileOf, readTaskTrajectory, taskDirFor, type ManifestInput } from './index';

const tmp = () => mkdtempSync(join(tmpdir(), 'proctor-shots-'));
const shot = (text: string): Screenshot => ({
  data: Buffer.from(`picture ${text}`),
  format: 'png',
  width: 4,
  height: 3,
  toScreen: 1,
});
const run = { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'oracle' } as const;
const taskDir = taskDirFor(run, 'demo', 'a');
const input: ManifestInput = {
  ...run,
  args: ['run'],
  tasks: ['demo/a'],
  taskInfo: { 'demo/a': { dir: taskDir } },
};

/** Every PNG below `dir` with its bytes, and how many distinct files (inodes) hold them. */
function filesIn(dir: string): { files: Map<string, string>; stored: number } {
  const files = new Map<string, string>();
  const inodes = new Set<string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && /\.png$/.test(e.name)) {
      const file = join(e.parentPath, e.name);
      files.set(file, readFileSync(file, 'latin1'));
      inodes.add(String(statSync(file).ino));
    }
  return { files, stored: inodes.size };
}

describe('step screenshots are stored once', () => {
  it('references the previous screen, moves an unchanged observation to the step file, and writes new pictures', async () => {
    const writer = await RunWriter.create(tmp(), input);
    const t = writer.openTask('demo/a');
    const abs = join(writer.runDir, taskDir);
    // step 1: A seen, B after · step 2: B seen (= after 1), C after · step 3: D seen, D after (nothing changed)
    const plan: [Screenshot, Screenshot][] = [
      [shot('A'), shot('B')],
      [shot('B'), shot('C')],
      [shot('D'), shot('D')],
    ];
    const observedDuring: (string | undefined)[] = [];
    for (const [i, [seen, after]] of plan.entries()) {
      const step = i + 1;
      const saved = await t.saveObservation(step, { screenshot: seen });
      observedDuring.push(observationFileOf(writer.runDir, taskDir, step));
      expect(observedDuring[i]).toBe(saved.observation);
      const record: StepRecord = {
        step,
        at: new Date(2026, 0, 1, 0, 0, step).toISOString(),
        actions: [],
        ...saved,
      };
      await t.recordStep(record, after, { action: 'WAIT' });
    }
    await t.finish('success', undefined);

    const { files } = filesIn(abs);
    const pictures = [...files.values()];
    expect(pictures.sort()).toEqual(['picture A', 'picture B', 'picture C', 'picture D']); // each once
    expect(
      [...files.keys()].filter((f) => f.includes('observations')).map((f) => f.slice(abs.length + 1)),
    ).toEqual([join('observations', 'step_1.png')]);

    const steps = readTaskTrajectory(writer.runDir, 'demo/a').steps;
    const bytes = (rel?: string) => (rel ? readFileSync(join(writer.runDir, rel), 'latin1') : undefined);
    expect(steps.map((s) => [bytes(s.observation), bytes(s.screenshot)])).toEqual([
      ['picture A', 'picture B'],
      ['picture B', 'picture C'],
      ['picture D', 'picture D'],
    ]);
    expect(steps[1].observation).toBe(steps[0].screenshot); // referenced, not copied
    expect(steps[2].observation).toBe(steps[2].screenshot);
    expect(observedDuring[1]).toBe(steps[0].screenshot);
    expect(observedDuring[2]).toBe(join(taskDir, 'observations', 'step_3.png')); // its own file until the step was recorded
    // traj.jsonl names each step's file, as OSWorld does
    const traj = readFileSync(join(abs, 'traj.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { screenshot_file: string });
    expect(traj.map((l) => join(taskDir, l.screenshot_file))).toEqual(steps.map((s) => s.screenshot));
  });

  it('references an older picture and hard-links a repeated screen under its step name', async () => {
    const writer = await RunWriter.create(tmp(), input);
    const t = writer.openTask('demo/a');
    const abs = join(writer.runDir, taskDir);
    // observations scaled for the model never equal the full-size screens after; the screen comes back to A
    const plan: [Screenshot, Screenshot][] = [
      [shot('a'), shot('A')],
      [shot('b'), shot('B')],
      [shot('a'), shot('A')],
    ];
    for (const [i, [seen, after]] of plan.entries()) {
      const saved = await t.saveObservation(i + 1, { screenshot: seen });
      await t.recordStep(
        { step: i + 1, at: new Date(2026, 0, 1, 0, 0, i + 1).toISOString(), actions: [], ...saved },
        after,
        { action: 'WAIT' },
      );
    }
    await t.finish('success', undefined);
    const steps = readTaskTrajectory(writer.runDir, 'demo/a').steps;
    expect(steps[2].observation).toBe(steps[0].observation); // referenced
    expect(steps[2].screenshot).not.toBe(steps[0].screenshot); // its own OSWorld name…
    expect(statSync(join(writer.runDir, steps[2].screenshot!)).ino).toBe(
      statSync(join(writer.runDir, steps[0].screenshot!)).ino,
    ); // …one file
    const { files, stored } = filesIn(abs);
    expect(files.size).toBe(5); // observations step_1, step_2 and three step files
    expect(stored).toBe(4); // a, A, b, B
  });

  it('still reads older runs that hold both copies', async () => {
    const writer = await RunWriter.create(tmp(), input);
    const t = writer.openTask('demo/a');
    await t.finish('success', undefined);
    const abs = join(writer.runDir, taskDir);
    mkdirSync(join(abs, 'observations'), { recursive: true });
    writeFileSync(join(abs, 'observations', 'step_1.png'), 'same');
    writeFileSync(join(abs, 'step_1_20260101@000001000000.png'), 'same');
    const old: StepRecord = {
      step: 1,
      at: new Date().toISOString(),
      actions: [],
      observation: join(taskDir, 'observations', 'step_1.png'),
      screenshot: join(taskDir, 'step_1_20260101@000001000000.png'),
    };
    writeFileSync(join(abs, 'steps.jsonl'), JSON.stringify(old) + '\n');
    const [step] = readTaskTrajectory(writer.runDir, 'demo/a').steps;
    expect(step).toMatchObject({ observation: old.observation, screenshot: old.screenshot });
    expect(observationFileOf(writer.runDir, taskDir, 1)).toBe(old.observation);
    expect(observationFileOf(writer.runDir, taskDir, 2)).toBe(old.screenshot);
  });
});
