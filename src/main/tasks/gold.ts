// A task's gold files: the checks whose expected result is a file of the task (local_file) or a download
// (cloud_file) compared with a guest file (vm_file). The gold oracle puts each in place of its guest file.
import { basename } from 'node:path';
import type { Check, Task } from '../../shared/task';
import { taskFilePath } from '../evaluators/task-files';

export interface GoldFile {
  /** The guest file the check reads as the agent's result. */
  guestPath: string;
  /** Where the gold comes from: a file of the task on this host, or a URL (a downloads folder may stand for it). */
  source: { kind: 'local'; path: string } | { kind: 'url'; url: string };
  /** The metric that compares them. */
  metric: string;
  /** JSON pointer of the check, for messages. */
  pointer: string;
  check: Check;
}

const goldGetters = new Set(['local_file', 'cloud_file']);

function single(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The gold files of a task, one per check whose `expected` is a single local_file / cloud_file and whose
 * `result` a single vm_file. A check of several files (`multi`) or of another kind is left out.
 */
export function goldFilesOf(task: Task): GoldFile[] {
  const out: GoldFile[] = [];
  for (const check of task.checks) {
    const { expected, result } = check;
    if (!expected || !result || !goldGetters.has(expected.type) || result.type !== 'vm_file') continue;
    if (expected.multi === true || result.multi === true) continue;
    const guestPath = single(result.path);
    const from = single(expected.path);
    if (!guestPath || !from) continue;
    const source =
      expected.type === 'local_file'
        ? { kind: 'local' as const, path: taskFilePath(task, from) }
        : { kind: 'url' as const, url: from };
    out.push({ guestPath, source, metric: check.metric, pointer: check.pointer, check });
  }
  return out;
}

/** Why a task has no gold file to put in place, or undefined when it has one. */
export function noGoldReason(task: Task): string | undefined {
  if (task.infeasible) return 'the task is infeasible: there is no result file';
  let files: GoldFile[];
  try {
    files = goldFilesOf(task);
  } catch (e) {
    return (e as Error).message;
  }
  if (files.length) return undefined;
  const kinds =
    task.checks.map((c) => `${c.metric}(${c.result?.type ?? '-'}, ${c.expected?.type ?? '-'})`).join(', ') ||
    'no checks';
  return `no check compares a guest file (vm_file) with a gold file (local_file or cloud_file): ${kinds}`;
}

/** The window title part that names a document: its file name. */
export function documentName(guestPath: string): string {
  return basename(guestPath);
}
