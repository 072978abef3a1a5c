// The harness's steps over a trajectory with several lines per step and an error line: grouping, the entry a
// deep link names, keyboard moves by entry and by step, and the pointer carried into a bare click.
import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../shared/run';
import { endsOf, groupSteps, linkOf, moveFrom, pointerBefore, selectEntry } from './step-groups';

const at = '2025-01-30T10:15:00.000Z';
/** OSWorld-shaped: steps 3, 3, 4, 7 (error line), 7, 9 — harness numbers, not 1..n. */
const entries: StepRecord[] = [
  { step: 3, line: 1, at, actions: [{ type: 'moveTo', x: 546, y: 524 }] },
  { step: 3, line: 2, at, actions: [{ type: 'click' }] },
  {
    step: 4,
    line: 3,
    at,
    actions: [
      { type: 'click', x: 10, y: 20 },
      { type: 'moveRel', dx: 5, dy: 5 },
    ],
  },
  { step: 7, line: 4, at, actions: [], error: 'the VM went away' },
  { step: 7, line: 5, at, actions: [{ type: 'write', text: 'x' }] },
  { step: 9, line: 6, at, actions: [{ type: 'DONE' }] },
];
const groups = groupSteps(entries);

describe('steps as the harness numbered them', () => {
  it('groups entries by step in file order, error lines in their step', () => {
    expect(groups.map((g) => [g.step, g.indices])).toEqual([
      [3, [0, 1]],
      [4, [2]],
      [7, [3, 4]],
      [9, [5]],
    ]);
  });

  it('opens the entry a link names by harness step and position', () => {
    expect(selectEntry(groups, '7', null)).toEqual({ index: 3, group: 2, within: 0 });
    expect(selectEntry(groups, '7', '2')).toEqual({ index: 4, group: 2, within: 1 });
    expect(selectEntry(groups, '7', '9').index).toBe(4); // past the step's end: its last entry
    expect(selectEntry(groups, '4', null).index).toBe(2);
    // no step: the first entry of a finished task, the last of a live one (it is followed); a step the task
    // lacks: the next one it has, else the last
    expect(selectEntry(groups, null, null).index).toBe(0);
    expect(selectEntry(groups, null, null, true).index).toBe(5);
    expect(selectEntry(groups, '5', null).index).toBe(3);
    expect(selectEntry(groups, '99', null).index).toBe(5);
    expect(selectEntry(groups, 'x', null).index).toBe(0); // no readable step: as no step
    expect(selectEntry(groups, 'x', null, true).index).toBe(5);
    expect(selectEntry([], '1', null).index).toBe(-1);
  });

  it('links name the harness step, and the position only within a step of several entries', () => {
    expect(linkOf(groups, 0)).toEqual({ step: '3', entry: undefined });
    expect(linkOf(groups, 1)).toEqual({ step: '3', entry: '2' });
    expect(linkOf(groups, 2)).toEqual({ step: '4', entry: undefined });
    expect(linkOf(groups, 5)).toEqual({ step: '9', entry: undefined });
  });

  it('moves entry by entry through every line, or step by step', () => {
    const from = (i: number) => selectEntry(groups, linkOf(groups, i).step, linkOf(groups, i).entry ?? null);
    const walk = [0];
    for (let k = 0; k < 6; k++) walk.push(moveFrom(groups, from(walk.at(-1)!), 'entry', 1));
    expect(walk).toEqual([0, 1, 2, 3, 4, 5, 5]);
    expect(moveFrom(groups, from(4), 'entry', -1)).toBe(3);
    expect(moveFrom(groups, from(0), 'entry', -1)).toBe(0);
    expect(moveFrom(groups, from(0), 'step', 1)).toBe(2);
    expect(moveFrom(groups, from(2), 'step', 1)).toBe(3);
    expect(moveFrom(groups, from(4), 'step', -1)).toBe(3); // back from inside a step: to its start first
    expect(moveFrom(groups, from(3), 'step', -1)).toBe(2);
    expect(moveFrom(groups, from(5), 'step', 1)).toBe(5);
    expect(endsOf(groups)).toEqual({ first: 0, last: 5 });
  });

  it('carries the pointer into the next entry as pyautogui does', () => {
    expect(pointerBefore(entries, 0)).toBeUndefined();
    expect(pointerBefore(entries, 1)).toEqual({ x: 546, y: 524 });
    expect(pointerBefore(entries, 3)).toEqual({ x: 15, y: 25 });
  });
});
