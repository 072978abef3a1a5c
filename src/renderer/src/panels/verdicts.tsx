// Beside the stage: the verdicts side by side (rule, judge, people) and the person's own label.
import { VerdictPanel } from '../components/VerdictPanel';
import type { ReplaySection } from './types';

export const verdictsSection: ReplaySection = {
  id: 'verdicts',
  place: 'aside',
  Section: ({ traj, runId, taskKey }) => <VerdictPanel traj={traj} runId={runId} taskKey={taskKey} />,
};
