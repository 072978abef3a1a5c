// Reading OpenDocument text (.odt) as odfpy's `load` presents it to OSWorld's metrics: content.xml, then
// styles.xml, walked in document order. Paragraphs (every text:p, headers and footers included) have the text
// OSWorld's docs.py takes from them: the paragraph's own text nodes and those directly inside its text:span
// children (no text:s, text:tab, links or nested spans). Parsed with jszip and @xmldom/xmldom.
import { DOMParser } from '@xmldom/xmldom';
import JSZip from 'jszip';
import { readBytes, sharedValue, zipError } from './inputs';

const TEXT = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';
const STYLE = 'urn:oasis:names:tc:opendocument:xmlns:style:1.0';
const OFFICE = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';

export interface OdtStyle {
  name: string;
  /** The style's child elements (style:text-properties, style:paragraph-properties, …). */
  properties: Element[];
}

export interface Odt {
  /** Paragraph texts as OSWorld's `get_paragraph_texts_odt` builds them. */
  paragraphs: string[];
  /** text:style-name of every text:span (undefined when it has none), in document order. */
  spanStyles: (string | undefined)[];
  /** office:automatic-styles of content.xml, then of styles.xml (odfpy merges both). */
  automaticStyles: OdtStyle[];
}

const elements = (n: Node): Element[] => {
  const out: Element[] = [];
  for (let c = n.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
};

function paragraphText(p: Element): string {
  let text = '';
  for (let n = p.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3 || n.nodeType === 4) text += n.nodeValue ?? '';
    else if (
      n.nodeType === 1 &&
      (n as Element).namespaceURI === TEXT &&
      (n as Element).localName === 'span'
    ) {
      for (let c = n.firstChild; c; c = c.nextSibling)
        if (c.nodeType === 3 || c.nodeType === 4) text += c.nodeValue ?? '';
    }
  }
  return text;
}

function walk(root: Element, into: Odt): void {
  const visit = (e: Element) => {
    if (e.namespaceURI === TEXT && e.localName === 'p') into.paragraphs.push(paragraphText(e));
    if (e.namespaceURI === TEXT && e.localName === 'span')
      into.spanStyles.push(e.getAttributeNS(TEXT, 'style-name') || undefined);
    if (e.namespaceURI === OFFICE && e.localName === 'automatic-styles') {
      for (const s of elements(e))
        into.automaticStyles.push({ name: s.getAttributeNS(STYLE, 'name') ?? '', properties: elements(s) });
    }
    for (const c of elements(e)) visit(c);
  };
  visit(root);
}

async function parseOdt(bytes: Buffer): Promise<Odt | string> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (e) {
    return `not an OpenDocument (ZIP) file: ${zipError(e)}`;
  }
  if (!zip.file('META-INF/manifest.xml'))
    return 'not an OpenDocument file: no META-INF/manifest.xml (odfpy cannot load it)';
  const odt: Odt = { paragraphs: [], spanStyles: [], automaticStyles: [] };
  const quiet = {
    errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined },
  };
  for (const name of ['content.xml', 'styles.xml']) {
    const part = zip.file(name);
    if (!part) continue;
    const doc = new DOMParser(quiet).parseFromString(await part.async('string'), 'application/xml');
    if (doc.documentElement) walk(doc.documentElement as unknown as Element, odt);
  }
  return odt;
}

/** The document at `path` (shared within a grading), or why it cannot be read. */
export async function loadOdt(path: unknown): Promise<Odt | string> {
  const bytes = await readBytes(path);
  if (!bytes) return `file ${typeof path === 'string' ? path : String(path)} cannot be read`;
  return sharedValue(`odt:${String(path)}`, () => parseOdt(bytes));
}

/** fo:background-color of a property element, as odfpy's `getAttribute('backgroundcolor')` returns it. */
export function backgroundColor(props: Element): string | undefined {
  return (
    props.getAttributeNS('urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0', 'background-color') ||
    undefined
  );
}
