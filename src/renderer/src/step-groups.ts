// A task's entries as the harness numbered its steps: entries grouped by `step` in order of first appearance
// (several trajectory lines of one step_num stay together, in file order), and the selection a deep link names:
// `step=<harness step>` and, within a step of several entries, `entry=<1-based position>`. Pure: no DOM.
import type { StepRecord } from '../../shared/run';

export interface StepGroup {
  /** The harness's step number. */
  step: number;
  /** Indices into the entries, in file order. */
  indices: number[];
}

export interface Selection {
  /** Index of the selected entry in the entries (-1 when there are none). */
  index: number;
  /** Index of its group. */
  group: number;
  /** Its 0-based position within the group. */
  within: number;
}

export function groupSteps(entries: readonly StepRecord[]): StepGroup[] {
  const groups: StepGroup[] = [];
  const byStep = new Map<number, StepGroup>();
  entries.forEach((e, i) => {
    let g = byStep.get(e.step);
    if (!g) {
      g = { step: e.step, indices: [] };
      byStep.set(e.step, g);
      groups.push(g);
    }
    g.indices.push(i);
  });
  return groups;
}

/** Where each entry sits: its group and position in it. */
function locate(groups: readonly StepGroup[], index: number): Selection {
  for (let g = 0; g < groups.length; g++) {
    const within = groups[g].indices.indexOf(index);
    if (within >= 0) return { index, group: g, within };
  }
  return { index: -1, group: -1, within: 0 };
}

const whole = (v: string | null): number | undefined => {
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
};

/** Whether a task's replay follows its newest step: while it is being run. */
export const isLiveTask = (state: string | undefined): boolean => state === 'running' || state === 'pending';

/**
 * The entry a link names. No step: the first entry of a finished task (a person reads and marks it from the start),
 * the last of a `live` one (it is followed). A step the task does not have: the nearest step after it, or the last.
 * No entry: the step's first entry.
 */
export function selectEntry(
  groups: readonly StepGroup[],
  stepParam: string | null,
  entryParam: string | null,
  live = false,
): Selection {
  if (!groups.length) return { index: -1, group: -1, within: 0 };
  const step = whole(stepParam);
  if (step === undefined && !live) return { index: groups[0].indices[0], group: 0, within: 0 };
  if (step === undefined) {
    const g = groups.length - 1;
    const within = groups[g].indices.length - 1;
    return { index: groups[g].indices[within], group: g, within };
  }
  let g = groups.findIndex((x) => x.step === step);
  if (g < 0) {
    const after = groups
      .map((x, i) => ({ x, i }))
      .filter(({ x }) => x.step > step)
      .sort((a, b) => a.x.step - b.x.step)[0];
    g = after ? after.i : groups.length - 1;
  }
  const size = groups[g].indices.length;
  const within = Math.min(Math.max((whole(entryParam) ?? 1) - 1, 0), size - 1);
  return { index: groups[g].indices[within], group: g, within };
}

/** The link parameters of an entry: its harness step, and its position when its step has several entries. */
export function linkOf(
  groups: readonly StepGroup[],
  index: number,
): { step: string; entry: string | undefined } {
  const s = locate(groups, index);
  if (s.group < 0) return { step: '1', entry: undefined };
  const g = groups[s.group];
  return {
    step: String(g.step),
    entry: g.indices.length > 1 && s.within > 0 ? String(s.within + 1) : undefined,
  };
}

/**
 * The entry `by` moves away in reading order: by entry (every line of a step in turn, then the next step), or by
 * whole step (to the first entry of the step before / after). Stays within the task.
 */
export function moveFrom(
  groups: readonly StepGroup[],
  at: Selection,
  by: 'entry' | 'step',
  delta: 1 | -1,
): number {
  if (at.group < 0) return -1;
  if (by === 'step') {
    const g = Math.min(Math.max(at.group + delta, 0), groups.length - 1);
    // Back from the middle of a step first goes to that step's start.
    if (delta < 0 && at.within > 0) return groups[at.group].indices[0];
    return groups[g].indices[0];
  }
  const order = groups.flatMap((g) => g.indices);
  const pos = order.indexOf(at.index);
  return order[Math.min(Math.max(pos + delta, 0), order.length - 1)];
}

/** The first and last entry of the task in reading order. */
export function endsOf(groups: readonly StepGroup[]): { first: number; last: number } {
  const order = groups.flatMap((g) => g.indices);
  return { first: order[0] ?? -1, last: order.at(-1) ?? -1 };
}

/** Where the pointer is before an entry: the end point of the pointer actions of the entries before it, as pyautogui keeps it. */
export function pointerBefore(
  entries: readonly StepRecord[],
  index: number,
): { x: number; y: number } | undefined {
  let p: { x: number; y: number } | undefined;
  for (const e of entries.slice(0, Math.max(0, index))) {
    for (const a of e.actions) {
      if (
        (a.type === 'click' || a.type === 'mouseDown' || a.type === 'mouseUp' || a.type === 'scroll') &&
        a.x !== undefined &&
        a.y !== undefined
      )
        p = { x: a.x, y: a.y };
      else if (a.type === 'moveTo' || a.type === 'dragTo') p = { x: a.x, y: a.y };
      else if ((a.type === 'moveRel' || a.type === 'dragRel') && p) p = { x: p.x + a.dx, y: p.y + a.dy };
    }
  }
  return p;
}
