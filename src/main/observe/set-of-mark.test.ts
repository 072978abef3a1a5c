import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { AccessibilityNode, Screenshot } from '../env/environment';
import { drawSetOfMark, markBindings, markColour } from './set-of-mark';

const W = 400;
const H = 300;

/** A white 400×300 screen with a blue bar at (50,50) 100×40 and a checkerboard at (200,50) 80×80. */
async function screen(scale = 1, format: 'png' | 'jpeg' = 'png'): Promise<Screenshot> {
  const checker = Buffer.alloc(80 * 80 * 3);
  for (let y = 0; y < 80; y++)
    for (let x = 0; x < 80; x++)
      checker.fill(((x >> 3) + (y >> 3)) % 2 ? 0 : 255, (y * 80 + x) * 3, (y * 80 + x) * 3 + 3);
  let img = sharp({ create: { width: W, height: H, channels: 3, background: '#ffffff' } }).composite([
    { input: { create: { width: 100, height: 40, channels: 3, background: '#0000ff' } }, left: 50, top: 50 },
    { input: checker, raw: { width: 80, height: 80, channels: 3 }, left: 200, top: 50 },
  ]);
  if (scale !== 1) img = sharp(await img.png().toBuffer()).resize(W / scale, H / scale);
  const data = format === 'png' ? await img.png().toBuffer() : await img.jpeg({ quality: 95 }).toBuffer();
  return { data, format, width: W / scale, height: H / scale, toScreen: scale };
}

const node = (name: string, x: number, y: number, width: number, height: number): AccessibilityNode => ({
  role: 'push-button',
  name,
  x,
  y,
  width,
  height,
  states: ['enabled', 'showing', 'visible'],
});

const NODES = [
  node('bar', 40, 40, 120, 60), // around the blue bar
  node('blank', 250, 200, 50, 50), // plain white: nothing to see
  node('checker', 200, 50, 80, 80),
  node('gone', 500, 400, 30, 30), // off the image
];

async function pixels(shot: Screenshot) {
  const { data, info } = await sharp(shot.data).raw().toBuffer({ resolveWithObject: true });
  return (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    return [data[i], data[i + 1], data[i + 2]];
  };
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

describe('drawSetOfMark', () => {
  it('numbers the visible boxes 1..N, skipping boxes over one uniform colour and boxes off the image', async () => {
    const { marks, nodes, image } = await drawSetOfMark(await screen(), NODES);
    expect(marks.map((m) => [m.id, m.label])).toEqual([
      [1, 'push-button\tbar'],
      [2, 'push-button\tchecker'],
    ]);
    expect(nodes.map((n) => n.name)).toEqual(['bar', 'checker']);
    expect(marks[0]).toMatchObject({ x: 40, y: 40, width: 120, height: 60 });
    expect(image.format).toBe('png');
    expect([image.width, image.height]).toEqual([W, H]);
  });

  it('draws each box in its own colour where the element is, with a readable number, and leaves the rest alone', async () => {
    const { image } = await drawSetOfMark(await screen(), NODES);
    const px = await pixels(image);
    expect(markColour(1)).not.toBe(markColour(2));
    // left and bottom edges of box 1 (40..160 × 40..100), right edge of box 2 (200..280 × 50..130)
    expect(px(40, 80)).toEqual(rgb(markColour(1)));
    expect(px(100, 99)).toEqual(rgb(markColour(1)));
    expect(px(279, 100)).toEqual(rgb(markColour(2)));
    // inside the boxes, the screen is untouched
    expect(px(100, 70)).toEqual([0, 0, 255]);
    // the skipped blank box has nothing drawn
    for (const [x, y] of [
      [250, 200],
      [275, 225],
      [299, 249],
    ])
      expect(px(x, y)).toEqual([255, 255, 255]);
    // the number tag just above box 1's top-left corner: white digit strokes on the mark colour
    let white = 0;
    let colour = 0;
    for (let y = 24; y < 40; y++)
      for (let x = 40; x < 52; x++) {
        const [r, g, b] = px(x, y);
        if (r > 230 && g > 230 && b > 230) white++;
        if (Math.abs(r - 0xe6) < 8 && Math.abs(g - 0x19) < 8 && Math.abs(b - 0x4b) < 8) colour++;
      }
    expect(white).toBeGreaterThan(8);
    expect(colour).toBeGreaterThan(40);
  });

  it('draws screen-pixel boxes scaled onto a resized screenshot', async () => {
    const shot = await screen(2);
    const { image, marks } = await drawSetOfMark(shot, NODES);
    expect(marks.map((m) => m.label.split('\t')[1])).toEqual(['bar', 'checker']);
    expect(marks[0]).toMatchObject({ x: 40, y: 40, width: 120, height: 60 }); // still screen pixels
    expect(image.toScreen).toBe(2);
    const px = await pixels(image);
    expect(px(20, 40)).toEqual(rgb(markColour(1))); // box 1's left edge at x = 40 / 2
    expect(px(60, 35)).toEqual([0, 0, 255]); // the bar's middle, untouched
    expect(px(139, 50)).toEqual(rgb(markColour(2))); // box 2's right edge at (280 - 1) / 2
  });

  it('keeps a JPEG screenshot a JPEG', async () => {
    const { image } = await drawSetOfMark(await screen(1, 'jpeg'), NODES);
    expect(image.format).toBe('jpeg');
    expect((await sharp(image.data).metadata()).format).toBe('jpeg');
  });

  it('returns the screenshot as it was when nothing gets a mark', async () => {
    const shot = await screen();
    const r = await drawSetOfMark(shot, [NODES[1]]);
    expect(r.marks).toEqual([]);
    expect(r.image.data.equals(shot.data)).toBe(true);
  });
});

describe('markBindings', () => {
  it('binds tag_N and index_N to the centre of mark N in screen pixels', () => {
    const b = markBindings([
      { id: 1, x: 40, y: 40, width: 120, height: 60, label: '' },
      { id: 2, x: 201, y: 50, width: 79, height: 81, label: '' },
    ]);
    expect(b).toEqual({
      tag_1: { x: 100, y: 70 },
      index_1: { x: 100, y: 70 },
      tag_2: { x: 240, y: 90 },
      index_2: { x: 240, y: 90 },
    });
  });
});
