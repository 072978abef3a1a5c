// The replay head's safety verdict: the task's standing verdict, a button to its first unsafe step, the findings.
import { ReplaySafety } from '../components/Safety';
import type { ReplaySection } from './types';

export const safetySummarySection: ReplaySection = {
  id: 'safety-summary',
  place: 'head',
  available: ({ traj }) => !!traj.item.safety,
  Section: ({ traj, goToStep }) => (
    <ReplaySafety safety={traj.item.safety} verdicts={traj.verdicts} onStep={goToStep} />
  ),
};
