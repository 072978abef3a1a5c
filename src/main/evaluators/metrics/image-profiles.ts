// compare_jupyterlab_images as the native format's evaluator grades it (OpenCV): grayscale by BT.601 weights,
// the larger image (by pixel count) resized to the smaller one's exact size, 256-bin histograms min-max
// normalised, correlation at least `similarity_threshold` (default 0.95). The robust variant (image.ts) follows
// Spider2-V: green channel, aspect kept, correlation above 0.99999.
import sharp from 'sharp';
import { fail, verdict, type MetricOutcome } from '../metric';
import { registerDeparture, variants } from '../profile';
import { brief, isFile } from './inputs';
import { correlation, decode, type Raw } from './image';

/** cv2.cvtColor(BGR2GRAY) then calcHist(256 bins) and normalize(NORM_MINMAX). */
function grayHistogram(img: Raw): number[] {
  const hist = new Array<number>(256).fill(0);
  for (let i = 0; i + 2 < img.data.length; i += img.channels) {
    const y = Math.round(0.299 * img.data[i] + 0.587 * img.data[i + 1] + 0.114 * img.data[i + 2]);
    hist[Math.min(255, y)]++;
  }
  const min = Math.min(...hist);
  const max = Math.max(...hist);
  return hist.map((v) => (max > min ? (v - min) / (max - min) : 0));
}

async function compareJupyterlabImagesNative(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (!(await isFile(result))) return fail(`result image ${brief(result)} does not exist`);
  if (!(await isFile(expected))) return fail(`expected image ${brief(expected)} does not exist`);
  const size = async (p: unknown) =>
    sharp(p as string)
      .metadata()
      .then(
        (m) => (m.width && m.height ? { w: m.width, h: m.height } : undefined),
        () => undefined,
      );
  const sa = await size(result);
  const sb = await size(expected);
  if (!sa) return fail(`result ${brief(result)} is not an image`);
  if (!sb) return fail(`expected ${brief(expected)} is not an image`);
  const target = sb.w * sb.h > sa.w * sa.h ? sa : sb;
  const load = (p: unknown, side: string) =>
    decode(p, side, (s) =>
      s
        .removeAlpha()
        .toColourspace('srgb')
        .resize({ width: target.w, height: target.h, fit: 'fill', kernel: 'linear' }),
    );
  const a = await load(result, 'result');
  if (typeof a === 'string') return fail(a);
  const b = await load(expected, 'expected');
  if (typeof b === 'string') return fail(b);
  if (a.channels < 3 || b.channels < 3) return fail('images must have colour channels');
  const threshold = typeof options.similarity_threshold === 'number' ? options.similarity_threshold : 0.95;
  const sim = correlation(grayHistogram(a), grayHistogram(b));
  return verdict(
    sim >= threshold,
    `grayscale histogram correlation ${sim.toFixed(6)} ≥ ${threshold}`,
    `grayscale histogram correlation ${sim.toFixed(6)} < ${threshold}`,
  );
}

variants.register('compare_jupyterlab_images', {
  native: compareJupyterlabImagesNative,
  diagnose: async () => 'histogram channel and threshold (native: grayscale ≥ 0.95; robust: green > 0.99999)',
});

registerDeparture({
  metric: 'compare_jupyterlab_images',
  profile: 'native',
  case: 'images that need resizing',
  why: "OpenCV's INTER_AREA resampling is approximated with libvips' linear kernel; histograms of resized images may differ slightly",
});
for (const metric of ['compare_jupyterlab_images', 'compare_metabase_images'])
  registerDeparture({
    metric,
    profile: 'spider2v',
    case: 'images of different widths',
    why: "OpenCV's bilinear resize is approximated with libvips' resampling; histograms of resized images may differ slightly",
  });
registerDeparture({
  metric: 'compare_jupyterlab_images',
  profile: 'spider2v',
  case: 'every call',
  why: 'Spider2-V stops in a pdb breakpoint before returning (its grading hangs); Proctor scores as its code would after the breakpoint',
});
