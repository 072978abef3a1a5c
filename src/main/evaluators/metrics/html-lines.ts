// An HTML page printed the way OSWorld's compare_epub prints one before diffing its lines: lxml.html parses it
// with its newlines removed and `tostring(pretty_print=True)` writes it with libxml2's HTML serializer, which
// puts no indentation, only a newline after the start tag, before the end tag and after the end of block
// (not inline) HTML 4 elements whose neighbours are elements; whitespace text is kept as lxml keeps it. Parsed
// here with htmlparser2: the HTML libxml2 repairs differently (misnested or implied elements) is a departure
// registered by epub.ts. Checked against lxml 4.9.2 / libxml2 2.9.14 on LibreOffice's and calibre-like pages.
import { parseDocument } from 'htmlparser2';
import type { AnyNode, Element } from 'domhandler';

const INLINE = new Set(
  'a abbr acronym applet b basefont bdo big br button cite code del dfn em embed font i iframe img input ins kbd label map object q s samp script select small span strike strong sub sup textarea tt u var'.split(
    ' ',
  ),
);
const VOID = new Set('area base basefont br col embed frame hr img input isindex link meta param'.split(' '));
const BLOCK = new Set(
  'address blockquote body caption center colgroup dd dir div dl dt fieldset form frameset h1 h2 h3 h4 h5 h6 head html legend li menu noframes noscript ol optgroup option p pre style table tbody td tfoot th thead title tr ul'.split(
    ' ',
  ),
);
const known = (name: string) => INLINE.has(name) || VOID.has(name) || BLOCK.has(name);

const isText = (n: AnyNode | null | undefined) => n?.type === 'text';
const isElement = (n: AnyNode | null | undefined): n is Element =>
  n?.type === 'tag' || n?.type === 'script' || n?.type === 'style';

/** Drops what the printed root never shows (doctype, processing instructions) and relinks siblings. */
function clean(n: AnyNode): void {
  if (!('children' in n)) return;
  n.children = n.children.filter((c) => c.type !== 'directive');
  n.children.forEach((c, i) => {
    c.prev = n.children[i - 1] ?? null;
    c.next = n.children[i + 1] ?? null;
    clean(c);
  });
}

const UNRESERVED = /[A-Za-z0-9\-_.!~*'()@/:=?;#%&,+<>]/;
function uriEscape(v: string): string {
  let out = '';
  for (const ch of v.replace(/^[ \t\n\r]+/, '')) {
    if (UNRESERVED.test(ch)) out += ch;
    else
      for (const byte of Buffer.from(ch, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function attributes(el: Element): string {
  let out = '';
  for (const [name, value] of Object.entries(el.attribs)) {
    const uri = ['href', 'action', 'src'].includes(name) || (name === 'name' && el.name === 'a');
    const v = uri ? uriEscape(value) : value;
    out += v.includes('"') ? ` ${name}='${v}'` : ` ${name}="${v}"`;
  }
  return out;
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function print(n: AnyNode, out: string[]): void {
  if (n.type === 'text') {
    const raw = isElement(n.parent) && (n.parent.name === 'script' || n.parent.name === 'style');
    out.push(raw ? n.data : escapeText(n.data));
    return;
  }
  if (n.type === 'comment') {
    out.push(`<!--${n.data}-->`);
    return;
  }
  if (n.type === 'cdata') {
    for (const c of n.children) print(c, out);
    return;
  }
  if (!isElement(n)) return;
  const format = known(n.name) && !INLINE.has(n.name);
  const newlineAfter = () => {
    if (format && n.next && !isText(n.next) && isElement(n.parent) && !n.parent.name.startsWith('p'))
      out.push('\n');
  };
  const [first] = Object.entries(n.attribs);
  if (n.name === 'meta' && first?.[0] === 'http-equiv' && first[1] === 'Content-Type') {
    // libxml2 leaves out a Content-Type declaration it did not write itself (the newline after it stays)
    newlineAfter();
    return;
  }
  out.push(`<${n.name}${attributes(n)}`);
  if (VOID.has(n.name)) {
    out.push('>');
    newlineAfter();
    return;
  }
  const kids = n.children;
  if (kids.length === 0) {
    out.push(`></${n.name}>`);
    newlineAfter();
    return;
  }
  out.push('>');
  const spaced = format && kids.length > 1 && !n.name.startsWith('p');
  if (spaced && !isText(kids[0])) out.push('\n');
  for (const c of kids) print(c, out);
  if (spaced && !isText(kids.at(-1))) out.push('\n');
  out.push(`</${n.name}>`);
  newlineAfter();
}

/** The page as lxml would print it for compare_epub (newlines removed first, then pretty-printed). */
export function lxmlPrettyHtml(source: string): string {
  const doc = parseDocument(source.replace(/[\r\n]/g, ''), {
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
    recognizeSelfClosing: true,
    decodeEntities: true,
  });
  clean(doc);
  const root =
    doc.children.find((c): c is Element => isElement(c) && c.name === 'html') ?? doc.children.find(isElement);
  if (!root) return '';
  const out: string[] = [];
  print(root, out);
  return out.join('') + '\n';
}
