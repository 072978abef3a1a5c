// Cross-validation evidence for check (c), "the environment resets to the same state in different trials":
// the task's setup runs twice, each time on a fresh sandbox display with a fresh home folder; the first
// screenshots are compared pixel by pixel (with a tolerance, and a heat map of where they differ) and the files
// setup wrote are compared by content. A setup step that writes the time, say, is flagged.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import type { Task } from '../../shared/task';
import type { Environment } from '../env/environment';
import { createLocalEnvironment } from '../env/local';
import { runSetupSteps } from '../setup';

export interface ResetTrial {
  /** PNG of the first screen after setup. */
  screenshot: Buffer;
  /** SHA-256 of each file below the home folder after setup, by home-relative path. */
  files: Map<string, string>;
}

export interface ResetCheckOptions {
  width?: number;
  height?: number;
  /** Wait after setup before the screenshot, for windows to settle. Default 1500 ms. */
  settleMs?: number;
  /** Per-channel difference (0–255) below which two pixels count as the same. Default 24. */
  tolerance?: number;
  /** Share of differing pixels up to which the screens count as the same. Default 0.005 (0.5%). */
  maxDifferingShare?: number;
  /** Where the environment comes from (tests may pass their own); default a fresh local sandbox display. */
  createEnvironment?: (r: { width: number; height: number; home: string }) => Promise<Environment>;
}

export interface ResetCheck {
  reproducible: boolean;
  /** Share of pixels that differ beyond the tolerance. */
  differingShare: number;
  /** PNG: differing pixels red over a faded copy of the first screen. */
  heatMap: Buffer;
  files: { added: string[]; removed: string[]; changed: string[] };
  /** One sentence for the checklist's note. */
  reason: string;
}

/**
 * The desktop's own state, not the task's: caches, session files, the recent-files list GTK stamps with the
 * time, browser profiles (Proctor's throw-away Chromium profiles included).
 */
const desktopState = new Set([
  '.cache',
  '.dbus',
  '.Xauthority',
  '.ICEauthority',
  '.local/share/recently-used.xbel',
  '.config/pulse',
  '.config/chromium',
  '.config/google-chrome',
]);
const isDesktopState = (rel: string) => desktopState.has(rel) || /(^|\/)proctor-chromium-[^/]*$/.test(rel);

async function hashTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string) => {
    for (const name of await readdir(d).catch(() => [] as string[])) {
      const p = join(d, name);
      if (isDesktopState(relative(dir, p))) continue;
      const s = await stat(p).catch(() => undefined);
      if (!s) continue;
      if (s.isDirectory()) {
        await walk(p);
      } else if (s.isFile() && s.size <= 64 * 1024 * 1024) {
        out.set(
          relative(dir, p),
          createHash('sha256')
            .update(await readFile(p))
            .digest('hex'),
        );
      }
    }
  };
  await walk(dir);
  return out;
}

/** One trial: fresh home, fresh environment, the task's setup, then the first screen and the files. */
export async function resetTrial(task: Task, opts: ResetCheckOptions = {}): Promise<ResetTrial> {
  const width = opts.width ?? 1280;
  const height = opts.height ?? 720;
  const home = await mkdtemp(join(tmpdir(), 'proctor-reset-'));
  const create =
    opts.createEnvironment ??
    ((r) =>
      createLocalEnvironment({ width: r.width, height: r.height, home: r.home, notify: () => undefined }));
  const env = await create({ width, height, home });
  try {
    await runSetupSteps(task.setup, env, { taskDir: task.dir, task });
    await new Promise((r) => setTimeout(r, opts.settleMs ?? 1500));
    const shot = await env.screenshot({ format: 'png' });
    return { screenshot: shot.data, files: await hashTree(home) };
  } finally {
    await env.close();
    await rm(home, { recursive: true, force: true });
  }
}

/** Share of pixels of `b` differing from `a` beyond `tolerance` (per channel), and a heat map PNG of them. */
export async function pixelDiff(
  a: Buffer,
  b: Buffer,
  tolerance = 24,
): Promise<{ differingShare: number; heatMap: Buffer }> {
  const first = await sharp(a).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const second = await sharp(b)
    .removeAlpha()
    .resize(first.info.width, first.info.height, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = first.info;
  const heat = Buffer.alloc(width * height * 3);
  let differing = 0;
  for (let i = 0; i < width * height; i++) {
    const o = i * 3;
    const d = Math.max(
      Math.abs(first.data[o] - second.data[o]),
      Math.abs(first.data[o + 1] - second.data[o + 1]),
      Math.abs(first.data[o + 2] - second.data[o + 2]),
    );
    if (d > tolerance) {
      differing++;
      heat[o] = 255;
    } else {
      const grey = Math.round((first.data[o] + first.data[o + 1] + first.data[o + 2]) / 6) + 100;
      heat[o] = heat[o + 1] = heat[o + 2] = grey;
    }
  }
  const heatMap = await sharp(heat, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return { differingShare: differing / (width * height), heatMap };
}

/** Compares two trials: pixel difference with a tolerance (and its heat map) and the files by content. */
export async function compareTrials(
  a: ResetTrial,
  b: ResetTrial,
  opts: ResetCheckOptions = {},
): Promise<ResetCheck> {
  const { differingShare, heatMap } = await pixelDiff(a.screenshot, b.screenshot, opts.tolerance ?? 24);
  const added = [...b.files.keys()].filter((f) => !a.files.has(f)).sort();
  const removed = [...a.files.keys()].filter((f) => !b.files.has(f)).sort();
  const changed = [...a.files.keys()]
    .filter((f) => b.files.has(f) && b.files.get(f) !== a.files.get(f))
    .sort();
  const screensSame = differingShare <= (opts.maxDifferingShare ?? 0.005);
  const filesSame = !added.length && !removed.length && !changed.length;
  const parts: string[] = [];
  parts.push(`${(differingShare * 100).toFixed(2)}% of the first screen differs`);
  if (changed.length)
    parts.push(`files differ: ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}`);
  if (added.length || removed.length)
    parts.push(`files only in one trial: ${[...added, ...removed].slice(0, 5).join(', ')}`);
  return {
    reproducible: screensSame && filesSame,
    differingShare,
    heatMap,
    files: { added, removed, changed },
    reason: `${screensSame && filesSame ? 'resets to the same state' : 'does not reset to the same state'}: ${parts.join('; ')}`,
  };
}

/** Runs the task's setup twice on fresh environments and compares them. */
export async function checkReset(task: Task, opts: ResetCheckOptions = {}): Promise<ResetCheck> {
  const a = await resetTrial(task, opts);
  const b = await resetTrial(task, opts);
  return compareTrials(a, b, opts);
}
