// OSWorld's GIMP metrics (family `gimp`; desktop_env/evaluators/metrics/gimp.py): image structure by OSWorld's
// structure_check_by_ssim (both images as RGB, same size, scikit-image's SSIM), sizes, mirroring, brightness and
// contrast changes, GIMP's config files. Pixels come from sharp; the arithmetic is here and in images-pillow.ts.
// More of gimp.py lives in gimp-structure.ts (resized, palette, saturation, threshold) and gimp-shapes.ts.
import { stat } from 'node:fs/promises';
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { brief, isRecord, readText } from './inputs';
import type { Raw } from './image';
import {
  alphaBox,
  openPillow,
  openPillowPair,
  resize,
  structureSimilar,
  toRgb,
  type PillowImage,
} from './images-pillow';
import './gimp-structure';
import './gimp-shapes';

/** The image's pixels in the bands Pillow opens it with (L, LA, RGB, RGBA; a palette's colours expanded). */
const pixels = openPillow;

/** Pillow's convert('L') of one pixel: ITU-R 601-2 luma in fixed point. */
function luma(img: Raw, i: number): number {
  if (img.channels < 3) return img.data[i * img.channels];
  const d = img.data;
  const o = i * img.channels;
  return (d[o] * 19595 + d[o + 1] * 38470 + d[o + 2] * 7471 + 0x8000) >> 16;
}

function meanLuma(img: Raw): number {
  let s = 0;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) s += luma(img, i);
  return s / n;
}

/** check_structure_sim — the two images, both as RGB, are the same size and have SSIM ≥ 0.9. */
async function checkStructureSim(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const imgs = await openPillowPair(result, expected);
  if (typeof imgs === 'string') return fail(imgs);
  const same = structureSimilar(imgs[0], imgs[1], 0.9);
  return verdict(same === true, 'the images have a similar structure', `structure differs: ${String(same)}`);
}

/** check_file_exists_and_structure_sim — the exported file exists and has SSIM ≥ 0.9 with the expected image. */
async function checkFileExistsAndStructureSim(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (
    typeof result !== 'string' ||
    !(await stat(result)
      .then((s) => s.isFile())
      .catch(() => false))
  )
    return fail('the exported file does not exist');
  return checkStructureSim(result, expected);
}

/** check_image_mirror — the result flipped left-right has SSIM ≥ 0.99 with the expected image. */
async function checkImageMirror(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const a = await pixels(result, 'result');
  if (typeof a === 'string') return fail(a);
  const flipped = Buffer.alloc(a.data.length);
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++)
      a.data.copy(
        flipped,
        (y * a.width + a.width - 1 - x) * a.channels,
        (y * a.width + x) * a.channels,
        (y * a.width + x + 1) * a.channels,
      );
  }
  const b = await pixels(expected, 'expected');
  if (typeof b === 'string') return fail(b);
  const same = structureSimilar({ ...a, data: flipped }, b, 0.99);
  return verdict(same === true, 'the image is mirrored left-right', `not mirrored: ${String(same)}`);
}

/**
 * check_image_size — `expected`: `{width?, height?, ignore_transparent?}`; the image's size, or with
 * `ignore_transparent` on an image with alpha the size of its non-transparent area, equals the given ones.
 */
async function checkImageSize(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const img = await pixels(result, 'result');
  if (typeof img === 'string') return fail(img);
  const rule = isRecord(expected) ? expected : {};
  let [w, h] = [img.width, img.height];
  const alpha = img.channels === 2 || img.channels === 4;
  if (rule.ignore_transparent && alpha) {
    const box = alphaBox(img);
    [w, h] = box ? [box[2] - box[0], box[3] - box[1]] : [0, 0];
  }
  const ok =
    (rule.width === undefined || rule.width === null || rule.width === w) &&
    (rule.height === undefined || rule.height === null || rule.height === h);
  return verdict(
    ok,
    `image is ${w}×${h}`,
    `image is ${w}×${h}, expected ${String(rule.width ?? 'any')}×${String(rule.height ?? 'any')}`,
  );
}

/** check_image_file_size — `expected`: `{max_size}` in bytes; 1 when the file is smaller. */
async function checkImageFileSize(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (typeof result !== 'string' || !result) return fail('result image is missing');
  const size = await stat(result)
    .then((s) => s.size)
    .catch(() => undefined);
  if (size === undefined) return fail(`${result} does not exist`);
  const max = isRecord(expected) ? Number(expected.max_size) : NaN;
  return verdict(size < max, `${size} bytes < ${max}`, `${size} bytes, limit ${max}`);
}

/** image.point(x → min(255, max(0, int(x · factor)))) on every band, as normalize_brightness does. */
function scaled(img: PillowImage, factor: number): PillowImage {
  const data = Buffer.from(img.data.map((v) => Math.min(255, Math.max(0, Math.trunc(v * factor)))));
  return { ...img, data };
}

/**
 * check_brightness_decrease_and_structure_sim — the result is darker than the expected (original) image, and after
 * scaling both to mean brightness 128 (the result then resized to the original's size with Lanczos when the sizes
 * differ, both as RGB) their mean squared difference (0..1 scale) is below `threshold` (0.03).
 */
async function checkBrightnessDecrease(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const imgs = await openPillowPair(result, expected);
  if (typeof imgs === 'string') return fail(imgs);
  const [ba, bb] = [meanLuma(imgs[0]), meanLuma(imgs[1])];
  if (!(bb > ba)) return fail(`brightness not decreased: ${ba.toFixed(2)} vs ${bb.toFixed(2)}`);
  const b = toRgb(scaled(imgs[1], 128 / bb));
  const a = toRgb(resize(scaled(imgs[0], 128 / ba), b.width, b.height, 'lanczos'));
  let s = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = a.data[i] / 255 - b.data[i] / 255;
    s += d * d;
  }
  const mse = s / a.data.length;
  const threshold = typeof options.threshold === 'number' ? options.threshold : 0.03;
  return verdict(
    mse < threshold,
    `darker (${ba.toFixed(1)} < ${bb.toFixed(1)}) with the same structure`,
    `structure differs after normalising brightness (MSE ${mse.toFixed(4)})`,
  );
}

function std(img: Raw): number {
  let s = 0;
  let ss = 0;
  for (const v of img.data) {
    s += v;
    ss += v * v;
  }
  const n = img.data.length;
  return Math.sqrt(Math.max(0, ss / n - (s / n) ** 2));
}

/** check_contrast_increase_and_structure_sim — the result has a higher contrast (pixel standard deviation) than the
 * expected (original) image and SSIM ≥ 0.65 with it. */
async function checkContrastIncrease(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const imgs = await openPillowPair(result, expected);
  if (typeof imgs === 'string') return fail(imgs);
  const [ca, cb] = imgs.map(std);
  if (!(cb < ca)) return fail(`contrast not increased: ${ca.toFixed(2)} vs ${cb.toFixed(2)}`);
  const same = structureSimilar(imgs[0], imgs[1], 0.65);
  return verdict(
    same === true,
    `contrast increased (${cb.toFixed(1)} → ${ca.toFixed(1)}) with the same structure`,
    `structure differs: ${String(same)}`,
  );
}

/** check_textbox_on_leftside — the leftmost dark (luma < 128) pixel lies in the left 5% of the image. */
async function checkTextboxOnLeftside(result: unknown): Promise<MetricOutcome> {
  const img = await pixels(result, 'result');
  if (typeof img === 'string') return fail(img);
  let left = img.width;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (luma(img, y * img.width + x) < 128) {
        left = Math.min(left, x);
        break;
      }
    }
  }
  return verdict(
    left < img.width * 0.05,
    `text starts at x=${left}`,
    `text starts at x=${left}, not within the left 5% (${img.width * 0.05})`,
  );
}

/**
 * check_config_status — `result`: a GIMP config file (sessionrc, gimprc, …); `expected`: `{key, value}` where key is
 * a name or [name, sub-name]. 1 when an uncommented `(key … value)` line has that key and ends with value.
 */
async function checkConfigStatus(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`config file ${brief(result)} cannot be read`);
  const rule = isRecord(expected) ? expected : {};
  for (const line of text.split(/(?<=\n)/)) {
    if (line.startsWith('#') || line === '\n') continue;
    const items = line
      .trim()
      .replace(/^\(+/, '')
      .replace(/[)\n]+$/, '')
      .split(/\s+/);
    const last = items[items.length - 1];
    if (typeof rule.key === 'string' && items[0] === rule.key && last === rule.value)
      return pass(`${rule.key} is ${String(rule.value)}`);
    if (
      Array.isArray(rule.key) &&
      rule.key.length === 2 &&
      items[0] === rule.key[0] &&
      items[1] === rule.key[1] &&
      last === rule.value
    )
      return pass(`${rule.key.join(' ')} is ${String(rule.value)}`);
  }
  return fail(`no setting ${brief(rule.key)} = ${brief(rule.value)}`);
}

registerMetricFamily('gimp', {
  check_structure_sim: checkStructureSim,
  check_file_exists_and_structure_sim: checkFileExistsAndStructureSim,
  check_image_mirror: checkImageMirror,
  check_image_size: checkImageSize,
  check_image_file_size: checkImageFileSize,
  check_brightness_decrease_and_structure_sim: checkBrightnessDecrease,
  check_contrast_increase_and_structure_sim: checkContrastIncrease,
  check_textbox_on_leftside: checkTextboxOnLeftside,
  check_config_status: checkConfigStatus,
});

registerDeparture({
  metric: 'check_image_size',
  profile: 'osworld',
  case: 'a PNG with a tRNS chunk and no ignore_transparent',
  why: "OSWorld's precedence (`a and b or c`) crops to the opaque area whenever Pillow reports 'transparency'; Proctor crops only with ignore_transparent",
});
registerDeparture({
  metric: 'check_contrast_increase_and_structure_sim',
  profile: 'osworld',
  case: 'palette (P mode) images',
  why: "OSWorld takes the standard deviation of Pillow's array, which for a palette image holds palette indices; sharp expands the palette, so Proctor takes the colours'",
});
