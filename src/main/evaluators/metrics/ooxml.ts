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
  /** w:color as python-docx's `run.font.color.rgb`: six upper-case hex digits, undefined when unset or auto. */
  color?: string;
  pageBreaks: number;
}

/** A tab stop set on the paragraph itself (python-docx's `paragraph_format.tab_stops`). */
export interface DocxTabStop {
  /** w:val: left, right, center, decimal, bar, clear, start, end, num. */
  alignment: string;
  /** w:pos in twips. */
  position: number;
}

/** One w:sectPr, in document order (python-docx's `document.sections`); lengths in twips. */
export interface DocxSection {
  pageWidth?: number;
  leftMargin?: number;
  rightMargin?: number;
  /** Relationship id of the default (primary) footer, when the section has its own. */
  footerId?: string;
}

export interface DocxRelationship {
  id: string;
  type: string;
  /** The part's name in the package (for internal targets), or the URL (external). */
  target: string;
  external: boolean;
}

export interface DocxParagraph {
  text: string;
  runs: DocxRun[];
  /** python-docx's paragraph_format.line_spacing: lines (w:line / 240) when the rule is auto, else EMU; undefined
   * when the paragraph sets no line spacing. */
  lineSpacing?: number;
  alignment?: string;
  style?: string;
  tabs: DocxTabStop[];
}

export interface Docx {
  paragraphs: DocxParagraph[];
  /** Tables of the body, each a list of rows of cell texts (paragraph texts joined with newlines). */
  tables: string[][][];
  /** The same tables as rows of cells of paragraphs (python-docx's `cell.paragraphs`: the cell's own). */
  tableCells: DocxParagraph[][][][];
  sections: DocxSection[];
  /** Every part of the package, by name (footers, settings, media). */
  zip: JSZip;
}

function kids(el: Element, local: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1 && (n as Element).namespaceURI === W && (n as Element).localName === local)
      out.push(n as Element);
  return out;
}
const wAttr = (el: Element | undefined, name: string): string | undefined =>
  el?.getAttributeNS(W, name) || undefined;

function colorOf(val: string | undefined): string | undefined {
  return val && /^[0-9A-Fa-f]{6}$/.test(val) ? val.toUpperCase() : undefined;
}

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
    color: colorOf(wAttr(rPr && kids(rPr, 'color')[0], 'val')),
    pageBreaks,
  };
}

function paragraphOf(p: Element): DocxParagraph {
  const runs: DocxRun[] = [];
  for (let n = p.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    if (e.localName === 'r') runs.push(runOf(e));
    else if (e.localName === 'hyperlink' || e.localName === 'ins' || e.localName === 'smartTag')
      for (const r of kids(e, 'r')) runs.push(runOf(r));
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
    tabs: (pPr ? kids(pPr, 'tabs').flatMap((t) => kids(t, 'tab')) : []).map((t) => ({
      alignment: wAttr(t, 'val') ?? '',
      position: Number(wAttr(t, 'pos') ?? 0),
    })),
  };
}

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const twips = (el: Element | undefined, name: string): number | undefined => {
  const v = wAttr(el, name);
  return v === undefined ? undefined : Number(v);
};

function sectionOf(sectPr: Element): DocxSection {
  const pgSz = kids(sectPr, 'pgSz')[0];
  const pgMar = kids(sectPr, 'pgMar')[0];
  const footer = kids(sectPr, 'footerReference').find((f) => wAttr(f, 'type') === 'default');
  return {
    pageWidth: twips(pgSz, 'w'),
    leftMargin: twips(pgMar, 'left'),
    rightMargin: twips(pgMar, 'right'),
    footerId: footer?.getAttributeNS(R, 'id') || undefined,
  };
}

/** The body's sections: w:sectPr of paragraphs (section breaks), then the body's own, in document order. */
function sectionsOf(body: Element): DocxSection[] {
  const out: DocxSection[] = [];
  for (let n = body.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1 || (n as Element).namespaceURI !== W) continue;
    const e = n as Element;
    if (e.localName === 'sectPr') out.push(sectionOf(e));
    if (e.localName !== 'p') continue;
    const pPr = kids(e, 'pPr')[0];
    const sectPr = pPr && kids(pPr, 'sectPr')[0];
    if (sectPr) out.push(sectionOf(sectPr));
  }
  return out;
}

function tableCellsOf(tbl: Element): DocxParagraph[][][] {
  return kids(tbl, 'tr').map((tr) => kids(tr, 'tc').map((tc) => kids(tc, 'p').map(paragraphOf)));
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
  const doc = new DOMParser({ errorHandler: { warning: () => undefined } }).parseFromString(
    await part.async('string'),
    'application/xml',
  );
  const body = doc.documentElement && kids(doc.documentElement as unknown as Element, 'body')[0];
  if (!body) return 'word/document.xml has no body';
  const tableCells = kids(body, 'tbl').map(tableCellsOf);
  const tables = tableCells.map((rows) =>
    rows.map((cells) => cells.map((paras) => paras.map((p) => p.text).join('\n'))),
  );
  return {
    paragraphs: kids(body, 'p').map(paragraphOf),
    tables,
    tableCells,
    sections: sectionsOf(body),
    zip,
  };
}

const quiet = {
  errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined },
};

/** The relationships of a part (`word/document.xml` by default), in the order of its .rels file. */
export async function partRelationships(doc: Docx, part = 'word/document.xml'): Promise<DocxRelationship[]> {
  const slash = part.lastIndexOf('/');
  const folder = part.slice(0, slash + 1);
  const rels = doc.zip.file(`${folder}_rels/${part.slice(slash + 1)}.rels`);
  if (!rels) return [];
  const xml = new DOMParser(quiet).parseFromString(await rels.async('string'), 'application/xml');
  return Array.from(xml.getElementsByTagName('Relationship')).map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return {
      id: r.getAttribute('Id') ?? '',
      type: r.getAttribute('Type') ?? '',
      target: external ? target : resolvePart(folder, target),
      external,
    };
  });
}

function resolvePart(folder: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : folder + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

/** The paragraphs of a header or footer part (its own w:p, as python-docx's `footer.paragraphs`). */
export async function storyParagraphs(doc: Docx, partName: string): Promise<DocxParagraph[] | string> {
  const part = doc.zip.file(partName);
  if (!part) return `the package has no ${partName}`;
  const xml = new DOMParser(quiet).parseFromString(await part.async('string'), 'application/xml');
  const root = xml.documentElement as unknown as Element | null;
  return root ? kids(root, 'p').map(paragraphOf) : [];
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
    for (let j = 1; j <= y.length; j++)
      cur[j] = x[i - 1] === y[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return (2 * prev[y.length]) / (x.length + y.length);
}
