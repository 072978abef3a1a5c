// OSWorld's GIMP metrics that read pixels directly (family `gimp`; gimp.py): a green background behind a mask, a
// triangle in the middle. Pixels are indexed as OSWorld indexes Pillow's numpy arrays, quirks included.
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { openPillow, type PillowImage } from './images-pillow';

/** numpy's array for the image has a third (band) axis: not for palette (index) or grey images. */
function hasBandAxis(img: PillowImage): boolean {
  return img.mode !== 'P' && img.mode !== 'L';
}

/**
 * check_green_background — `expected` is a mask: wherever its pixel is not black, the result's pixel must have more
 * green than red and more green than blue. OSWorld indexes both arrays as `[x, y]` with x over the width and y over
 * the height, that is row x and column y: pixels are read transposed, and an image that is not square raises
 * IndexError in OSWorld, so it scores 0 here unless a non-green pixel is met first.
 */
async function checkGreenBackground(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const src = await openPillow(result, 'result');
  if (typeof src === 'string') return fail(src);
  const tgt = await openPillow(expected, 'expected');
  if (typeof tgt === 'string') return fail(tgt);
  if (!hasBandAxis(tgt)) return fail(`the mask is a ${tgt.mode} image: OSWorld cannot slice its pixels`);
  for (let x = 0; x < tgt.width; x++) {
    for (let y = 0; y < tgt.height; y++) {
      // numpy [x, y] is row x, column y
      if (x >= tgt.height || y >= tgt.width)
        return fail(
          `OSWorld raises IndexError at mask[${x}, ${y}]: the mask is ${tgt.width}×${tgt.height}, not square`,
        );
      const t = (x * tgt.width + y) * tgt.channels;
      const black = tgt.channels >= 3 && tgt.data[t] === 0 && tgt.data[t + 1] === 0 && tgt.data[t + 2] === 0;
      if (black) continue;
      if (!hasBandAxis(src) || src.channels < 3)
        return fail(`the result is a ${src.mode} image: OSWorld cannot unpack r, g, b`);
      if (x >= src.height || y >= src.width)
        return fail(
          `OSWorld raises IndexError at result[${x}, ${y}]: the result is ${src.width}×${src.height}`,
        );
      const s = (x * src.width + y) * src.channels;
      const [r, g, b] = [src.data[s], src.data[s + 1], src.data[s + 2]];
      if (!(g > r && g > b)) return fail(`background pixel [${x}, ${y}] is not green: RGB ${r}, ${g}, ${b}`);
    }
  }
  return pass('every background pixel is green');
}

/**
 * check_triangle_position — the pixels of the triangle's colour have their centroid within 5% (of the height and of
 * the width) of the image's centre. OSWorld takes the colour second in order of increasing pixel count (the
 * second rarest, all bands including alpha compared), not the second most common; with two colours that is the
 * more common one. Palette and grey images have no band axis: OSWorld raises, 0 here.
 */
async function checkTrianglePosition(result: unknown): Promise<MetricOutcome> {
  const img = await openPillow(result, 'result');
  if (typeof img === 'string') return fail(img);
  if (!hasBandAxis(img)) return fail(`a ${img.mode} image has no band axis: OSWorld raises IndexError`);
  const c = img.channels;
  const n = img.width * img.height;
  // a pixel's bands packed big-endian: numeric order is numpy's lexicographic order of the colours
  const keyAt = (i: number) => {
    let k = 0;
    for (let b = 0; b < c; b++) k = k * 256 + img.data[i * c + b];
    return k;
  };
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const k = keyAt(i);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const colours = [...counts.entries()].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  if (colours.length < 2) return fail('the image has a single colour: OSWorld raises IndexError');
  const key = colours[1][0];
  let [sr, sc, m] = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    if (keyAt(i) !== key) continue;
    sr += Math.floor(i / img.width);
    sc += i % img.width;
    m++;
  }
  const colour = Array.from({ length: c }, (_, b) => Math.floor(key / 256 ** (c - 1 - b)) % 256).join(', ');
  const [cy, cx] = [sr / m, sc / m];
  const ok =
    Math.abs(cy - img.height / 2) < 0.05 * img.height && Math.abs(cx - img.width / 2) < 0.05 * img.width;
  const where = `colour (${colour}) centred at x=${cx.toFixed(1)}, y=${cy.toFixed(1)}`;
  return verdict(
    ok,
    `${where}, within 5% of the centre`,
    `${where}, not within 5% of the centre (${img.width / 2}, ${img.height / 2})`,
  );
}

registerMetricFamily('gimp', {
  check_green_background: checkGreenBackground,
  check_triangle_position: checkTrianglePosition,
});

registerDeparture({
  metric: 'check_triangle_position',
  profile: 'osworld',
  case: 'colours with equal pixel counts',
  why: "numpy's argsort (quicksort) leaves the order of equal counts unspecified; Proctor breaks ties by the colour values",
});
