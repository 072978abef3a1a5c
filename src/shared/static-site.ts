// The static site's data as `proctor export html` writes it and the renderer's static transport reads it: plain
// JS files that a <script> tag loads (file:// forbids fetching local JSON), each calling one global. Pure.
import type { DemonstrationView, RunDetail, TaskTrajectory } from './api';
import type { RunListItem } from './run';
import type { RunStats } from './run-stats';

export const siteFormat = { format: 'proctor-site', version: 1 } as const;

/** data/site.js sets `window[SITE_GLOBAL]`; every other data file calls `window[SITE_LOAD](key, value)`. */
export const SITE_GLOBAL = '__proctorSite';
export const SITE_LOAD = '__proctorSiteLoad';

export interface SiteRun {
  runId: string;
  path: string;
  /** Data file of the run (runs.get, runs.stats), relative to index.html. */
  data: string;
  /** Its task keys, in runs.get order: task j's data is `taskData(i, j)`. */
  tasks: string[];
}

export interface SiteIndex {
  format: typeof siteFormat.format;
  version: number;
  proctorVersion: string;
  createdAt: string;
  /** What the header shows in place of the served folder. */
  title: string;
  /** runs.list's answer. */
  runs: RunListItem[];
  index: SiteRun[];
}

/** What a run's data file holds. */
export interface SiteRunData {
  detail: RunDetail;
  stats: RunStats | null;
  statsWithErrors: RunStats | null;
}

/** What a task's data file holds. */
export interface SiteTaskData {
  trajectory: TaskTrajectory;
  demo: DemonstrationView | null;
}

export const runDataPath = (i: number) => `data/runs/${i}.js`;
export const taskDataPath = (i: number, j: number) => `data/runs/${i}/${j}.js`;
export const runDataKey = (i: number) => `run/${i}`;
export const taskDataKey = (i: number, j: number) => `run/${i}/${j}`;
/** A file below the export root as the site holds it (relative to index.html), each segment URL-encoded. */
export const siteFileUrl = (path: string) => `files/${path.split('/').map(encodeURIComponent).join('/')}`;
