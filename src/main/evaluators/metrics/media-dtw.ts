// FastDTW (Salvador & Chan) as the Python `fastdtw` package computes it through its compiled module (the one
// `from fastdtw import fastdtw` loads when it is built, as pip builds it), radius 1: both series halved (pairs
// averaged, an odd last element dropped) until one is shorter than radius + 2, exact DTW there, then each finer
// level searched only within a band of rows around the coarse path. Its quirks are kept, since they decide the
// path length the similarity divides by:
// - a cell's predecessor is the one above (i−1, j) only when strictly cheapest, else the left one (i, j−1) when
//   cheaper than the diagonal, else the diagonal — so ties go to the diagonal;
// - a cell past the previous row's band has neither an upper nor a diagonal predecessor;
// - the band of the rows added past the coarse path's end repeats the last row's band.

export type Distance<T> = (a: T, b: T) => number;

export interface DtwResult {
  distance: number;
  /** Aligned index pairs, first to last. */
  path: [number, number][];
}

/** Each row's band of columns, [low, high] inclusive. */
interface Band {
  low: Int32Array;
  high: Int32Array;
}

const UP = 1;
const LEFT = 2;
const CORNER = 3;

/** DTW over the cells of `band` (every row has one), as the compiled fastdtw's windowed DTW. */
function bandedDtw<T>(x: T[], y: T[], band: Band, dist: Distance<T>): DtwResult {
  const rows = band.low.length;
  const cost: Float64Array[] = [];
  const from: Uint8Array[] = [];
  for (let i = 0; i < rows; i++) {
    const lo = band.low[i];
    const hi = band.high[i];
    const c = new Float64Array(hi - lo + 1);
    const f = new Uint8Array(hi - lo + 1);
    for (let j = lo; j <= hi; j++) {
      const dt = dist(x[i], y[j]);
      if (i === 0 && j === 0) {
        c[0] = dt;
        f[0] = 0;
        continue;
      }
      const pLo = i > 0 ? band.low[i - 1] : 0;
      const pHi = i > 0 ? band.high[i - 1] : -1;
      const left = j > lo ? c[j - 1 - lo] : Infinity;
      const up = i > 0 && j >= pLo && j <= pHi ? cost[i - 1][j - pLo] : Infinity;
      const corner = i > 0 && j >= pLo + 1 && j <= pHi ? cost[i - 1][j - 1 - pLo] : Infinity;
      if (up < left && up < corner) {
        c[j - lo] = up + dt;
        f[j - lo] = UP;
      } else if (left < corner) {
        c[j - lo] = left + dt;
        f[j - lo] = LEFT;
      } else {
        c[j - lo] = corner + dt;
        f[j - lo] = CORNER;
      }
    }
    cost.push(c);
    from.push(f);
  }
  const path: [number, number][] = [];
  let i = rows - 1;
  let j = band.high[i];
  const distance = cost[i][j - band.low[i]];
  for (;;) {
    path.push([i, j]);
    const step = from[i][j - band.low[i]];
    if (step === UP) i--;
    else if (step === LEFT) j--;
    else if (step === CORNER) {
      i--;
      j--;
    } else break;
  }
  path.reverse();
  return { distance, path };
}

function fullBand(lx: number, ly: number): Band {
  return { low: new Int32Array(lx), high: new Int32Array(lx).fill(ly - 1) };
}

/** The finer level's band: each coarse row's path columns widened by `radius` (and by the rows `radius` around
 * it), then doubled in both directions. */
function expandBand(path: [number, number][], lx: number, ly: number, radius: number): Band {
  const [maxX, maxY] = path[path.length - 1];
  const low1 = new Int32Array(maxX + 1);
  const high1 = new Int32Array(maxX + 1);
  let cur = -1;
  for (const [px, py] of path) {
    if (px !== cur) {
      cur = px;
      low1[px] = py;
    }
    high1[px] = py;
  }
  const n2 = maxX + radius + 1;
  const low2 = new Int32Array(n2);
  const high2 = new Int32Array(n2);
  for (let r = 0; r <= maxX; r++) {
    low2[r] = Math.max(0, low1[Math.max(0, r - radius)] - radius);
    high2[r] = Math.min(maxY + radius, high1[Math.min(maxX, r + radius)] + radius);
  }
  for (let r = maxX + 1; r < n2; r++) {
    low2[r] = low2[r - 1];
    high2[r] = high2[r - 1];
  }
  const rows = Math.min(lx, 2 * n2);
  const band: Band = { low: new Int32Array(rows), high: new Int32Array(rows) };
  for (let r = 0; r < rows; r++) {
    band.low[r] = 2 * low2[r >> 1];
    band.high[r] = Math.min(ly - 1, 2 * high2[r >> 1] + 1);
  }
  return band;
}

function halve(x: Float64Array[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (let i = 0; i + 1 < x.length; i += 2) out.push(x[i].map((v, k) => (v + x[i + 1][k]) / 2));
  return out;
}

/** fastdtw(x, y, radius, dist): the approximate DTW distance and its path. */
export function fastDtw(
  x: Float64Array[],
  y: Float64Array[],
  dist: Distance<Float64Array>,
  radius = 1,
): DtwResult {
  if (x.length < radius + 2 || y.length < radius + 2)
    return bandedDtw(x, y, fullBand(x.length, y.length), dist);
  const coarse = fastDtw(halve(x), halve(y), dist, radius);
  return bandedDtw(x, y, expandBand(coarse.path, x.length, y.length, radius), dist);
}
