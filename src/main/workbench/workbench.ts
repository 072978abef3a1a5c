// The engine behind the UI⇄engine contract: one handler per method of src/shared/api.ts, over a served root.
import { basename, resolve } from 'node:path';
import type { ApiHandlers, AppInfo } from '../../shared/api';
import { proctorVersion } from '../version';
import { EventHub } from './events';
import { taskHandlers } from './task-handlers';
import { runHandlers } from './run-handlers';
import { taskSources, type TaskSourceOptions } from './task-sources';
import { workbenchAgents } from '../agents';
import { environmentKindsInfo } from '../env/kinds';
import { annotateHandlers } from './annotate-handlers';
import { reviewHandlers } from './review-handlers';
import { demoHandlers } from './demo-handlers';
import { videoHandlers } from './video-handlers';
import { withRootHidden } from './shown-paths';
import { blindReview } from './blind-review';
import { servingFolder } from './dispatch';

export interface Workbench {
  handlers: ApiHandlers;
  events: EventHub;
  /** Stops every run this workbench drives; how many it stopped. */
  stopAll(): number;
  close(): Promise<void>;
}

export function createWorkbench(
  root: string,
  opts: { transport: AppInfo['transport'] } & TaskSourceOptions,
): Workbench {
  const events = new EventHub();
  // Electron's window is the local user's own; a server says whether it is (loopback, no team).
  const sources: TaskSourceOptions = {
    taskDirs: opts.taskDirs,
    localUser: opts.localUser ?? opts.transport === 'ipc',
  };
  const runs = runHandlers(root, events, sources);
  // Over HTTP the browser may be on another machine: it learns the served folder's name, not where it is.
  const shownRoot = opts.transport === 'http' ? basename(resolve(root)) || '/' : resolve(root);
  const handlers: ApiHandlers = {
    'app.info': async () => ({
      name: 'proctor',
      version: proctorVersion,
      root: shownRoot,
      transport: opts.transport,
      taskSources: taskSources(sources),
      agents: workbenchAgents(),
      environments: environmentKindsInfo(),
    }),
    ...withRootHidden(root, {
      ...taskHandlers(root),
      ...runs.handlers,
      ...annotateHandlers(root),
      ...reviewHandlers(root),
      ...demoHandlers(root),
      ...videoHandlers(root),
    }),
  };
  // The dispatcher withholds grades from blind annotators of this folder's team (api.ts methodPolicies).
  return {
    handlers: servingFolder(handlers, blindReview(root), root),
    events,
    stopAll: runs.stopAll,
    close: runs.close,
  };
}
