// Image metrics (sharp decodes PNG/JPEG/…; the arithmetic is here).
import sharp, { type Sharp } from 'sharp';
import { fail, metrics, pass, verdict, type MetricOutcome } from '../metric';
import { brief, isFile } from './inputs';
import { windowSsim } from './images-ssim';
import './ocr';

export interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export async function decode(
  path: unknown,
  side: string,
  pipeline: (s: Sharp) => Sharp = (s) => s,
): Promise<Raw | string> {
  if (!(await isFile(path))) return `${side} image ${brief(path)} does not exist`;
  try {
    const { data, info } = await pipeline(sharp(path as string))
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (e) {
    return `${side} image ${brief(path)} cannot be decoded: ${(e as Error).message}`;
  }
}

/** Mean structural similarity of two equal-size grayscale images over 7×7 windows (as scikit-image's
 * default), in -1..1. */
export function ssim(a: Raw, b: Raw): number {
  const w = a.width;
  const h = a.height;
  const win = 7;
  if (w < win || h < win) {
    // too small for windows: one global window
    return windowSsim(a, b, 0, 0, 0, w, h);
  }
  let sum = 0;
  let n = 0;
  for (let y = 0; y + win <= h; y++) {
    for (let x = 0; x + win <= w; x++) {
      sum += windowSsim(a, b, 0, x, y, win, win);
      n++;
    }
  }
  return sum / n;
}

/**
 * compare_images — `result`, `expected`: image paths. Score = structural similarity (SSIM, grayscale,
 * 7×7 windows) in 0..1 after resizing the result to the expected image's size; 1 for identical images.
 * Fractional, as upstream (no threshold).
 */
async function compareImages(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const b = await decode(expected, 'expected', (s) => s.greyscale());
  if (typeof b === 'string') return fail(b);
  const a = await decode(result, 'result', (s) => s.greyscale().resize(b.width, b.height, { fit: 'fill' }));
  if (typeof a === 'string') return fail(a);
  const score = Math.max(0, Math.min(1, ssim(a, b)));
  return { score, reason: `structural similarity ${score.toFixed(4)}` };
}

/**
 * compare_image_list — `result`, `expected`: an image path or a list of them, pairwise. 1 when every pair
 * has the same size and identical pixels (RGBA).
 */
async function compareImageList(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const ra = Array.isArray(result) ? result : [result];
  const rb = Array.isArray(expected) ? expected : [expected];
  if (ra.length !== rb.length) return fail(`${ra.length} images, expected ${rb.length}`);
  for (let i = 0; i < ra.length; i++) {
    const a = await decode(ra[i], 'result', (s) => s.ensureAlpha());
    if (typeof a === 'string') return fail(a);
    const b = await decode(rb[i], 'expected', (s) => s.ensureAlpha());
    if (typeof b === 'string') return fail(b);
    if (a.width !== b.width || a.height !== b.height)
      return fail(`image ${i} is ${a.width}×${a.height}, expected ${b.width}×${b.height}`);
    if (!a.data.equals(b.data)) return fail(`image ${i} pixels differ`);
  }
  return pass(`all ${ra.length} images are pixel-identical`);
}

/** Green-channel histogram (256 bins), min-max normalised to 0..1. */
function greenHistogram(img: Raw): number[] {
  const hist = new Array<number>(256).fill(0);
  const g = img.channels >= 3 ? 1 : 0;
  for (let i = g; i < img.data.length; i += img.channels) hist[img.data[i]]++;
  const min = Math.min(...hist);
  const max = Math.max(...hist);
  return hist.map((v) => (max > min ? (v - min) / (max - min) : 0));
}

/** Pearson correlation of two histograms (OpenCV's HISTCMP_CORREL). */
export function correlation(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let num = 0,
    da = 0,
    db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i] - ma) * (b[i] - mb);
    da += (a[i] - ma) ** 2;
    db += (b[i] - mb) ** 2;
  }
  if (da === 0 && db === 0) return 1;
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
}

async function histogramSimilarity(result: unknown, expected: unknown): Promise<number | string> {
  const meta = async (p: unknown) => {
    try {
      return await sharp(p as string).metadata();
    } catch {
      return undefined;
    }
  };
  if (!(await isFile(result))) return `result image ${brief(result)} does not exist`;
  if (!(await isFile(expected))) return `expected image ${brief(expected)} does not exist`;
  const ma = await meta(result);
  const mb = await meta(expected);
  if (!ma?.width || !ma.height) return `result ${brief(result)} is not an image`;
  if (!mb?.width || !mb.height) return `expected ${brief(expected)} is not an image`;
  // the wider image is scaled down to the other's width, keeping its aspect ratio
  const width = Math.min(ma.width, mb.width);
  const a = await decode(result, 'result', (s) => s.removeAlpha().resize({ width }));
  if (typeof a === 'string') return a;
  const b = await decode(expected, 'expected', (s) => s.removeAlpha().resize({ width }));
  if (typeof b === 'string') return b;
  return correlation(greenHistogram(a), greenHistogram(b));
}

function histogramMetric(threshold: number) {
  return async (result: unknown, expected: unknown): Promise<MetricOutcome> => {
    const sim = await histogramSimilarity(result, expected);
    if (typeof sim === 'string') return fail(sim);
    return verdict(
      sim > threshold,
      `histogram correlation ${sim.toFixed(6)} > ${threshold}`,
      `histogram correlation ${sim.toFixed(6)} ≤ ${threshold}`,
    );
  };
}

/**
 * compare_jupyterlab_images — `result`, `expected`: image paths (a saved plot). Both are scaled to the
 * narrower width; the green-channel histograms (min-max normalised) must correlate above 0.99999.
 * This ignores where pixels are, so it checks a plot's colours and proportions, not its layout.
 */
const compareJupyterlabImages = histogramMetric(0.99999);

/** compare_metabase_images — as compare_jupyterlab_images with the looser threshold 0.91 (charts rendered
 * at other sizes or with other fonts still pass). */
const compareMetabaseImages = histogramMetric(0.91);

metrics
  .register('compare_images', compareImages)
  .register('compare_image_list', compareImageList)
  .register('compare_jupyterlab_images', compareJupyterlabImages)
  .register('compare_metabase_images', compareMetabaseImages);
