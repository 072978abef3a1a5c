// OSWorld's compare_pptx_files (metrics/slides.py): two presentations compared slide by slide — slide count,
// background colour, notes, shape count and geometry, tables' run formats, text, paragraphs (alignment, level) and
// runs (font name, size, bold, italic, colour, underline, strike, the slide's bullets) — as python-pptx reads them,
// with its options, defaults and quirks. Returns the first difference, or null when OSWorld scores 1.
import { PptxError, type Presentation, type SlidePart } from './pptx';
import { attr, descendants, kid, NS } from './pptx';
import {
  alignment,
  allParagraphs,
  allTextShapes,
  backgroundFill,
  box,
  FREEFORM,
  hasText,
  level,
  notesText,
  paragraphText,
  PICTURE,
  pyStrip,
  runFont,
  runsOf,
  runText,
  shapeParagraphs,
  shapeText,
  shapeType,
  slideShapes,
  srgbOf,
  TABLE,
  tableOf,
  type Box,
} from './pptx-shapes';

/** Options OSWorld reads, with its defaults. */
const DEFAULTS = {
  examine_number_of_slides: true,
  examine_shape: true,
  examine_text: true,
  examine_indent: true,
  examine_font_name: true,
  examine_font_size: true,
  examine_font_bold: true,
  examine_font_italic: true,
  examine_color_rgb: true,
  examine_font_underline: true,
  examine_strike_through: true,
  examine_alignment: true,
  examine_title_bottom_position: false,
  examine_table_bottom_position: false,
  examine_right_position: false,
  examine_top_position: false,
  examine_shape_for_shift_size: false,
  examine_image_size: false,
  examine_modify_height: false,
  examine_bullets: true,
  examine_background_color: true,
  examine_note: true,
  enable_debug: true,
};
type Flags = Record<keyof typeof DEFAULTS, boolean>;

/** Python truthiness of an option value. */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

const num = (v: number | undefined, what: string): number => {
  if (v === undefined)
    throw new PptxError(`${what} is None (python-pptx gives no position), which cannot be compared`);
  return v;
};

function approx(a: number | undefined, b: number | undefined, tol: number): boolean {
  if (a === b) return true;
  if (a === 0 || b === 0) return false;
  return Math.abs(num(a, 'a position') - num(b, 'a position')) / Math.max(Math.abs(a!), Math.abs(b!)) <= tol;
}

function sameBox(b1: Box, b2: Box, tol: number): boolean {
  return (
    approx(b1.left, b2.left, tol) &&
    approx(b1.top, b2.top, tol) &&
    approx(b1.width, b2.width, tol) &&
    approx(b1.height, b2.height, tol)
  );
}

/** slide.background colour as OSWorld's get_slide_background_color reads it (the master's when the slide has none). */
function backgroundColor(slide: SlidePart): string | null {
  const solid = (doc: Document | undefined): string => {
    const rgb = srgbOf(backgroundFill(doc).el);
    if (rgb === undefined)
      throw new PptxError(`${slide.name}: the background colour has no .rgb (not an sRGB colour)`);
    return rgb;
  };
  const fill = backgroundFill(slide.doc);
  if (fill.type === 1) return solid(slide.doc);
  if (fill.type !== 5) return null;
  if (!slide.master) throw new PptxError(`${slide.name} has no slide layout or master`);
  return backgroundFill(slide.master).type === 1 ? solid(slide.master) : null;
}

type Bullet = [string, string, string];
/** Python's None among bullet fields. */
const NONE = '\u0000None';

/** The slide's bullets (OSWorld's _extract_bullets over the slide XML): [level, char, text] of each non-blank a:p;
 * undefined where OSWorld's extraction fails (an empty a:t) and the bullet check is skipped. python-pptx has by then
 * added an empty a:pPr to every paragraph whose level or alignment it read (`touched`), so those read level '0'. */
function bullets(slide: SlidePart, touched: Set<Element | null>): Bullet[] | undefined {
  const out: Bullet[] = [];
  for (const p of allParagraphs(slide.doc)) {
    const ts = descendants(p, NS.a, 't');
    if (ts.some((t) => !t.textContent)) return undefined;
    const text = ts.map((t) => t.textContent).join('');
    if (!pyStrip(text)) continue;
    const pPr = kid(p, NS.a, 'pPr');
    if (!pPr && !touched.has(p)) {
      out.push(['No Level', 'No Bullet', text]);
      continue;
    }
    const buChar = kid(pPr, NS.a, 'buChar');
    out.push([attr(pPr, 'lvl') ?? '0', buChar ? (attr(buChar, 'char') ?? NONE) : 'No Bullet', text]);
  }
  return out;
}

function sameBullets(b1: Bullet[] | undefined, b2: Bullet[] | undefined): boolean {
  if (!b1 || !b2) return true;
  return (
    b1.length === b2.length && b1.every((b, i) => b[2] === b2[i][2] && b[1] === b2[i][1] && b[0] === b2[i][0])
  );
}

/** The bullet check of one slide pair: the paragraphs python-pptx has touched so far, and whether the slides'
 * bullets agree in that state (recomputed only when more paragraphs were touched). */
class SlideBullets {
  readonly touched = new Set<Element | null>();
  private memo?: { size: number; agree: boolean };
  constructor(
    private readonly s1: SlidePart,
    private readonly s2: SlidePart,
  ) {}
  agree(): boolean {
    if (this.memo?.size !== this.touched.size)
      this.memo = {
        size: this.touched.size,
        agree: sameBullets(bullets(this.s1, this.touched), bullets(this.s2, this.touched)),
      };
    return this.memo.agree;
  }
}

const falsy = (v: boolean | undefined) => !v;

/** The first difference OSWorld's compare_pptx_files finds between `p1` and `p2`, or null (score 1). Throws
 * PptxError where python-pptx raises. */
export function comparePresentations(
  p1: Presentation,
  p2: Presentation,
  options: Record<string, unknown>,
): string | null {
  const o = Object.fromEntries(
    Object.entries(DEFAULTS).map(([k, d]) => [k, k in options ? truthy(options[k]) : d]),
  ) as Flags;
  const tol = typeof options.approximately_tolerance === 'number' ? options.approximately_tolerance : 0.005;
  if (p1.slides.length !== p2.slides.length && o.examine_number_of_slides)
    return `${p1.slides.length} slides against ${p2.slides.length}`;
  const n = Math.min(p1.slides.length, p2.slides.length);
  for (let i = 0; i < n; i++) {
    const s1 = p1.slides[i];
    const s2 = p2.slides[i];
    const at = `slide ${i + 1}`;
    const bg1 = backgroundColor(s1);
    const bg2 = backgroundColor(s2);
    if (bg1 !== bg2 && o.examine_background_color) return `${at}: background colour ${bg1} against ${bg2}`;
    const notes1 = pyStrip(notesText(s1, p1.notesMaster));
    const notes2 = pyStrip(notesText(s2, p2.notesMaster));
    if (notes1 !== notes2 && o.examine_note) return `${at}: notes '${notes1}' against '${notes2}'`;
    const shapes1 = slideShapes(s1);
    const shapes2 = slideShapes(s2);
    const texts1 = allTextShapes(shapes1);
    const texts2 = allTextShapes(shapes2);
    if (shapes1.length !== shapes2.length) return `${at}: ${shapes1.length} shapes against ${shapes2.length}`;
    const slideBullets = new SlideBullets(s1, s2);
    for (let j = 0; j < shapes1.length; j++) {
      const why = compareShapes(shapes1[j], shapes2[j], s1, s2, i + 1, o, tol, slideBullets);
      if (why) return `${at}, shape ${j + 1}: ${why}`;
    }
    if (o.examine_alignment && texts1.length === texts2.length) {
      for (let j = 0; j < texts1.length; j++) {
        const [t1, t2] = [texts1[j], texts2[j]];
        if (pyStrip(shapeText(t1)) !== pyStrip(shapeText(t2)) && o.examine_text)
          return `${at}, text shape ${j + 1}: text '${pyStrip(shapeText(t1))}' against '${pyStrip(shapeText(t2))}'`;
        const [ps1, ps2] = [shapeParagraphs(t1), shapeParagraphs(t2)];
        if (ps1.length !== ps2.length)
          return `${at}, text shape ${j + 1}: ${ps1.length} paragraphs against ${ps2.length}`;
        for (let k = 0; k < ps1.length; k++) {
          if ((alignment(ps1[k]) ?? 'l') !== (alignment(ps2[k]) ?? 'l'))
            return `${at}, text shape ${j + 1}, paragraph ${k + 1}: alignment ${alignment(ps1[k]) ?? 'l'} against ${alignment(ps2[k]) ?? 'l'}`;
        }
      }
    } else if (texts1.length !== texts2.length)
      return `${at}: ${texts1.length} text shapes against ${texts2.length}`;
  }
  return null;
}

function compareShapes(
  sh1: Element,
  sh2: Element,
  s1: SlidePart,
  s2: SlidePart,
  slideIdx: number,
  o: Flags,
  tol: number,
  bullets: SlideBullets,
): string | null {
  if (o.enable_debug) {
    shapeType(sh1);
    shapeType(sh2);
  }
  const b1 = box(sh1, s1);
  const b2 = box(sh2, s2);
  const same = () => sameBox(b1, b2, tol);
  const text = (sh: Element) => (hasText(sh) ? shapeText(sh) : undefined);
  const moved = `position/size (${b1.left}, ${b1.top}, ${b1.width}×${b1.height}) against (${b2.left}, ${b2.top}, ${b2.width}×${b2.height})`;
  if (o.examine_title_bottom_position) {
    if (hasText(sh1) && hasText(sh2) && text(sh1) === text(sh2)) {
      if (
        text(sh1) === 'Product Comparison' &&
        (num(b1.top, 'top') <= num(b2.top, 'top') || b1.top! < 3600000)
      )
        return 'the title is not moved to the bottom';
    } else if (!same()) return moved;
  }
  if (o.examine_table_bottom_position) {
    if (slideIdx === 3 && shapeType(sh1) === TABLE && shapeType(sh2) === TABLE) {
      if (num(b1.top, 'top') <= num(b2.top, 'top') || b1.top! < 3600000)
        return 'the table is not moved to the bottom';
    } else if (!same()) return moved;
  }
  if (o.examine_right_position && slideIdx === 2 && !hasText(sh1) && !hasText(sh2)) {
    if (num(b1.left, 'left') <= num(b2.left, 'left') || b1.left! < 4320000)
      return 'the shape is not moved to the right';
  }
  if (o.examine_top_position && slideIdx === 2 && shapeType(sh1) === PICTURE && shapeType(sh2) === PICTURE) {
    if (num(b1.top, 'top') >= num(b2.top, 'top') || b1.top! > 1980000)
      return 'the picture is not moved to the top';
  }
  if (o.examine_shape_for_shift_size && !same()) {
    if (!(
      hasText(sh1) &&
      hasText(sh2) &&
      text(sh1) === text(sh2) &&
      text(sh1) === 'Elaborate on what you want to discuss.'
    ))
      return moved;
  }
  if (!same() && o.examine_shape) return moved;
  if (o.examine_image_size) {
    if (shapeType(sh1) === PICTURE && shapeType(sh2) === PICTURE) {
      if (!approx(b1.width, b2.width, tol) || !approx(b1.height, b2.height, tol))
        return `picture size ${b1.width}×${b1.height} against ${b2.width}×${b2.height}`;
    } else if (!same()) return moved;
  }
  if (o.examine_modify_height) {
    if ((!hasText(sh1) && !hasText(sh2)) || (shapeType(sh1) === FREEFORM && shapeType(sh2) === FREEFORM)) {
      if (!approx(b1.height, b2.height, tol)) return `height ${b1.height} against ${b2.height}`;
    } else if (!same()) return moved;
  }
  if (shapeType(sh1) === TABLE) {
    const why = compareTables(sh1, sh2, o);
    if (why) return why;
  }
  if (hasText(sh1) && hasText(sh2)) return compareText(sh1, sh2, o, bullets);
  return null;
}

function compareTables(sh1: Element, sh2: Element, o: Flags): string | null {
  const t1 = tableOf(sh1);
  const t2 = tableOf(sh2);
  if (t1.rows !== t2.rows || t1.columns !== t2.columns)
    return `table ${t1.rows}×${t1.columns} against ${t2.rows}×${t2.columns}`;
  for (let r = 0; r < t1.rows; r++) {
    for (let c = 0; c < t1.columns; c++) {
      const at = `cell (${r}, ${c})`;
      const [ps1, ps2] = [t1.cell(r, c), t2.cell(r, c)];
      if (ps1.length !== ps2.length) return `${at}: ${ps1.length} paragraphs against ${ps2.length}`;
      for (let k = 0; k < ps1.length; k++) {
        const [rs1, rs2] = [runsOf(ps1[k]), runsOf(ps2[k])];
        if (rs1.length !== rs2.length)
          return `${at}, paragraph ${k + 1}: ${rs1.length} runs against ${rs2.length}`;
        for (let m = 0; m < rs1.length; m++) {
          const [f1, f2] = [runFont(rs1[m]), runFont(rs2[m])];
          const run = `${at}, run '${runText(rs1[m])}'`;
          if (f1.rgb !== undefined && f2.rgb !== undefined && f1.rgb !== f2.rgb && o.examine_color_rgb)
            return `${run}: colour ${f1.rgb} against ${f2.rgb}`;
          if (f1.bold !== f2.bold && !(falsy(f1.bold) && falsy(f2.bold)))
            return `${run}: bold ${f1.bold} against ${f2.bold}`;
          if (f1.italic !== f2.italic && !(falsy(f1.italic) && falsy(f2.italic)))
            return `${run}: italic ${f1.italic} against ${f2.italic}`;
          const u = underlineDiffers(f1.underline, f2.underline);
          if (u) return `${run}: underline ${u}`;
        }
      }
    }
  }
  return null;
}

function underlineDiffers(u1: boolean | string | undefined, u2: boolean | string | undefined): string | null {
  if (u1 === u2) return null;
  if (u1 !== undefined && u2 !== undefined) return `${u1} against ${u2}`;
  if ((u1 === undefined && u2 === true) || (u1 === true && u2 === undefined))
    return `${u1 ?? 'None'} against ${u2 ?? 'None'}`;
  return null;
}

function compareText(sh1: Element, sh2: Element, o: Flags, bullets: SlideBullets): string | null {
  const [x1, x2] = [pyStrip(shapeText(sh1)), pyStrip(shapeText(sh2))];
  if (x1 !== x2 && o.examine_text) return `text '${x1}' against '${x2}'`;
  const [ps1, ps2] = [shapeParagraphs(sh1), shapeParagraphs(sh2)];
  if (ps1.length !== ps2.length) return `${ps1.length} paragraphs against ${ps2.length}`;
  for (let k = 0; k < ps1.length; k++) {
    const [p1, p2] = [ps1[k], ps2[k]];
    const at = `paragraph ${k + 1}`;
    if (o.examine_alignment && (alignment(p1) ?? 'l') !== (alignment(p2) ?? 'l'))
      return `${at}: alignment ${alignment(p1) ?? 'l'} against ${alignment(p2) ?? 'l'}`;
    if (paragraphText(p1) !== paragraphText(p2) && o.examine_text)
      return `${at}: text '${paragraphText(p1)}' against '${paragraphText(p2)}'`;
    // reading paragraph.level (and .alignment) makes python-pptx add an empty a:pPr, which the bullet check sees
    bullets.touched.add(p1).add(p2);
    if (level(p1) !== level(p2) && o.examine_indent) return `${at}: level ${level(p1)} against ${level(p2)}`;
    const [rs1, rs2] = [runsOf(p1), runsOf(p2)];
    if (rs1.length !== rs2.length) return `${at}: ${rs1.length} runs against ${rs2.length}`;
    for (let m = 0; m < rs1.length; m++) {
      const [f1, f2] = [runFont(rs1[m]), runFont(rs2[m])];
      const run = `${at}, run '${runText(rs1[m])}'`;
      if (f1.name !== f2.name && o.examine_font_name)
        return `${run}: font ${f1.name ?? 'None'} against ${f2.name ?? 'None'}`;
      if (f1.size !== f2.size && o.examine_font_size)
        return `${run}: size ${f1.size ?? 'None'} against ${f2.size ?? 'None'}`;
      if (f1.bold !== f2.bold && o.examine_font_bold && !(falsy(f1.bold) && falsy(f2.bold)))
        return `${run}: bold ${f1.bold} against ${f2.bold}`;
      if (f1.italic !== f2.italic && o.examine_font_italic && !(falsy(f1.italic) && falsy(f2.italic)))
        return `${run}: italic ${f1.italic} against ${f2.italic}`;
      if (f1.rgb !== undefined && f2.rgb !== undefined && f1.rgb !== f2.rgb && o.examine_color_rgb)
        return `${run}: colour ${f1.rgb} against ${f2.rgb}`;
      const u = o.examine_font_underline ? underlineDiffers(f1.underline, f2.underline) : null;
      if (u) return `${run}: underline ${u}`;
      if (f1.strike !== f2.strike && o.examine_strike_through)
        return `${run}: strike ${f1.strike} against ${f2.strike}`;
      if (o.examine_bullets && !bullets.agree()) return `${run}: the slide's bullets differ`;
    }
  }
  return null;
}
