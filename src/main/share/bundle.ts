// `proctor bundle`: one .tar.gz with a finished Proctor run, its task set (each task file and the files beside
// it), the environment's description and the report, and bundle.json — every file's SHA-256, the task set's hash —
// optionally signed (bundle.sig, Ed25519). Layout and fields: src/main/share/README.md.
import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { readRun, readTaskTrajectory, safeSegment, type RunManifest } from '../store';
import { gradingSettingsOf } from '../store/run-plan';
import { runVerdictOf } from '../regrade';
import { readTaskFile } from '../tasks/reader';
import { proctorVersion } from '../version';
import { describeEnvironment, type EnvironmentDescription } from './environment';
import { setHash, sha256, walkFiles } from './hashing';
import { signBytes } from './signing';
import { TarGzWriter } from './tar';

export const BUNDLE_FORMAT = 'proctor-bundle';
export const BUNDLE_VERSION = 1;
export const manifestName = 'bundle.json';
export const signatureName = 'bundle.sig';

export interface BundledFile {
  path: string;
  sha256: string;
  bytes: number;
}

export interface BundledTask {
  /** `<domain>/<task id>` as the run names it. */
  key: string;
  /** Archive path of the task file. */
  file: string;
  /** The task file and the files beside it (its folder, for tasks nested in their own folder), archive paths. */
  files: string[];
  /** Where the task file was when the run read it. */
  source: string;
}

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  version: number;
  createdAt: string;
  proctorVersion: string;
  run: { id: string; dir: string; format: 'proctor'; tasks: number; sourcePath: string };
  /** Every file of the archive but bundle.json and bundle.sig. */
  files: BundledFile[];
  tasks: BundledTask[];
  /** `setHash` of the task files (their paths relative to tasks/). */
  taskSetSha256: string;
  environment: string;
  report: { text: string; json: string };
  /** Run files not bundled (symlinks, sockets…), relative to the run folder. */
  skipped: string[];
}

export interface BundleOptions {
  /** `proctor report`'s text and JSON for the run. */
  report: (runDir: string) => Promise<{ text: string; json: string }>;
  sign?: KeyObject;
  now?: Date;
}

export interface BundleResult {
  out: string;
  manifest: BundleManifest;
  bytes: number;
  ms: number;
}

const maxTaskFiles = 10_000;
const maxTaskBytes = 2 * 1024 ** 3;

/** The task files a task brings: itself, and its folder's files when it is nested in a folder named by its id. */
async function taskFilesOf(
  file: string,
): Promise<{ base: string; nested: boolean; rels: { rel: string; abs: string; size: number }[] }> {
  const dir = dirname(file);
  const nested = basename(dir) === basename(file, extname(file));
  if (!nested)
    return { base: dir, nested, rels: [{ rel: basename(file), abs: file, size: statSync(file).size }] };
  const { files } = await walkFiles(dir);
  return { base: dir, nested, rels: files };
}

/** The task set's files as hashed for `taskSetSha256`: paths relative to tasks/. */
export function taskSetOf(manifest: BundleManifest): { path: string; sha256: string }[] {
  const inTasks = new Set(manifest.tasks.flatMap((t) => t.files));
  return manifest.files
    .filter((f) => inTasks.has(f.path))
    .map((f) => ({ path: f.path.replace(/^tasks\//, ''), sha256: f.sha256 }));
}

export async function writeBundle(
  runDir: string,
  out: string,
  options: BundleOptions,
): Promise<BundleResult> {
  const started = performance.now();
  const dir = resolve(runDir);
  const detail = readRun(dir);
  if (detail.run.format !== 'proctor')
    throw new Error(
      `${dir}: a ${detail.run.format} result folder names no task files to bundle; bundle a Proctor run folder (one with manifest.json)`,
    );
  if (detail.run.live) throw new Error(`${dir}: the run is still going on; bundle it when it has finished`);
  if (existsSync(out)) throw new Error(`${out} exists already; choose another --out or remove it`);
  const manifest = detail.manifest as unknown as RunManifest;
  const runId = safeSegment(detail.run.runId);
  const runPrefix = `run/${runId}`;

  // The task set: every task file the run's manifest names, with its own files.
  const tasks: BundledTask[] = [];
  const taskSources: { arch: string; abs: string; size: number }[] = [];
  const taken = new Set<string>();
  for (const key of manifest.tasks) {
    const file = manifest.taskInfo?.[key]?.file;
    if (!file)
      throw new Error(
        `${join(dir, 'manifest.json')} /taskInfo/${key}/file: no task file named; the bundle needs each task file`,
      );
    if (!existsSync(file))
      throw new Error(
        `${file} (named at ${join(dir, 'manifest.json')} /taskInfo/${key}/file) no longer exists; put the task set back where the run read it`,
      );
    // The manifest may come from someone else: only a file that reads as a task is bundled, with a bounded folder.
    const read = await readTaskFile(file);
    if (!read.task)
      throw new Error(
        `${file} (named at ${join(dir, 'manifest.json')} /taskInfo/${key}/file) does not read as a task file: ${read.problems[0]?.message ?? 'unknown problem'}`,
      );
    const domain = safeSegment(key.split('/')[0] ?? 'tasks');
    const { base, nested, rels } = await taskFilesOf(resolve(file));
    const folderBytes = rels.reduce((n, r) => n + r.size, 0);
    if (rels.length > maxTaskFiles || folderBytes > maxTaskBytes)
      throw new Error(
        `${base}: the folder of task ${key} holds ${rels.length} files, ${folderBytes} bytes (limits: ${maxTaskFiles} files, ${maxTaskBytes} bytes); a task's own folder should hold only its files`,
      );
    const prefix = nested ? `tasks/${domain}/${safeSegment(basename(base))}` : `tasks/${domain}`;
    const paths: string[] = [];
    for (const r of rels) {
      const arch = `${prefix}/${r.rel}`;
      paths.push(arch);
      if (taken.has(arch)) continue;
      taken.add(arch);
      taskSources.push({ arch, abs: r.abs, size: r.size });
    }
    tasks.push({ key, file: `${prefix}/${basename(file)}`, files: paths, source: resolve(file) });
  }

  const { files: runFiles, skipped } = await walkFiles(dir);
  const trajectories = detail.tasks.map((t) => ({
    key: t.key,
    verdict: runVerdictOf(readTaskTrajectory(dir, t.key).verdicts),
  }));
  const screen = detail.tasks.length
    ? readTaskTrajectory(dir, detail.tasks[0].key).steps.find((s) => s.screen)?.screen
    : undefined;
  const { gradingProfile } = gradingSettingsOf(dir, manifest.args);
  const runInfo: EnvironmentDescription['run'] = {
    proctorVersion: manifest.proctorVersion,
    machine: manifest.machine,
    env: manifest.env ?? 'local',
    screen,
    gradingProfiles: [
      ...new Set(trajectories.map((t) => t.verdict?.profile).filter((p): p is NonNullable<typeof p> => !!p)),
    ].sort(),
    ...(gradingProfile ? { gradingProfileFlag: gradingProfile } : {}),
  };
  const environment = await describeEnvironment(runInfo);
  const report = await options.report(dir);

  const now = options.now ?? new Date();
  const writer = new TarGzWriter(out, now.getTime() / 1000);
  const bundled: BundledFile[] = [];
  try {
    const addBuffer = async (path: string, data: Buffer) => {
      await writer.addBuffer(path, data);
      bundled.push({ path, sha256: sha256(data), bytes: data.length });
    };
    await addBuffer('environment.json', Buffer.from(JSON.stringify(environment, null, 2) + '\n'));
    await addBuffer('report.txt', Buffer.from(report.text));
    await addBuffer('report.json', Buffer.from(report.json));
    for (const t of taskSources)
      bundled.push({ path: t.arch, ...(await writer.addFile(t.arch, t.abs, t.size)) });
    for (const f of runFiles)
      bundled.push({
        path: `${runPrefix}/${f.rel}`,
        ...(await writer.addFile(`${runPrefix}/${f.rel}`, f.abs, f.size)),
      });
    const header: BundleManifest = {
      format: BUNDLE_FORMAT,
      version: BUNDLE_VERSION,
      createdAt: now.toISOString(),
      proctorVersion,
      run: { id: runId, dir: runPrefix, format: 'proctor', tasks: manifest.tasks.length, sourcePath: dir },
      files: bundled,
      tasks,
      taskSetSha256: '',
      environment: 'environment.json',
      report: { text: 'report.txt', json: 'report.json' },
      skipped,
    };
    header.taskSetSha256 = setHash(taskSetOf(header));
    const manifestBytes = Buffer.from(JSON.stringify(header, null, 2) + '\n');
    await writer.addBuffer(manifestName, manifestBytes);
    if (options.sign)
      await writer.addBuffer(
        signatureName,
        Buffer.from(JSON.stringify(signBytes(manifestBytes, options.sign), null, 2) + '\n'),
      );
    await writer.close();
    return {
      out: resolve(out),
      manifest: header,
      bytes: statSync(out).size,
      ms: performance.now() - started,
    };
  } catch (e) {
    await writer.close().catch(() => undefined);
    await rm(out, { force: true });
    throw e;
  }
}
