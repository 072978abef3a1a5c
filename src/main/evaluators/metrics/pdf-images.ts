// OSWorld's compare_pdf_images (family `pdf`; chrome.py): the images embedded in two PDFs, compared pairwise by
// perceptual hash (imagehash.phash: grey, 32×32 Lanczos, DCT, 8×8 low frequencies against their median). Images are
// decoded by pdfjs-dist (Mozilla's PDF.js; OSWorld lists them with PyMuPDF and decodes them with Pillow).
import { registerMetricFamily } from '../family';
import { fail, pass, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { brief, isFile, readBytes, sharedValue } from './inputs';
import type { Raw } from './image';
import { resize, toLuma } from './images-pillow';

/** The decoded image objects a page paints, each once per page, in painting order (stencil masks and inline images
 * are not image objects PyMuPDF lists, so they are left out). */
async function embeddedImages(path: string): Promise<Raw[] | string> {
  const bytes = await readBytes(path);
  if (!bytes) return `PDF ${brief(path)} cannot be read`;
  return sharedValue(`pdf-images:${path}`, async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    try {
      const doc = await pdfjs.getDocument({
        data: new Uint8Array(bytes),
        isEvalSupported: false,
        useSystemFonts: false,
        verbosity: 0,
        isOffscreenCanvasSupported: false,
        isImageDecoderSupported: false,
      }).promise;
      const images: Raw[] = [];
      for (let p = 1; p <= doc.numPages; p++) {
        const page = await doc.getPage(p);
        const ops = await page.getOperatorList();
        const seen = new Set<string>();
        for (let i = 0; i < ops.fnArray.length; i++) {
          if (
            ops.fnArray[i] !== pdfjs.OPS.paintImageXObject &&
            ops.fnArray[i] !== pdfjs.OPS.paintImageXObjectRepeat
          )
            continue;
          const id = String((ops.argsArray[i] as unknown[])[0]);
          if (seen.has(id)) continue;
          seen.add(id);
          const store = id.startsWith('g_') ? page.commonObjs : page.objs;
          const obj = await new Promise<unknown>((resolve) => store.get(id, resolve));
          const raw = pixels(obj);
          if (raw) images.push(raw);
        }
        page.cleanup();
      }
      await doc.destroy();
      return images;
    } catch (e) {
      return `${brief(path)} is not a readable PDF: ${(e as Error).message}`;
    }
  });
}

/** PDF.js image data (kind 1: 1 bit grey, 2: RGB, 3: RGBA) as interleaved 8-bit pixels. */
function pixels(obj: unknown): Raw | undefined {
  const img = obj as { width?: number; height?: number; kind?: number; data?: Uint8Array } | null;
  if (!img?.data || !img.width || !img.height) return undefined;
  const { width, height, kind } = img;
  if (kind === 2) return { data: Buffer.from(img.data), width, height, channels: 3 };
  if (kind === 3) return { data: Buffer.from(img.data), width, height, channels: 4 };
  if (kind === 1) {
    const out = Buffer.alloc(width * height);
    const rowBytes = (width + 7) >> 3;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        out[y * width + x] = (img.data[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1 ? 255 : 0;
    return { data: out, width, height, channels: 1 };
  }
  return undefined;
}

/** imagehash.phash: 64 bits, as a boolean array. */
export function phash(img: Raw): boolean[] {
  const grey = toLuma(img);
  const small = resize({ ...grey, mode: 'L' }, 32, 32, 'lanczos');
  const n = 32;
  // scipy.fftpack.dct (type II, unnormalised) along rows then columns; only the 8×8 low frequencies are kept
  const cos = (k: number, i: number) => 2 * Math.cos((Math.PI * k * (2 * i + 1)) / (2 * n));
  const cols: number[][] = [];
  for (let k = 0; k < 8; k++) {
    const row: number[] = [];
    for (let x = 0; x < n; x++) {
      let s = 0;
      for (let y = 0; y < n; y++) s += small.data[y * n + x] * cos(k, y);
      row.push(s);
    }
    cols.push(row);
  }
  const low: number[] = [];
  for (let k = 0; k < 8; k++) {
    for (let l = 0; l < 8; l++) {
      let s = 0;
      for (let x = 0; x < n; x++) s += cols[k][x] * cos(l, x);
      low.push(s);
    }
  }
  const sorted = [...low].sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  return low.map((v) => v > median);
}

function hamming(a: boolean[], b: boolean[]): number {
  return a.reduce((d, v, i) => d + (v !== b[i] ? 1 : 0), 0);
}

/**
 * compare_pdf_images — the images embedded in the result and the expected PDF: 0 when a file is missing or their
 * counts differ, 1 when neither has any; otherwise the share of pairs (in order) whose perceptual hashes differ
 * in at most 5 bits.
 */
async function comparePdfImages(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!(await isFile(result)) || !(await isFile(expected)))
    return fail(`PDF file does not exist: ${brief(result)} or ${brief(expected)}`);
  const a = await embeddedImages(result as string);
  if (typeof a === 'string') return fail(a);
  const b = await embeddedImages(expected as string);
  if (typeof b === 'string') return fail(b);
  if (a.length !== b.length) return fail(`${a.length} images in the result, ${b.length} expected`);
  if (a.length === 0) return pass('neither PDF has images');
  const distances = a.map((img, i) => hamming(phash(img), phash(b[i])));
  const close = distances.filter((d) => d <= 5).length;
  const score = close / a.length;
  return { score, reason: `${close} of ${a.length} images match (hash distances ${distances.join(', ')})` };
}

registerMetricFamily('pdf', { compare_pdf_images: comparePdfImages });

registerDeparture({
  metric: 'compare_pdf_images',
  profile: 'osworld',
  case: 'image order and decoding',
  why: "OSWorld lists a page's images in PyMuPDF's resource order and decodes them with Pillow; Proctor takes them in PDF.js's painting order (images never painted are not counted) and decodes JPEGs with PDF.js, whose pixels can differ slightly",
});
