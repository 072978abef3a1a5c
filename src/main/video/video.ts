// `proctor export video`: an MP4 per task from its stored screenshots — each step held with its action's click
// mark and a caption (step number, action, the model's thought), a short zoom toward each click, the verdict at
// the end — drawn in Node and piped to ffmpeg; `gif` adds a small GIF preview.
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import type { Action, StepRecord } from '../../shared/run';
import type { TaskTrajectory } from '../../shared/api';
import { isInside } from '../contained';
import { readRun, readTaskTrajectory, safeSegment } from '../store';
import { baseImage, captioned, verdictCard, zoomed, type FrameSize, type Point } from './frames';
import { findFfmpeg, gifFrom, Mp4Encoder } from './ffmpeg';

/** Frames a second, and how many frames each part of the video takes. */
export const videoTiming = { fps: 10, stepFrames: 10, zoomFrames: 6, verdictFrames: 20, zoomFactor: 2.2 };

/** The frames a task's video has: every step entry held, a zoom per click, the verdict card. */
export function plannedFrames(steps: StepRecord[]): number {
  const clicks = steps.filter((s) => clickOf(s)).length;
  return steps.length * videoTiming.stepFrames + clicks * videoTiming.zoomFrames + videoTiming.verdictFrames;
}

/** Where the step clicked (screen pixels): the last click or mouse-down with a position. */
export function clickOf(step: StepRecord): { x: number; y: number } | undefined {
  const acts = Array.isArray(step.actions) ? step.actions : [];
  for (let i = acts.length - 1; i >= 0; i--) {
    const a = acts[i];
    if ((a.type === 'click' || a.type === 'mouseDown') && typeof a.x === 'number' && typeof a.y === 'number')
      return { x: a.x, y: a.y };
  }
  return undefined;
}

function actionWords(a: Action): string {
  switch (a.type) {
    case 'click':
      return `${a.clicks === 2 ? 'double-click' : a.button === 'right' ? 'right-click' : 'click'}${a.x !== undefined ? ` (${a.x}, ${a.y})` : ''}`;
    case 'write':
      return `type "${a.text.length > 30 ? a.text.slice(0, 29) + '…' : a.text}"`;
    case 'press':
    case 'hotkey':
      return `${a.type} ${a.keys.join('+')}`;
    case 'scroll':
      return `scroll ${a.dy}`;
    case 'moveTo':
    case 'dragTo':
      return `${a.type} (${a.x}, ${a.y})`;
    default:
      return a.type;
  }
}

function titleOf(s: StepRecord, last: number): string {
  const acts = Array.isArray(s.actions) ? s.actions : [];
  const what = acts.length
    ? acts.map(actionWords).join(', ')
    : (s.toolAction?.text ?? s.actionText ?? s.error ?? '');
  return `Step ${s.step} of ${last}${what ? ` · ${what.length > 90 ? what.slice(0, 89) + '…' : what}` : ''}`;
}

function thoughtOf(s: StepRecord): string | undefined {
  const said = s.model
    ?.filter((m) => m.role === 'assistant' && m.text)
    .map((m) => m.text)
    .join(' ');
  return said || s.response || undefined;
}

/** A run-folder-relative image path as a file, when it exists and stays inside the run folder. */
function imageIn(runDir: string, rel: string | undefined): string | undefined {
  if (!rel || !isInside(runDir, rel)) return undefined;
  const abs = resolve(runDir, rel);
  return existsSync(abs) ? abs : undefined;
}

/** An image's size, or undefined when the file is no readable image. */
async function sizeOf(file: string | undefined): Promise<{ width: number; height: number } | undefined> {
  if (!file) return undefined;
  const m = await sharp(file)
    .metadata()
    .catch(() => undefined);
  return m?.width && m.height ? { width: m.width, height: m.height } : undefined;
}

/** The frame: the first screenshot's size, at most 1280 wide, even sides (H.264 needs them). */
function frameSizeOf(img: { width: number; height: number } | undefined): FrameSize {
  const w = img?.width ?? 1280;
  const h = img?.height ?? 720;
  const scale = Math.min(1, 1280 / w);
  const even = (n: number) => Math.max(2, Math.round((n * scale) / 2) * 2);
  return { width: even(w), height: even(h) };
}

/** A screen point of `step` in frame pixels (the screenshot is fitted into the frame, centred). */
function toFrame(
  p: { x: number; y: number },
  img: { width: number; height: number },
  screen: { width: number; height: number } | undefined,
  size: FrameSize,
): Point {
  const toImage = screen ? img.width / screen.width : 1;
  const scale = Math.min(size.width / img.width, size.height / img.height);
  const offX = (size.width - img.width * scale) / 2;
  const offY = (size.height - img.height * scale) / 2;
  return { x: Math.round(offX + p.x * toImage * scale), y: Math.round(offY + p.y * toImage * scale) };
}

export interface TaskVideo {
  task: string;
  file: string;
  gif?: string;
  frames: number;
  seconds: number;
}

function verdictOf(traj: TaskTrajectory): {
  passed: boolean | undefined;
  headline: string;
  details: string[];
} {
  const { item } = traj;
  const details = [item.key];
  const people = [item.judge && `judge: ${item.judge}`, item.human && `people: ${item.human}`]
    .filter(Boolean)
    .join(' · ');
  if (people) details.push(people);
  if (item.score === undefined)
    return {
      passed: undefined,
      headline: `NOT GRADED (${item.state})`,
      details: [...details, item.error ?? ''].filter(Boolean),
    };
  const passed = item.score >= 1;
  return {
    passed,
    headline: `${passed ? 'PASS' : 'FAIL'} · score ${Number(item.score.toFixed(3))}`,
    details: [`rule verdict, ${item.state}`, ...details],
  };
}

/** Writes one task's video to `out` (.mp4) and, with `gif`, a preview beside it. */
export async function writeTaskVideo(
  runDir: string,
  traj: TaskTrajectory,
  out: string,
  options: { ffmpeg: string; gif?: boolean },
): Promise<TaskVideo> {
  const dir = resolve(runDir);
  const steps = traj.steps;
  const shots = steps.map((s, i) => ({
    before:
      imageIn(dir, s.observation) ?? imageIn(dir, steps[i - 1]?.screenshot) ?? imageIn(dir, s.screenshot),
    after: imageIn(dir, s.screenshot) ?? imageIn(dir, s.observation),
  }));
  let firstSize: { width: number; height: number } | undefined;
  for (const s of shots) if (!firstSize) firstSize = await sizeOf(s.before);
  const size = frameSizeOf(firstSize);
  await mkdir(resolve(out, '..'), { recursive: true });
  const enc = new Mp4Encoder(options.ffmpeg, out, size, videoTiming.fps);
  let frames = 0;
  const put = async (frame: Buffer, times = 1) => {
    for (let i = 0; i < times; i++) await enc.write(frame);
    frames += times;
  };
  try {
    const last = steps.reduce((m, s) => Math.max(m, s.step), 0);
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i];
      const file = shots[i].before;
      const base = await baseImage(file, size);
      const caption = { title: titleOf(s, last), thought: thoughtOf(s) };
      const click = clickOf(s);
      // Without a readable screenshot the click is still marked and zoomed, on grey, by the screen's size.
      const img = click ? ((await sizeOf(file)) ?? s.screen ?? size) : undefined;
      const at = click && img ? toFrame(click, img, s.screen, size) : undefined;
      await put(await captioned(base, size, caption, at), videoTiming.stepFrames);
      if (!at) continue;
      for (let k = 1; k <= videoTiming.zoomFrames; k++) {
        const t = k / videoTiming.zoomFrames;
        const factor = 1 + (videoTiming.zoomFactor - 1) * (1 - (1 - t) * (1 - t));
        await put(await zoomed(base, size, at, factor, caption));
      }
    }
    const end = await baseImage(shots.at(-1)?.after, size);
    await put(await verdictCard(end, size, verdictOf(traj)), videoTiming.verdictFrames);
    await enc.finish();
  } catch (e) {
    await enc.finish().catch(() => undefined);
    throw e;
  }
  const video: TaskVideo = { task: traj.taskKey, file: out, frames, seconds: frames / videoTiming.fps };
  if (options.gif) {
    video.gif = out.replace(/\.mp4$/, '') + '.gif';
    await gifFrom(options.ffmpeg, out, video.gif);
  }
  return video;
}

/** One video per task of the run (or of `tasks`) into `outDir/<domain>/<task>.mp4`. */
export async function exportVideos(
  runDir: string,
  outDir: string,
  options: { tasks?: string[]; gif?: boolean; ffmpeg?: string } = {},
): Promise<TaskVideo[]> {
  const ffmpeg = findFfmpeg(options.ffmpeg);
  const detail = readRun(runDir);
  const unknown = (options.tasks ?? []).filter((k) => !detail.tasks.some((t) => t.key === k));
  if (unknown.length)
    throw new Error(
      `${resolve(runDir)}: no task ${unknown.map((k) => `'${k}'`).join(', ')} in this run; its tasks: ${detail.tasks.map((t) => t.key).join(', ')}`,
    );
  const videos: TaskVideo[] = [];
  for (const item of detail.tasks) {
    if (options.tasks?.length && !options.tasks.includes(item.key)) continue;
    const traj = readTaskTrajectory(runDir, item.key);
    const parts = item.key.split('/').map(safeSegment);
    videos.push(
      await writeTaskVideo(runDir, traj, join(outDir, ...parts.slice(0, -1), `${parts.at(-1)}.mp4`), {
        ffmpeg,
        gif: options.gif,
      }),
    );
  }
  return videos;
}
