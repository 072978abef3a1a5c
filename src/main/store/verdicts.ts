// Appending a verdict (rule, judge, human) to a task of any readable run; never overwrites an earlier one.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Verdict } from '../../shared/run';
import { recordVerdict } from './verdict-record';
import { files, taskDirIn } from './layout';
import { readManifest } from './run-writer';
import { isUfoRunDir, ufoTaskDir } from './ufo-reader';
import { isOsworldRunDir, osworldTaskDir } from './osworld-reader';

/** The run's manifest, read again only when the file changed (a report asks for every task of a run in turn). */
const manifests = new Map<
  string,
  { mtimeMs: number; size: number; manifest: ReturnType<typeof readManifest> }
>();
function manifestOf(dir: string): ReturnType<typeof readManifest> {
  const st = statSync(join(dir, files.manifest));
  const known = manifests.get(dir);
  if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known.manifest;
  const manifest = readManifest(dir);
  if (manifests.size > 64) manifests.delete(manifests.keys().next().value!);
  manifests.set(dir, { mtimeMs: st.mtimeMs, size: st.size, manifest });
  return manifest;
}

/**
 * The folder of `taskKey` in a Proctor run (from its manifest), an OSWorld or Spider2-V result folder
 * (`<domain>/<id>`) or a UFO log folder (the task folder's name).
 */
export function taskDirOf(runDir: string, taskKey: string): string {
  const dir = resolve(runDir);
  if (existsSync(join(dir, files.manifest))) {
    const manifest = manifestOf(dir);
    const rel = manifest.taskInfo?.[taskKey]?.dir;
    if (!rel) throw new Error(`task '${taskKey}' is not in ${join(dir, files.manifest)} (/taskInfo)`);
    return taskDirIn(dir, rel);
  }
  if (!taskKey.includes('/') && isUfoRunDir(dir)) return ufoTaskDir(dir, taskKey);
  // People's renamed `<ts>-<verdict>` folders may sit directly below an OSWorld-style run folder.
  const renamed = isOsworldRunDir(dir) ? osworldTaskDir(dir, taskKey) : undefined;
  if (renamed) return renamed;
  const parts = taskKey.split('/');
  if (parts.length !== 2 || parts.some((p) => !p || p.startsWith('.')))
    throw new Error(`'${taskKey}' is not a task key of the form <domain>/<task id>`);
  return join(dir, ...parts);
}

/**
 * Appends `verdict` to the task's verdicts.jsonl (fsynced), judge verdicts also to evaluation.log in UFO's line
 * form, and the `verdict` event to the run's events.jsonl and the live bus.
 */
export function appendVerdict(runDir: string, taskKey: string, verdict: Verdict): void {
  const dir = resolve(runDir);
  const taskDir = taskDirOf(dir, taskKey);
  const proctorRun = existsSync(join(dir, files.manifest));
  recordVerdict(
    taskDir,
    verdict,
    proctorRun ? { runDir: dir, runId: readManifest(dir).runId, taskKey } : undefined,
  );
}
