// MFCCs as librosa 0.10 computes them with its defaults (librosa.feature.mfcc(y, sr)): a centred, zero-padded STFT
// (n_fft 2048, hop 512, periodic Hann window), the power spectrum through 128 Slaney-normalised mel filters,
// power_to_db (ref 1, amin 1e-10, top_db 80 below the loudest cell), then an orthonormal DCT-II over the mel axis,
// keeping 20 coefficients. librosa.util.normalize(axis=1) and scipy's cosine distance are here too, for
// compare_audios. librosa works in float32; this works in float64 (the filters are rounded to float32 as
// librosa stores them), so values agree to about 1e-6.

const N_FFT = 2048;
const HOP = 512;
const N_MELS = 128;
const N_MFCC = 20;

/** Slaney's mel scale (librosa's htk=False): linear below 1 kHz, logarithmic above. */
function hzToMel(f: number): number {
  const fSp = 200 / 3;
  const logStep = Math.log(6.4) / 27;
  return f >= 1000 ? 1000 / fSp + Math.log(f / 1000) / logStep : f / fSp;
}

function melToHz(m: number): number {
  const fSp = 200 / 3;
  const logStep = Math.log(6.4) / 27;
  const minLogMel = 1000 / fSp;
  return m >= minLogMel ? 1000 * Math.exp(logStep * (m - minLogMel)) : fSp * m;
}

/** librosa.filters.mel(sr, n_fft=2048, n_mels=128, norm='slaney'): [n_mels][1 + n_fft/2], float32 values. */
export function melFilters(sr: number, nFft = N_FFT, nMels = N_MELS): Float64Array[] {
  const bins = 1 + Math.floor(nFft / 2);
  const fftFreqs = Array.from({ length: bins }, (_, k) => (k * sr) / nFft);
  const lo = hzToMel(0);
  const hi = hzToMel(sr / 2);
  const melF = Array.from({ length: nMels + 2 }, (_, i) => melToHz(lo + ((hi - lo) * i) / (nMels + 1)));
  const out: Float64Array[] = [];
  for (let i = 0; i < nMels; i++) {
    const row = new Float64Array(bins);
    const lowerWidth = melF[i + 1] - melF[i];
    const upperWidth = melF[i + 2] - melF[i + 1];
    const enorm = 2 / (melF[i + 2] - melF[i]);
    for (let k = 0; k < bins; k++) {
      const lower = -(melF[i] - fftFreqs[k]) / lowerWidth;
      const upper = (melF[i + 2] - fftFreqs[k]) / upperWidth;
      row[k] = Math.fround(Math.fround(Math.max(0, Math.min(lower, upper))) * enorm);
    }
    out.push(row);
  }
  return out;
}

/** In-place radix-2 FFT of (re, im), length a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k);
        const wi = Math.sin(ang * k);
        const a = i + k;
        const b = a + len / 2;
        const xr = re[b] * wr - im[b] * wi;
        const xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
}

/** |STFT|² frames (librosa.stft center=True, pad_mode='constant'): [frame][1 + n_fft/2]. */
function powerFrames(y: Float32Array): Float64Array[] {
  const pad = N_FFT / 2;
  const frames = 1 + Math.floor(y.length / HOP);
  const window = Array.from({ length: N_FFT }, (_, n) => 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / N_FFT));
  const out: Float64Array[] = [];
  const re = new Float64Array(N_FFT);
  const im = new Float64Array(N_FFT);
  for (let t = 0; t < frames; t++) {
    const start = t * HOP - pad;
    for (let n = 0; n < N_FFT; n++) {
      const i = start + n;
      re[n] = i >= 0 && i < y.length ? y[i] * window[n] : 0;
      im[n] = 0;
    }
    fft(re, im);
    const p = new Float64Array(N_FFT / 2 + 1);
    for (let k = 0; k <= N_FFT / 2; k++) p[k] = re[k] * re[k] + im[k] * im[k];
    out.push(p);
  }
  return out;
}

/** librosa.feature.mfcc(y=y, sr=sr) with its defaults: [coefficient (20)][frame]. */
export function mfcc(y: Float32Array, sr: number): Float64Array[] {
  const filters = melFilters(sr);
  const power = powerFrames(y);
  const frames = power.length;
  // Mel power in dB, [frame][mel]; top_db clips against the loudest cell of the whole spectrogram.
  const db = power.map((p) =>
    Float64Array.from(filters, (f) => {
      let s = 0;
      for (let k = 0; k < p.length; k++) if (f[k] !== 0) s += f[k] * p[k];
      return 10 * Math.log10(Math.max(1e-10, s));
    }),
  );
  let max = -Infinity;
  for (const row of db) for (const v of row) if (v > max) max = v;
  const floor = max - 80;
  const cos = Array.from({ length: N_MFCC }, (_, k) =>
    Float64Array.from({ length: N_MELS }, (_, n) => Math.cos((Math.PI * k * (2 * n + 1)) / (2 * N_MELS))),
  );
  const out = Array.from({ length: N_MFCC }, () => new Float64Array(frames));
  for (let t = 0; t < frames; t++) {
    const row = db[t];
    for (let k = 0; k < N_MFCC; k++) {
      let s = 0;
      for (let n = 0; n < N_MELS; n++) s += Math.max(row[n], floor) * cos[k][n];
      out[k][t] = 2 * s * (k === 0 ? Math.sqrt(1 / (4 * N_MELS)) : Math.sqrt(1 / (2 * N_MELS)));
    }
  }
  return out;
}

/** librosa.util.normalize(S, axis=1) (norm=inf): each row divided by its largest magnitude; an all-zero row stays. */
export function normalizeRows(rows: Float64Array[]): Float64Array[] {
  return rows.map((r) => {
    let m = 0;
    for (const v of r) m = Math.max(m, Math.abs(v));
    const d = m < 1.1754943508222875e-38 ? 1 : m;
    return r.map((v) => v / d);
  });
}

/** Column vectors of a [row][column] matrix (mfcc.T). */
export function columns(rows: Float64Array[]): Float64Array[] {
  const n = rows[0]?.length ?? 0;
  return Array.from({ length: n }, (_, t) => Float64Array.from(rows, (r) => r[t]));
}

/** scipy.spatial.distance.cosine: 1 − u·v / (|u||v|), clipped to [0, 2] (NaN for a zero vector, as scipy). */
export function cosineDistance(u: Float64Array, v: Float64Array): number {
  let uv = 0;
  let uu = 0;
  let vv = 0;
  for (let i = 0; i < u.length; i++) {
    uv += u[i] * v[i];
    uu += u[i] * u[i];
    vv += v[i] * v[i];
  }
  const d = 1 - uv / Math.sqrt(uu * vv);
  return Number.isNaN(d) ? d : Math.min(2, Math.max(0, d));
}
