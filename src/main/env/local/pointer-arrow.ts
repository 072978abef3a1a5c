// The mouse pointer drawn into a grabbed screen (OSWorld's /screenshot shows it; an X grab does not): a white
// arrow with a black edge whose tip is the pointer, painted straight into the RGBA pixels before the one encode.

/** The arrow's outline (12×19 px, tip at 0,0). */
const POLYGON: [number, number][] = [
  [0.5, 0.5],
  [0.5, 16],
  [4.5, 12.2],
  [7.2, 18.2],
  [9.4, 17.2],
  [6.8, 11.4],
  [11.5, 11.4],
];
export const ARROW_WIDTH = 12;
export const ARROW_HEIGHT = 19;

function inside(x: number, y: number): boolean {
  let hit = false;
  for (let i = 0, j = POLYGON.length - 1; i < POLYGON.length; j = i++) {
    const [xi, yi] = POLYGON[i];
    const [xj, yj] = POLYGON[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

/** Per pixel: 0 outside, 1 edge (black), 2 fill (white); the same every call. */
const MASK: Uint8Array = (() => {
  const fill = new Uint8Array(ARROW_WIDTH * ARROW_HEIGHT);
  for (let y = 0; y < ARROW_HEIGHT; y++)
    for (let x = 0; x < ARROW_WIDTH; x++) fill[y * ARROW_WIDTH + x] = inside(x + 0.5, y + 0.5) ? 1 : 0;
  const at = (x: number, y: number) =>
    x < 0 || y < 0 || x >= ARROW_WIDTH || y >= ARROW_HEIGHT ? 0 : fill[y * ARROW_WIDTH + x];
  const mask = new Uint8Array(fill.length);
  for (let y = 0; y < ARROW_HEIGHT; y++) {
    for (let x = 0; x < ARROW_WIDTH; x++) {
      if (!at(x, y)) continue;
      mask[y * ARROW_WIDTH + x] = at(x - 1, y) && at(x + 1, y) && at(x, y - 1) && at(x, y + 1) ? 2 : 1;
    }
  }
  return mask;
})();

/** Paints the arrow with its tip at (px, py) into RGBA `pixels` of `width`×`height`; clipped at the edges. */
export function paintPointer(pixels: Buffer, width: number, height: number, px: number, py: number): void {
  const left = Math.round(px);
  const top = Math.round(py);
  for (let y = 0; y < ARROW_HEIGHT; y++) {
    const sy = top + y;
    if (sy < 0 || sy >= height) continue;
    for (let x = 0; x < ARROW_WIDTH; x++) {
      const m = MASK[y * ARROW_WIDTH + x];
      const sx = left + x;
      if (!m || sx < 0 || sx >= width) continue;
      const i = (sy * width + sx) * 4;
      const v = m === 1 ? 0 : 255;
      pixels[i] = v;
      pixels[i + 1] = v;
      pixels[i + 2] = v;
      pixels[i + 3] = 255;
    }
  }
}
