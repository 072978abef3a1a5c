// Audio and video decoded by Debian's ffmpeg for the media metrics: audio as librosa.load gives it (mono, resampled
// to 22 050 Hz with the SoX resampler at librosa's soxr_hq quality, float32), video frames as OpenCV's
// VideoCapture.read gives them (every decoded frame, no frame-rate conversion, RGB), each frame reduced at once to
// its perceptual hash as imagehash.phash computes it (Pillow's grey conversion and Lanczos resize to 32×32, a
// DCT-II of rows and columns, the 8×8 low frequencies against their median).
import { spawn } from 'node:child_process';

export const LIBROSA_RATE = 22050;

/** The audio of `path` as librosa.load(path) returns it; undefined when ffmpeg cannot decode any. */
export function decodeAudio(path: string, signal?: AbortSignal): Promise<Float32Array | undefined> {
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-i',
    path,
    '-vn',
    '-ac',
    '1',
    '-af',
    `aresample=${LIBROSA_RATE}:resampler=soxr:precision=20`,
    '-f',
    'f32le',
    '-',
  ];
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const p = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'ignore'], signal });
    p.stdout.on('data', (c: Buffer) => chunks.push(c));
    p.on('error', () => resolve(undefined));
    p.on('close', () => {
      const all = Buffer.concat(chunks);
      const n = Math.floor(all.length / 4);
      if (n === 0) return resolve(undefined);
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = all.readFloatLE(i * 4);
      resolve(out);
    });
  });
}

/** Pillow's 8-bit Lanczos resampling along one axis: for each output index, [first input index, integer weights]. */
function lanczosCoefficients(inSize: number, outSize: number): [number, Int32Array][] {
  const scale = inSize / outSize;
  const filterScale = Math.max(1, scale);
  const support = 3 * filterScale;
  const sinc = (x: number) => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));
  const lanczos = (x: number) => (x >= -3 && x < 3 ? sinc(x) * sinc(x / 3) : 0);
  const out: [number, Int32Array][] = [];
  for (let xx = 0; xx < outSize; xx++) {
    const center = (xx + 0.5) * scale;
    const xmin = Math.max(0, Math.trunc(center - support + 0.5));
    const xmax = Math.min(inSize, Math.trunc(center + support + 0.5)) - xmin;
    const w = Array.from({ length: Math.max(0, xmax) }, (_, x) =>
      lanczos((x + xmin - center + 0.5) / filterScale),
    );
    const sum = w.reduce((a, b) => a + b, 0);
    out.push([
      xmin,
      Int32Array.from(w, (k) => {
        const v = sum !== 0 ? k / sum : k;
        return Math.trunc(v * (1 << 22) + (v < 0 ? -0.5 : 0.5));
      }),
    ]);
  }
  return out;
}

const clip8 = (v: number) => Math.min(255, Math.max(0, v >> 22));

/** Pillow's Image.resize((size, size), LANCZOS) of an 8-bit grey image: horizontal pass, then vertical. */
function resizeGrey(px: Uint8Array, w: number, h: number, size: number): Uint8Array {
  const hc = lanczosCoefficients(w, size);
  const tmp = new Uint8Array(size * h);
  for (let y = 0; y < h; y++) {
    for (let xx = 0; xx < size; xx++) {
      const [x0, k] = hc[xx];
      let s = 1 << 21;
      for (let i = 0; i < k.length; i++) s += px[y * w + x0 + i] * k[i];
      tmp[y * size + xx] = clip8(s);
    }
  }
  const vc = lanczosCoefficients(h, size);
  const out = new Uint8Array(size * size);
  for (let yy = 0; yy < size; yy++) {
    const [y0, k] = vc[yy];
    for (let x = 0; x < size; x++) {
      let s = 1 << 21;
      for (let i = 0; i < k.length; i++) s += tmp[(y0 + i) * size + x] * k[i];
      out[yy * size + x] = clip8(s);
    }
  }
  return out;
}

/** imagehash.phash of an RGB frame: 64 bits as booleans, row-major over the 8×8 low frequencies. */
export function phash(rgb: Uint8Array, w: number, h: number): boolean[] {
  const grey = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++)
    grey[i] = (rgb[3 * i] * 19595 + rgb[3 * i + 1] * 38470 + rgb[3 * i + 2] * 7471 + 0x8000) >> 16;
  const n = 32;
  const px = resizeGrey(grey, w, h, n);
  // scipy.fftpack.dct (type II, unnormalised) along axis 0, then axis 1; only the first 8 of each are needed.
  const cos = Array.from({ length: 8 }, (_, k) =>
    Float64Array.from({ length: n }, (_, i) => 2 * Math.cos((Math.PI * k * (2 * i + 1)) / (2 * n))),
  );
  const cols = Array.from({ length: 8 }, () => new Float64Array(n));
  for (let k = 0; k < 8; k++)
    for (let x = 0; x < n; x++) {
      let s = 0;
      for (let y = 0; y < n; y++) s += px[y * n + x] * cos[k][y];
      cols[k][x] = s;
    }
  const low: number[] = [];
  for (let k = 0; k < 8; k++)
    for (let l = 0; l < 8; l++) {
      let s = 0;
      for (let x = 0; x < n; x++) s += cols[k][x] * cos[l][x];
      low.push(s);
    }
  const sorted = [...low].sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  return low.map((v) => v > median);
}

/** Hamming distance of two hashes (ImageHash's `-`). */
export function hashDistance(a: boolean[], b: boolean[]): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) d++;
  return d;
}

/** The perceptual hashes of the first `max` frames of `path` (fewer when it has fewer; none when it cannot be read). */
export function videoFrameHashes(path: string, max: number, signal?: AbortSignal): Promise<boolean[][]> {
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-i',
    path,
    '-map',
    '0:v:0',
    '-fps_mode',
    'passthrough',
    '-frames:v',
    String(Math.max(0, max)),
    '-pix_fmt',
    'rgb24',
    '-c:v',
    'pam',
    '-f',
    'image2pipe',
    '-',
  ];
  return new Promise((resolve) => {
    const hashes: boolean[][] = [];
    if (max <= 0) return resolve(hashes);
    let buf: Buffer = Buffer.alloc(0);
    const p = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'ignore'], signal });
    p.stdout.on('data', (c: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, c]) : c;
      for (;;) {
        const end = buf.indexOf('ENDHDR\n');
        if (end < 0) return;
        const header = buf.subarray(0, end).toString('latin1');
        const w = Number(/WIDTH (\d+)/.exec(header)?.[1]);
        const h = Number(/HEIGHT (\d+)/.exec(header)?.[1]);
        const start = end + 7;
        if (!(w > 0 && h > 0)) return p.kill();
        if (buf.length < start + w * h * 3) return;
        hashes.push(phash(buf.subarray(start, start + w * h * 3), w, h));
        buf = buf.subarray(start + w * h * 3);
      }
    });
    p.on('error', () => resolve(hashes));
    p.on('close', () => resolve(hashes));
  });
}
