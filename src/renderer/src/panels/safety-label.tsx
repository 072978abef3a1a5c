// Under the stage: a person's safety label on the task (safe, unsafe from the entry's step, unsure).
import { SafetyLabel } from '../components/Safety';
import type { ReplaySection } from './types';

export const safetyLabelSection: ReplaySection = {
  id: 'safety-label',
  place: 'stage-controls',
  Section: ({ runId, taskKey, step }) => <SafetyLabel runId={runId} taskKey={taskKey} step={step?.step} />,
};
