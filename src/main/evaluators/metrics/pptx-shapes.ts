// Shapes, text frames, runs, tables and fills of a pptx slide, as python-pptx reports them: shape_type numbers
// (MSO_SHAPE_TYPE), positions in EMU, paragraph text with line breaks as "\v", run fonts (None when unset), and
// background fills (MSO_FILL). Where python-pptx raises, these throw PptxError.
import { attr, descendants, intAttr, kid, kids, NS, path, PptxError, type SlidePart } from './pptx';

const SHAPE_TAGS = new Set(['sp', 'grpSp', 'graphicFrame', 'cxnSp', 'pic', 'contentPart']);

/** The shapes of a shape tree (slide.shapes / group.shapes): its shape elements, in document order. */
export function shapesIn(tree: Element | undefined): Element[] {
  return kids(tree, NS.p).filter((e) => SHAPE_TAGS.has(e.localName));
}

export function slideShapes(slide: SlidePart): Element[] {
  return shapesIn(path(slide.doc.documentElement, 'p:cSld', 'p:spTree'));
}

/** The shape's p:nvPr (inside its nvSpPr / nvPicPr / nvGraphicFramePr / …). */
const nvPr = (el: Element) =>
  kid(
    kids(el, NS.p).find((k) => k.localName.startsWith('nv')),
    NS.p,
    'nvPr',
  );
const phOf = (el: Element) => kid(nvPr(el), NS.p, 'ph');

export const PICTURE = 13;
export const TABLE = 19;
export const FREEFORM = 5;

/** python-pptx's shape.shape_type (MSO_SHAPE_TYPE value; null where python-pptx gives None). Throws where python-pptx
 * raises (a p:sp with no geometry that is no text box or placeholder). */
export function shapeType(el: Element): number | null {
  switch (el.localName) {
    case 'pic':
      // a picture placeholder stays a picture; python-pptx makes any other p:pic with a video a movie
      return !phOf(el) && kid(nvPr(el), NS.a, 'videoFile') ? 16 : PICTURE;
    case 'grpSp':
      return 6;
    case 'cxnSp':
      return 9;
    case 'contentPart':
      return null;
    case 'graphicFrame': {
      const data = path(el, 'a:graphic', 'a:graphicData');
      const uri = attr(data, 'uri');
      if (uri === 'http://schemas.openxmlformats.org/drawingml/2006/chart') return 3;
      if (uri === 'http://schemas.openxmlformats.org/drawingml/2006/table') return TABLE;
      if (uri === 'http://schemas.openxmlformats.org/presentationml/2006/ole')
        return kid(path(data, 'p:oleObj'), NS.p, 'embed') ? 7 : 10;
      return null;
    }
    default: {
      if (phOf(el)) return 14;
      const spPr = path(el, 'p:spPr');
      if (kid(spPr, NS.a, 'custGeom')) return FREEFORM;
      const textBox = attr(path(el, 'p:nvSpPr', 'p:cNvSpPr'), 'txBox') === '1';
      if (kid(spPr, NS.a, 'prstGeom') && !textBox) return 1;
      if (textBox) return 17;
      throw new PptxError('Shape instance of unrecognized shape type');
    }
  }
}

/** Whether python-pptx's shape has `.text` / `.text_frame` (autoshapes, text boxes and text placeholders: p:sp). */
export const hasText = (el: Element): boolean => el.localName === 'sp';

export interface Box {
  left?: number;
  top?: number;
  width?: number;
  height?: number;
}

function ownBox(el: Element): Box {
  const xfrm =
    el.localName === 'graphicFrame'
      ? path(el, 'p:xfrm')
      : el.localName === 'grpSp'
        ? path(el, 'p:grpSpPr', 'a:xfrm')
        : path(el, 'p:spPr', 'a:xfrm');
  const off = kid(xfrm, NS.a, 'off');
  const ext = kid(xfrm, NS.a, 'ext');
  return {
    left: intAttr(off, 'x'),
    top: intAttr(off, 'y'),
    width: intAttr(ext, 'cx'),
    height: intAttr(ext, 'cy'),
  };
}

const phType = (ph: Element) => attr(ph, 'type') ?? 'obj';
/** The layout placeholder type a master placeholder is found by (python-pptx's _LayoutPlaceholder mapping). */
const MASTER_TYPE: Record<string, string> = {
  ctrTitle: 'title',
  title: 'title',
  dt: 'dt',
  ftr: 'ftr',
  sldNum: 'sldNum',
};

function placeholders(doc: Document | undefined): Element[] {
  return doc ? shapesIn(path(doc.documentElement, 'p:cSld', 'p:spTree')).filter((s) => phOf(s)) : [];
}

/** The shape's a:xfrm offset and extent in EMU (each undefined where python-pptx gives None). A slide placeholder
 * without its own inherits from the layout placeholder of its idx, and that one from the master's of its type. */
export function box(el: Element, slide?: SlidePart): Box {
  const own = ownBox(el);
  const ph = phOf(el);
  if (!slide || !ph || el.localName === 'grpSp' || el.localName === 'cxnSp') return own;
  const idx = attr(ph, 'idx') ?? '0';
  const layoutPh = placeholders(slide.layout).find((s) => (attr(phOf(s), 'idx') ?? '0') === idx);
  const masterType = layoutPh ? (MASTER_TYPE[phType(phOf(layoutPh)!)] ?? 'body') : undefined;
  const masterPh = masterType
    ? placeholders(slide.master).find((s) => phType(phOf(s)!) === masterType)
    : undefined;
  const inherited = (k: keyof Box): number | undefined =>
    own[k] ?? (layoutPh ? (ownBox(layoutPh)[k] ?? (masterPh ? ownBox(masterPh)[k] : undefined)) : undefined);
  return {
    left: inherited('left'),
    top: inherited('top'),
    width: inherited('width'),
    height: inherited('height'),
  };
}

/** The a:p elements of a text body; a shape or cell without one gets python-pptx's new body: one empty paragraph. */
export function paragraphsOf(txBody: Element | undefined): (Element | null)[] {
  if (!txBody) return [null];
  return kids(txBody, NS.a, 'p');
}

export const shapeParagraphs = (sp: Element) => paragraphsOf(path(sp, 'p:txBody'));

/** A paragraph's text: runs' and fields' a:t, each a:br as a vertical tab (python-pptx 1.0). */
export function paragraphText(p: Element | null): string {
  let s = '';
  for (const c of kids(p, NS.a)) {
    if (c.localName === 'r' || c.localName === 'fld') s += kid(c, NS.a, 't')?.textContent ?? '';
    else if (c.localName === 'br') s += '\v';
  }
  return s;
}

export const frameText = (paragraphs: (Element | null)[]) => paragraphs.map(paragraphText).join('\n');
export const shapeText = (sp: Element) => frameText(shapeParagraphs(sp));

/** paragraph.alignment as its a:pPr@algn token (undefined for None). */
export const alignment = (p: Element | null) => attr(kid(p, NS.a, 'pPr'), 'algn');
/** paragraph.level (a:pPr@lvl, default 0). */
export const level = (p: Element | null) => intAttr(kid(p, NS.a, 'pPr'), 'lvl') ?? 0;
export const runsOf = (p: Element | null) => kids(p, NS.a, 'r');
export const runText = (r: Element) => kid(r, NS.a, 't')?.textContent ?? '';

function xsdBoolean(v: string | undefined, name: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  throw new PptxError(`'${v}' is not an xsd:boolean (${name})`);
}

export interface RunFont {
  /** a:latin@typeface. */
  name?: string;
  /** @sz in hundredths of a point. */
  size?: number;
  bold?: boolean;
  italic?: boolean;
  /** python-pptx's underline: undefined (None), true (sng), false (none) or the MSO_UNDERLINE token. */
  underline?: boolean | string;
  /** The RGB of an a:solidFill/a:srgbClr, upper-case hex; undefined where `font.color` has no `.rgb`. */
  rgb?: string;
  /** rPr@strike as written, 'noStrike' when absent (OSWorld reads the attribute). */
  strike: string;
}

/** The solid fill's colour as RGBColor (upper-case hex), or undefined where python-pptx's `.rgb` raises. */
export function srgbOf(solidFill: Element | undefined): string | undefined {
  const c = kids(solidFill, NS.a)[0];
  if (!c || c.localName !== 'srgbClr') return undefined;
  return (attr(c, 'val') ?? '').toUpperCase();
}

export function runFont(r: Element): RunFont {
  const rPr = kid(r, NS.a, 'rPr');
  const u = attr(rPr, 'u');
  const fills = ['noFill', 'solidFill', 'gradFill', 'blipFill', 'pattFill', 'grpFill'];
  const fill = kids(rPr, NS.a).find((k) => fills.includes(k.localName));
  return {
    name: attr(kid(rPr, NS.a, 'latin'), 'typeface'),
    size: intAttr(rPr, 'sz'),
    bold: xsdBoolean(attr(rPr, 'b'), 'b'),
    italic: xsdBoolean(attr(rPr, 'i'), 'i'),
    underline: u === undefined ? undefined : u === 'sng' ? true : u === 'none' ? false : u,
    rgb: fill?.localName === 'solidFill' ? srgbOf(fill) : undefined,
    strike: attr(rPr, 'strike') ?? 'noStrike',
  };
}

export interface TableModel {
  rows: number;
  columns: number;
  /** A cell's paragraphs (table.cell(r, c).text_frame.paragraphs). */
  cell(row: number, col: number): (Element | null)[];
}

/** shape.table: throws as python-pptx does for a shape that holds no table. */
export function tableOf(el: Element): TableModel {
  const tbl = path(el, 'a:graphic', 'a:graphicData', 'a:tbl');
  if (el.localName !== 'graphicFrame' || !tbl) throw new PptxError('shape does not contain a table');
  const rows = kids(tbl, NS.a, 'tr');
  return {
    rows: rows.length,
    columns: kids(path(tbl, 'a:tblGrid'), NS.a, 'gridCol').length,
    cell(row, col) {
      const tc = kids(rows[row], NS.a, 'tc')[col];
      if (!tc) throw new PptxError(`table has no cell (${row}, ${col})`);
      return paragraphsOf(kid(tc, NS.a, 'txBody'));
    },
  };
}

/** Shapes with text, groups searched depth first (OSWorld's get_all_text_shapes). */
export function allTextShapes(shapes: Element[]): Element[] {
  const out: Element[] = [];
  for (const s of shapes) {
    if (hasText(s)) out.push(s);
    if (s.localName === 'grpSp') out.push(...allTextShapes(shapesIn(s)));
  }
  return out;
}

const FILL_TYPES: Record<string, number> = {
  solidFill: 1,
  pattFill: 2,
  gradFill: 3,
  noFill: 5,
  blipFill: 6,
  grpFill: 101,
};

export interface Fill {
  /** MSO_FILL value (null for no fill element). */
  type: number | null;
  el?: Element;
}

/** slide.background.fill: the p:bg/p:bgPr fill; a slide without p:bgPr (none, or a theme p:bgRef) reads as noFill,
 * since python-pptx replaces it with one. */
export function backgroundFill(part: Document | undefined): Fill {
  const bgPr = path(part?.documentElement, 'p:cSld', 'p:bg', 'p:bgPr');
  if (!bgPr) return { type: 5 };
  const el = kids(bgPr, NS.a).find((k) => k.localName in FILL_TYPES);
  return el ? { type: FILL_TYPES[el.localName], el } : { type: null };
}

/** The body placeholder's text on the slide's notes slide (notes_slide.notes_text_frame.text); a slide without
 * notes gets a fresh notes slide from the notes master: empty text. Throws where the body placeholder is missing. */
export function notesText(slide: SlidePart, notesMaster: Document | undefined): string {
  const body = (doc: Document) =>
    shapesIn(path(doc.documentElement, 'p:cSld', 'p:spTree')).find((s) => attr(phOf(s), 'type') === 'body');
  if (!slide.notes) {
    if (notesMaster && !body(notesMaster))
      throw new PptxError("the notes master has no body placeholder ('NoneType' has no attribute 'text')");
    return '';
  }
  const ph = body(slide.notes);
  if (!ph || !hasText(ph))
    throw new PptxError(
      `${slide.name}: its notes slide has no body placeholder ('NoneType' has no attribute 'text')`,
    );
  return shapeText(ph);
}

/** Every a:p of the part's XML (ElementTree's `.//a:p`). */
export const allParagraphs = (doc: Document) => descendants(doc, NS.a, 'p');

const PY_SPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_SPACE_ENDS = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

/** Python's str.strip() (Unicode whitespace). */
export function pyStrip(s: string): string {
  return s.replace(PY_SPACE_ENDS, '');
}
