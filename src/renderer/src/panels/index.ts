// The replay's detail tabs, in the order shown: adding a tab is one panel file and one line here.
import { accessibilityPanel } from './accessibility';
import { feedbackPanel } from './feedback';
import { modelWordsPanel } from './model-words';
import { parsedActionsPanel } from './parsed-actions';
import { timingPanel } from './timing';
import type { StepPanel } from './types';

export const stepPanels: readonly StepPanel[] = [
  modelWordsPanel,
  parsedActionsPanel,
  feedbackPanel,
  accessibilityPanel,
  timingPanel,
];

export type { StepPanel, StepPanelContext } from './types';
