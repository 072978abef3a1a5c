// Reading Word documents (docx) as python-docx presents them to OSWorld's metrics: the body's paragraphs (not
// those inside tables) with their text and runs, tables as cell texts. Parsed with jszip and @xmldom/xmldom.
import { DOMParser } from '@xmldom/xmldom';
import JSZip from 'jszip';
import { readBytes, sharedValue } from './inputs';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

export interface DocxRun {
  text: string;
  /** rFonts w:ascii, as python-docx's `run.font.name` (undefined when the run sets none). */
  font?: string;
  subscript: boolean;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  /** Size in half-points (w:sz). */
  size?: number;
  pageBreaks: number;
}

export interface DocxParagraph {
  text: string;
  runs: DocxRun[];
  /** python-docx's paragraph_format.line_spacing: lines (w:line / 240) when the rule is auto, else EMU; undefined
   * when the paragraph sets no line spacing. */
  lineSpacing?: number;
  alignment?: string;
  style?: string;
}

export interface Docx {
  paragraphs: DocxParagraph[];
  /** Tables of the body, each a list of rows of cell texts (paragraph texts joined with newlines). */
  tables: string[][][];
  /** Every part of the package, by name (footers, settings, media). */
  zip: JSZip;
}

function kids(el: Element, local: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).namespaceURI === W && (n as Element).localName === local) out.push(n as Element);
  return out;
}
const wAttr = (el: Element | undefined, name: string): string | undefined => el?.getAttributeNS(W, name) || undefined;

function runOf(r: Element): DocxRun {
  let text = '';
  let pageBreaks = 0;
  for (let n = r.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    if (e.localName === 't') text += e.textContent ?? '';
    else if (e.localName === 'tab') text += '\t';
    else if (e.localName === 'br') {
      if (wAttr(e, 'type') === 'page') pageBreaks++;
      else if (!wAttr(e, 'type') || wAttr(e, 'type') === 'textWrapping') text += '\n';
    } else if (e.localName === 'cr') text += '\n';
    else if (e.localName === 'noBreakHyphen') text += '-';
  }
  const rPr = kids(r, 'rPr')[0];
  const flag = (name: string): boolean | undefined => {
    const el = rPr && kids(rPr, name)[0];
    if (!el) return undefined;
    const v = wAttr(el, 'val');
    return v === undefined || !['0', 'false', 'off'].includes(v);
  };
  const sz = rPr && kids(rPr, 'sz')[0];
  return {
    text,
    font: wAttr(rPr && kids(rPr, 'rFonts')[0], 'ascii'),
    subscript: wAttr(rPr && kids(rPr, 'vertAlign')[0], 'val') === 'subscript',
    bold: flag('b'),
    italic: flag('i'),
    strike: flag('strike'),
    size: sz ? Number(wAttr(sz, 'val')) : undefined,
    pageBreaks,
  };
}

function paragraphOf(p: Element): DocxParagraph {
  const runs: DocxRun[] = [];
  for (let n = p.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    if (e.localName === 'r') runs.push(runOf(e));
    else if (e.localName === 'hyperlink' || e.localName === 'ins' || e.localName === 'smartTag') for (const r of kids(e, 'r')) runs.push(runOf(r));
  }
  const pPr = kids(p, 'pPr')[0];
  const spacing = pPr && kids(pPr, 'spacing')[0];
  const line = wAttr(spacing, 'line');
  const rule = wAttr(spacing, 'lineRule');
  return {
    text: runs.map((r) => r.text).join(''),
    runs,
    lineSpacing: line === undefined ? undefined : rule === 'auto' ? Number(line) / 240 : Number(line) * 635,
    alignment: wAttr(pPr && kids(pPr, 'jc')[0], 'val'),
    style: wAttr(pPr && kids(pPr, 'pStyle')[0], 'val'),
  };
}

function tableOf(tbl: Element): string[][] {
  return kids(tbl, 'tr').map((tr) => kids(tr, 'tc').map((tc) => kids(tc, 'p').map((p) => paragraphOf(p).text).join('\n')));
}

async function parseDocx(bytes: Buffer): Promise<Docx | string> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (e) {
    return `not a docx (ZIP) file: ${(e as Error).message}`;
  }
  const part = zip.file('word/document.xml');
  if (!part) return 'not a docx file: no word/document.xml';
  const doc = new DOMParser({ errorHandler: { warning: () => undefined } }).parseFromString(await part.async('string'), 'application/xml');
  const body = doc.documentElement && kids(doc.documentElement as unknown as Element, 'body')[0];
  if (!body) return 'word/document.xml has no body';
  return { paragraphs: kids(body, 'p').map(paragraphOf), tables: kids(body, 'tbl').map(tableOf), zip };
}

/** The document at `path` (shared within a grading), or why it cannot be read. */
export async function loadDocx(path: unknown): Promise<Docx | string> {
  const bytes = await readBytes(path);
  if (!bytes) return `file ${typeof path === 'string' ? path : String(path)} cannot be read`;
  return sharedValue(`docx:${String(path)}`, () => parseDocx(bytes));
}

/** rapidfuzz's fuzz.ratio / 100: 2·LCS / (|a| + |b|) over code points (1 for two empty texts). */
export function fuzzRatio(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (x.length + y.length === 0) return 1;
  let prev = new Uint32Array(y.length + 1);
  let cur = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) cur[j] = x[i - 1] === y[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return (2 * prev[y.length]) / (x.length + y.length);
}
