// runs.exportVideo over real HTTP (the replay's "export video" button): the engine writes the task's MP4 beside
// its files, names it below the served root, and /files/ serves it as video/mp4 with the frames the steps plan;
// an unknown task is a 404, an annotator is refused (the video ends on the verdict).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPath } from '../tasks/needs';
import { serveForTest, type Served } from '../server/testing/served';
import { proctorRun } from '../share/site/testing/proctor-run';
import { plannedFrames } from '../video/video';
import { readTaskTrajectory } from '../store';

const haveFfmpeg = onPath('ffmpeg') && onPath('ffprobe');
let root: string;
let runDir: string;
let keys: string[];
let served: Served;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proctor-video-api-'));
  ({ runDir, keys } = await proctorRun(join(root, 'runs'), 2, 3));
  served = await serveForTest(root, { lee: 'lead', ann: 'annotator' });
});
afterAll(async () => {
  await served?.close();
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!haveFfmpeg)(
  `runs.exportVideo${haveFfmpeg ? '' : ' (skipped: ffmpeg / ffprobe not installed)'}`,
  () => {
    it('writes the MP4 beside the task, served as video/mp4 with the frames its steps plan', async () => {
      const runId = relative(root, runDir);
      const r = await served.call('lee', 'runs.exportVideo', { runId, taskKey: keys[1] });
      expect(r.status, JSON.stringify(r.error)).toBe(200);
      expect(r.result.path).toMatch(new RegExp(`^${runId}/.+/proctor-replay\\.mp4$`));
      const file = await served.raw(`/files/${r.result.path}`, {
        headers: { cookie: `proctor-person-${served.server.port}=${served.tokens.lee}` },
      });
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('video/mp4');
      expect(Number(file.headers['content-length'])).toBe(r.result.bytes);
      const probed = execFileSync(
        'ffprobe',
        [
          '-v',
          'error',
          '-count_frames',
          '-select_streams',
          'v:0',
          '-show_entries',
          'stream=nb_read_frames',
          '-of',
          'csv=p=0',
          join(root, r.result.path),
        ],
        { encoding: 'utf8' },
      );
      expect(Number(probed.trim())).toBe(plannedFrames(readTaskTrajectory(runDir, keys[1]).steps));
      expect(r.result.frames).toBe(Number(probed.trim()));
    });

    it('answers an unknown task with 404 and refuses an annotator', async () => {
      const runId = relative(root, runDir);
      expect((await served.call('lee', 'runs.exportVideo', { runId, taskKey: 'chromium/nope' })).status).toBe(
        404,
      );
      const ann = await served.call('ann', 'runs.exportVideo', { runId, taskKey: keys[0] });
      expect(ann.status).toBe(403);
      expect(ann.error?.message).toMatch(/only .* may export replay videos/);
    });
  },
);
