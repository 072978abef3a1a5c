// A cheap difference between two step screenshots: both are shrunk to a small grayscale picture (cached by file,
// size and time), and the share of its cells whose brightness differs by more than 1/16 is the difference.
// Shrinking evens out noise (a blinking caret, anti-aliasing); a window that opened or a page that changed moves
// whole cells. Screens of different sizes (a 1280×800 run beside a 1920×1080 one) are scaled to the same picture,
// stretched when their aspect ratios differ (letterbox bars would count as changed cells), so the same content
// at two sizes scores ~0 (step-diff.test.ts).
import { statSync } from 'node:fs';
import sharp from 'sharp';

/** Size of the compared picture. */
export const DIFF_SIZE = { width: 96, height: 60 } as const;
/** A cell counts as changed when its brightness moved by more than this (0..255). */
const CELL_LEVEL = 16;
/** Two screens differ when more than this share of their cells changed. */
export const SCREEN_DIFF_THRESHOLD = 0.005;

const CACHE_LIMIT = 4000;
const cache = new Map<string, Promise<Uint8Array>>();

/** The shrunk grayscale picture of an image file, from the cache when the file has not changed. */
export function thumbnailOf(file: string): Promise<Uint8Array> {
  const st = statSync(file);
  const key = `${file}\0${st.size}\0${st.mtimeMs}`;
  let hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  hit = sharp(file, { limitInputPixels: 100_000_000 })
    .resize(DIFF_SIZE.width, DIFF_SIZE.height, { fit: 'fill' })
    .grayscale()
    .raw()
    .toBuffer()
    .then((b) => new Uint8Array(b.buffer, b.byteOffset, b.length));
  cache.set(key, hit);
  hit.catch(() => cache.delete(key));
  while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  return hit;
}

/** Share (0..1) of cells that changed between two shrunk pictures of the same size. */
export function changedShare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  if (!n) return 0;
  let changed = 0;
  for (let i = 0; i < n; i++) if (Math.abs(a[i] - b[i]) > CELL_LEVEL) changed++;
  return changed / n;
}

/** The difference of two image files; null when either cannot be read as an image. */
export async function screenDifference(fileA: string, fileB: string): Promise<number | null> {
  try {
    const [a, b] = await Promise.all([thumbnailOf(fileA), thumbnailOf(fileB)]);
    return changedShare(a, b);
  } catch {
    return null;
  }
}
