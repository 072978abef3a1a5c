// The mouse pointer drawn into a screenshot (OSWorld's /screenshot includes it; an X grab does not): a small
// black-edged white arrow whose tip is the pointer position, composited with sharp.
import sharp from 'sharp';

const W = 12;
const H = 19;
const arrowSvg = (w: number, h: number): Buffer =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
      `<path d="M0.5 0.5 L0.5 16 L4.5 12.2 L7.2 18.2 L9.4 17.2 L6.8 11.4 L11.5 11.4 Z" fill="#fff" stroke="#000" stroke-width="1"/></svg>`,
  );

let fullArrow: Promise<Buffer> | undefined;

/** The arrow as PNG, cut to w×h (near the right or bottom edge). */
function arrow(w: number, h: number): Promise<Buffer> {
  if (w === W && h === H) return (fullArrow ??= sharp(arrowSvg(W, H)).png().toBuffer());
  return sharp(arrowSvg(W, H)).extract({ left: 0, top: 0, width: w, height: h }).png().toBuffer();
}

/** `png` with the pointer drawn at (x, y) in image pixels; unchanged when the pointer is off the image. */
export async function drawCursor(png: Buffer, width: number, height: number, x: number, y: number): Promise<Buffer> {
  const left = Math.round(x);
  const top = Math.round(y);
  if (left < 0 || top < 0 || left >= width || top >= height) return png;
  const w = Math.min(W, width - left);
  const h = Math.min(H, height - top);
  return sharp(png)
    .composite([{ input: await arrow(w, h), left, top }])
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
}
