// The run store: run folders (writer, readers of Proctor's and OSWorld's layouts), verdicts, the live event bus.
export {
  RunWriter,
  TaskWriter,
  TaskLockedError,
  readManifest,
  processAlive,
  observationFileOf,
} from './run-writer';
export type { TaskResults, ManifestInput, SavedObservation, TrajExtras } from './run-writer';
export { listRuns, readRun, readTaskTrajectory, findRunDirs } from './reader';
export { appendVerdict, taskDirOf } from './verdicts';
export { runEvents, publish, subscribeRunEvents } from './events';
export { standingVerdicts, standingVerdictsOf, type VerdictEvent } from './event-history';
export type { RunEventBus } from './events';
export { files as runFiles, taskDirFor, taskKeyOf, safeSegment, matchingTaskKey } from './layout';
export type { RunManifest, ManifestTaskInfo } from './layout';
export { osworldTimestamp, parseOsworldTimestamp } from './timestamp';
export { readJsonLines, writeFileAtomic, appendJsonLine } from './files';
