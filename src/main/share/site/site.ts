// `proctor export html`: a static, read-only copy of the workbench for some runs — the run table, statistics with
// breakdowns, every task's replay (overlays, Set-of-Mark, verdicts, labels) — that opens from file:// or any
// static host. The answers are the workbench's own (the same handlers as `proctor serve`, asked once per run and
// task) written as JS data files; each referenced file is put once below files/. Layout in src/main/share/README.md.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { RunDetail } from '../../../shared/api';
import type { RunListItem } from '../../../shared/run';
import {
  runDataKey,
  runDataPath,
  SITE_GLOBAL,
  SITE_LOAD,
  siteFormat,
  taskDataKey,
  taskDataPath,
  type SiteIndex,
  type SiteRun,
} from '../../../shared/static-site';
import { findRunDirs } from '../../store';
import { proctorVersion } from '../../version';
import { createWorkbench, type Workbench } from '../../workbench/workbench';
import { fileChecker, filesOfTrajectory, putFiles, type RefusedFile, type SiteFile } from './site-files';
import { writeSiteAssets } from './site-assets';

export interface SiteProgress {
  phase: 'answers' | 'files';
  done: number;
  total: number;
}

export interface SiteOptions {
  /** The built UI (index.html and assets/), e.g. from ensureUiBuilt(). */
  uiDir: string;
  /** Copy the files even where a hard link would do. */
  copy?: boolean;
  title?: string;
  onProgress?: (p: SiteProgress) => void;
}

export interface SiteResult {
  out: string;
  runs: number;
  tasks: number;
  /** Distinct files put below files/ (screenshots and the rest). */
  files: number;
  screenshots: number;
  /** Bytes of everything in the site (linked files counted at their size). */
  bytes: number;
  /** Files put by hard link rather than copied. */
  linked: number;
  refused: RefusedFile[];
  seconds: number;
}

/** JS that hands `value` to the site's loader; JSON is a JS expression, so nothing in it runs. */
const dataScript = (key: string, value: unknown) =>
  `window.${SITE_LOAD}(${JSON.stringify(key)},${JSON.stringify(value)});\n`;

const isImage = (p: string) => /\.(png|jpe?g|webp|gif)$/i.test(p);

/** An existing non-empty `out` is replaced only when it is an earlier export (it has data/site.js). */
async function prepareOut(out: string): Promise<void> {
  if (existsSync(out) && readdirSync(out).length) {
    if (!existsSync(join(out, 'data', 'site.js')))
      throw new Error(
        `${out}: the folder is not empty and is no earlier \`proctor export html\` site; give a new or empty folder`,
      );
    for (const part of ['index.html', 'site.css', 'assets', 'data', 'files'])
      await rm(join(out, part), { recursive: true, force: true });
  }
  await mkdir(join(out, 'data', 'runs'), { recursive: true });
}

interface Source {
  /** The folder the run's paths are relative to: the parent of the folder given. */
  root: string;
  runDir: string;
}

/**
 * Each run folder below the folders given, with the root its site paths start from; two runs may not share a path.
 * Throws, naming the folder, where one holds no run: the CLI asks first, before building the UI.
 */
export function sourcesOf(args: string[]): Source[] {
  const sources: Source[] = [];
  const seen = new Map<string, string>();
  for (const arg of args) {
    const dir = resolve(arg);
    if (!existsSync(dir)) throw new Error(`${dir}: no such folder`);
    const found = findRunDirs(dir);
    if (!found.length)
      throw new Error(
        `${dir}: no run folder in it or below it (looked for Proctor's manifest.json and OSWorld's, Spider2-V's and UFO's result folders)`,
      );
    const root = dirname(dir);
    for (const runDir of found) {
      const path = relative(root, runDir).split('\\').join('/');
      if (sources.some((s) => s.runDir === runDir)) continue; // named twice (itself and a folder above it)
      const other = seen.get(path);
      if (other)
        throw new Error(
          `${runDir}: its site path '${path}' is also that of ${other}; export the two in separate sites, or give their folders different names`,
        );
      seen.set(path, runDir);
      sources.push({ root, runDir });
    }
  }
  return sources;
}

/** Writes the site for the run folders `args` (each a run or a folder above runs) into `outDir`. */
export async function exportSite(args: string[], outDir: string, options: SiteOptions): Promise<SiteResult> {
  const started = performance.now();
  const out = resolve(outDir);
  const sources = sourcesOf(args);
  for (const s of sources)
    if (out === s.runDir || out.startsWith(s.runDir + '/'))
      throw new Error(`${out}: the site may not be written inside a run it exports (${s.runDir})`);
  await prepareOut(out);

  const runs: RunListItem[] = [];
  const index: SiteRun[] = [];
  const files = new Map<string, SiteFile>();
  const refused: RefusedFile[] = [];
  const refusedPaths = new Set<string>();
  let bytes = 0;
  let tasks = 0;
  const made = new Set<string>();
  // Thousands of small files: written synchronously, each folder made once.
  const write = (rel: string, text: string) => {
    const file = join(out, rel);
    if (!made.has(dirname(file))) mkdirSync(dirname(file), { recursive: true });
    made.add(dirname(file));
    writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  };

  // Files are put while the answers are read (I/O beside CPU), in batches as they are found.
  const pending: SiteFile[] = [];
  const jobs: Promise<{ bytes: number; linked: number }>[] = [];
  let failure: Error | undefined;
  let found = 0;
  let put = 0;
  const flush = () => {
    if (!pending.length) return;
    const job = putFiles(pending.splice(0), join(out, 'files'), {
      copy: options.copy,
      onFile: () => {
        put++;
        if (put % 500 === 0) options.onProgress?.({ phase: 'files', done: put, total: found });
      },
    });
    jobs.push(job.catch((e: Error) => ((failure ??= e), { bytes: 0, linked: 0 })));
  };

  // The answers: one workbench per root, asked as `proctor serve` would be (host paths hidden, root-relative files).
  const benches = new Map<string, Workbench>();
  const benchOf = (root: string) =>
    benches.get(root) ??
    benches.set(root, createWorkbench(root, { transport: 'http', localUser: true })).get(root)!;
  try {
    const planned: (Source & { path: string; detail: RunDetail })[] = [];
    for (const s of sources) {
      const path = relative(s.root, s.runDir).split('\\').join('/');
      planned.push({ ...s, path, detail: await benchOf(s.root).handlers['runs.get']({ runId: path }) });
    }
    const total = planned.reduce((n, p) => n + p.detail.tasks.length, 0);
    let done = 0;
    for (const { root, runDir, path: runId, detail } of planned) {
      const h = benchOf(root).handlers;
      const checkFile = fileChecker(root, runDir);
      const i = runs.length;
      const item: RunListItem = { ...detail.run, path: runId };
      const stats = await h['runs.stats']({ runId }).catch(() => null);
      const statsWithErrors = await h['runs.stats']({ runId, includeErrors: true }).catch(() => null);
      runs.push(item);
      const keys = detail.tasks.map((t) => t.key);
      tasks += keys.length;
      index.push({ runId: item.runId, path: item.path, data: runDataPath(i), tasks: keys });
      write(
        runDataPath(i),
        dataScript(runDataKey(i), { detail: { ...detail, run: item }, stats, statsWithErrors }),
      );
      for (const [j, key] of keys.entries()) {
        const trajectory = await h['runs.task']({ runId, taskKey: key });
        // Only a person's run (agent human) has demonstration reviews; others are answered without asking.
        const demo =
          item.agent === 'human' ? await h['demos.get']({ runId, taskKey: key }).catch(() => null) : null;
        write(taskDataPath(i, j), dataScript(taskDataKey(i, j), { trajectory, demo }));
        for (const path of filesOfTrajectory(trajectory, item.path)) {
          if (files.has(path) || refusedPaths.has(path)) continue;
          const checked = checkFile(path);
          if ('file' in checked) {
            const f = { path, source: checked.file };
            files.set(path, f);
            pending.push(f);
            found++;
          } else if (checked.why !== 'missing') {
            refused.push({ run: item.path, task: key, path, why: checked.why });
            refusedPaths.add(path);
          }
        }
        if (pending.length >= 256) flush();
        options.onProgress?.({ phase: 'answers', done: ++done, total: Math.max(total, done) });
      }
    }
  } finally {
    flush();
    for (const wb of benches.values()) await wb.close();
  }

  const site: SiteIndex = {
    ...siteFormat,
    proctorVersion,
    createdAt: new Date().toISOString(),
    title: options.title ?? (runs.length === 1 ? basename(runs[0].path) : `${runs.length} runs`),
    runs,
    index,
  };
  write('data/site.js', `window.${SITE_GLOBAL}=${JSON.stringify(site)};\n`);
  bytes += await writeSiteAssets(options.uiDir, out);

  const results = await Promise.all(jobs);
  if (failure) throw failure;
  options.onProgress?.({ phase: 'files', done: put, total: found });
  const list = [...files.values()];
  const result = results.reduce((a, r) => ({ bytes: a.bytes + r.bytes, linked: a.linked + r.linked }), {
    bytes: 0,
    linked: 0,
  });
  bytes += result.bytes;
  return {
    out,
    runs: runs.length,
    tasks,
    files: list.length,
    screenshots: list.filter((f) => isImage(f.path)).length,
    bytes,
    linked: result.linked,
    refused,
    seconds: (performance.now() - started) / 1000,
  };
}
