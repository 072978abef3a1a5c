// Set-of-Mark: numbered boxes drawn on the screenshot around accessibility elements, so a model can say
// "click 14". Boxes come in screen pixels and are drawn scaled onto the (possibly resized) image; a box
// over one uniform colour shows nothing and gets no number. Numbers are 1..N in the order of `nodes`.
import sharp from 'sharp';
import type { AccessibilityNode, Screenshot } from '../env/environment';
import type { Mark } from './observation';

/** Dark, mutually distinct colours: white digits stay readable on all of them. */
export const MARK_COLOURS = [
  '#e6194b',
  '#3cb44b',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#008080',
  '#9a6324',
  '#800000',
  '#000075',
  '#808000',
  '#f032e6',
  '#2f4f4f',
];

export function markColour(id: number): string {
  return MARK_COLOURS[(id - 1) % MARK_COLOURS.length];
}

export interface SetOfMark {
  image: Screenshot;
  marks: Mark[];
  /** The nodes that got a mark, in mark order (`marks[i]` is `nodes[i]`). */
  nodes: AccessibilityNode[];
}

interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/** Whether every pixel of the image rectangle [x0,x1)×[y0,y1) has one colour. */
function uniform(raw: Raw, x0: number, y0: number, x1: number, y1: number): boolean {
  const { data, width, channels } = raw;
  const first = (y0 * width + x0) * channels;
  for (let y = y0; y < y1; y++) {
    let i = (y * width + x0) * channels;
    for (let x = x0; x < x1; x++, i += channels) {
      for (let c = 0; c < channels; c++) if (data[i + c] !== data[first + c]) return false;
    }
  }
  return true;
}

/** Image-pixel rectangle of a screen-pixel box, clipped to the image; undefined when nothing is left. */
function imageRect(node: AccessibilityNode, toScreen: number, width: number, height: number) {
  const s = toScreen > 0 ? toScreen : 1;
  const x0 = Math.max(0, Math.floor(node.x / s));
  const y0 = Math.max(0, Math.floor(node.y / s));
  const x1 = Math.min(width, Math.ceil((node.x + node.width) / s));
  const y1 = Math.min(height, Math.ceil((node.y + node.height) / s));
  return x1 > x0 && y1 > y0 ? { x0, y0, x1, y1 } : undefined;
}

/** Where a mark's number sits: just above the box's top-left corner (the element stays readable), or inside
 * that corner when the box touches the top of the image. */
function labelBox(r: { x0: number; y0: number }, width: number, h: number, imageWidth: number) {
  const y = r.y0 >= h ? r.y0 - h : r.y0;
  const x = Math.min(r.x0, Math.max(0, imageWidth - width));
  return { x, y, w: width, h };
}

/** Bold digits 0-9 rasterised once per size (coverage masks), blitted straight into the image buffer. */
interface Glyphs {
  height: number;
  digits: { width: number; alpha: Uint8Array }[];
}
const glyphCache = new Map<number, Promise<Glyphs>>();

function glyphs(font: number): Promise<Glyphs> {
  let g = glyphCache.get(font);
  if (!g) {
    g = renderGlyphs(font);
    glyphCache.set(font, g);
  }
  return g;
}

async function renderGlyphs(font: number): Promise<Glyphs> {
  const height = Math.ceil(font * 1.25);
  const cell = Math.ceil(font * 0.75);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${cell * 10}" height="${height}">` +
    Array.from(
      { length: 10 },
      (_, d) =>
        `<text x="${d * cell}" y="${Math.round(font * 0.95)}" font-family="DejaVu Sans, Liberation Sans, sans-serif" ` +
        `font-weight="bold" font-size="${font}" fill="#fff">${d}</text>`,
    ).join('') +
    `</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const digits = Array.from({ length: 10 }, (_, d) => {
    // each digit's own advance: from its cell's left edge to its last inked column, plus one
    let last = 0;
    for (let x = 0; x < cell; x++)
      for (let y = 0; y < height; y++) if (data[y * info.width + d * cell + x] > 0) last = x;
    const width = last + 2;
    const alpha = new Uint8Array(width * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width && x < cell; x++) alpha[y * width + x] = data[y * info.width + d * cell + x];
    return { width, alpha };
  });
  return { height, digits };
}

function fillRect(raw: Raw, x0: number, y0: number, x1: number, y1: number, rgb: number[]): void {
  const xa = Math.max(0, x0), ya = Math.max(0, y0), xb = Math.min(raw.width, x1), yb = Math.min(raw.height, y1); // prettier-ignore
  for (let y = ya; y < yb; y++) {
    let i = (y * raw.width + xa) * raw.channels;
    for (let x = xa; x < xb; x++, i += raw.channels) {
      raw.data[i] = rgb[0];
      raw.data[i + 1] = rgb[1];
      raw.data[i + 2] = rgb[2];
      if (raw.channels === 4) raw.data[i + 3] = 255;
    }
  }
}

function strokeRect(
  raw: Raw,
  r: { x0: number; y0: number; x1: number; y1: number },
  width: number,
  rgb: number[],
): void {
  fillRect(raw, r.x0, r.y0, r.x1, r.y0 + width, rgb);
  fillRect(raw, r.x0, r.y1 - width, r.x1, r.y1, rgb);
  fillRect(raw, r.x0, r.y0, r.x0 + width, r.y1, rgb);
  fillRect(raw, r.x1 - width, r.y0, r.x1, r.y1, rgb);
}

/** White digits of `id` at (x, y), blended by their coverage over what is there. */
function drawNumber(raw: Raw, g: Glyphs, id: number, x: number, y: number): void {
  for (const ch of String(id)) {
    const glyph = g.digits[ch.charCodeAt(0) - 48];
    for (let gy = 0; gy < g.height; gy++) {
      const py = y + gy;
      if (py < 0 || py >= raw.height) continue;
      for (let gx = 0; gx < glyph.width; gx++) {
        const px = x + gx;
        const a = glyph.alpha[gy * glyph.width + gx];
        if (!a || px < 0 || px >= raw.width) continue;
        const i = (py * raw.width + px) * raw.channels;
        for (let c = 0; c < 3; c++)
          raw.data[i + c] = Math.round((255 * a + raw.data[i + c] * (255 - a)) / 255);
      }
    }
    x += glyph.width;
  }
}

/** The marks' font size on an image `height` pixels high. */
function fontFor(height: number): number {
  return Math.max(11, Math.min(18, Math.round(height / 70)));
}

/** Renders the digits for images `height` pixels high now (sharp's first use), not in the first observation. */
export async function warmSetOfMark(height: number): Promise<void> {
  await glyphs(fontFor(height));
}

const hexRgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** A screenshot's pixels, decoded for drawing marks on (drawSetOfMark draws on them in place). */
export type DecodedShot = Raw;

/** Decodes `image` for drawSetOfMark: may start before the nodes are known (while the tree is collected). */
export async function decodeShot(image: Screenshot): Promise<DecodedShot> {
  const decoded = await sharp(image.data).raw().toBuffer({ resolveWithObject: true });
  return {
    data: decoded.data,
    width: decoded.info.width,
    height: decoded.info.height,
    channels: decoded.info.channels,
  };
}

/**
 * Draws the marks for `nodes` (in screen pixels) on `image` and returns the tagged image (same format)
 * with the marks. Nodes with an empty box on the image, or whose box covers one uniform colour, are skipped.
 */
export async function drawSetOfMark(
  image: Screenshot,
  nodes: AccessibilityNode[],
  decoded?: Promise<DecodedShot>,
): Promise<SetOfMark> {
  const raw: Raw = await (decoded ?? decodeShot(image));
  const g = await glyphs(fontFor(raw.height));
  const stroke = raw.width >= 1600 ? 2 : 1;
  const marks: Mark[] = [];
  const drawn: AccessibilityNode[] = [];
  const places: { r: { x0: number; y0: number; x1: number; y1: number }; id: number }[] = [];
  // decide every mark on the untouched screenshot first: a box drawn earlier must not make a later one non-uniform
  for (const node of nodes) {
    const r = imageRect(node, image.toScreen, raw.width, raw.height);
    if (!r || uniform(raw, r.x0, r.y0, r.x1, r.y1)) continue;
    const id = marks.length + 1;
    marks.push({
      id,
      x: node.x,
      y: node.y,
      width: node.width,
      height: node.height,
      label: `${node.role}\t${node.name}`,
    });
    drawn.push(node);
    places.push({ r, id });
  }
  if (marks.length === 0) return { image, marks, nodes: drawn };
  for (const { r, id } of places) strokeRect(raw, r, stroke, hexRgb(markColour(id)));
  for (const { r, id } of places) {
    const textWidth = [...String(id)].reduce((w, ch) => w + g.digits[ch.charCodeAt(0) - 48].width, 0);
    const l = labelBox(r, textWidth + 4, g.height + 1, raw.width);
    fillRect(raw, l.x, l.y, l.x + l.w, l.y + l.h, hexRgb(markColour(id)));
    drawNumber(raw, g, id, l.x + 2, l.y + 1);
  }
  const composed = sharp(raw.data, {
    raw: { width: raw.width, height: raw.height, channels: raw.channels as 3 | 4 },
  });
  const data =
    image.format === 'jpeg'
      ? await composed.jpeg({ quality: 90 }).toBuffer()
      : await composed.png({ compressionLevel: 2, adaptiveFiltering: false }).toBuffer();
  return { image: { ...image, data, width: raw.width, height: raw.height }, marks, nodes: drawn };
}

/** `tag_N` and `index_N` → the centre of mark N in screen pixels (what OSWorld binds for its SoM agents). */
export function markBindings(marks: Mark[]): Record<string, { x: number; y: number }> {
  const bindings: Record<string, { x: number; y: number }> = {};
  for (const m of marks) {
    const centre = { x: Math.floor(m.x + m.width / 2), y: Math.floor(m.y + m.height / 2) };
    bindings[`tag_${m.id}`] = centre;
    bindings[`index_${m.id}`] = centre;
  }
  return bindings;
}
