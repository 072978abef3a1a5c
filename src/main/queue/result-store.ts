// Where a queued run's results go. Today: the run folder on storage every worker can write (NFS, a cluster file
// system), reached through the path the run was enqueued with or through the worker's `--out` mount point. The
// per-task keyed layout (one folder per task, one writer per folder under its lock, summary.json committed once
// by link) is what lets many workers share one run folder. Another store (an object store) implements this
// interface with its own RunWriter-like writer; see docs-many-machines.md for what that takes.
import { join } from 'node:path';
import { RunWriter } from '../store/run-writer';
import type { TaskJobData } from './jobs';

export interface ResultStore {
  /** The run a job's task is written into. */
  run(job: Pick<TaskJobData, 'runId' | 'runDir'>): RunWriter;
  /** Where results go, for the worker's first line. */
  describe(): string;
}

/** Run folders on a shared file system; `mount` is where this machine sees the folder holding them. */
export class SharedFolderStore implements ResultStore {
  private readonly runs = new Map<string, RunWriter>();

  constructor(private readonly mount?: string) {}

  run(job: Pick<TaskJobData, 'runId' | 'runDir'>): RunWriter {
    const dir = this.mount ? join(this.mount, job.runId) : job.runDir;
    let run = this.runs.get(dir);
    if (!run) {
      run = RunWriter.attach(dir);
      if (run.runId !== job.runId)
        throw new Error(`${dir}/manifest.json: run id ${run.runId}, but the job is for run ${job.runId}`);
      this.runs.set(dir, run);
    }
    return run;
  }

  describe(): string {
    return this.mount ? `run folders under ${this.mount}` : 'run folders where they were enqueued';
  }
}
