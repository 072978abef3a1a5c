// Checks a run folder's manifest.json against its published schema (resources/schemas/run-manifest.schema.json)
// and beyond it: the format version, and task folders that must stay inside the run folder. Shared by
// `proctor validate` and the run reader; every problem names the manifest and a JSON pointer.
import { isAbsolute } from 'node:path';
import type { Problem } from '../../shared/task';
import { isInside } from '../contained';
import { maxJsonDepth, nestedDeeperThan, pointerOf } from '../schemas';
import { schemaProblems } from '../schemas';

/** The run folder format this Proctor writes and reads. A manifest without `formatVersion` is version 1. */
export const runFormatVersion = 1;

/** The format version a manifest declares (1 when it declares none). */
export function manifestFormatVersion(manifest: unknown): number {
  const v =
    typeof manifest === 'object' && manifest !== null
      ? (manifest as { formatVersion?: unknown }).formatVersion
      : undefined;
  return typeof v === 'number' && Number.isInteger(v) ? v : 1;
}

export interface ManifestCheckOptions {
  /** The run folder, to check that task folders stay inside it (skipped when absent). */
  runDir?: string;
}

/** Problems of one parsed manifest.json: schema errors, a newer format, task folders leaving the run, tasks without a folder. */
export function manifestProblems(
  manifest: unknown,
  file: string,
  options: ManifestCheckOptions = {},
): Problem[] {
  if (nestedDeeperThan(manifest))
    return [
      {
        file,
        pointer: '',
        severity: 'error',
        message: `nested more than ${maxJsonDepth} levels deep: not a manifest Proctor wrote`,
      },
    ];
  const problems = schemaProblems('run-manifest', manifest, file);
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return problems;
  const m = manifest as { formatVersion?: unknown; tasks?: unknown; taskInfo?: unknown };
  const version = manifestFormatVersion(m);
  if (version > runFormatVersion)
    problems.push({
      file,
      pointer: '/formatVersion',
      severity: 'warning',
      message: `run folder format ${version} is newer than this Proctor reads (${runFormatVersion}): fields it does not know are not checked`,
    });
  const info =
    typeof m.taskInfo === 'object' && m.taskInfo !== null && !Array.isArray(m.taskInfo)
      ? (m.taskInfo as Record<string, unknown>)
      : undefined;
  if (info && options.runDir) {
    for (const [key, entry] of Object.entries(info)) {
      const dir = typeof entry === 'object' && entry !== null ? (entry as { dir?: unknown }).dir : undefined;
      if (typeof dir !== 'string' || dir === '') continue; // the schema said so
      if (isAbsolute(dir) || !isInside(options.runDir, dir))
        problems.push({
          file,
          pointer: pointerOf('taskInfo', key, 'dir'),
          severity: 'error',
          message: `task folder '${dir}' is outside the run folder: it must be relative and stay inside it`,
        });
    }
  }
  if (info && Array.isArray(m.tasks))
    m.tasks.forEach((key, i) => {
      if (typeof key === 'string' && !Object.hasOwn(info, key))
        problems.push({
          file,
          pointer: pointerOf('tasks', i),
          severity: 'warning',
          message: `task '${key}' has no /taskInfo entry: its folder cannot be found`,
        });
    });
  return problems;
}
