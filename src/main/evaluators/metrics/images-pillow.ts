// Images as OSWorld's metrics see them through Pillow: the mode a file opens in (P, L, LA, RGB, RGBA), Pillow's
// conversions (RGB, L, HSV) and its resampling (Image.resize: bicubic by default, Lanczos on request; separable
// 8-bit fixed-point passes), and OSWorld's current structure_check_by_ssim. sharp decodes; the arithmetic is here.
import sharp from 'sharp';
import { brief } from './inputs';
import type { Raw } from './image';
import { skimageSsim } from './images-ssim';

/** Pillow's mode for the file. Palette images keep their colours expanded (sharp cannot hand out indices). */
export type PillowMode = 'P' | 'L' | 'LA' | 'RGB' | 'RGBA';

export interface PillowImage extends Raw {
  mode: PillowMode;
}

/** Opens the image as Pillow would (its mode; pixels 8-bit, interleaved), or a reason it cannot be opened. */
export async function openPillow(path: unknown, side: string): Promise<PillowImage | string> {
  if (typeof path !== 'string' || !path) return `${side} image is missing`;
  try {
    const img = sharp(path);
    const meta = await img.metadata();
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    const raw: Raw = { data, width: info.width, height: info.height, channels: info.channels };
    const byChannels: Record<number, PillowMode> = { 1: 'L', 2: 'LA', 3: 'RGB', 4: 'RGBA' };
    // sharp hands out a grey file's pixels as sRGB: keep one grey band (and the alpha band), as Pillow's L / LA
    const grey = !meta.isPalette && (meta.channels === 1 || meta.channels === 2) && raw.channels >= 3;
    const pixels = grey
      ? mapPixels(raw, raw.channels - 2, (s, o, out) => {
          out[o] = data[s];
          if (raw.channels === 4) out[o + 1] = data[s + 3];
        })
      : raw;
    const mode = meta.isPalette ? 'P' : byChannels[pixels.channels];
    if (!mode) return `${side} image ${brief(path)} has ${pixels.channels} channels`;
    return { ...pixels, mode };
  } catch (e) {
    return `${side} image ${brief(path)} cannot be decoded: ${(e as Error).message}`;
  }
}

/** The result and expected images, opened as Pillow opens them; or why one cannot be. */
export async function openPillowPair(
  result: unknown,
  expected: unknown,
): Promise<[PillowImage, PillowImage] | string> {
  const a = await openPillow(result, 'result');
  if (typeof a === 'string') return a;
  const b = await openPillow(expected, 'expected');
  if (typeof b === 'string') return b;
  return [a, b];
}

/** True when Pillow gives the image an alpha band or a 'transparency' entry (RGBA, LA, a palette with tRNS). */
export function hasTransparency(img: PillowImage): boolean {
  return img.channels === 2 || img.channels === 4;
}

function mapPixels(img: Raw, channels: number, fn: (src: number, dst: number, out: Buffer) => void): Raw {
  const n = img.width * img.height;
  const out = Buffer.alloc(n * channels);
  for (let i = 0; i < n; i++) fn(i * img.channels, i * channels, out);
  return { data: out, width: img.width, height: img.height, channels };
}

/** convert('RGB'): grey bands repeated, alpha dropped (Pillow does not composite). */
export function toRgb(img: Raw): Raw {
  if (img.channels === 3) return img;
  const d = img.data;
  if (img.channels <= 2) return mapPixels(img, 3, (s, o, out) => out.fill(d[s], o, o + 3));
  return mapPixels(img, 3, (s, o, out) => {
    out[o] = d[s];
    out[o + 1] = d[s + 1];
    out[o + 2] = d[s + 2];
  });
}

/** convert('L'): ITU-R 601-2 luma in Pillow's fixed point; alpha dropped. */
export function toLuma(img: Raw): Raw {
  const d = img.data;
  if (img.channels <= 2) return img.channels === 1 ? img : mapPixels(img, 1, (s, o, out) => (out[o] = d[s]));
  return mapPixels(
    img,
    1,
    (s, o, out) => (out[o] = (d[s] * 19595 + d[s + 1] * 38470 + d[s + 2] * 7471 + 0x8000) >> 16),
  );
}

/** convert('HSV'): from grey (L, LA) hue and saturation 0, value the grey; from RGB(A) or a palette Pillow's rgb2hsv
 * (float arithmetic, each band truncated to 0..255). */
export function toHsv(img: PillowImage): Raw {
  if (img.channels < 3) return mapPixels(img, 3, (s, o, out) => (out[o + 2] = img.data[s]));
  const f = Math.fround;
  const d = img.data;
  return mapPixels(img, 3, (s, o, out) => {
    const [r, g, b] = [d[s], d[s + 1], d[s + 2]];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    out[o + 2] = max;
    if (max === min) return;
    const cr = max - min;
    const sat = f(cr / max);
    const [rc, gc, bc] = [f((max - r) / cr), f((max - g) / cr), f((max - b) / cr)];
    const h = r === max ? f(bc - gc) : g === max ? f(2 + rc - bc) : f(4 + gc - rc);
    const hue = (((h / 6 + 1) % 1) + 1) % 1;
    out[o] = Math.min(255, Math.max(0, Math.trunc(f(hue) * 255)));
    out[o + 1] = Math.min(255, Math.max(0, Math.trunc(sat * 255)));
  });
}

/** One band of the image (Image.split()[i]) as an L image. */
export function band(img: Raw, i: number): Raw {
  return mapPixels(img, 1, (s, o, out) => (out[o] = img.data[s + i]));
}

export type Resample = 'bicubic' | 'lanczos';

const filters: Record<Resample, { support: number; fn: (x: number) => number }> = {
  bicubic: {
    support: 2,
    fn: (x) => {
      const a = -0.5;
      x = Math.abs(x);
      if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
      if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
      return 0;
    },
  },
  lanczos: {
    support: 3,
    fn: (x) => {
      const sinc = (v: number) => (v === 0 ? 1 : Math.sin(v * Math.PI) / (v * Math.PI));
      return x >= -3 && x < 3 ? sinc(x) * sinc(x / 3) : 0;
    },
  },
};

const PRECISION = 22;

/** Pillow's precompute_coeffs + normalize_coeffs_8bpc: per output pixel the first input index and fixed-point weights. */
function coefficients(
  inSize: number,
  outSize: number,
  resample: Resample,
): { start: number[]; weights: number[][] } {
  const { support: base, fn } = filters[resample];
  const scale = inSize / outSize;
  const filterscale = Math.max(1, scale);
  const support = base * filterscale;
  const ss = 1 / filterscale;
  const start: number[] = [];
  const weights: number[][] = [];
  for (let xx = 0; xx < outSize; xx++) {
    const center = (xx + 0.5) * scale;
    const xmin = Math.max(0, Math.trunc(center - support + 0.5));
    const xmax = Math.min(inSize, Math.trunc(center + support + 0.5)) - xmin;
    const w: number[] = [];
    let ww = 0;
    for (let x = 0; x < xmax; x++) {
      const v = fn((x + xmin - center + 0.5) * ss);
      w.push(v);
      ww += v;
    }
    start.push(xmin);
    weights.push(
      w
        .map((v) => (ww !== 0 ? v / ww : v))
        .map((v) => Math.trunc(v < 0 ? -0.5 + v * 2 ** PRECISION : 0.5 + v * 2 ** PRECISION)),
    );
  }
  return { start, weights };
}

function clip8(ss: number): number {
  const v = ss >> PRECISION;
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

function resampleHorizontal(img: Raw, width: number, resample: Resample): Raw {
  const { start, weights } = coefficients(img.width, width, resample);
  const c = img.channels;
  const out = Buffer.alloc(width * img.height * c);
  for (let y = 0; y < img.height; y++) {
    const row = y * img.width * c;
    for (let x = 0; x < width; x++) {
      const k = weights[x];
      for (let b = 0; b < c; b++) {
        let ss = 1 << (PRECISION - 1);
        for (let i = 0; i < k.length; i++) ss += img.data[row + (start[x] + i) * c + b] * k[i];
        out[(y * width + x) * c + b] = clip8(ss);
      }
    }
  }
  return { data: out, width, height: img.height, channels: c };
}

function resampleVertical(img: Raw, height: number, resample: Resample): Raw {
  const { start, weights } = coefficients(img.height, height, resample);
  const c = img.channels;
  const stride = img.width * c;
  const out = Buffer.alloc(img.width * height * c);
  for (let y = 0; y < height; y++) {
    const k = weights[y];
    for (let x = 0; x < stride; x++) {
      let ss = 1 << (PRECISION - 1);
      for (let i = 0; i < k.length; i++) ss += img.data[(start[y] + i) * stride + x] * k[i];
      out[y * stride + x] = clip8(ss);
    }
  }
  return { data: out, width: img.width, height, channels: c };
}

/** Pillow's alpha premultiplication (RGBA → RGBa, LA → La) and its inverse, around a resize. */
function premultiply(img: Raw, inverse: boolean): Raw {
  const c = img.channels;
  const out = Buffer.from(img.data);
  for (let o = 0; o < out.length; o += c) {
    const a = out[o + c - 1];
    for (let b = 0; b < c - 1; b++) {
      if (!inverse) {
        const t = out[o + b] * a + 128;
        out[o + b] = ((t >> 8) + t) >> 8;
      } else if (a !== 0 && a !== 255) out[o + b] = Math.min(255, Math.trunc((255 * out[o + b]) / a));
    }
  }
  return { ...img, data: out };
}

/** Image.resize(size, resample): a copy when the size is unchanged; a palette image by nearest neighbour; an image
 * with alpha premultiplied around the passes; otherwise horizontal then vertical fixed-point passes. */
export function resize(
  img: PillowImage,
  width: number,
  height: number,
  resample: Resample = 'bicubic',
): PillowImage {
  if (img.width === width && img.height === height) return img;
  if (img.mode === 'P') {
    const out = Buffer.alloc(width * height * img.channels);
    const [sx, sy] = [img.width / width, img.height / height];
    for (let y = 0; y < height; y++) {
      const yi = Math.min(img.height - 1, Math.floor((y + 0.5) * sy));
      for (let x = 0; x < width; x++) {
        const xi = Math.min(img.width - 1, Math.floor((x + 0.5) * sx));
        img.data.copy(
          out,
          (y * width + x) * img.channels,
          (yi * img.width + xi) * img.channels,
          (yi * img.width + xi + 1) * img.channels,
        );
      }
    }
    return { data: out, width, height, channels: img.channels, mode: 'P' };
  }
  const alpha = img.channels === 2 || img.channels === 4;
  let r: Raw = alpha ? premultiply(img, false) : img;
  if (width !== r.width) r = resampleHorizontal(r, width, resample);
  if (height !== r.height) r = resampleVertical(r, height, resample);
  if (alpha) r = premultiply(r, true);
  return { ...r, mode: img.mode };
}

/** Image.crop(box) with box = [left, top, right, bottom). */
export function crop(img: PillowImage, [x0, y0, x1, y1]: [number, number, number, number]): PillowImage {
  const [w, h, c] = [x1 - x0, y1 - y0, img.channels];
  const out = Buffer.alloc(w * h * c);
  for (let y = 0; y < h; y++)
    img.data.copy(out, y * w * c, ((y0 + y) * img.width + x0) * c, ((y0 + y) * img.width + x1) * c);
  return { data: out, width: w, height: h, channels: c, mode: img.mode };
}

/** The alpha band's getbbox(): the box of pixels with alpha > 0, or undefined when all are transparent. */
export function alphaBox(img: Raw): [number, number, number, number] | undefined {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (img.data[(y * img.width + x) * img.channels + img.channels - 1] === 0) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? undefined : [x0, y0, x1 + 1, y1 + 1];
}

/**
 * OSWorld's structure_check_by_ssim (current gimp.py): false when either image is under 7 pixels on a side or the
 * sizes differ; otherwise both are converted to RGB and scikit-image's SSIM over the three channels (7×7 windows)
 * must reach `threshold`. True, or the reason it is not.
 */
export function structureSimilar(a: Raw, b: Raw, threshold = 0.9): true | string {
  if (Math.min(a.width, a.height, b.width, b.height) < 7)
    return `an image is under 7 pixels on a side (${a.width}×${a.height}, ${b.width}×${b.height})`;
  if (a.width !== b.width || a.height !== b.height)
    return `sizes differ: ${a.width}×${a.height} vs ${b.width}×${b.height}`;
  const s = skimageSsim(toRgb(a), toRgb(b));
  if (typeof s === 'string') return s;
  return s >= threshold || `SSIM ${s.toFixed(4)} < ${threshold}`;
}
