// FastDTW (Salvador & Chan) as the Python `fastdtw` package computes it, radius 1: both series halved (pairs
// averaged, an odd last element dropped) until one is shorter than radius + 2, exact DTW there, then each finer
// level searched only within the coarse path widened by the radius. Ties between the three predecessors go to
// (i−1, j), then (i, j−1), then (i−1, j−1), as Python's min() keeps the first — so path lengths agree too.

export type Distance<T> = (a: T, b: T) => number;

export interface DtwResult {
  distance: number;
  /** Aligned index pairs, first to last. */
  path: [number, number][];
}

/** Exact DTW restricted to `window` (cells in row-major order; undefined = every cell). */
function windowedDtw<T>(x: T[], y: T[], window: [number, number][] | undefined, dist: Distance<T>): DtwResult {
  const lx = x.length;
  const ly = y.length;
  const stride = ly + 1;
  const cost = new Map<number, number>();
  const from = new Map<number, number>();
  cost.set(0, 0);
  from.set(0, 0);
  const at = (i: number, j: number) => cost.get(i * stride + j) ?? Infinity;
  const visit = (i: number, j: number) => {
    const dt = dist(x[i - 1], y[j - 1]);
    let best = at(i - 1, j) + dt;
    let prev = (i - 1) * stride + j;
    const left = at(i, j - 1) + dt;
    if (left < best) {
      best = left;
      prev = i * stride + j - 1;
    }
    const diag = at(i - 1, j - 1) + dt;
    if (diag < best) {
      best = diag;
      prev = (i - 1) * stride + j - 1;
    }
    cost.set(i * stride + j, best);
    from.set(i * stride + j, prev);
  };
  if (window) for (const [i, j] of window) visit(i + 1, j + 1);
  else for (let i = 1; i <= lx; i++) for (let j = 1; j <= ly; j++) visit(i, j);
  const path: [number, number][] = [];
  let key = lx * stride + ly;
  while (key !== 0) {
    const i = Math.floor(key / stride);
    const j = key % stride;
    path.push([i - 1, j - 1]);
    const prev = from.get(key);
    if (prev === undefined) break;
    key = prev;
  }
  path.reverse();
  return { distance: at(lx, ly), path };
}

function halve(x: Float64Array[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (let i = 0; i + 1 < x.length; i += 2) out.push(x[i].map((v, k) => (v + x[i + 1][k]) / 2));
  return out;
}

/** The cells of the finer level: the coarse path widened by `radius`, each cell split in four, kept per row as
 * the first contiguous run from where the previous row's run began. */
function expandWindow(path: [number, number][], lx: number, ly: number, radius: number): [number, number][] {
  const stride = 2 * (ly + radius + 2);
  const widened = new Set<string>();
  for (const [i, j] of path) for (let a = -radius; a <= radius; a++) for (let b = -radius; b <= radius; b++) widened.add(`${i + a},${j + b}`);
  const cells = new Set<number>();
  for (const c of widened) {
    const [i, j] = c.split(',').map(Number);
    for (const [a, b] of [[2 * i, 2 * j], [2 * i, 2 * j + 1], [2 * i + 1, 2 * j], [2 * i + 1, 2 * j + 1]]) if (a >= 0 && b >= 0) cells.add(a * stride + b);
  }
  const window: [number, number][] = [];
  let startJ = 0;
  for (let i = 0; i < lx; i++) {
    let newStart: number | undefined;
    for (let j = startJ; j < ly; j++) {
      if (cells.has(i * stride + j)) {
        window.push([i, j]);
        if (newStart === undefined) newStart = j;
      } else if (newStart !== undefined) break;
    }
    startJ = newStart ?? startJ;
  }
  return window;
}

/** fastdtw(x, y, radius, dist): the approximate DTW distance and its path. */
export function fastDtw(x: Float64Array[], y: Float64Array[], dist: Distance<Float64Array>, radius = 1): DtwResult {
  if (x.length < radius + 2 || y.length < radius + 2) return windowedDtw(x, y, undefined, dist);
  const coarse = fastDtw(halve(x), halve(y), dist, radius);
  return windowedDtw(x, y, expandWindow(coarse.path, x.length, y.length, radius), dist);
}
