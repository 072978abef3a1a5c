// The assets a task needs before it can run, found where the benchmark keeps them, in place: files of the task
// (Spider2-V's `evaluation_examples/examples/<app>/<uuid>/x` beside the task file; native `local_*` paths) looked
// up where setup and grading will read them, and downloads (OSWorld's `download` steps and `cloud_file` getters)
// looked up in a downloads folder. Nothing is copied and nothing is fetched.
import { existsSync } from 'node:fs';
import type { Task } from '../../shared/task';
import { downloadedFile } from '../downloads';
import { taskFilePath } from '../evaluators/task-files';
import { taskAsset } from '../setup/funcs';

export interface TaskAsset {
  /** JSON pointer of the value naming it, in the task file. */
  pointer: string;
  kind: 'file' | 'download';
  /** The path or URL as the task names it. */
  ref: string;
  /** Host path where it is (or would be) read from; for a download, the file in the downloads folder. */
  host?: string;
  /** `present`; `missing` (a file not where it will be looked for, a download not in the downloads folder); `network` (a download and no downloads folder given: it would be fetched). */
  status: 'present' | 'missing' | 'network';
  /** What is wrong, and what to do. */
  detail?: string;
}

const fileSetupArgs: Record<string, string[]> = {
  copyfile_from_host_to_guest: ['src'],
  script_and_execute: ['src'],
  upload_file_to_vm: ['local_path'],
  upload_script_and_execute: ['local_path'],
};

function strings(v: unknown): string[] {
  return typeof v === 'string'
    ? [v]
    : Array.isArray(v)
      ? v.filter((x): x is string => typeof x === 'string')
      : [];
}

/** Every file and download a task needs, each with the place it names it. */
export function assetRefsOf(task: Task): Omit<TaskAsset, 'status' | 'host'>[] {
  const refs: Omit<TaskAsset, 'status' | 'host'>[] = [];
  const args = task.shape === 'native' ? 'arguments' : 'parameters';
  for (const step of [...task.setup, ...task.postSetup]) {
    for (const name of fileSetupArgs[step.func] ?? []) {
      const v = step.args[name];
      if (typeof v === 'string' && v)
        refs.push({ pointer: `${step.pointer}/${args}/${name}`, kind: 'file', ref: v });
    }
    if (step.func === 'download' && Array.isArray(step.args.files)) {
      step.args.files.forEach((f, i) => {
        const url = (f as { url?: unknown } | null)?.url;
        if (typeof url === 'string' && url)
          refs.push({ pointer: `${step.pointer}/${args}/files/${i}/url`, kind: 'download', ref: url });
      });
    }
  }
  for (const check of task.checks) {
    for (const side of ['expected', 'result'] as const) {
      const g = check[side];
      if (!g) continue;
      const paths = strings(g.path);
      const many = Array.isArray(g.path);
      const kind = g.type === 'local_file' ? 'file' : g.type === 'cloud_file' ? 'download' : undefined;
      if (kind)
        paths.forEach((p, i) =>
          refs.push({
            pointer: `${getterPointer(check.pointer, side)}/path${many ? `/${i}` : ''}`,
            kind,
            ref: p,
          }),
        );
    }
    if (task.shape === 'native' && check.args) {
      for (const [k, v] of Object.entries(check.args))
        if (k.startsWith('local_') && typeof v === 'string' && v)
          refs.push({ pointer: `/evaluation/arguments/${k}`, kind: 'file', ref: v });
    }
  }
  return refs;
}

/** A getter's pointer: in a listed evaluator (check at `/evaluator/func/i`) it is `/evaluator/<side>/i`. */
function getterPointer(checkPointer: string, side: string): string {
  const listed = /^(.*)\/func\/(\d+)$/.exec(checkPointer);
  return listed ? `${listed[1]}/${side}/${listed[2]}` : `${checkPointer}/${side}`;
}

/** Where setup (config files) or grading (local_file) will read a task's file, or why it cannot. */
function hostOf(task: Task, pointer: string, ref: string): { host?: string; error?: string } {
  try {
    // Setup steps read through taskAsset; evaluator files through taskFilePath: each is asked where it looks.
    return { host: pointer.startsWith('/evaluat') ? taskFilePath(task, ref) : taskAsset(task.dir, ref) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Each asset of `task` with whether it is here. With `downloads`, URLs are looked up there; without, they need the network. */
export async function taskAssets(task: Task, options: { downloads?: string } = {}): Promise<TaskAsset[]> {
  const out: TaskAsset[] = [];
  for (const r of assetRefsOf(task)) {
    if (r.kind === 'file') {
      const { host, error } = hostOf(task, r.pointer, r.ref);
      if (error || !host) out.push({ ...r, status: 'missing', detail: error });
      else if (existsSync(host)) out.push({ ...r, host, status: 'present' });
      else
        out.push({
          ...r,
          host,
          status: 'missing',
          detail: `${host} does not exist: put the benchmark's file there (beside the task file)`,
        });
    } else if (!options.downloads) {
      out.push({
        ...r,
        status: 'network',
        detail: `would be fetched from ${r.ref}; give --downloads DIR to run without the network`,
      });
    } else {
      try {
        const host = await downloadedFile(options.downloads, r.ref);
        out.push(
          host
            ? { ...r, host, status: 'present' }
            : {
                ...r,
                status: 'missing',
                detail: `no file for ${r.ref} in the downloads folder ${options.downloads} (save it there by its name, or map it in downloads.json)`,
              },
        );
      } catch (e) {
        out.push({ ...r, status: 'missing', detail: (e as Error).message });
      }
    }
  }
  return out;
}
