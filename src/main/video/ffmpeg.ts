// ffmpeg for replay videos: found on PATH (or given), fed raw RGB frames on stdin, and a GIF made from the MP4.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { whichOnPath } from '../tasks/needs';
import type { FrameSize } from './frames';

export class FfmpegMissingError extends Error {}

/** The ffmpeg to use: `given` (a path), else the one on PATH; a clear error when there is none. */
export function findFfmpeg(given?: string, path: string = process.env.PATH ?? ''): string {
  if (given) {
    if (!existsSync(given)) throw new FfmpegMissingError(`ffmpeg not found at ${given}`);
    return given;
  }
  const found = whichOnPath('ffmpeg', path);
  if (!found)
    throw new FfmpegMissingError(
      'ffmpeg is not installed (no ffmpeg on PATH); videos are encoded with it: install it (Debian/Ubuntu: apt install ffmpeg) and run the export again',
    );
  return found;
}

/** An H.264 MP4 encoder reading raw RGB frames of `size` at `fps` from `write`. */
export class Mp4Encoder {
  private readonly child;
  private readonly closed: Promise<[number | null]>;
  private stderr = '';
  constructor(
    ffmpeg: string,
    private readonly out: string,
    size: FrameSize,
    fps: number,
  ) {
    this.child = spawn(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${size.width}x${size.height}`,
        '-r',
        String(fps),
        '-i',
        'pipe:0',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '23',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
        '-r',
        String(fps),
        out,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    this.child.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    this.closed = once(this.child, 'close') as Promise<[number | null]>;
    this.child.stdin.on('error', () => undefined);
  }

  async write(frame: Buffer): Promise<void> {
    if (!this.child.stdin.write(frame)) await Promise.race([once(this.child.stdin, 'drain'), this.closed]);
  }

  async finish(): Promise<void> {
    this.child.stdin.end();
    const [code] = await this.closed;
    if (code !== 0)
      throw new Error(`ffmpeg could not write ${this.out} (exit ${code}): ${this.stderr.trim()}`);
  }
}

/** A small GIF preview of an MP4: `fps` frames a second, `width` pixels wide, one palette. */
export async function gifFrom(ffmpeg: string, mp4: string, gif: string, width = 480, fps = 5): Promise<void> {
  const child = spawn(
    ffmpeg,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      mp4,
      '-vf',
      `fps=${fps},scale=${width}:-2:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse`,
      gif,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`ffmpeg could not write ${gif} (exit ${code}): ${err.trim()}`);
}
