// The "Feedback" tab: the harness's error line, its notes on the entry, and what Proctor would not run as written.
import type { StepRecord } from '../../../shared/run';
import { isForeign } from '../components/StepEntry';
import type { StepPanel } from './types';

export function feedbackOf(step: StepRecord): string {
  if (!isForeign(step)) return step.feedback ?? 'No errors or refusals at this step.';
  const parts = [
    step.error !== undefined ? `Error line of the harness: ${step.error}` : '',
    step.feedback ?? '',
    step.wouldRefuse
      ? `The harness ran this; Proctor's own runner would refuse it as written: ${step.wouldRefuse}`
      : '',
  ].filter(Boolean);
  return parts.length ? parts.join('\n') : 'No errors at this step.';
}

export const feedbackPanel: StepPanel = {
  id: 'feedback',
  title: 'Feedback',
  mark: ({ step }) => (step.error !== undefined || (step.feedback && !isForeign(step)) ? ' ⚠' : ''),
  Panel: ({ step }) => <pre>{feedbackOf(step)}</pre>,
};
