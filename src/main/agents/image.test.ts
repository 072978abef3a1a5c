import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rescaleTable, toPromptImage } from './image';

async function shot(width: number, height: number) {
  const data = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
  return { data, format: 'png' as const, width, height, toScreen: 1 };
}

describe('prompt images', () => {
  it('sends a small screenshot as it is, as a PNG data URL', async () => {
    const s = await shot(320, 200);
    const img = await toPromptImage(s, { maxWidth: 640 });
    expect(img.dataUrl).toBe(`data:image/png;base64,${s.data.toString('base64')}`);
    expect(img.toScreen).toBe(1);
  });

  it('downscales to the maximum width as JPEG and keeps the factor back to the screen', async () => {
    const img = await toPromptImage(await shot(1920, 1080), { maxWidth: 960, format: 'jpeg' });
    expect(img.dataUrl.startsWith('data:image/jpeg;base64,')).toBe(true);
    expect([img.width, img.height]).toEqual([960, 540]);
    expect(img.toScreen).toBe(2);
    const meta = await sharp(Buffer.from(img.dataUrl.split(',')[1], 'base64')).metadata();
    expect([meta.format, meta.width]).toEqual(['jpeg', 960]);
  });

  it('rescales the position and size cells of an accessibility table into image pixels', () => {
    const table =
      'tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)\npush-button\tOK\t\t\t\t(400, 300)\t(80, 40)';
    expect(rescaleTable(table, 2).split('\n')[1]).toBe('push-button\tOK\t\t\t\t(200, 150)\t(40, 20)');
    expect(rescaleTable(table, 1)).toBe(table);
  });
});
