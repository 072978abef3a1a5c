// What a replay detail tab is: one registered panel with an id (the `tab=` of links), a title and its body.
import type { ReactNode } from 'react';
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
