// runs.exportVideo: one task's replay video (src/main/video) made on the engine for the replay's "export
// video" button, written beside the task's files as proctor-replay.mp4 and named below the served root, so the
// UI offers it for download through the same file rule as screenshots. One encode per task at a time.
import { existsSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiHandlers } from '../../shared/api';
import { isInside } from '../contained';
import { readTaskTrajectory, taskDirOf } from '../store';
import { FfmpegMissingError, findFfmpeg } from '../video/ffmpeg';
import { writeTaskVideo } from '../video/video';
import { ApiRequestError } from './api-error';
import { relativeToRoot, runDirBelow } from './paths';

export const VIDEO_FILE = 'proctor-replay.mp4';

type Answer = Awaited<ReturnType<ApiHandlers['runs.exportVideo']>>;

export function videoHandlers(root: string): Pick<ApiHandlers, 'runs.exportVideo'> {
  const making = new Map<string, Promise<Answer>>();
  const make = async (runDir: string, taskKey: string): Promise<Answer> => {
    let traj;
    let taskDir: string;
    try {
      traj = readTaskTrajectory(runDir, taskKey);
      taskDir = taskDirOf(runDir, taskKey);
    } catch (e) {
      throw new ApiRequestError('not_found', (e as Error).message);
    }
    if (!isInside(runDir, taskDir) || !existsSync(taskDir) || !statSync(taskDir).isDirectory())
      throw new ApiRequestError(
        'not_found',
        `task '${taskKey}' has no folder of its own in the run to write its video to`,
      );
    let ffmpeg: string;
    try {
      ffmpeg = findFfmpeg();
    } catch (e) {
      if (e instanceof FfmpegMissingError)
        throw new ApiRequestError('internal', `the engine cannot make videos: ${e.message}`);
      throw e;
    }
    const file = join(taskDir, VIDEO_FILE);
    // Written aside and moved in whole: a download never gets half a file.
    const partial = join(taskDir, `proctor-replay.writing-${process.pid}.mp4`);
    try {
      const video = await writeTaskVideo(runDir, traj, partial, { ffmpeg });
      await rename(partial, file);
      return {
        path: relativeToRoot(root, file),
        bytes: statSync(file).size,
        frames: video.frames,
        seconds: video.seconds,
      };
    } finally {
      await rm(partial, { force: true });
    }
  };
  return {
    'runs.exportVideo': async ({ runId, taskKey }) => {
      const runDir = runDirBelow(root, runId);
      const key = `${runDir}\u0000${taskKey}`;
      let p = making.get(key);
      if (!p) {
        p = make(runDir, taskKey).finally(() => making.delete(key));
        making.set(key, p);
      }
      return p;
    },
  };
}
