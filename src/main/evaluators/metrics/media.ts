// OSWorld's audio and video metrics (family `media`; desktop_env/evaluators/metrics/vlc.py and docs.py):
// files decoded by Debian's ffmpeg (`media-decode.ts`), MFCCs as librosa computes them (`media-mfcc.ts`), FastDTW as
// the fastdtw package (`media-dtw.ts`), ID3 tags read with music-metadata as mutagen's EasyID3 shows them.
import { parseFile, type IAudioMetadata } from 'music-metadata';
import { registerMetricFamily } from '../family';
import { fail, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { decodeAudio, hashDistance, LIBROSA_RATE, videoFrameHashes } from './media-decode';
import { fastDtw } from './media-dtw';
import { columns, cosineDistance, mfcc, normalizeRows } from './media-mfcc';
import { brief, isFile, isRecord } from './inputs';
import { PythonPatternError } from '../python/re';
import { matchValueToRule } from './os';

/**
 * compare_audios — `result`, `expected`: audio files. No path → 0; both undecodable or empty → 1; one → 0. Else
 * each file's MFCCs (librosa defaults), each coefficient normalised by its largest magnitude over time, aligned
 * with FastDTW (radius 1) under the cosine distance; the score is exp(−distance / path length), a fraction.
 * Departure: decoding and resampling are ffmpeg's (SoX resampler, soxr_hq) where librosa uses soundfile or
 * audioread and python-soxr; values at the file's edges and in the last bits may differ slightly. FastDTW is the
 * compiled fastdtw's (ties to the diagonal); fastdtw's pure-Python fallback breaks ties otherwise.
 */
async function compareAudios(
  result: unknown,
  expected: unknown,
  _o: Record<string, unknown>,
  ctx: { signal?: AbortSignal } | undefined,
): Promise<MetricOutcome> {
  if (typeof result !== 'string' || !result || typeof expected !== 'string' || !expected)
    return fail('an audio file is missing');
  const [y1, y2] = await Promise.all([decodeAudio(result, ctx?.signal), decodeAudio(expected, ctx?.signal)]);
  if (!y1 && !y2)
    return { score: 1, reason: 'both audio files are empty or undecodable (OSWorld counts them alike)' };
  if (!y1 || !y2) return fail(`${brief(!y1 ? result : expected)} is empty or undecodable`);
  const a = columns(normalizeRows(mfcc(y1, LIBROSA_RATE)));
  const b = columns(normalizeRows(mfcc(y2, LIBROSA_RATE)));
  const { distance, path } = fastDtw(a, b, cosineDistance);
  const normalised = path.length ? distance / path.length : Infinity;
  const score = Math.exp(-normalised);
  return {
    score,
    reason: `MFCC similarity ${score.toFixed(4)} (DTW distance ${distance.toFixed(4)} over ${path.length} steps)`,
  };
}

/**
 * compare_videos — `result`, `expected`: videos; options `max_frames_to_check` (100) and `threshold` (5). Frames
 * are compared in order by perceptual hash: a pair differing in more than `threshold` bits is a mismatch, and more
 * than `threshold` mismatches score 0. When a video ends within the frames checked, 1 only if both end there — so
 * two unreadable files score 1, as OpenCV's read() fails alike for both in OSWorld.
 */
async function compareVideos(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  ctx: { signal?: AbortSignal } | undefined,
): Promise<MetricOutcome> {
  const max = typeof options.max_frames_to_check === 'number' ? options.max_frames_to_check : 100;
  const threshold = typeof options.threshold === 'number' ? options.threshold : 5;
  const path = (p: unknown) => (typeof p === 'string' ? p : '');
  const [h1, h2] = await Promise.all([
    videoFrameHashes(path(result), max, ctx?.signal),
    videoFrameHashes(path(expected), max, ctx?.signal),
  ]);
  let mismatches = 0;
  for (let k = 0; k < max; k++) {
    if (k >= h1.length || k >= h2.length) {
      return verdict(
        h1.length === h2.length,
        `the videos match over their ${k} frames`,
        `one video ends after ${Math.min(h1.length, h2.length)} frames, the other has more`,
      );
    }
    if (hashDistance(h1[k], h2[k]) > threshold && ++mismatches > threshold)
      return fail(`${mismatches} frames differ by more than ${threshold} hash bits (up to frame ${k + 1})`);
  }
  return { score: 1, reason: `the first ${max} frames match (${mismatches} differ)` };
}

/** mutagen's EasyID3 keys and the ID3v2 frames they read. */
const easyId3: Record<string, string> = {
  album: 'TALB',
  bpm: 'TBPM',
  compilation: 'TCMP',
  composer: 'TCOM',
  copyright: 'TCOP',
  encodedby: 'TENC',
  lyricist: 'TEXT',
  length: 'TLEN',
  media: 'TMED',
  mood: 'TMOO',
  grouping: 'TIT1',
  title: 'TIT2',
  version: 'TIT3',
  artist: 'TPE1',
  albumartist: 'TPE2',
  conductor: 'TPE3',
  arranger: 'TPE4',
  discnumber: 'TPOS',
  organization: 'TPUB',
  tracknumber: 'TRCK',
  author: 'TOLY',
  albumartistsort: 'TSO2',
  albumsort: 'TSOA',
  composersort: 'TSOC',
  artistsort: 'TSOP',
  titlesort: 'TSOT',
  isrc: 'TSRC',
  discsubtitle: 'TSST',
  language: 'TLAN',
  genre: 'TCON',
  date: 'TDRC',
  originaldate: 'TDOR',
  website: 'WOAR',
};
/** ID3v2.3 frames music-metadata reports under their own ids, for the keys EasyID3 maps to v2.4 frames. */
const v23Alias: Record<string, string> = { TDRC: 'TYER', TDOR: 'TORY' };
/** ID3v1 fields, read by mutagen when there is no ID3v2 tag. */
const id3v1: Record<string, string> = {
  title: 'title',
  artist: 'artist',
  album: 'album',
  date: 'year',
  genre: 'genre',
  tracknumber: 'track',
};

/** The value EasyID3 gives for `key`: the frame's texts joined with ',', '' when absent or not an EasyID3 key. */
function easyValue(meta: IAudioMetadata, key: string): string {
  const v2 = Object.entries(meta.native).find(([format]) => format.startsWith('ID3v2'));
  const frame = easyId3[key];
  if (v2) {
    if (!frame) return '';
    const values = v2[1]
      .filter((t) => t.id === frame || t.id === v23Alias[frame])
      .map((t) => String(t.value));
    return values.join(',');
  }
  const v1 = meta.native.ID3v1;
  const field = id3v1[key];
  if (!v1 || !field) return '';
  return v1
    .filter((t) => t.id === field)
    .map((t) => String(t.value))
    .join(',');
}

/**
 * check_mp3_meta — `result`: an MP3 file; `expected`: `{key: {method, ref}}` over EasyID3 keys (title, artist,
 * album, date, genre, tracknumber, …). 1 when every key's value (its texts joined with ',', '' when absent)
 * satisfies its rule. No file → 0; a file without ID3 tags → 0 (mutagen raises there). Keys EasyID3 keeps in TXXX
 * frames (musicbrainz_*, replaygain_*) or TMCL (performer:*) read '' here, and a numeric genre such as `(17)` is
 * not turned into its name.
 */
async function checkMp3Meta(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (typeof result !== 'string' || !(await isFile(result)))
    return fail(`MP3 file ${brief(result)} is missing`);
  if (!isRecord(expected)) return fail(`expected ${brief(expected)} is not an object of rules`);
  let meta: IAudioMetadata;
  try {
    meta = await parseFile(result, { skipCovers: true, duration: false });
  } catch (e) {
    return fail(`${brief(result)} cannot be read: ${(e as Error).message}`);
  }
  if (!Object.keys(meta.native).some((f) => f.startsWith('ID3')))
    return fail(`${brief(result)} has no ID3 tag`);
  for (const [key, rule] of Object.entries(expected)) {
    if (!isRecord(rule)) return fail(`rule for '${key}' is not an object`);
    const value = easyValue(meta, key);
    let ok: boolean;
    try {
      ok = matchValueToRule(value, rule);
    } catch (e) {
      if (e instanceof PythonPatternError && !e.pythonRaises) throw e;
      return fail(`rule for '${key}': ${(e as Error).message}`);
    }
    if (!ok)
      return fail(
        `${key} is ${JSON.stringify(value)}, which does not satisfy ${String(rule.method)} ${brief(rule.ref)}`,
      );
  }
  return { score: 1, reason: `tags ${Object.keys(expected).join(', ')} match` };
}

registerMetricFamily('media', {
  check_mp3_meta: checkMp3Meta,
  compare_audios: compareAudios,
  compare_videos: compareVideos,
});

registerDeparture({
  metric: 'compare_audios',
  profile: 'osworld',
  case: 'decoding and resampling',
  why: "ffmpeg decodes and resamples (SoX resampler at soxr_hq) where librosa.load uses soundfile/audioread and python-soxr, and MFCCs are computed in float64 where librosa uses float32: the similarity may differ in its last decimals. FastDTW follows fastdtw's compiled module; where OSWorld runs its pure-Python fallback, ties between equal costs pick another path and the similarity can differ",
});
registerDeparture({
  metric: 'compare_videos',
  profile: 'osworld',
  case: 'frame decoding',
  why: "frames come from the ffmpeg command line (rgb24 via swscale) where OSWorld reads them with OpenCV's VideoCapture (BGR via swscale): pixel values may differ by rounding; hashes are compared with a 5-bit tolerance",
});
