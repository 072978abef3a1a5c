import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { departures } from '../profile';
import { runMetric, tempDir } from '../testing/fixtures';
import { fastDtw } from './media-dtw';
import { melFilters } from './media-mfcc';

const tmp = tempDir();
afterAll(tmp.cleanup);
const at = (name: string) => join(tmp.dir, name);
/** Runs Debian's ffmpeg to make a file in the temp folder. */
const ffmpeg = (args: string[], out: string): string => {
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', ...args, at(out)]);
  return at(out);
};

describe('OSWorld media metrics on files ffmpeg made', () => {
  beforeAll(() => {
    const tags = [
      '-metadata',
      'title=Morning Song',
      '-metadata',
      'artist=The Band',
      '-metadata',
      'album=First',
      '-metadata',
      'date=2021',
      '-metadata',
      'genre=Rock',
      '-metadata',
      'track=3',
    ];
    ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', ...tags], 'tagged.mp3');
    ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'], 'plain.mp3');
    ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'], 'a440.wav');
    ffmpeg(
      ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-ar', '44100', '-ac', '2'],
      'a440-stereo.wav',
    );
    ffmpeg(
      ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-ar', '44100', '-ac', '2'],
      'a440-stereo.ogg',
    );
    ffmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:duration=2',
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=d=1:c=white:a=0.3',
        '-filter_complex',
        '[0][1]concat=n=2:v=0:a=1',
      ],
      'a440-noise.wav',
    );
    ffmpeg(['-f', 'lavfi', '-i', 'anoisesrc=d=3:c=brown:a=0.5'], 'noise.wav');
    writeFileSync(at('empty.wav'), '');
    ffmpeg(
      ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2', '-pix_fmt', 'yuv420p'],
      'test.mp4',
    );
    ffmpeg(
      ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2', '-c:v', 'libvpx', '-b:v', '1M'],
      'test.webm',
    );
    ffmpeg(
      ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=3', '-pix_fmt', 'yuv420p'],
      'longer.mp4',
    );
    ffmpeg(
      ['-f', 'lavfi', '-i', 'mandelbrot=size=160x120:rate=10', '-t', '2', '-pix_fmt', 'yuv420p'],
      'other.mp4',
    );
  }, 120_000);

  it('are in the media family and name their departures', () => {
    for (const m of ['check_mp3_meta', 'compare_audios', 'compare_videos'])
      expect(metricFamilyOf(m)).toBe('media');
    expect(departures().map((d) => d.metric)).toEqual(
      expect.arrayContaining(['compare_audios', 'compare_videos']),
    );
  });

  it('check_mp3_meta reads the ID3 tags ffmpeg wrote as EasyID3 keys', async () => {
    const rules = {
      title: { method: 'eq', ref: 'Morning Song' },
      artist: { method: 're.I', ref: '^the band$' },
      date: { method: 'eq', ref: '2021' },
      tracknumber: { method: 'eq', ref: '3' },
    };
    expect((await runMetric('check_mp3_meta', at('tagged.mp3'), rules)).score).toBe(1);
    expect(
      (await runMetric('check_mp3_meta', at('tagged.mp3'), { album: { method: 'eq', ref: 'Second' } })).score,
    ).toBe(0);
    // An absent key reads '' (EasyID3's get default), so `eq ''` holds and `ne ''` does not.
    expect(
      (await runMetric('check_mp3_meta', at('tagged.mp3'), { composer: { method: 'eq', ref: '' } })).score,
    ).toBe(1);
    expect(
      (await runMetric('check_mp3_meta', at('plain.mp3'), { title: { method: 'ne', ref: '' } })).score,
    ).toBe(0);
    // Strings compare as strings: the number 2021 is not the text '2021' (Python's ==).
    expect(
      (await runMetric('check_mp3_meta', at('tagged.mp3'), { date: { method: 'eq', ref: 2021 } })).score,
    ).toBe(0);
    expect((await runMetric('check_mp3_meta', undefined, { title: { method: 'eq', ref: 'x' } })).score).toBe(
      0,
    );
  });

  it('compare_audios: the same tone scores 1, a different sound near 0, a partly different one in between', async () => {
    // Resampled from 44.1 kHz stereo to librosa's 22 050 Hz mono: the same MFCCs.
    const same = await runMetric('compare_audios', at('a440.wav'), at('a440-stereo.wav'));
    expect(same.score).toBeGreaterThan(0.999);
    // Through a lossy codec the quiet upper coefficients move a little.
    expect((await runMetric('compare_audios', at('a440.wav'), at('a440-stereo.ogg'))).score).toBeGreaterThan(
      0.95,
    );
    const self = await runMetric('compare_audios', at('a440.wav'), at('a440.wav'));
    expect(self.score).toBeCloseTo(1, 10);
    const other = await runMetric('compare_audios', at('a440.wav'), at('noise.wav'));
    expect(other.score).toBeLessThan(0.7);
    const partial = await runMetric('compare_audios', at('a440.wav'), at('a440-noise.wav'));
    expect(partial.score).toBeGreaterThan(other.score);
    expect(partial.score).toBeLessThan(same.score);
    expect(partial.reason).toMatch(/DTW distance/);
  }, 60_000);

  it('compare_audios: empty or missing files as OSWorld counts them', async () => {
    expect((await runMetric('compare_audios', at('empty.wav'), at('missing.wav'))).score).toBe(1);
    expect((await runMetric('compare_audios', at('empty.wav'), at('a440.wav'))).score).toBe(0);
    expect((await runMetric('compare_audios', undefined, at('a440.wav'))).score).toBe(0);
  });

  it('compare_videos: the same frames in another codec score 1; other frames or another length score 0', async () => {
    expect((await runMetric('compare_videos', at('test.mp4'), at('test.webm'))).score).toBe(1);
    expect((await runMetric('compare_videos', at('test.mp4'), at('other.mp4'))).score).toBe(0);
    expect((await runMetric('compare_videos', at('test.mp4'), at('longer.mp4'))).score).toBe(0);
    // Only the first max_frames_to_check frames count: the first 20 of both are the same.
    expect(
      (await runMetric('compare_videos', at('test.mp4'), at('longer.mp4'), { max_frames_to_check: 20 }))
        .score,
    ).toBe(1);
    // Two unreadable files end together at once (OpenCV's read() fails for both): 1, as in OSWorld.
    expect((await runMetric('compare_videos', at('missing.mp4'), at('gone.mp4'))).score).toBe(1);
    expect((await runMetric('compare_videos', at('missing.mp4'), at('test.mp4'))).score).toBe(0);
  }, 60_000);

  it('Slaney mel filters and FastDTW agree with librosa and fastdtw on known values', () => {
    // librosa.filters.mel(sr=22050, n_fft=2048)[0, 1..2]: the first filter rises over 0–25.8 Hz, scaled by 2 / 51.6 Hz.
    const f = melFilters(22050);
    expect(f.length).toBe(128);
    expect(f[0][1]).toBeCloseTo(0.016183, 5);
    expect(f[0][2]).toBeCloseTo(0.032366, 5);
    // fastdtw.fastdtw([1,2,3,4,5], [2,3,4], dist=abs difference) == (2.0, [(0,0),(1,0),(2,1),(3,2),(4,2)])
    const seq = (v: number[]) => v.map((x) => Float64Array.of(x));
    const r = fastDtw(seq([1, 2, 3, 4, 5]), seq([2, 3, 4]), (a, b) => Math.abs(a[0] - b[0]));
    expect(r.distance).toBe(2);
    expect(r.path).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 2],
    ]);
    // Ties go to the diagonal in the compiled fastdtw: equal series align one to one (the path length divides the
    // distance in compare_audios).
    const flat = fastDtw(seq([1, 1, 1, 1, 1]), seq([1, 1, 1, 1, 1]), (a, b) => Math.abs(a[0] - b[0]));
    expect(flat.path).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
  });
});
