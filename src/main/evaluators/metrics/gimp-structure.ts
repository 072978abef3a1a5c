// OSWorld's GIMP metrics that compare structure after a change (family `gimp`; gimp.py): resized, palette-converted
// and saturated images, and the SSIM check with a task-chosen threshold. Images are read as Pillow reads them
// (`images-pillow.ts`); SSIM as scikit-image computes it (`images-ssim.ts`).
import { registerMetricFamily } from '../family';
import { fail, verdict, type MetricOutcome } from '../metric';
import {
  alphaBox,
  band,
  crop,
  hasTransparency,
  openPillowPair,
  resize,
  structureSimilar,
  toHsv,
  toRgb,
  type PillowImage,
} from './images-pillow';
import { skimageSsim } from './images-ssim';

/**
 * check_structure_sim_resized — the result, scaled to the expected image's size, has SSIM ≥ 0.9 with it (both as
 * RGB). A result with transparency (an alpha band, a palette's transparent entry) is first cropped to its
 * non-transparent area (0 when it is wholly transparent); the scaling is Pillow's default bicubic (nearest for a
 * palette image).
 */
async function checkStructureSimResized(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const imgs = await openPillowPair(result, expected);
  if (typeof imgs === 'string') return fail(imgs);
  const [src, tgt] = imgs;
  let scaled: PillowImage;
  if (hasTransparency(src)) {
    const box = alphaBox(src);
    if (!box) return fail('the result image is wholly transparent');
    const content = crop(src, box);
    scaled = resize({ ...toRgb(content), mode: 'RGB' }, tgt.width, tgt.height);
  } else scaled = resize(src, tgt.width, tgt.height);
  const same = structureSimilar(scaled, tgt);
  return verdict(
    same === true,
    'the resized image has the expected structure',
    `structure differs after resizing: ${String(same)}`,
  );
}

/**
 * check_structure_sim_with_threshold — `options.ssim_threshold` (default 0.85): the result, scaled to the expected
 * image's size with Lanczos when the sizes differ, has SSIM ≥ the threshold with it (both as RGB). Images under 7
 * pixels on a side use the largest odd window that fits, as OSWorld does.
 */
async function checkStructureSimWithThreshold(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const imgs = await openPillowPair(result, expected);
  if (typeof imgs === 'string') return fail(imgs);
  const [src, tgt] = imgs;
  const threshold = typeof options.ssim_threshold === 'number' ? options.ssim_threshold : 0.85;
  const a = toRgb(resize(src, tgt.width, tgt.height, 'lanczos'));
  const b = toRgb(tgt);
  const minDim = Math.min(a.width, a.height);
  const win = minDim >= 7 ? 7 : minDim % 2 === 1 ? minDim : minDim - 1;
  if (win < 1) return fail('the image is too small for SSIM');
  const s = skimageSsim(a, b, win);
  if (typeof s === 'string') return fail(s);
  return verdict(
    s >= threshold,
    `SSIM ${s.toFixed(4)} ≥ ${threshold}`,
    `SSIM ${Number.isNaN(s) ? 'undefined' : s.toFixed(4)} < ${threshold}`,
  );
}

/** check_palette_and_structure_sim — the result is a palette (P mode) image and, as RGB, has SSIM ≥ 0.9 with the
 * expected image. */
async function checkPaletteAndStructureSim(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const imgs = await openPillowPair(result, expected);
  if (typeof imgs === 'string') return fail(imgs);
  const [src, tgt] = imgs;
  const same = structureSimilar(src, tgt);
  if (src.mode !== 'P')
    return fail(`the result is not a palette image (mode ${src.mode})${same === true ? '' : `; ${same}`}`);
  return verdict(
    same === true,
    'a palette image with the expected structure',
    `a palette image, but the structure differs: ${String(same)}`,
  );
}

function meanBand(img: { data: Buffer }, offset: number, stride: number): number {
  let s = 0;
  for (let i = offset; i < img.data.length; i += stride) s += img.data[i];
  return s / (img.data.length / stride);
}

/**
 * check_saturation_increase_and_structure_sim — in Pillow's HSV, the result's mean saturation is above the expected
 * (original) image's, and its hue and value bands each have SSIM ≥ 0.9 with the original's.
 */
async function checkSaturationIncrease(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const imgs = await openPillowPair(result, expected);
  if (typeof imgs === 'string') return fail(imgs);
  const [a, b] = imgs.map(toHsv);
  const [sa, sb] = [meanBand(a, 1, 3), meanBand(b, 1, 3)];
  const hue = structureSimilar(band(a, 0), band(b, 0));
  const value = structureSimilar(band(a, 2), band(b, 2));
  if (!(sb < sa)) return fail(`saturation not increased: ${sa.toFixed(2)} vs ${sb.toFixed(2)}`);
  if (hue !== true || value !== true)
    return fail(`hue or value structure differs: ${hue === true ? value : hue}`);
  return verdict(
    true,
    `saturation increased (${sb.toFixed(1)} → ${sa.toFixed(1)}) with the same hue and value structure`,
    '',
  );
}

registerMetricFamily('gimp', {
  check_structure_sim_resized: checkStructureSimResized,
  check_structure_sim_with_threshold: checkStructureSimWithThreshold,
  check_palette_and_structure_sim: checkPaletteAndStructureSim,
  check_saturation_increase_and_structure_sim: checkSaturationIncrease,
});
