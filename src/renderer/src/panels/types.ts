// What a replay detail tab is (one registered panel with an id, the `tab=` of links, a title and its body), and what
// a replay section is (a registered part placed in the replay: verdicts, before / after, the recording, safety).
import type { ReactNode } from 'react';
import type { TaskTrajectory } from '../../../shared/api';
import type { StepRecord } from '../../../shared/run';

/** What every panel is given: the selected entry and all the entries of its harness step. */
export interface StepPanelContext {
  step: StepRecord;
  group: readonly StepRecord[];
}

export interface StepPanel {
  /** The `tab=` value in links, and the tab body's `data-testid="tab-<id>"`. */
  id: string;
  /** The tab's label. */
  title: string;
  /** Whether the tab is offered at this entry (offered when absent). */
  available?(ctx: StepPanelContext): boolean;
  /** A mark after the title (e.g. ' ⚠' when the entry has an error). */
  mark?(ctx: StepPanelContext): string;
  Panel(props: StepPanelContext): ReactNode;
}

/** Where a replay section shows: the head line, over the stage's screenshot, beside it, under it, or at the side. */
export type ReplayPlace = 'head' | 'over-stage' | 'beside-stage' | 'stage-controls' | 'aside';

/** What every replay section is given: the task, the entry in view, and ways to change what the link shows. */
export interface ReplayContext {
  runId: string;
  taskKey: string;
  traj: TaskTrajectory;
  /** The entry in view (none when the task has no steps), and the entry before it. */
  step?: StepRecord;
  previous?: StepRecord;
  /** How the entry is named on screen: `step 3`, `step 3 (2 of 4)`. */
  stepLabel: string;
  /** The link's query (som=1, compare=1, tab=…). */
  query: URLSearchParams;
  /** Where the pointer was before the entry's action (for its drawn path). */
  start?: { x: number; y: number };
  /** Changes the link's query (undefined removes a key). */
  set(patch: Record<string, string | undefined>): void;
  /** Shows the entry of a harness step (and trajectory line, when named). */
  goToStep(step: number, line?: number): void;
}

/** One part of the replay beside the tabs (verdicts, before / after, the recording…): registered, placed, offered. */
export interface ReplaySection {
  id: string;
  place: ReplayPlace;
  /** Whether the section shows for this task and entry (shown when absent). */
  available?(ctx: ReplayContext): boolean;
  Section(props: ReplayContext): ReactNode;
}
