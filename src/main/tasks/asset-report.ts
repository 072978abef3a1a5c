// `proctor validate --check-assets`'s account of a task set: per task, whether every file and download it needs
// is here (files where setup and grading will read them; downloads in the --downloads folder).
import type { Task } from '../../shared/task';
import { taskAssets, type TaskAsset } from './assets';
import { loadTasks } from './reader';

export interface TaskAssetStatus {
  id: string;
  file: string;
  /** Every asset is present (a task with none counts as complete). */
  complete: boolean;
  missing: TaskAsset[];
  /** Downloads that would be fetched from the network (no downloads folder given). */
  network: TaskAsset[];
  present: number;
}

export interface AssetReport {
  tasks: TaskAssetStatus[];
  summary: { tasks: number; complete: number; missing: number; network: number };
}

export async function assetStatusOf(
  task: Task,
  options: { downloads?: string } = {},
): Promise<TaskAssetStatus> {
  const assets = await taskAssets(task, options);
  const missing = assets.filter((a) => a.status === 'missing');
  const network = assets.filter((a) => a.status === 'network');
  return {
    id: task.id,
    file: task.file,
    complete: missing.length === 0 && network.length === 0,
    missing,
    network,
    present: assets.length - missing.length - network.length,
  };
}

/** The assets of every task the paths name (folders walked, split files resolved to the tasks they list). */
export async function assetReport(
  paths: string[],
  options: { downloads?: string } = {},
): Promise<AssetReport> {
  const { tasks } = await loadTasks(paths);
  const out: TaskAssetStatus[] = [];
  for (const t of tasks) out.push(await assetStatusOf(t, options));
  return {
    tasks: out,
    summary: {
      tasks: out.length,
      complete: out.filter((t) => t.complete).length,
      missing: out.filter((t) => t.missing.length > 0).length,
      network: out.filter((t) => t.missing.length === 0 && t.network.length > 0).length,
    },
  };
}

/**
 * One line per missing asset (task file, pointer, what is missing), then the tally. `kinds` picks which are
 * listed (validate lists only downloads: its per-file checks already name missing files).
 */
export function formatAssetReport(
  r: AssetReport,
  shown: (file: string) => string = (f) => f,
  kinds: ReadonlySet<TaskAsset['kind']> = new Set(['file', 'download']),
): string[] {
  const lines: string[] = [];
  for (const t of r.tasks)
    for (const a of t.missing)
      if (kinds.has(a.kind))
        lines.push(
          `${shown(t.file)}:${a.pointer}: error: asset missing: ${a.ref}${a.detail ? ` — ${a.detail}` : ''}`,
        );
  const s = r.summary;
  const net = s.network
    ? `, ${s.network} need${s.network === 1 ? 's' : ''} the network for downloads (give --downloads DIR)`
    : '';
  lines.push(
    `assets: ${s.complete} of ${s.tasks} task${s.tasks === 1 ? '' : 's'} have all their assets here${s.missing ? `, ${s.missing} miss${s.missing === 1 ? 'es' : ''} some` : ''}${net}`,
  );
  return lines;
}
