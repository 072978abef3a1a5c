// Drawing a replay video's frames in Node (sharp + SVG overlays): the screenshot fitted to the frame, the action's
// click mark, a zoom toward the click, a caption with the step number and the model's thought, a verdict card.
import sharp from 'sharp';

export interface FrameSize {
  width: number;
  height: number;
}

/** A point in frame pixels. */
export interface Point {
  x: number;
  y: number;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, ' '); // eslint-disable-line no-control-regex

/** Text cut into at most `lines` lines of about `perLine` characters, the last one ending in … when cut. */
export function wrap(text: string, perLine: number, lines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const out: string[] = [];
  let cur = '';
  for (const w of words) {
    const next = cur ? `${cur} ${w}` : w;
    if (next.length <= perLine) cur = next;
    else {
      if (cur) out.push(cur);
      cur = w.length > perLine ? w.slice(0, perLine - 1) + '…' : w;
    }
    if (out.length === lines) break;
  }
  if (out.length < lines && cur) out.push(cur);
  const cut = out.slice(0, lines);
  const shown = cut.join(' ').length;
  if (shown < text.replace(/\s+/g, ' ').trim().length && cut.length)
    cut[cut.length - 1] = cut[cut.length - 1].replace(/.?$/, '…');
  return cut;
}

/** The caption bar (two lines: step and action, the thought) and the click mark, as one SVG over the frame. */
function overlaySvg(size: FrameSize, caption: { title: string; thought?: string }, mark?: Point): Buffer {
  const font = Math.max(12, Math.round(size.width / 60));
  const lineH = Math.round(font * 1.35);
  const thought = caption.thought ? wrap(caption.thought, Math.floor(size.width / (font * 0.56)), 2) : [];
  const barH = lineH * (1 + thought.length) + font;
  const y0 = size.height - barH;
  const texts = [
    `<text x="${font}" y="${y0 + lineH}" font-weight="bold">${esc(caption.title)}</text>`,
    ...thought.map(
      (l, i) => `<text x="${font}" y="${y0 + lineH * (i + 2)}" font-style="italic">${esc(l)}</text>`,
    ),
  ];
  const r = Math.max(10, Math.round(size.width / 70));
  const markSvg = mark
    ? `<circle cx="${mark.x}" cy="${mark.y}" r="${r}" stroke="#ff2d2d" stroke-width="${Math.max(3, r / 4)}" fill="#ff2d2d" fill-opacity="0.18"/>` +
      `<circle cx="${mark.x}" cy="${mark.y}" r="3" fill="#ff2d2d"/>`
    : '';
  return Buffer.from(
    `<svg width="${size.width}" height="${size.height}" xmlns="http://www.w3.org/2000/svg">${markSvg}` +
      `<rect x="0" y="${y0}" width="${size.width}" height="${barH}" fill="black" fill-opacity="0.7"/>` +
      `<g font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${font}" fill="white">${texts.join('')}</g></svg>`,
  );
}

/** A screenshot file (or a grey screen when there is none) fitted into the frame, as raw RGB. */
export async function baseImage(file: string | undefined, size: FrameSize): Promise<Buffer> {
  const grey = () =>
    sharp({ create: { width: size.width, height: size.height, channels: 3, background: '#3a3a3a' } });
  const fit = (img: ReturnType<typeof sharp>) =>
    img
      .resize(size.width, size.height, { fit: 'contain', background: '#000000' })
      .removeAlpha()
      .raw()
      .toBuffer();
  if (!file) return fit(grey());
  // A screenshot of someone else's run may be broken or not an image at all: the step is shown on grey.
  return fit(sharp(file)).catch(() => fit(grey()));
}

const raw = (size: FrameSize) => ({ raw: { width: size.width, height: size.height, channels: 3 as const } });

/** The base with the caption and the mark drawn: one frame, raw RGB. */
export async function captioned(
  base: Buffer,
  size: FrameSize,
  caption: { title: string; thought?: string },
  mark?: Point,
): Promise<Buffer> {
  return sharp(base, raw(size))
    .composite([{ input: overlaySvg(size, caption, mark) }])
    .removeAlpha()
    .raw()
    .toBuffer();
}

/**
 * The base zoomed `factor` times toward `at` (the crop window centred on it, kept inside the picture), with the
 * caption and the mark where the click lands in the zoomed picture.
 */
export async function zoomed(
  base: Buffer,
  size: FrameSize,
  at: Point,
  factor: number,
  caption: { title: string; thought?: string },
): Promise<Buffer> {
  const w = Math.max(2, Math.round(size.width / factor));
  const h = Math.max(2, Math.round(size.height / factor));
  const left = Math.min(Math.max(0, Math.round(at.x - w / 2)), size.width - w);
  const top = Math.min(Math.max(0, Math.round(at.y - h / 2)), size.height - h);
  const crop = await sharp(base, raw(size))
    .extract({ left, top, width: w, height: h })
    .resize(size.width, size.height)
    .raw()
    .toBuffer();
  const mark = {
    x: Math.round(((at.x - left) * size.width) / w),
    y: Math.round(((at.y - top) * size.height) / h),
  };
  return captioned(crop, size, caption, mark);
}

/** The closing card: the last screen dimmed, the verdict in large letters, the details below. */
export async function verdictCard(
  base: Buffer,
  size: FrameSize,
  verdict: { passed: boolean | undefined; headline: string; details: string[] },
): Promise<Buffer> {
  const big = Math.max(24, Math.round(size.width / 18));
  const small = Math.max(12, Math.round(size.width / 55));
  const color = verdict.passed === undefined ? '#dddddd' : verdict.passed ? '#38d36b' : '#ff4d4d';
  const cy = Math.round(size.height / 2);
  const svg =
    `<svg width="${size.width}" height="${size.height}" xmlns="http://www.w3.org/2000/svg">` +
    `<rect width="${size.width}" height="${size.height}" fill="black" fill-opacity="0.72"/>` +
    `<g font-family="DejaVu Sans, Liberation Sans, sans-serif" text-anchor="middle">` +
    `<text x="${size.width / 2}" y="${cy}" font-size="${big}" font-weight="bold" fill="${color}">${esc(verdict.headline)}</text>` +
    verdict.details
      .map(
        (d, i) =>
          `<text x="${size.width / 2}" y="${cy + big * 0.6 + small * 1.5 * (i + 1)}" font-size="${small}" fill="white">${esc(d)}</text>`,
      )
      .join('') +
    `</g></svg>`;
  return sharp(base, raw(size))
    .composite([{ input: Buffer.from(svg) }])
    .removeAlpha()
    .raw()
    .toBuffer();
}
