// OSWorld's Impress metrics (family `slides`; desktop_env/evaluators/metrics/slides.py): compare_pptx_files
// (pptx-compare.ts), the slide size, transitions, background fills, a stretched picture, the master's page-number
// colour, and LibreOffice settings (presenter console, autosave interval) and the Slides pane in the accessibility
// tree. Presentations are read as python-pptx 1.0 reads them (pptx.ts, pptx-shapes.ts: a line break in a paragraph is
// "\v", as python-pptx ≥ 0.6.22 gives it); where python-pptx or the metric raises, the metric scores 0 and names the
// exception (OSWorld's evaluation errors out there).
import { DOMParser } from '@xmldom/xmldom';
import { registerMetricFamily } from '../family';
import { registerDeparture } from '../profile';
import { fail, verdict, type MetricOutcome } from '../metric';
import { brief, isRecord, readBytes, readText } from './inputs';
import {
  attr,
  descendants,
  NS,
  parseXml,
  PptxError,
  readPptx,
  relatedBytes,
  type Presentation,
} from './pptx';
import { comparePresentations } from './pptx-compare';
import { backgroundFill, box, PICTURE, shapeType, slideShapes, srgbOf } from './pptx-shapes';
import JSZip from 'jszip';

const OOR = 'http://openoffice.org/2001/registry';
const quiet = {
  errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined },
};

/** Runs a check that may hit what python-pptx (or the metric itself) raises on: that scores 0, naming it. */
async function guarded(name: string, fn: () => Promise<MetricOutcome>): Promise<MetricOutcome> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof PptxError) return fail(`${name} raises in OSWorld: ${e.message}`);
    throw e;
  }
}

/** python-pptx's Presentation(path): a missing file (a getter's None) opens python-pptx's default template, which
 * has no slides. */
async function presentation(file: unknown): Promise<Presentation> {
  if (file === undefined || file === null)
    return { zip: new JSZip(), width: 9144000, height: 6858000, slides: [], masters: [] };
  const p = await readPptx(file);
  if (typeof p === 'string') throw new PptxError(p);
  return p;
}

/**
 * compare_pptx_files — `result`, `expected`: pptx files; `options`: OSWorld's examine_* switches (defaults as
 * upstream: slide count, shapes, text, indent, font name/size/bold/italic, colour, underline, strike, alignment,
 * bullets, background colour and notes on; the task-specific position checks off) and approximately_tolerance
 * (0.005). 1 when no examined property differs. A missing result reads as python-pptx's empty default template.
 */
async function comparePptxFiles(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  return guarded('compare_pptx_files', async () => {
    const why = comparePresentations(await presentation(result), await presentation(expected), options);
    return verdict(why === null, 'the presentations match in every examined property', why ?? '');
  });
}

/** check_slide_orientation_Portrait — 1 when the slide width is less than its height. */
async function checkSlideOrientationPortrait(result: unknown): Promise<MetricOutcome> {
  return guarded('check_slide_orientation_Portrait', async () => {
    const p = await presentation(result);
    const [w, h] = [p.width ?? 0, p.height ?? 0];
    return verdict(
      w < h,
      `the slides are portrait (${w} × ${h} EMU)`,
      `the slides are not portrait (${w} × ${h} EMU)`,
    );
  });
}

/** check_transition `{slide_idx, transition_type}` — 1 when ppt/slides/slide<idx+1>.xml (the part named so) has a
 * p:transition whose first occurrence holds a p:<transition_type> element. */
async function checkTransition(result: unknown, expected: unknown): Promise<MetricOutcome> {
  return guarded('check_transition', async () => {
    if (
      !isRecord(expected) ||
      typeof expected.slide_idx !== 'number' ||
      typeof expected.transition_type !== 'string'
    ) {
      throw new PptxError(
        `rules need slide_idx (a number) and transition_type (a string), got ${brief(expected)}`,
      );
    }
    const zip = await zipOf(result);
    const name = `ppt/slides/slide${expected.slide_idx + 1}.xml`;
    const part = zip.file(name);
    if (!part) return fail(`${name} does not exist`);
    const transition = descendants(parseXml(await part.async('string')), NS.p, 'transition')[0];
    if (!transition) return fail(`${name} has no transition`);
    const found = descendants(transition, NS.p, expected.transition_type).length > 0;
    return verdict(
      found,
      `slide ${expected.slide_idx + 1} has a ${expected.transition_type} transition`,
      `slide ${expected.slide_idx + 1}'s transition is not ${expected.transition_type}`,
    );
  });
}

async function zipOf(file: unknown): Promise<JSZip> {
  const data = await readBytes(file);
  if (!data) throw new PptxError(`presentation ${brief(file)} cannot be read`);
  try {
    return await JSZip.loadAsync(data);
  } catch {
    throw new PptxError(`${brief(file)} is not a zip file`);
  }
}

function rgbTriple(v: unknown, what: string): [number, number, number] {
  if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'number'))
    throw new PptxError(`${what} must be [r, g, b], got ${brief(v)}`);
  return v as [number, number, number];
}

/**
 * evaluate_presentation_fill_to_rgb_distance `{rgb, original_rgb?}` — 1 minus the mean over slides of the distance
 * from each slide's background colour (its own solid fill, else the master's) to `rgb`, over the RGB cube's
 * diagonal. A slide with no readable solid colour, or still of `original_rgb`, counts the full distance 1.
 */
async function evaluateFillToRgbDistance(result: unknown, expected: unknown): Promise<MetricOutcome> {
  return guarded('evaluate_presentation_fill_to_rgb_distance', async () => {
    if (!isRecord(expected)) throw new PptxError(`rules must be an object, got ${brief(expected)}`);
    const target = rgbTriple(expected.rgb, 'rgb');
    const original =
      expected.original_rgb === undefined || expected.original_rgb === null
        ? undefined
        : rgbTriple(expected.original_rgb, 'original_rgb');
    const p = await presentation(result);
    if (!p.slides.length) throw new PptxError('division by zero: the presentation has no slides');
    const distance = (hex: string | undefined): number => {
      if (hex === undefined) return 1;
      const c = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
      if (original && c.every((x, i) => x === original[i])) return 1;
      return Math.hypot(c[0] - target[0], c[1] - target[1], c[2] - target[2]) / Math.hypot(255, 255, 255);
    };
    const distances = p.slides.map((s) => {
      const fill = backgroundFill(s.doc);
      if (fill.type === 1) return distance(srgbOf(fill.el));
      if (fill.type !== 5) return 1;
      if (!s.master) throw new PptxError(`${s.name} has no slide layout or master`);
      const master = backgroundFill(s.master);
      return master.type === 1 ? distance(srgbOf(master.el)) : 1;
    });
    const score = 1 - distances.reduce((a, b) => a + b, 0) / distances.length;
    return {
      score,
      reason: `background distances to rgb(${target.join(', ')}) per slide: ${distances.map((d) => d.toFixed(3)).join(', ')}`,
    };
  });
}

/** check_image_stretch_and_center — `result`: the modified pptx, `expected`: the original. 1 when the first slide
 * holds a picture with the same bytes as the original's first picture (the last such) that fills the original's
 * slide size and sits centred, each within half an inch. */
async function checkImageStretchAndCenter(result: unknown, expected: unknown): Promise<MetricOutcome> {
  return guarded('check_image_stretch_and_center', async () => {
    const original = await presentation(expected);
    const modified = await presentation(result);
    const [os, ms] = [original.slides[0], modified.slides[0]];
    if (!os || !ms) throw new PptxError('list index out of range: a presentation has no slides');
    const blob = async (pres: Presentation, slide: typeof os, pic: Element) => {
      const rid = attr(descendants(pic, NS.a, 'blip')[0], 'embed', NS.r);
      const bytes = await relatedBytes(pres, slide, rid);
      if (!bytes) throw new PptxError('no embedded image');
      return bytes;
    };
    const pictures = (slide: typeof os) => slideShapes(slide).filter((s) => shapeType(s) === PICTURE);
    const [first] = pictures(os);
    if (!first) return fail('the original first slide has no picture');
    const image = await blob(original, os, first);
    let match: Element | undefined;
    for (const pic of pictures(ms)) if ((await blob(modified, ms, pic)).equals(image)) match = pic;
    if (!match) return fail('the modified first slide has no picture with the original image');
    const b = box(match, ms);
    const [sw, sh] = [original.width ?? 0, original.height ?? 0];
    const need = (v: number | undefined) => {
      if (v === undefined) throw new PptxError('the picture has no position');
      return v;
    };
    const [l, t, w, h] = [need(b.left), need(b.top), need(b.width), need(b.height)];
    const half = 457200;
    const ok =
      Math.abs(w - sw) <= half &&
      Math.abs(h - sh) <= half &&
      Math.abs(l - (sw - w) / 2) <= half &&
      Math.abs(t - (sh - h) / 2) <= half;
    return verdict(
      ok,
      'the picture is stretched to the slide and centred',
      `the picture at (${l}, ${t}) ${w}×${h} EMU does not fill the ${sw}×${sh} slide centred`,
    );
  });
}

/** Python's int(s, 16) over a str slice. */
function hexInt(s: string): number {
  if (!/^\s*[0-9a-fA-F]+\s*$/.test(s)) throw new PptxError(`invalid literal for int() with base 16: '${s}'`);
  return parseInt(s.trim(), 16);
}

/**
 * check_page_number_colors `{color}` — the second-to-last sRGB colour inside a solid fill of
 * ppt/slideMasters/slideMaster1.xml, read as OSWorld does (its characters 1–2, 3–4 and 5–6: the value carries no
 * '#', so the channels are shifted) and tested to be red, blue, green or black by a margin of 50; 1 for any other
 * colour name.
 */
async function checkPageNumberColors(result: unknown, expected: unknown): Promise<MetricOutcome> {
  return guarded('check_page_number_colors', async () => {
    if (!isRecord(expected) || !('color' in expected))
      throw new PptxError(`rules need 'color', got ${brief(expected)}`);
    const zip = await zipOf(result);
    const part = zip.file('ppt/slideMasters/slideMaster1.xml');
    if (!part)
      throw new PptxError("there is no item named 'ppt/slideMasters/slideMaster1.xml' in the archive");
    const colours = descendants(parseXml(await part.async('string')), NS.a, 'solidFill').flatMap((f) =>
      descendants(f, NS.a, 'srgbClr'),
    );
    if (colours.length < 2)
      throw new PptxError('list index out of range: fewer than two sRGB colours in the master');
    const val = attr(colours[colours.length - 2], 'val');
    if (val === undefined) return fail('the page number colour has no value');
    const [r, g, b] = [hexInt(val.slice(1, 3)), hexInt(val.slice(3, 5)), hexInt(val.slice(5, 7))];
    const t = 50;
    const tests: Record<string, boolean> = {
      red: r > g + t && r > b + t,
      blue: b > g + t && b > r + t,
      green: g > r + t && g > b + t,
      black: r < t && g < t && b < t,
    };
    const color = String(expected.color);
    const ok = tests[color] ?? true;
    return verdict(
      ok,
      `the page number colour ${val} counts as ${color}`,
      `the page number colour ${val} (read as ${r}, ${g}, ${b}) is not ${color}`,
    );
  });
}

function parseRegistry(text: string): Document | undefined {
  let bad = false;
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: () => (bad = true), fatalError: () => (bad = true) },
  }).parseFromString(text, 'application/xml');
  return bad || !doc.documentElement ? undefined : doc;
}

/** check_auto_saving_time `{minutes}` — `result`: registrymodifications.xcu; 1 when the last
 * /org.openoffice.Office.Common/Save/Document AutoSaveTimeIntervall value is `minutes`. */
async function checkAutoSavingTime(result: unknown, expected: unknown): Promise<MetricOutcome> {
  return guarded('check_auto_saving_time', async () => {
    if (!isRecord(expected) || !('minutes' in expected))
      throw new PptxError(`rules need 'minutes', got ${brief(expected)}`);
    const text = await readText(result);
    if (text === undefined) return fail(`config file ${brief(result)} cannot be read`);
    const doc = parseRegistry(text);
    if (!doc) return fail(`config file ${brief(result)} is not well-formed XML`);
    let value: string | null | undefined;
    for (const item of Array.from(doc.getElementsByTagName('item'))) {
      if (item.getAttributeNS(OOR, 'path') !== '/org.openoffice.Office.Common/Save/Document') continue;
      const prop = Array.from(item.getElementsByTagName('prop')).find(
        (p) => p.getAttributeNS(OOR, 'name') === 'AutoSaveTimeIntervall',
      );
      if (!prop) continue;
      const v = prop.getElementsByTagName('value')[0];
      if (!v)
        throw new PptxError("'NoneType' object has no attribute 'text' (AutoSaveTimeIntervall has no value)");
      value = v.textContent || null;
    }
    if (value === undefined) return fail('AutoSaveTimeIntervall is not set');
    if (value === null || !/^\s*[+-]?\d+\s*$/.test(value))
      throw new PptxError(`int() cannot read AutoSaveTimeIntervall '${value ?? 'None'}'`);
    const minutes = Number(value);
    return verdict(
      minutes === expected.minutes,
      `autosave runs every ${minutes} minutes`,
      `autosave runs every ${minutes} minutes, not ${brief(expected.minutes)}`,
    );
  });
}

/** check_left_panel — `result`: the accessibility tree (XML text); 1 when a document-frame is named "Slides View"
 * (the Slides pane is open). */
async function checkLeftPanel(result: unknown): Promise<MetricOutcome> {
  return guarded('check_left_panel', async () => {
    if (typeof result !== 'string')
      throw new PptxError(`the accessibility tree must be XML text, got ${brief(result)}`);
    const doc = parseRegistry(result);
    if (!doc) throw new PptxError('the accessibility tree is not well-formed XML');
    const frames = Array.from(doc.getElementsByTagName('document-frame')).filter((f) => !f.namespaceURI);
    const open = frames.some((f) => f.getAttribute('name') === 'Slides View');
    return verdict(
      open,
      'the Slides pane is open',
      'no document-frame is named "Slides View": the Slides pane is closed',
    );
  });
}

/** check_presenter_console_disable — `result`: registrymodifications.xcu; 1 when the first
 * Impress/Misc/Start EnablePresenterScreen item is `false`. */
async function checkPresenterConsoleDisable(result: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`config file ${brief(result)} cannot be read`);
  const doc = new DOMParser(quiet).parseFromString(text, 'application/xml');
  for (const item of Array.from(doc.getElementsByTagName('item'))) {
    if (item.getAttributeNS(OOR, 'path') !== '/org.openoffice.Office.Impress/Misc/Start') continue;
    for (const prop of Array.from(item.childNodes)) {
      const p = prop as Element;
      if (
        p.nodeType !== 1 ||
        p.localName !== 'prop' ||
        p.getAttributeNS(OOR, 'name') !== 'EnablePresenterScreen'
      )
        continue;
      const value =
        Array.from(p.childNodes).find((n) => (n as Element).localName === 'value')?.textContent ?? '';
      return verdict(
        value.toLowerCase() === 'false',
        'the presenter console is disabled',
        `EnablePresenterScreen is '${value}'`,
      );
    }
  }
  return fail('EnablePresenterScreen is not set (the presenter console is on by default)');
}

registerMetricFamily('slides', {
  check_presenter_console_disable: checkPresenterConsoleDisable,
  compare_pptx_files: comparePptxFiles,
  check_slide_orientation_Portrait: checkSlideOrientationPortrait,
  check_transition: checkTransition,
  check_left_panel: checkLeftPanel,
  check_auto_saving_time: checkAutoSavingTime,
  check_page_number_colors: checkPageNumberColors,
  evaluate_presentation_fill_to_rgb_distance: evaluateFillToRgbDistance,
  check_image_stretch_and_center: checkImageStretchAndCenter,
});

for (const metric of [
  'compare_pptx_files',
  'check_image_stretch_and_center',
  'evaluate_presentation_fill_to_rgb_distance',
  'check_page_number_colors',
  'check_transition',
]) {
  registerDeparture({
    metric,
    profile: 'osworld',
    case: 'python-pptx raises',
    why: "where python-pptx or the metric raises (a scheme-coloured background, a shape python-pptx cannot type, notes without a body placeholder, a file that is no pptx), OSWorld's evaluation stops with an exception; Proctor scores 0 and names it",
  });
}
registerDeparture({
  metric: 'check_auto_saving_time',
  profile: 'osworld',
  case: 'unreadable config',
  why: 'OSWorld returns None for a missing or malformed registrymodifications.xcu; Proctor scores 0',
});
