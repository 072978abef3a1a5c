// scikit-image's structural_similarity as OSWorld calls it on Pillow's arrays (uint8 data range, Gaussian off,
// sample covariance): the mean over windows wholly inside the image, averaged over the channel axis.
import type { Raw } from './image';

/** SSIM of one window (sample covariance, uint8 data range), as scikit-image. */
function windowSsim(a: Raw, b: Raw, band: number, x0: number, y0: number, ww: number, wh: number): number {
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  const n = ww * wh;
  for (let y = y0; y < y0 + wh; y++) {
    for (let x = x0; x < x0 + ww; x++) {
      const i = (y * a.width + x) * a.channels + band;
      const p = a.data[i];
      const q = b.data[i];
      sa += p;
      sb += q;
      saa += p * p;
      sbb += q * q;
      sab += p * q;
    }
  }
  const ma = sa / n;
  const mb = sb / n;
  const va = (saa - n * ma * ma) / (n - 1);
  const vb = (sbb - n * mb * mb) / (n - 1);
  const cov = (sab - n * ma * mb) / (n - 1);
  return ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
}

/**
 * scikit-image's structural_similarity(np.array(a), np.array(b), channel_axis=-1, win_size=win): windows wholly inside
 * the image, averaged, then averaged over the last axis. For a multi-band image that axis is the bands; for a
 * single-band (L) image it is the columns, each a 1-D signal (the quirk OSWorld inherits). A string when
 * scikit-image raises (shapes differ, image smaller than the window).
 */
export function skimageSsim(a: Raw, b: Raw, win = 7): number | string {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) {
    return `shapes differ: ${a.width}×${a.height}×${a.channels} vs ${b.width}×${b.height}×${b.channels}`;
  }
  if (a.channels === 1) {
    if (a.height < win) return `image height ${a.height} is below the ${win}-pixel window`;
    let total = 0;
    for (let x = 0; x < a.width; x++) {
      let s = 0;
      for (let y = 0; y + win <= a.height; y++) s += windowSsim(a, b, 0, x, y, 1, win);
      total += s / (a.height - win + 1);
    }
    return total / a.width;
  }
  if (a.width < win || a.height < win) return `image ${a.width}×${a.height} is smaller than the ${win}×${win} window`;
  let total = 0;
  for (let band = 0; band < a.channels; band++) {
    let s = 0;
    for (let y = 0; y + win <= a.height; y++) for (let x = 0; x + win <= a.width; x++) s += windowSsim(a, b, band, x, y, win, win);
    total += s / ((a.height - win + 1) * (a.width - win + 1));
  }
  return total / a.channels;
}
