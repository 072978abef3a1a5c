// The reader keeps a run's parsed events and manifest while their files are unchanged (so reading 500 tasks reads
// them once) and reads them again as soon as they change: a verdict or a run event appended, or a manifest edited,
// between two reads shows in the second; a caller changing what it got changes nothing for the next.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { proctorRun } from '../share/site/testing/proctor-run';
import { appendJsonLine, appendVerdict, readRun, readTaskTrajectory } from '.';

const tmp = mkdtempSync(join(tmpdir(), 'proctor-events-reread-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the events of a run, read once while unchanged', () => {
  it('sees an event appended after an earlier read', async () => {
    const { runDir, keys } = await proctorRun(join(tmp, 'runs'), 2, 1);
    const before = readTaskTrajectory(runDir, keys[0]);
    expect(readTaskTrajectory(runDir, keys[0]).verdicts).toEqual(before.verdicts);
    appendVerdict(runDir, keys[0], {
      kind: 'judge',
      complete: 'no',
      reason: 'wrong file',
      subScores: [],
      model: 'm',
      options: {},
      at: new Date().toISOString(),
    });
    const after = readTaskTrajectory(runDir, keys[0]);
    expect(after.verdicts.length).toBe(before.verdicts.length + 1);
    expect(after.item.judge).toBe('no');
    expect(readRun(runDir).tasks.find((t) => t.key === keys[0])?.judge).toBe('no');
    // Whether the run is live comes from events.jsonl alone (its writer, this process, is alive): started again, it is.
    expect(readRun(runDir).run.live).toBe(false);
    appendJsonLine(join(runDir, 'events.jsonl'), {
      kind: 'run.started',
      runId: before.runId,
      at: new Date().toISOString(),
      tasks: keys,
    });
    expect(readRun(runDir).run.live).toBe(true);
  });

  it('reads a changed manifest again, and hands each reader its own copy', async () => {
    const { runDir, keys } = await proctorRun(join(tmp, 'runs-m'), 1, 1);
    const first = readTaskTrajectory(runDir, keys[0]);
    expect(first.item.instruction).toBe('task t1');
    (first.item as { instruction?: string }).instruction = 'changed by a caller';
    first.item.tags?.push('changed');
    expect(readTaskTrajectory(runDir, keys[0]).item.instruction).toBe('task t1');
    const file = join(runDir, 'manifest.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as { taskInfo: Record<string, { instruction: string }> };
    m.taskInfo[keys[0]].instruction = 'task t1, edited';
    writeFileSync(file, JSON.stringify(m));
    expect(readTaskTrajectory(runDir, keys[0]).item.instruction).toBe('task t1, edited');
  });
});
