// scikit-image's structural_similarity as OSWorld calls it on Pillow's arrays (uint8 data range, Gaussian off,
// sample covariance): the mean over windows wholly inside the image, averaged over the channel axis.
import type { Raw } from './image';

/** SSIM of one window of band `band` (sample covariance, uint8 data range), as scikit-image. */
export function windowSsim(
  a: Raw,
  b: Raw,
  band: number,
  x0: number,
  y0: number,
  ww: number,
  wh: number,
): number {
  let sa = 0,
    sb = 0,
    saa = 0,
    sbb = 0,
    sab = 0;
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
  return ssimOfSums(n, sa, sb, saa, sbb, sab);
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
  if (a.width < win || a.height < win)
    return `image ${a.width}×${a.height} is smaller than the ${win}×${win} window`;
  let total = 0;
  for (let band = 0; band < a.channels; band++) total += bandSsim(a, b, band, win);
  return total / a.channels;
}

/** SSIM of a window from its sums over n pixels (sample covariance, uint8 data range); a one-pixel window has no
 * variance. */
export function ssimOfSums(n: number, sa: number, sb: number, saa: number, sbb: number, sab: number): number {
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  const ma = sa / n;
  const mb = sb / n;
  const va = n > 1 ? (saa - n * ma * ma) / (n - 1) : 0;
  const vb = n > 1 ? (sbb - n * mb * mb) / (n - 1) : 0;
  const cov = n > 1 ? (sab - n * ma * mb) / (n - 1) : 0;
  return ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
}

/**
 * The mean SSIM of one band over all win×win windows, by running sums: per-column sums over the window's rows, slid
 * down the image, then slid across. The sums are of integers, so exact: the same values as window by window.
 */
function bandSsim(a: Raw, b: Raw, band: number, win: number): number {
  const { width: w, height: h, channels: c } = a;
  const cols = Array.from({ length: 5 }, () => new Float64Array(w));
  const [ca, cb, caa, cbb, cab] = cols;
  const addRow = (y: number, sign: number) => {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * c + band;
      const p = a.data[i];
      const q = b.data[i];
      ca[x] += sign * p;
      cb[x] += sign * q;
      caa[x] += sign * p * p;
      cbb[x] += sign * q * q;
      cab[x] += sign * p * q;
    }
  };
  for (let y = 0; y < win; y++) addRow(y, 1);
  const n = win * win;
  let total = 0;
  for (let y0 = 0; y0 + win <= h; y0++) {
    if (y0 > 0) {
      addRow(y0 - 1, -1);
      addRow(y0 + win - 1, 1);
    }
    let [sa, sb, saa, sbb, sab] = [0, 0, 0, 0, 0];
    for (let x = 0; x < win; x++) {
      sa += ca[x];
      sb += cb[x];
      saa += caa[x];
      sbb += cbb[x];
      sab += cab[x];
    }
    for (let x0 = 0; x0 + win <= w; x0++) {
      if (x0 > 0) {
        const [o, i] = [x0 - 1, x0 + win - 1];
        sa += ca[i] - ca[o];
        sb += cb[i] - cb[o];
        saa += caa[i] - caa[o];
        sbb += cbb[i] - cbb[o];
        sab += cab[i] - cab[o];
      }
      total += ssimOfSums(n, sa, sb, saa, sbb, sab);
    }
  }
  return total / ((h - win + 1) * (w - win + 1));
}
