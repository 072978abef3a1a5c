// Cross-validation check d: the oracle's stored run of a bundled demo task, replayed step by step on a fresh
// sandbox display, scores 1 again, each step's screen compared with the stored one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir } from '../demo/paths';
import { runTrial } from '../demo/trials';
import { readTaskFile } from '../tasks';
import { taskKeyOf } from '../store';
import { checkReplay } from './replay-check';
import { tempRoot } from './testing/runs';

const xvfb = existsSync('/usr/bin/Xvfb');
const id = 'd4763460-7613-4df2-88bd-bca55ebae997';

describe.skipIf(!xvfb)('replaying a stored run on a fresh environment (needs Xvfb)', () => {
  it("the oracle's run of a demo task scores 1 again, step by step", async () => {
    const read = await readTaskFile(join(demoDir, 'terminal', id, `${id}.json`));
    const task = read.task!;
    const trial = await runTrial('oracle', [task], {
      outDir: tempRoot(),
      agent: 'oracle',
      agentName: 'oracle',
    });
    const key = taskKeyOf(task);
    expect(trial.results.get(key)?.score).toBe(1);
    const r = await checkReplay(task, trial.runDir, key);
    expect(r.storedScore).toBe(1);
    expect(r.score).toBe(1);
    expect(r.steps.length).toBeGreaterThan(3);
    expect(r.steps.filter((s) => s.differingShare !== undefined).length).toBeGreaterThan(0);
    expect(r.reason).toMatch(/^replayed \d+ step\(s\) on a fresh environment: scores 1 \(stored run 1\)/);
  }, 180_000);
});
