// Over the stage, when the link says compare=1 (key b): the entry's screen before its action beside the screen after.
import type { StepRecord } from '../../../shared/run';
import { BeforeAfter, type BeforeAfterProps } from '../components/BeforeAfter';
import type { ReplaySection } from './types';

/** The screen before a step's action: its observation with the action drawn on it, else the previous step's screenshot. */
export function beforeOf(
  step: StepRecord,
  previous: StepRecord | undefined,
  showMarks: boolean,
  start?: { x: number; y: number },
): BeforeAfterProps['before'] {
  const src =
    step.somObservation && showMarks ? step.observation : (step.observation ?? previous?.screenshot);
  if (!src) return undefined;
  const caption = step.observation
    ? `before: what the agent saw, with its action`
    : `before (${previous ? `after step ${previous.step}` : 'start'})`;
  return { src, caption, ...(step.observation ? { step, showMarks, start } : { showMarks: false }) };
}

export const beforeAfterSection: ReplaySection = {
  id: 'before-after',
  place: 'over-stage',
  available: ({ step, query }) => !!step && query.get('compare') === '1',
  Section: ({ step, previous, stepLabel, query, start, set }) =>
    step ? (
      <BeforeAfter
        stepLabel={stepLabel}
        before={beforeOf(step, previous, query.get('som') === '1', start)}
        after={step.screenshot ? { src: step.screenshot, caption: `after (${stepLabel})` } : undefined}
        onClose={() => set({ compare: undefined })}
      />
    ) : null,
};
