// `proctor export video`: MP4s checked with ffprobe (frame count and duration from the steps) and frames read
// back with ffmpeg (the zoom toward a click differs from the plain frame around the click); a clear message
// when ffmpeg is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { projectRoot } from '../demo/paths';
import { missingDemoPrograms, runProctor } from '../demo/testing-env';
import { onPath } from '../tasks/needs';
import { readTaskTrajectory } from '../store';
import { findFfmpeg } from './ffmpeg';
import { clickOf, plannedFrames, videoTiming } from './video';

const tmp = mkdtempSync(join(tmpdir(), 'proctor-video-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const haveFfmpeg = onPath('ffmpeg') && onPath('ffprobe');
const noFfmpeg = haveFfmpeg ? '' : ' (skipped: ffmpeg / ffprobe not installed)';

async function proctor(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function probe(file: string): { frames: number; duration: number; width: number; height: number } {
  const json = execFileSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-count_frames',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=nb_read_frames,duration,width,height',
      '-of',
      'json',
      file,
    ],
    { encoding: 'utf8' },
  );
  const s = (JSON.parse(json) as { streams: Record<string, string | number>[] }).streams[0];
  return {
    frames: Number(s.nb_read_frames),
    duration: Number(s.duration),
    width: Number(s.width),
    height: Number(s.height),
  };
}

/** Frame `n` of a video as raw RGB, read back with ffmpeg. */
async function frameAt(file: string, n: number): Promise<{ data: Buffer; width: number }> {
  const png = join(tmp, `frame-${n}-${Date.now()}.png`);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    file,
    '-vf',
    `select=eq(n\\,${n})`,
    '-vframes',
    '1',
    png,
  ]);
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width };
}

/** Mean absolute difference of two frames in a square of `r` pixels around (x, y). */
function diffAround(
  a: { data: Buffer; width: number },
  b: { data: Buffer; width: number },
  x: number,
  y: number,
  r: number,
): number {
  let sum = 0;
  let n = 0;
  for (let j = Math.max(0, y - r); j < y + r; j++)
    for (let i = Math.max(0, x - r); i < x + r; i++)
      for (let c = 0; c < 3; c++) {
        const k = (j * a.width + i) * 3 + c;
        sum += Math.abs(a.data[k] - b.data[k]);
        n++;
      }
  return sum / n;
}

const osworldRun = resolve(
  projectRoot,
  'resources/fixtures/foreign-results/osworld/traces/20250130-1/pyautogui/screenshot_a11y_tree/gpt-4o',
);

describe.skipIf(!haveFfmpeg)(`proctor export video${noFfmpeg}`, () => {
  it('makes an MP4 whose frames and duration follow the steps of an OSWorld folder (and a GIF preview)', async () => {
    const out = join(tmp, 'osworld');
    const r = await proctor('export', 'video', osworldRun, '--out', out, '--gif');
    expect(r.code, r.err).toBe(0);
    const mp4 = join(out, 'chrome', 'task-1.mp4');
    // the harness's traj.jsonl: 6 lines, 2 of them clicks (line 2's bare click() at the pointer of line 1's moveTo)
    const lines = readFileSync(join(osworldRun, 'chrome/task-1/traj.jsonl'), 'utf8').trim().split('\n');
    const clicks = lines.filter((l) => /click\(/.test(l)).length;
    expect([lines.length, clicks]).toEqual([6, 2]);
    const frames =
      lines.length * videoTiming.stepFrames + clicks * videoTiming.zoomFrames + videoTiming.verdictFrames;
    const p = probe(mp4);
    expect(p.frames).toBe(frames);
    expect(p.duration).toBeCloseTo(frames / videoTiming.fps, 1);
    expect([p.width, p.height]).toEqual([1280, 720]);
    expect(r.out).toContain(`${frames} frames, ${(frames / videoTiming.fps).toFixed(1)} s`);
    expect(existsSync(join(out, 'chrome', 'task-1.gif'))).toBe(true);
    expect(
      execFileSync(
        'ffprobe',
        [
          '-v',
          'error',
          '-show_entries',
          'stream=codec_name',
          '-of',
          'csv=p=0',
          join(out, 'chrome', 'task-1.gif'),
        ],
        { encoding: 'utf8' },
      ).trim(),
    ).toBe('gif');
  }, 120_000);

  it("shows a broken or missing screenshot of someone else's run on grey, with the same frames", async () => {
    const copy = join(tmp, 'broken-run');
    execFileSync('cp', ['-r', osworldRun, copy]);
    const task = join(copy, 'chrome', 'task-1');
    const shots = readdirSync(task)
      .filter((f) => f.endsWith('.png'))
      .sort();
    writeFileSync(join(task, shots[0]), 'not a png');
    rmSync(join(task, shots[2]));
    const r = await proctor('export', 'video', copy, '--out', join(tmp, 'broken'));
    expect(r.code, r.err).toBe(0);
    const steps = readTaskTrajectory(copy, 'chrome/task-1').steps;
    expect(probe(join(tmp, 'broken', 'chrome', 'task-1.mp4')).frames).toBe(plannedFrames(steps));
    expect(plannedFrames(steps)).toBe(
      6 * videoTiming.stepFrames + 2 * videoTiming.zoomFrames + videoTiming.verdictFrames,
    );
  }, 120_000);

  it('names an unknown task, with the tasks the run has', async () => {
    const r = await proctor(
      'export',
      'video',
      osworldRun,
      '--task',
      'chrome/nope',
      '--out',
      join(tmp, 'none'),
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain("no task 'chrome/nope' in this run; its tasks: chrome/task-1");
  });
});

describe('without ffmpeg', () => {
  it('says clearly that ffmpeg is missing and how to get it', async () => {
    expect(() => findFfmpeg(undefined, '/nonexistent')).toThrow(
      /ffmpeg is not installed \(no ffmpeg on PATH\).*apt install ffmpeg/,
    );
    const r = await runProctor(['export', 'video', osworldRun, '--out', join(tmp, 'never')], 60_000, {
      PATH: '/nonexistent',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('proctor export: ffmpeg is not installed');
    expect(existsSync(join(tmp, 'never'))).toBe(false);
  });
});

const missing = [...missingDemoPrograms(), ...(haveFfmpeg ? [] : ['ffmpeg'])];
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';
const shopTask = 'chromium/d88f645c-b93d-4da3-8636-683046aaf745';

describe.skipIf(missing.length > 0)(`a video of a real run on a sandbox display${why}`, () => {
  let runDir: string;
  beforeAll(async () => {
    const r = await runProctor(
      [
        'run',
        `resources/demo/${shopTask}`,
        '--agent',
        'oracle',
        '--screen',
        '800x600',
        '--out',
        join(tmp, 'runs'),
      ],
      240_000,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    runDir = resolve(projectRoot, /^run folder: (.+)$/m.exec(r.stdout)![1]);
  }, 300_000);

  it('zooms toward the click: the zoom frame differs from the plain one around the click; steps and duration match', async () => {
    const out = join(tmp, 'real');
    const r = await proctor('export', 'video', runDir, '--out', out);
    expect(r.code, r.err).toBe(0);
    const mp4 = join(out, 'chromium', 'd88f645c-b93d-4da3-8636-683046aaf745.mp4');
    const steps = readTaskTrajectory(runDir, shopTask).steps;
    const clickIdx = steps.findIndex((s) => clickOf(s));
    expect(clickIdx, 'the oracle clicks Place order').toBeGreaterThanOrEqual(0);
    const clicks = steps.filter((s) => clickOf(s)).length;
    const frames =
      steps.length * videoTiming.stepFrames + clicks * videoTiming.zoomFrames + videoTiming.verdictFrames;
    const p = probe(mp4);
    expect(p.frames).toBe(frames);
    expect(p.duration).toBeCloseTo(frames / videoTiming.fps, 1);
    // frames before the click's step: every earlier step held, earlier clicks zoomed
    const start = steps
      .slice(0, clickIdx)
      .reduce((n, s) => n + videoTiming.stepFrames + (clickOf(s) ? videoTiming.zoomFrames : 0), 0);
    const plainA = await frameAt(mp4, start + 2);
    const plainB = await frameAt(mp4, start + videoTiming.stepFrames - 1);
    const zoom = await frameAt(mp4, start + videoTiming.stepFrames + videoTiming.zoomFrames - 1);
    const { x, y } = clickOf(steps[clickIdx])!; // 800×600 screenshots, not scaled: screen pixels are frame pixels
    const same = diffAround(plainA, plainB, x, y, 60);
    const zoomed = diffAround(plainA, zoom, x, y, 60);
    expect(same).toBeLessThan(3);
    expect(zoomed).toBeGreaterThan(15);
  }, 120_000);
});
