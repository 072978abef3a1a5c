// Marking a step again through the contract replaces the person's own mark: the new event names the one it
// supersedes, the file keeps both, and the export holds the current mark (the history only when asked).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HumanLabel } from '../../shared/run';
import { labelledItems } from '../annotate/items';
import { exportRows } from '../annotate/label-rows';
import { osworldRun, tempRoot } from '../annotate/testing/runs';
import { annotateHandlers } from './annotate-handlers';

const root = tempRoot('proctor-marks-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a person marking the same step twice', () => {
  it('supersedes their earlier mark, keeps the history, and exports only the current mark', async () => {
    const run = osworldRun(root, 'runA', { t1: 1 });
    const h = annotateHandlers(root);
    const me = { person: 'ann', role: 'annotator' as const };
    const other = { person: 'bob', role: 'annotator' as const };
    const add = (caller: typeof me, label: Parameters<(typeof h)['labels.add']>[0]['label']) =>
      h['labels.add']({ runId: 'runA', taskKey: 'demo/t1', label }, caller);
    await add(me, {
      steps: [
        { step: 1, mark: 'right' },
        { step: 2, mark: 'right' },
      ],
    });
    await add(other, { steps: [{ step: 2, mark: 'unnecessary' }] });
    await add(me, { steps: [{ step: 2, mark: 'wrong' }] });
    await add(me, { complete: 'no' });
    await add(me, { complete: 'yes', comment: 'on second look' });

    const events = readFileSync(join(run, 'demo', 't1', 'verdicts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as HumanLabel);
    expect(events).toHaveLength(5);
    expect(events[0].supersedes).toBeUndefined();
    expect(events[1].supersedes).toBeUndefined(); // bob's mark replaces nothing of ann's
    expect(events[2].supersedes).toEqual([events[0].at]); // ann's step 2 again
    expect(events[3].supersedes).toBeUndefined(); // a run label replaces no step mark
    expect(events[4].supersedes).toEqual([events[3].at]);

    const current = exportRows(labelledItems([run], root));
    expect(current.map((r) => [r.person, r.step, r.mark || r.complete])).toEqual([
      ['ann', '1', 'right'],
      ['bob', '2', 'unnecessary'],
      ['ann', '2', 'wrong'],
      ['ann', '', 'yes'],
    ]);
    expect(new Set(current.map((r) => r.run_id))).toEqual(new Set(['runA']));
    const history = exportRows(labelledItems([run], root), { history: true });
    expect(history).toHaveLength(6);
    expect(history.filter((r) => r.supersedes).map((r) => [r.step, r.supersedes])).toEqual([
      ['2', events[0].at],
      ['', events[3].at],
    ]);
  });
});
