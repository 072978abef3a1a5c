// Screenshots as prompt images: a data URL (PNG or JPEG, base64), downscaled to a maximum width when asked,
// with the factor that maps the image's pixels back to screen pixels.
import sharp from 'sharp';
import type { Screenshot } from '../env/environment';

export interface PromptImage {
  dataUrl: string;
  width: number;
  height: number;
  /** Multiply a coordinate in this image by it to get screen pixels. */
  toScreen: number;
}

export interface PromptImageOptions {
  /** Downscale images wider than this (keeping the aspect ratio). */
  maxWidth?: number;
  /** Encoding sent to the model; default: the screenshot's own. */
  format?: 'png' | 'jpeg';
  /** JPEG quality, default 85. */
  quality?: number;
}

export async function toPromptImage(
  shot: Screenshot,
  options: PromptImageOptions = {},
): Promise<PromptImage> {
  const format = options.format ?? shot.format;
  const resize = options.maxWidth !== undefined && options.maxWidth > 0 && shot.width > options.maxWidth;
  if (!resize && format === shot.format) {
    return {
      dataUrl: `data:image/${format};base64,${shot.data.toString('base64')}`,
      width: shot.width,
      height: shot.height,
      toScreen: shot.toScreen,
    };
  }
  let pipeline = sharp(shot.data);
  if (resize) pipeline = pipeline.resize({ width: options.maxWidth });
  pipeline = format === 'jpeg' ? pipeline.jpeg({ quality: options.quality ?? 85 }) : pipeline.png();
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return {
    dataUrl: `data:image/${format};base64,${data.toString('base64')}`,
    width: info.width,
    height: info.height,
    toScreen: shot.toScreen * (shot.width / info.width),
  };
}

/**
 * Rescales the `position` and `size` cells of a linearised accessibility table (cells like `(120, 48)`) from
 * screen pixels into image pixels, so the table and a downscaled screenshot speak the same coordinates.
 */
export function rescaleTable(table: string, toScreen: number): string {
  if (toScreen === 1) return table;
  const lines = table.split('\n');
  const header = lines[0]?.split('\t') ?? [];
  const columns = header.map((h, i) => (/^(position|size)/i.test(h.trim()) ? i : -1)).filter((i) => i >= 0);
  if (!columns.length) return table;
  const cell = /^\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)$/;
  return [
    lines[0],
    ...lines.slice(1).map((line) => {
      const cells = line.split('\t');
      for (const c of columns) {
        const m = cell.exec(cells[c]?.trim() ?? '');
        if (m) cells[c] = `(${Math.round(Number(m[1]) / toScreen)}, ${Math.round(Number(m[2]) / toScreen)})`;
      }
      return cells.join('\t');
    }),
  ].join('\n');
}
