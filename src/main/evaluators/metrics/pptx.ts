// Reading PowerPoint packages (pptx) as python-pptx presents them to OSWorld's Impress metrics: the presentation's
// slides in their list order, each with its layout, master and notes part, the slide size, and any part's bytes.
// Parsed with jszip and @xmldom/xmldom; shapes, text and fills are read in pptx-shapes.ts.
import { posix } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import JSZip from 'jszip';
import { readBytes, sharedValue, zipError } from './inputs';

export const NS = {
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  rel: 'http://schemas.openxmlformats.org/package/2006/relationships',
} as const;

/** What python-pptx would raise on: OSWorld's metric then fails with an exception instead of a score. */
export class PptxError extends Error {}

export interface Relationship {
  id: string;
  type: string;
  /** The target as written (relative to the part's folder, or an external URL). */
  target: string;
  /** The target part's name inside the package (undefined for an external target). */
  part?: string;
}

export interface SlidePart {
  /** Part name, e.g. ppt/slides/slide3.xml (not necessarily the slide's position). */
  name: string;
  doc: Document;
  rels: Relationship[];
  layout?: Document;
  master?: Document;
  /** The notes slide, when the slide has one. */
  notes?: Document;
}

export interface Presentation {
  zip: JSZip;
  /** p:sldSz cx / cy in EMU (undefined when the presentation sets none). */
  width?: number;
  height?: number;
  slides: SlidePart[];
  masters: Document[];
  notesMaster?: Document;
}

const quiet = {
  errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined },
};

export function parseXml(text: string): Document {
  return new DOMParser(quiet).parseFromString(text, 'application/xml');
}

/** Element children of `el` in namespace `ns` with local name `local` (any name when omitted). */
export function kids(el: Element | Document | null | undefined, ns?: string, local?: string): Element[] {
  const out: Element[] = [];
  if (!el) return out;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    if ((ns === undefined || e.namespaceURI === ns) && (local === undefined || e.localName === local))
      out.push(e);
  }
  return out;
}

export function kid(
  el: Element | Document | null | undefined,
  ns: string,
  local: string,
): Element | undefined {
  return kids(el, ns, local)[0];
}

/** Follows a path of child names (`p:cSld`, `p:bg`, …) from `el`. */
export function path(el: Element | Document | null | undefined, ...steps: string[]): Element | undefined {
  let cur: Element | Document | undefined = el ?? undefined;
  for (const step of steps) {
    const [prefix, local] = step.split(':') as [keyof typeof NS, string];
    cur = kid(cur, NS[prefix], local);
    if (!cur) return undefined;
  }
  return cur as Element | undefined;
}

/** Descendants of `el` (document order) in namespace `ns` named `local`. */
export function descendants(el: Element | Document, ns: string, local: string): Element[] {
  return Array.from(el.getElementsByTagNameNS(ns, local));
}

export function attr(el: Element | undefined, name: string, ns?: string): string | undefined {
  if (!el) return undefined;
  const v = ns ? el.getAttributeNS(ns, name) : el.getAttribute(name);
  return v === null || (v === '' && !(ns ? el.hasAttributeNS(ns, name) : el.hasAttribute(name)))
    ? undefined
    : v;
}

/** An integer attribute, as python-pptx's ST_Coordinate / int types read it (undefined when absent). */
export function intAttr(el: Element | undefined, name: string): number | undefined {
  const v = attr(el, name);
  if (v === undefined) return undefined;
  if (!/^[+-]?\d+$/.test(v.trim())) throw new PptxError(`'${v}' is not an integer (${name})`);
  return Number(v);
}

async function partXml(zip: JSZip, name: string): Promise<Document | undefined> {
  const f = zip.file(name);
  return f ? parseXml(await f.async('string')) : undefined;
}

function relsName(part: string): string {
  return posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
}

/** The relationships of one part, targets resolved to part names. */
export async function relationships(zip: JSZip, part: string): Promise<Relationship[]> {
  const doc = await partXml(zip, relsName(part));
  if (!doc) return [];
  return kids(doc.documentElement, NS.rel, 'Relationship').map((r) => {
    const target = r.getAttribute('Target') ?? '';
    const external = r.getAttribute('TargetMode') === 'External';
    const resolved = target.startsWith('/')
      ? target.slice(1)
      : posix.normalize(posix.join(posix.dirname(part), target));
    return {
      id: r.getAttribute('Id') ?? '',
      type: r.getAttribute('Type') ?? '',
      target,
      part: external ? undefined : resolved,
    };
  });
}

const relOfType = (rels: Relationship[], kind: string) => rels.find((r) => r.type.endsWith(`/${kind}`));

async function loadPresentation(data: Buffer): Promise<Presentation> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch (e) {
    throw new PptxError(`not a pptx package (${zipError(e)})`);
  }
  const rootRels = await relationships(zip, '');
  const main = relOfType(rootRels, 'officeDocument')?.part ?? 'ppt/presentation.xml';
  const pres = await partXml(zip, main);
  if (!pres?.documentElement || pres.documentElement.localName !== 'presentation')
    throw new PptxError(`no presentation part (${main})`);
  const presRels = await relationships(zip, main);
  const size = path(pres.documentElement, 'p:sldSz');
  const slides: SlidePart[] = [];
  for (const id of kids(path(pres.documentElement, 'p:sldIdLst'), NS.p, 'sldId')) {
    const rid = attr(id, 'id', NS.r);
    const name = presRels.find((r) => r.id === rid)?.part;
    const doc = name ? await partXml(zip, name) : undefined;
    if (!name || !doc) throw new PptxError(`slide relationship '${rid}' names no part`);
    const rels = await relationships(zip, name);
    const layoutName = relOfType(rels, 'slideLayout')?.part;
    const layout = layoutName ? await partXml(zip, layoutName) : undefined;
    const masterName = layoutName
      ? relOfType(await relationships(zip, layoutName), 'slideMaster')?.part
      : undefined;
    const notesName = relOfType(rels, 'notesSlide')?.part;
    slides.push({
      name,
      doc,
      rels,
      layout,
      master: masterName ? await partXml(zip, masterName) : undefined,
      notes: notesName ? await partXml(zip, notesName) : undefined,
    });
  }
  const masters: Document[] = [];
  for (const id of kids(path(pres.documentElement, 'p:sldMasterIdLst'), NS.p, 'sldMasterId')) {
    const name = presRels.find((r) => r.id === attr(id, 'id', NS.r))?.part;
    const doc = name ? await partXml(zip, name) : undefined;
    if (doc) masters.push(doc);
  }
  const nm = relOfType(presRels, 'notesMaster')?.part;
  return {
    zip,
    width: intAttr(size, 'cx'),
    height: intAttr(size, 'cy'),
    slides,
    masters,
    notesMaster: nm ? await partXml(zip, nm) : undefined,
  };
}

/** The presentation at host path `file` (read once within `withSharedReads`); a string says why it cannot be read
 * (a missing file, or what python-pptx's Presentation() would raise on). Callers must not change it. */
export function readPptx(file: unknown): Promise<Presentation | string> {
  return sharedValue(`pptx:${String(file)}`, async () => {
    const data = await readBytes(file);
    if (!data) return `presentation ${String(file)} cannot be read`;
    try {
      return await loadPresentation(data);
    } catch (e) {
      return `presentation ${String(file)}: ${(e as Error).message}`;
    }
  });
}

/** The bytes of the part a relationship of `slide` points at (python-pptx's image.blob), or undefined. */
export async function relatedBytes(
  pres: Presentation,
  slide: SlidePart,
  rid: string | undefined,
): Promise<Buffer | undefined> {
  const part = slide.rels.find((r) => r.id === rid)?.part;
  const f = part ? pres.zip.file(part) : null;
  return f ? Buffer.from(await f.async('uint8array')) : undefined;
}
