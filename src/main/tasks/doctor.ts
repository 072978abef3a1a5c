// What this machine lacks to run each task of a set, before a long run starts: an application, an account, a
// proxy, a download with no file in the downloads folder, an asset of the task, a metric or getter Proctor lacks.
import { basename } from 'node:path';
import type { Task } from '../../shared/task';
import { coverageOf } from '../evaluators/coverage';
import { installedApp, type AppCheck } from './needs';
import { taskKeyOf } from '../store/layout';
import { assetStatusOf } from './asset-report';

export type LackKind = 'app' | 'account' | 'proxy' | 'download' | 'asset' | 'grading';

export interface Lack {
  kind: LackKind;
  /** The short name of what is lacking: the app, the services, the file's name, the URL, the metric. */
  name: string;
  /** What is lacking and what to do, in one line. */
  detail: string;
  /** JSON pointer in the task file, where one place names it. */
  pointer?: string;
}

export interface TaskDiagnosis {
  key: string;
  file: string;
  runnable: boolean;
  lacks: Lack[];
}

export interface DoctorReport {
  tasks: TaskDiagnosis[];
  summary: { tasks: number; runnable: number; lacking: Partial<Record<LackKind, number>> };
}

export interface DoctorOptions {
  /** The downloads folder (`--downloads`); without it a task that downloads lacks the files. */
  downloads?: string;
  appCheck?: AppCheck;
}

/** What `task` lacks here; empty when it can run. */
export async function diagnoseTask(task: Task, options: DoctorOptions = {}): Promise<TaskDiagnosis> {
  const lacks: Lack[] = [];
  const appCheck = options.appCheck ?? installedApp;
  for (const app of new Set(task.relatedApps)) {
    const why = appCheck(app);
    if (why) lacks.push({ kind: 'app', name: app, detail: why });
  }
  const cov = coverageOf([task]);
  const accounts = [...new Set([...task.needsAccount, ...Object.keys(cov.needs_account)])].sort();
  if (accounts.length)
    lacks.push({
      kind: 'account',
      name: accounts.join(', '),
      detail: `needs an account: ${accounts.join(', ')}`,
    });
  if (task.needsProxy)
    lacks.push({
      kind: 'proxy',
      name: 'proxy',
      detail: 'needs a proxy (the task sets `proxy`), which the local environment does not provide',
    });
  const assets = await assetStatusOf(task, { downloads: options.downloads });
  for (const a of [...assets.missing, ...assets.network]) {
    if (a.kind === 'download')
      lacks.push({
        kind: 'download',
        name: a.ref,
        pointer: a.pointer,
        detail: options.downloads
          ? `no file for ${a.ref} in ${options.downloads}`
          : `downloads ${a.ref}: give --downloads DIR holding it`,
      });
    else
      lacks.push({
        kind: 'asset',
        name: basename(a.ref),
        pointer: a.pointer,
        detail: `${a.ref} is missing${a.host ? ` (looked for ${a.host})` : a.detail ? `: ${a.detail}` : ''}`,
      });
  }
  if (!accounts.length) {
    for (const [kind, names] of [
      ['metric', cov.missing.metrics],
      ['getter', cov.missing.getters],
    ] as const)
      for (const name of Object.keys(names))
        lacks.push({ kind: 'grading', name, detail: `Proctor has no ${kind} '${name}'` });
    if (!task.infeasible && task.checks.length === 0)
      lacks.push({ kind: 'grading', name: 'no checks', detail: 'the task has no evaluator checks' });
  }
  return { key: taskKeyOf(task), file: task.file, runnable: lacks.length === 0, lacks };
}

export async function diagnoseTasks(tasks: Task[], options: DoctorOptions = {}): Promise<DoctorReport> {
  const out: TaskDiagnosis[] = [];
  for (const t of tasks) out.push(await diagnoseTask(t, options));
  const lacking: Partial<Record<LackKind, number>> = {};
  for (const d of out)
    for (const kind of new Set(d.lacks.map((l) => l.kind))) lacking[kind] = (lacking[kind] ?? 0) + 1;
  return {
    tasks: out,
    summary: { tasks: out.length, runnable: out.filter((d) => d.runnable).length, lacking },
  };
}

const kindWords: Record<LackKind, string> = {
  app: 'an application',
  account: 'an account',
  proxy: 'a proxy',
  download: 'a download',
  asset: 'an asset',
  grading: 'a metric or getter',
};

/**
 * One line per task (what it lacks, short: `asset SalesRep.xlsx at /config/0/parameters/src`, or `runnable`),
 * then the count of tasks runnable here; `verbose` gives each lack's whole detail on a line of its own.
 */
export function formatDoctor(
  r: DoctorReport,
  options: { verbose?: boolean; shown?: (file: string) => string } = {},
): string[] {
  const shown = options.shown ?? ((f: string) => f);
  const lines: string[] = [];
  for (const d of r.tasks) {
    if (d.runnable) lines.push(`${d.key}: runnable`);
    else
      lines.push(
        `${d.key}: lacks ${d.lacks.map((l) => `${l.kind} ${l.name}${l.pointer ? ` at ${l.pointer}` : ''}`).join(', ')}`,
      );
    if (options.verbose)
      for (const l of d.lacks)
        lines.push(`  ${shown(d.file)}${l.pointer ? `:${l.pointer}` : ''}: ${l.detail}`);
  }
  const s = r.summary;
  const by = Object.entries(s.lacking).map(
    ([k, n]) => `${n} lack${n === 1 ? 's' : ''} ${kindWords[k as LackKind]}`,
  );
  lines.push(
    `${s.runnable} of ${s.tasks} task${s.tasks === 1 ? '' : 's'} runnable here${by.length ? ` (${by.join(', ')})` : ''}`,
  );
  return lines;
}
