// HTML read as OSWorld's compare_htmls reads it — BeautifulSoup over lxml — on htmlparser2's tree: libxml2's
// implied <html>/<head>/<body> (and the <p> it puts around bare text), its dropping of whitespace-only text where
// it deems it ignorable, then BeautifulSoup's walk over every node (recursiveChildGenerator), a tag's `.text`
// (strings inside <script>/<style>/<template> count only for those tags) and its attributes (class, rel, … as
// lists of words).
import { parseDocument } from 'htmlparser2';
import {
  Element,
  Text,
  Comment,
  ProcessingInstruction,
  CDATA,
  type AnyNode,
  type ParentNode,
  Document,
} from 'domhandler';

/** One node of BeautifulSoup's walk: a tag, or a string (text, comment, doctype). */
export type SoupNode =
  { tag: string; text: string; attrs: Record<string, string | string[]> } | { string: string };

/** Elements in which libxml2 keeps whitespace-only text (its allowPCData list). */
const allowPCData = new Set(
  'a abbr acronym address applet b bdo big blockquote body button caption center cite code dd del dfn div dt em font form h1 h2 h3 h4 h5 h6 i iframe ins kbd label legend li map menu object ol p pre q s samp small span strike strong td th tt u ul var'.split(
    ' ',
  ),
);
/** Elements libxml2 puts in an implied <head>. */
const headElements = new Set(['title', 'meta', 'link', 'style', 'script', 'base']);
/** BeautifulSoup's multi-valued attributes (lxml builder's cdata_list_attributes). */
const listAttributes: Record<string, string[]> = {
  '*': ['class', 'accesskey', 'dropzone'],
  a: ['rel', 'rev'],
  link: ['rel', 'rev'],
  td: ['headers'],
  th: ['headers'],
  form: ['accept-charset'],
  object: ['archive'],
  area: ['rel'],
  icon: ['sizes'],
  iframe: ['sandbox'],
  output: ['for'],
};
/** Tags whose strings BeautifulSoup types apart (Script, Stylesheet, TemplateString). */
const stringContainers = new Set(['script', 'style', 'template']);

const isBlank = (s: string) => /^[ \t\r\n\f]*$/.test(s);
const isTag = (n: AnyNode): n is Element => n instanceof Element;

function wrap(parent: ParentNode, nodes: AnyNode[], name: string, at: number): Element {
  const el = new Element(name, {}, []);
  for (const n of nodes) {
    const i = parent.children.indexOf(n);
    if (i >= 0) parent.children.splice(i, 1);
    n.parent = el;
    el.children.push(n);
  }
  el.parent = parent;
  parent.children.splice(at, 0, el);
  relink(el);
  relink(parent);
  return el;
}

function relink(p: ParentNode): void {
  p.children.forEach((c, i) => {
    c.prev = p.children[i - 1] ?? null;
    c.next = p.children[i + 1] ?? null;
    c.parent = p;
  });
}

/** Gives the document libxml2's shape: one <html>, with <head> content and <body> content under their tags. */
function imply(doc: Document): void {
  let html = doc.children.find((n): n is Element => isTag(n) && n.name === 'html');
  if (!html) {
    const first = doc.children.findIndex((n) => isTag(n) || (n instanceof Text && !isBlank(n.data)));
    if (first < 0) return;
    html = wrap(
      doc,
      doc.children.slice(first).filter((n) => !(n instanceof ProcessingInstruction)),
      'html',
      first,
    );
  }
  if (html.children.some((n) => isTag(n) && n.name === 'body')) return;
  const hasHead = html.children.some((n) => isTag(n) && n.name === 'head');
  const kids = [...html.children];
  let i = hasHead ? kids.findIndex((n) => isTag(n) && n.name === 'head') + 1 : 0;
  if (!hasHead) {
    const start = i;
    while (
      i < kids.length &&
      (!isTag(kids[i])
        ? kids[i] instanceof Comment || (kids[i] instanceof Text && isBlank((kids[i] as Text).data))
        : headElements.has((kids[i] as Element).name))
    )
      i++;
    const head = kids.slice(start, i);
    if (head.some(isTag)) wrap(html, head, 'head', html.children.indexOf(head[0]));
  }
  const rest = kids.slice(i);
  const firstContent = rest.findIndex((n) => isTag(n) || (n instanceof Text && !isBlank(n.data)));
  if (firstContent < 0) return;
  const body = wrap(html, rest.slice(firstContent), 'body', html.children.indexOf(rest[firstContent]));
  // libxml2 puts bare text met at the <html> / <head> level inside a <p>
  for (const n of [...body.children])
    if (n instanceof Text && !isBlank(n.data) && rest.includes(n))
      wrap(body, [n], 'p', body.children.indexOf(n));
}

/** libxml2's areBlanks: whether a whitespace-only text node is dropped. */
function ignorable(t: Text, last: boolean, html4: boolean): boolean {
  if (last) return true;
  const p = t.parent;
  if (!p || !isTag(p) || p.name === 'html' || p.name === 'head') return true;
  if (p.name === 'body' && html4) return true;
  let prev = t.prev;
  while (prev && prev instanceof Comment) prev = prev.prev;
  if (!prev) return !allowPCData.has(p.name);
  if (prev instanceof Text) return false;
  return isTag(prev) ? !allowPCData.has(prev.name) : true;
}

function* walk(nodes: AnyNode[]): Generator<AnyNode> {
  for (const n of nodes) {
    yield n;
    if ('children' in n && !(n instanceof CDATA)) yield* walk((n as ParentNode).children);
  }
}

function dropBlanks(doc: Document): void {
  const doctype = doc.children.find(
    (n): n is ProcessingInstruction => n instanceof ProcessingInstruction && /^!doctype/i.test(n.data),
  );
  const html4 = !!doctype && /-\/\/W3C\/\/DTD HTML 4(\.01)?\/\/EN/i.test(doctype.data);
  const all = [...walk(doc.children)];
  const lastText = all.at(-1);
  for (const n of all) {
    if (!(n instanceof Text) || !isBlank(n.data)) continue;
    if (n.parent && isTag(n.parent) && ['script', 'style', 'textarea', 'title'].includes(n.parent.name))
      continue;
    if (ignorable(n, n === lastText, html4)) {
      const p = n.parent as ParentNode | null;
      if (p) {
        p.children.splice(p.children.indexOf(n), 1);
        relink(p);
      }
    }
  }
}

/** The strings of `el` that BeautifulSoup's `.text` joins. */
function soupText(el: Element): string {
  const own = stringContainers.has(el.name) ? el.name : '';
  let out = '';
  const visit = (n: AnyNode, container: string) => {
    if (n instanceof Text) {
      if (container === own) out += n.data;
    } else if (isTag(n)) {
      const c = stringContainers.has(n.name) ? n.name : container;
      for (const k of n.children) visit(k, c);
    }
  };
  for (const k of el.children) visit(k, own);
  return out;
}

function soupAttrs(el: Element): Record<string, string | string[]> {
  const lists = new Set([...listAttributes['*'], ...(listAttributes[el.name] ?? [])]);
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(el.attribs))
    out[k] = lists.has(k) ? v.split(/[ \t\n\r\f\v]+/).filter(Boolean) : v;
  return out;
}

/** BeautifulSoup(html, 'lxml').recursiveChildGenerator(), as tags and strings. */
export function soupNodes(html: string): SoupNode[] {
  const doc = parseDocument(html, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  imply(doc);
  dropBlanks(doc);
  const out: SoupNode[] = [];
  for (const n of walk(doc.children)) {
    if (isTag(n)) out.push({ tag: n.name, text: soupText(n).trim(), attrs: soupAttrs(n) });
    else if (n instanceof Text) out.push({ string: n.data });
    else if (n instanceof Comment) out.push({ string: n.data });
    else if (n instanceof ProcessingInstruction && /^!doctype/i.test(n.data))
      out.push({ string: n.data.replace(/^!doctype\s*/i, '') });
  }
  return out;
}

function sameAttrs(a: Record<string, string | string[]>, b: Record<string, string | string[]>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** OSWorld's compare_elements: two tags agree in name, stripped text and attributes; two strings are equal. */
export function sameSoupNode(a: SoupNode, b: SoupNode): boolean {
  if ('tag' in a && 'tag' in b) return a.tag === b.tag && a.text === b.text && sameAttrs(a.attrs, b.attrs);
  if ('string' in a && 'string' in b) return a.string === b.string;
  return false;
}
