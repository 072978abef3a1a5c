// The replay's detail tabs and its sections, in the order shown: adding a tab or a section is one panel file and one
// line here.
import { accessibilityPanel } from './accessibility';
import { beforeAfterSection } from './before-after';
import { feedbackPanel } from './feedback';
import { modelWordsPanel } from './model-words';
import { parsedActionsPanel } from './parsed-actions';
import { recordingSection } from './recording';
import { safetyLabelSection } from './safety-label';
import { safetySummarySection } from './safety-summary';
import { timingPanel } from './timing';
import type { ReplaySection, StepPanel } from './types';
import { verdictsSection } from './verdicts';

export const stepPanels: readonly StepPanel[] = [
  modelWordsPanel,
  parsedActionsPanel,
  feedbackPanel,
  accessibilityPanel,
  timingPanel,
];

/** The replay's parts beside the tabs; each shows at its place, in this order among the parts of that place. */
export const replaySections: readonly ReplaySection[] = [
  safetySummarySection,
  beforeAfterSection,
  recordingSection,
  safetyLabelSection,
  verdictsSection,
];

export type { ReplayContext, ReplayPlace, ReplaySection, StepPanel, StepPanelContext } from './types';
