// Beside the stage, when the task kept a screen recording: the video, at the moment of the entry in view.
import type { TaskTrajectory } from '../../../shared/api';
import { Recording } from '../components/Recording';
import { useCall } from '../data/use-call';
import { belowRoot, runPrefixFromList, runPrefixFromSteps } from '../served-path';
import type { ReplaySection } from './types';

/**
 * The task's screen recording below the served root (runs.task names it below its run): the run's folder read off
 * the steps' files, or else from the run list.
 */
export function useRecordingPath(runId: string, traj?: TaskTrajectory): string | undefined {
  const rec = traj?.item.recording;
  const fromSteps = rec ? runPrefixFromSteps(rec, traj.steps) : undefined;
  const { data: runs } = useCall('runs.list', rec && fromSteps === undefined ? {} : undefined);
  if (!rec) return undefined;
  const prefix = fromSteps ?? (runs ? runPrefixFromList(runs, runId, traj.runId) : undefined);
  return prefix === undefined ? undefined : belowRoot(prefix, rec);
}

function RecordingSection({ runId, traj, step, stepLabel }: Parameters<ReplaySection['Section']>[0]) {
  const path = useRecordingPath(runId, traj);
  return path ? <Recording path={path} at={step?.recordingAt} stepLabel={stepLabel || 'this step'} /> : null;
}

export const recordingSection: ReplaySection = {
  id: 'recording',
  place: 'beside-stage',
  available: ({ traj }) => !!traj.item.recording,
  Section: RecordingSection,
};
