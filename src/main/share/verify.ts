// `proctor verify`: unpack a bundle safely, check its signature (with the signer's public key), re-compute every
// file's SHA-256 and the task set's hash, compare the tasks with a published set, and re-grade each task from the
// stored artefacts with the bundled (or published) task file; every mismatch names the file.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative } from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { Verdict } from '../../shared/run';
import type { Task } from '../../shared/task';
import { parseBoundedJson } from '../bounded-json';
import { readRun, readTaskTrajectory, type RunManifest } from '../store';
import { taskDirIn } from '../store/layout';
import { regradeTask, runVerdictOf } from '../regrade';
import { loadTasks, readTaskFile } from '../tasks/reader';
import { BUNDLE_FORMAT, manifestName, signatureName, taskSetOf, type BundleManifest } from './bundle';
import { setHash, sha256File, walkFiles } from './hashing';
import { keyFingerprint, signatureHolds, type BundleSignature } from './signing';
import {
  defaultExtractLimits,
  extractTarGz,
  safeEntryPath,
  UnsafeArchiveError,
  type ExtractLimits,
} from './tar';

export type MismatchKind =
  | 'archive'
  | 'manifest'
  | 'signature'
  | 'hash'
  | 'missing'
  | 'unlisted'
  | 'task-set'
  | 'published-task'
  | 'result';

export interface Mismatch {
  kind: MismatchKind;
  /** The file it concerns: an archive path, or a published task file. */
  file: string;
  message: string;
}

export interface RegradedTask {
  key: string;
  storedScore?: number;
  newScore?: number;
  /** Checks that kept the stored score (they need the live machine). */
  keptChecks: string[];
  notRegraded?: string;
}

export interface VerifyResult {
  bundle: string;
  ok: boolean;
  runId?: string;
  files: number;
  taskSetSha256?: string;
  signature: 'valid' | 'invalid' | 'absent' | 'not checked';
  signedBy?: string;
  mismatches: Mismatch[];
  tasks: RegradedTask[];
  notes: string[];
}

export interface VerifyOptions {
  /** The signer's public key: the signature must hold under it. */
  key?: KeyObject;
  /** A published task set to compare the bundled task files with (and to re-grade with). */
  tasks?: string;
  limits?: ExtractLimits;
  now?: Date;
}

const isHex64 = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/** bundle.json read as untrusted input: every field Proctor uses is checked; archive paths must be safe. */
function readManifest(text: string): BundleManifest {
  const m = parseBoundedJson<BundleManifest>(text, 64, 256 * 1024 * 1024);
  const fail = (where: string, what: string) => {
    throw new Error(`${manifestName} ${where}: ${what}`);
  };
  if (typeof m !== 'object' || m === null) fail('', 'not a JSON object');
  if (m.format !== BUNDLE_FORMAT) fail('/format', `'${String(m.format)}' is not '${BUNDLE_FORMAT}'`);
  if (m.version !== 1)
    fail('/version', `version ${String(m.version)} is not one this Proctor reads (1); update Proctor`);
  if (typeof m.run?.dir !== 'string' || !m.run.dir.startsWith('run/'))
    fail('/run/dir', 'missing or not below run/');
  safeEntryPath(m.run.dir);
  if (typeof m.run.sourcePath !== 'string') fail('/run/sourcePath', 'missing or not a string');
  if (!Array.isArray(m.files)) fail('/files', 'not a list');
  m.files.forEach((f, i) => {
    if (typeof f?.path !== 'string' || !isHex64(f.sha256) || typeof f.bytes !== 'number')
      fail(`/files/${i}`, 'needs path, sha256 (64 hex digits) and bytes');
    safeEntryPath(f.path);
  });
  if (!Array.isArray(m.tasks)) fail('/tasks', 'not a list');
  m.tasks.forEach((t, i) => {
    if (
      typeof t?.key !== 'string' ||
      typeof t.file !== 'string' ||
      !Array.isArray(t.files) ||
      !t.files.every((f) => typeof f === 'string')
    )
      fail(`/tasks/${i}`, 'needs key, file and files');
    [t.file, ...t.files].forEach((p) => safeEntryPath(p));
  });
  if (!isHex64(m.taskSetSha256)) fail('/taskSetSha256', 'not a SHA-256');
  return m;
}

/** Stored host paths of the run's grading (copies in cache/) moved to where the bundle was unpacked. */
function movedVerdicts(verdicts: Verdict[], from: string, to: string): Verdict[] {
  const move = (v: unknown): unknown => {
    if (typeof v === 'string') return v === from || v.startsWith(from + '/') ? to + v.slice(from.length) : v;
    if (Array.isArray(v)) return v.map(move);
    return v;
  };
  return verdicts.map((v) =>
    v.kind === 'rule'
      ? {
          ...v,
          metrics: v.metrics.map((r) => ({
            ...r,
            ...('result' in r ? { result: move(r.result) } : {}),
            ...('expected' in r ? { expected: move(r.expected) } : {}),
          })),
        }
      : v,
  );
}

const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;

/** The published task files by key, with the files beside nested ones. */
async function publishedSet(dir: string): Promise<Map<string, Task>> {
  const { tasks, files } = await loadTasks([dir]);
  if (!files) throw new Error(`--tasks ${dir}: no task files there`);
  return new Map(tasks.map((t) => [`${t.domain}/${t.id}`, t]));
}

async function comparePublished(
  m: BundleManifest,
  published: Map<string, Task>,
  hashes: Map<string, string>,
  out: Mismatch[],
): Promise<void> {
  for (const t of m.tasks) {
    const pub = published.get(t.key);
    if (!pub) {
      out.push({
        kind: 'published-task',
        file: t.file,
        message: `task ${t.key} is not in the published set`,
      });
      continue;
    }
    const nested = basename(pub.dir) === basename(pub.file, extname(pub.file));
    const theirs = new Map<string, string>();
    if (nested) for (const f of (await walkFiles(pub.dir)).files) theirs.set(f.rel, await sha256File(f.abs));
    else theirs.set(basename(pub.file), await sha256File(pub.file));
    const base = dirname(t.file);
    const ours = new Map(t.files.map((p) => [relative(base, p), hashes.get(p) ?? '']));
    for (const [rel, sum] of ours) {
      const other = theirs.get(rel);
      if (other === undefined)
        out.push({
          kind: 'published-task',
          file: `${base}/${rel}`,
          message: `not in the published task set (${join(dirname(pub.file), rel)} does not exist)`,
        });
      else if (other !== sum)
        out.push({
          kind: 'published-task',
          file: `${base}/${rel}`,
          message: `differs from the published ${join(dirname(pub.file), rel)}`,
        });
    }
    for (const rel of theirs.keys())
      if (!ours.has(rel))
        out.push({
          kind: 'published-task',
          file: `${base}/${rel}`,
          message: `the published ${join(dirname(pub.file), rel)} is missing from the bundle`,
        });
  }
}

export async function verifyBundle(bundle: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const result: VerifyResult = {
    bundle,
    ok: false,
    files: 0,
    signature: 'absent',
    mismatches: [],
    tasks: [],
    notes: [],
  };
  const miss = (kind: MismatchKind, file: string, message: string) =>
    result.mismatches.push({ kind, file, message });
  const work = await mkdtemp(join(tmpdir(), 'proctor-verify-'));
  try {
    let extracted: string[];
    try {
      extracted = await extractTarGz(bundle, work, options.limits ?? defaultExtractLimits);
    } catch (e) {
      const why =
        e instanceof UnsafeArchiveError
          ? `refused: ${e.message}`
          : `cannot be read as a .tar.gz bundle: ${(e as Error).message}`;
      miss('archive', bundle, why);
      return result;
    }
    if (!extracted.includes(manifestName)) {
      miss('manifest', manifestName, 'the archive has no bundle.json; it is not a Proctor bundle');
      return result;
    }
    const manifestBytes = readFileSync(join(work, manifestName));
    let m: BundleManifest;
    try {
      m = readManifest(manifestBytes.toString('utf8'));
    } catch (e) {
      miss('manifest', manifestName, (e as Error).message);
      return result;
    }
    result.runId = m.run.id;

    // The signature covers bundle.json, which covers every other file by its hash.
    if (extracted.includes(signatureName)) {
      let sig: BundleSignature | undefined;
      try {
        sig = parseBoundedJson<BundleSignature>(
          readFileSync(join(work, signatureName), 'utf8'),
          8,
          64 * 1024,
        );
      } catch (e) {
        miss('signature', signatureName, `not readable: ${(e as Error).message}`);
      }
      result.signedBy = typeof sig?.keyFingerprint === 'string' ? sig.keyFingerprint : undefined;
      if (sig && options.key) {
        const holds = signatureHolds(manifestBytes, sig, options.key);
        result.signature = holds ? 'valid' : 'invalid';
        if (!holds)
          miss(
            'signature',
            signatureName,
            `the signature of ${manifestName} does not hold under the key given (fingerprint ${keyFingerprint(options.key).slice(0, 16)}…; the bundle says it was signed by ${String(result.signedBy).slice(0, 16)}…)`,
          );
      } else if (sig) {
        result.signature = 'not checked';
        result.notes.push(
          `signed by key ${String(result.signedBy).slice(0, 16)}…; give --key PUB to check the signature`,
        );
      }
    } else if (options.key)
      miss('signature', signatureName, 'the bundle is not signed, but --key asks for a signature');

    // Every file against its hash; nothing more, nothing less.
    const listed = new Map(m.files.map((f) => [f.path, f]));
    const hashes = new Map<string, string>();
    for (const f of m.files) {
      const abs = join(work, f.path);
      if (!existsSync(abs)) {
        miss('missing', f.path, 'listed in bundle.json but not in the archive');
        continue;
      }
      const sum = await sha256File(abs);
      hashes.set(f.path, sum);
      if (sum !== f.sha256)
        miss(
          'hash',
          f.path,
          `SHA-256 ${sum.slice(0, 12)}… differs from bundle.json's ${f.sha256.slice(0, 12)}… (the file was changed)`,
        );
    }
    for (const p of extracted)
      if (p !== manifestName && p !== signatureName && !listed.has(p))
        miss('unlisted', p, 'in the archive but not listed in bundle.json');
    result.files = m.files.length;

    const taskSet = setHash(
      taskSetOf(m).map((f) => ({ ...f, sha256: hashes.get(`tasks/${f.path}`) ?? f.sha256 })),
    );
    result.taskSetSha256 = taskSet;
    if (taskSet !== m.taskSetSha256)
      miss(
        'task-set',
        manifestName,
        `the task set's hash ${taskSet.slice(0, 12)}… differs from /taskSetSha256 ${m.taskSetSha256.slice(0, 12)}…`,
      );
    let published: Map<string, Task> | undefined;
    if (options.tasks) {
      published = await publishedSet(options.tasks);
      await comparePublished(m, published, hashes, result.mismatches);
    }

    await regradeAll(work, m, published, options.now ?? new Date(), result);
    result.ok = result.mismatches.length === 0;
    return result;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function storedNumber(text: string): number | undefined {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(n) ? n : undefined;
}

/** Re-grades every graded task of the unpacked run and compares with what the run stored (verdicts, result.txt, summary.json). */
async function regradeAll(
  work: string,
  m: BundleManifest,
  published: Map<string, Task> | undefined,
  now: Date,
  result: VerifyResult,
): Promise<void> {
  const runDir = join(work, m.run.dir);
  const miss = (file: string, message: string) => result.mismatches.push({ kind: 'result', file, message });
  let detail: ReturnType<typeof readRun>;
  try {
    detail = readRun(runDir);
  } catch (e) {
    miss(`${m.run.dir}/manifest.json`, `the run cannot be read: ${(e as Error).message}`);
    return;
  }
  const manifest = detail.manifest as unknown as RunManifest;
  const bundledTasks = new Map(m.tasks.map((t) => [t.key, t]));
  for (const item of detail.tasks) {
    const row: RegradedTask = { key: item.key, keptChecks: [] };
    result.tasks.push(row);
    const rel = manifest.taskInfo?.[item.key]?.dir;
    if (!rel) {
      row.notRegraded = 'the run names no folder for it';
      continue;
    }
    const taskDir = taskDirIn(runDir, rel);
    const shown = (name: string) => `${m.run.dir}/${rel}/${name}`;
    const traj = readTaskTrajectory(runDir, item.key);
    const original = runVerdictOf(traj.verdicts);
    row.storedScore = original?.score;
    const resultTxt = existsSync(join(taskDir, 'result.txt'))
      ? storedNumber(readFileSync(join(taskDir, 'result.txt'), 'utf8'))
      : undefined;
    const resultAgainst = (score: number, what: string) => {
      if (resultTxt !== undefined && !near(resultTxt, score))
        miss(shown('result.txt'), `says ${resultTxt}; ${what} gives ${score}`);
    };
    if (!original) {
      row.notRegraded = `the run did not grade it (${item.state})`;
      continue;
    }
    const taskFile =
      published?.get(item.key)?.file ??
      (bundledTasks.has(item.key) ? join(work, bundledTasks.get(item.key)!.file) : undefined);
    if (!taskFile) {
      resultAgainst(original.score, "the run's grading in verdicts.jsonl");
      miss(
        manifestName,
        `no task file for ${item.key} in the bundle${published ? ' nor in the published set' : ''}`,
      );
      continue;
    }
    const { task, problems } = await readTaskFile(taskFile);
    if (!task) {
      resultAgainst(original.score, "the run's grading in verdicts.jsonl");
      miss(
        published ? taskFile : relative(work, taskFile),
        `the task file cannot be read: ${problems[0]?.message ?? 'unknown problem'}`,
      );
      continue;
    }
    const verdicts = movedVerdicts(traj.verdicts, m.run.sourcePath, runDir);
    // under the profile the run graded with (its --grading-profile), not each task's own
    const r = await regradeTask({
      task,
      taskDir,
      steps: traj.steps,
      verdicts,
      at: now,
      profile: original.profile,
    });
    row.keptChecks = r.liveChecks.map((c) => `${c.metric} (${c.needs.join(', ')})`);
    if (!r.verdict) {
      row.notRegraded = r.notRegraded;
      resultAgainst(original.score, "the run's grading in verdicts.jsonl");
      continue;
    }
    row.newScore = r.verdict.score;
    if (!near(r.verdict.score, original.score))
      miss(
        shown('verdicts.jsonl'),
        `the run's grading gave ${original.score}; re-grading from the stored artefacts gives ${r.verdict.score}`,
      );
    resultAgainst(r.verdict.score, 're-grading from the stored artefacts');
    const summaryFile = join(taskDir, 'summary.json');
    if (existsSync(summaryFile)) {
      try {
        const s = parseBoundedJson<{ results?: { score?: unknown } }>(readFileSync(summaryFile, 'utf8'));
        const score = s.results?.score;
        if (typeof score === 'number' && !near(score, r.verdict.score))
          miss(
            shown('summary.json'),
            `/results/score is ${score}; re-grading from the stored artefacts gives ${r.verdict.score}`,
          );
      } catch (e) {
        miss(shown('summary.json'), `not readable: ${(e as Error).message}`);
      }
    }
  }
}
