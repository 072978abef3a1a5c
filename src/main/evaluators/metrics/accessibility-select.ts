// Element selection over OSWorld's accessibility XML for check_accessibility_tree, as lxml does it: CSS selectors
// the way lxml's CSSSelector (cssselect's GenericTranslator plus lxml's :contains()) selects, and XPath 1.0 the way
// `element.xpath(expr, namespaces=…)` does, both with OSWorld's namespace prefixes (`st:`, `attr:`, `cp:` …).
// The DOM is @xmldom/xmldom's; XPath is the npm package `xpath`; CSS is parsed by css-what and matched by
// css-select through a small adapter over the xmldom tree. The glue here only maps cssselect's rules onto
// css-select: `ns|attr` becomes the attribute in the namespace the prefix stands for, pseudo-classes cssselect does
// not know are refused as it refuses them, and those it never matches (:hover, :checked …) match nothing.
import { DOMParser } from '@xmldom/xmldom';
import { selectAll, type Options } from 'css-select';
import { parse as parseCss, SelectorType, type Selector } from 'css-what';
import * as xpath from 'xpath';

/** OSWorld's namespace prefixes per `osname` (general.py's `_accessibility_ns_map`). */
export const ACCESSIBILITY_NAMESPACES: Record<string, Record<string, string>> = Object.fromEntries(
  (['ubuntu', 'windows', 'macos'] as const).map((os) => {
    const base = `https://accessibility.${os}.example.org/ns`;
    const names = {
      ubuntu: ['st', 'attr', 'cp', 'doc', 'docattr', 'txt', 'val', 'act'],
      windows: ['st', 'attr', 'cp', 'doc', 'docattr', 'txt', 'val', 'act', 'class'],
      macos: ['st', 'attr', 'cp', 'doc', 'txt', 'val', 'act', 'role'],
    }[os];
    const path: Record<string, string> = {
      st: 'state',
      attr: 'attributes',
      cp: 'component',
      doc: 'document',
      docattr: 'document/attributes',
      txt: 'text',
      val: 'value',
      act: 'action',
      class: 'class',
      role: 'role',
    };
    return [os, Object.fromEntries(names.map((p) => [p, `${base}/${path[p]}`]))];
  }),
);

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const XMLNS = 'http://www.w3.org/2000/xmlns/';
const XML = 'http://www.w3.org/XML/1998/namespace';

/** Parses the XML as lxml.etree.fromstring does for a str: malformed XML, or a str declaring an encoding, is an error. */
export function parseAccessibilityDocument(xml: string): Document {
  if (/^\s*<\?xml[^>]*\bencoding\s*=/.test(xml))
    throw new Error(
      'the accessibility tree is a string with an encoding declaration, which lxml refuses (ValueError)',
    );
  const problems: string[] = [];
  const record = (m: string): void => void problems.push(m);
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: record, fatalError: record },
  }).parseFromString(xml, 'application/xml');
  if (problems.length || !doc.documentElement)
    throw new Error(`the accessibility tree is not well-formed XML: ${problems[0] ?? 'no root element'}`);
  dropNamespaceDeclarations(doc.documentElement);
  return doc;
}

/**
 * Namespace declarations are no attributes in XPath's data model (lxml's `//@*` never lists them), but xmldom keeps
 * them as attributes and the xpath package would select them; every node already carries its namespace URI, so
 * they are removed once parsed. The cost: XPath's namespace:: axis sees only the xml namespace.
 */
function dropNamespaceDeclarations(root: Element): void {
  const stack: Element[] = [root];
  for (let el = stack.pop(); el; el = stack.pop()) {
    const attrs = el.attributes;
    for (let i = attrs.length - 1; i >= 0; i--) {
      const a = attrs.item(i)!;
      if (a.namespaceURI === XMLNS) el.removeAttributeNode(a);
    }
    for (let c = el.firstChild; c; c = c.nextSibling) if (isElement(c)) stack.push(c);
  }
}

/** lxml's `element.text`: the text before the element's first child node; null when there is none. */
export function leadingText(el: Element): string | null {
  let text = '';
  for (let c = el.firstChild; c && (c.nodeType === TEXT || c.nodeType === CDATA); c = c.nextSibling)
    text += c.nodeValue ?? '';
  return text === '' ? null : text;
}

// ---- CSS: css-select over the xmldom tree ----

/** An attribute or element name in a namespace, as the adapter reads it: `{uri}local` (Clark notation). */
const clark = (uri: string, local: string): string => `{${uri}}${local}`;
/** A name cssselect turns into a `name() = '…'` test that no node can pass (`*|x`). */
const NEVER_NAME = '{*}';

function attributeOf(el: Element, name: string): Attr | undefined {
  const attrs = el.attributes;
  const m = /^\{(.*)\}(.*)$/.exec(name);
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i)!;
    if (a.namespaceURI === XMLNS) continue; // declarations are no attributes in XPath's data model
    if (
      m
        ? a.namespaceURI === m[1] && a.localName === m[2]
        : name.includes(':')
          ? a.name === name
          : !a.namespaceURI && (a.localName ?? a.name) === name
    )
      return a;
  }
  return undefined;
}

function elementName(el: Element): string {
  const local = el.localName ?? el.tagName;
  return el.namespaceURI ? clark(el.namespaceURI, local) : local;
}

function siblingsOf(n: Node): Node[] {
  return n.parentNode ? Array.from(n.parentNode.childNodes) : [n];
}

const isElement = (n: Node): n is Element => n.nodeType === ELEMENT;

const adapter: NonNullable<Options<Node, Element>['adapter']> = {
  isTag: isElement,
  getAttributeValue: (el, name) => attributeOf(el, name)?.value,
  hasAttrib: (el, name) => attributeOf(el, name) !== undefined,
  getChildren: (n) => Array.from(n.childNodes),
  getName: elementName,
  getParent: (n) => n.parentNode,
  getSiblings: siblingsOf,
  prevElementSibling: (n) => {
    let p = n.previousSibling;
    while (p && !isElement(p)) p = p.previousSibling;
    return p;
  },
  // XPath's string value: the text of every descendant text and CDATA node.
  getText: (n) => n.textContent ?? '',
  removeSubsets: (nodes) => {
    const kept = nodes.filter((n, i) => nodes.indexOf(n) === i);
    return kept.filter((n) => {
      for (let p = n.parentNode; p; p = p.parentNode) if (kept.includes(p)) return false;
      return true;
    });
  },
};

/** cssselect's pseudo-classes that never match in a generic XML document. */
const NEVER_MATCHING = [
  'link',
  'visited',
  'hover',
  'active',
  'focus',
  'target',
  'enabled',
  'disabled',
  'checked',
];
/** The pseudo-classes cssselect knows (besides the selector-taking ones), and whether each takes an argument. */
const KNOWN_PSEUDOS: Record<string, boolean> = {
  ...Object.fromEntries(NEVER_MATCHING.map((p) => [p, false])),
  ...Object.fromEntries(
    [
      'root',
      'scope',
      'empty',
      'first-child',
      'last-child',
      'only-child',
      'first-of-type',
      'last-of-type',
      'only-of-type',
    ].map((p) => [p, false]),
  ),
  ...Object.fromEntries(
    ['nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type', 'lang', 'contains'].map((p) => [
      p,
      true,
    ]),
  ),
};
const SUBSELECTS = ['not', 'is', 'where', 'matches', 'has'];

/** XPath's lang(): the nearest xml:lang equals the argument or starts with it and a hyphen, ignoring case. */
function xmlLang(el: Element, arg: string | null | undefined): boolean {
  const want = String(arg ?? '')
    .replace(/^(['"])(.*)\1$/, '$2')
    .toLowerCase();
  for (let n: Node | null = el; n && isElement(n); n = n.parentNode) {
    const v = n.getAttributeNS(XML, 'lang');
    if (n.hasAttributeNS(XML, 'lang'))
      return v!.toLowerCase() === want || v!.toLowerCase().startsWith(`${want}-`);
  }
  return false;
}

const pseudos: NonNullable<Options<Node, Element>['pseudos']> = {
  ...Object.fromEntries(NEVER_MATCHING.map((p) => [p, () => false])),
  scope: () => true, // cssselect adds the condition "1"
  // cssselect: no child element and an empty string value (comments do not count)
  empty: (el) =>
    !Array.from(el.childNodes).some(
      (c) => isElement(c) || ((c.nodeType === TEXT || c.nodeType === CDATA) && (c.nodeValue ?? '') !== ''),
    ),
  lang: xmlLang,
  'proctor-in-namespace': (el, uri) => el.namespaceURI === uri,
};

/**
 * Maps one parsed selector onto what css-select reads, as cssselect would translate it; throws where cssselect
 * raises (an unknown prefix, an unknown pseudo-class, `*:first-of-type`, pseudo-elements, attribute flags).
 */
function toCssSelect(tokens: Selector[], namespaces: Record<string, string>, expr: string): Selector[] {
  const uri = (prefix: string): string => {
    const ns = namespaces[prefix];
    if (ns === undefined)
      throw new Error(
        `CSS selector ${JSON.stringify(expr)}: namespace prefix '${prefix}' is not defined (lxml: Undefined namespace prefix)`,
      );
    return ns;
  };
  const out: Selector[] = [];
  let typed = false; // the current compound names an element type (cssselect refuses *:first-of-type …)
  for (const t of tokens) {
    switch (t.type) {
      case 'tag':
        typed = true;
        if (t.namespace === '*') out.push({ ...t, namespace: null, name: NEVER_NAME });
        else if (t.namespace) out.push({ ...t, namespace: null, name: clark(uri(t.namespace), t.name) });
        else out.push({ ...t, namespace: null });
        break;
      case 'universal':
        typed = false;
        out.push({ type: SelectorType.Universal, namespace: null });
        if (t.namespace && t.namespace !== '*')
          out.push({ type: SelectorType.Pseudo, name: 'proctor-in-namespace', data: uri(t.namespace) });
        break;
      case 'attribute':
        if (t.ignoreCase === true || t.ignoreCase === false)
          throw new Error(
            `CSS selector ${JSON.stringify(expr)}: attribute flags (' i' / ' s') are not CSS that cssselect reads`,
          );
        if (t.namespace === '*') out.push({ ...t, namespace: null, name: NEVER_NAME });
        else if (t.namespace) out.push({ ...t, namespace: null, name: clark(uri(t.namespace), t.name) });
        else out.push(t);
        break;
      case 'pseudo': {
        const { name, data } = t;
        if (Array.isArray(data)) {
          if (!SUBSELECTS.includes(name))
            throw new Error(`CSS selector ${JSON.stringify(expr)}: the pseudo-class :${name}() is unknown`);
          out.push({ ...t, data: data.map((d) => toCssSelect(d, namespaces, expr)) });
        } else if (name in KNOWN_PSEUDOS && KNOWN_PSEUDOS[name] === (data != null)) {
          if (name.endsWith('of-type') && !typed)
            throw new Error(`CSS selector ${JSON.stringify(expr)}: *:${name} is not implemented (cssselect)`);
          if (name.startsWith('nth-') && / of /i.test(String(data)))
            throw new Error(
              `CSS selector ${JSON.stringify(expr)}: invalid series '${String(data)}' (cssselect)`,
            );
          // lxml's :contains(): the lower-cased string value contains the lower-cased argument (css-select's :icontains)
          out.push(name === 'contains' ? { ...t, name: 'icontains' } : t);
        } else {
          throw new Error(
            `CSS selector ${JSON.stringify(expr)}: the pseudo-class :${name}${data == null ? '' : '()'} is unknown (cssselect)`,
          );
        }
        break;
      }
      case 'pseudo-element':
        throw new Error(
          `CSS selector ${JSON.stringify(expr)}: pseudo-elements are not supported (cssselect)`,
        );
      case 'descendant':
      case 'child':
      case 'adjacent':
      case 'sibling':
        typed = false;
        out.push(t);
        break;
      default:
        throw new Error(
          `CSS selector ${JSON.stringify(expr)}: the combinator '${t.type}' is not CSS that cssselect reads`,
        );
    }
  }
  return out;
}

/** The elements at or below the root matching the selector list, in document order (lxml's `CSSSelector(sel)(root)`). */
export function selectCss(doc: Document, selector: string, namespaces: Record<string, string>): Element[] {
  let parsed: Selector[][];
  try {
    parsed = parseCss(selector);
  } catch (e) {
    throw new Error(`CSS selector ${JSON.stringify(selector)}: ${(e as Error).message}`, { cause: e });
  }
  const query = parsed.map((s) => toCssSelect(s, namespaces, selector));
  try {
    // From the document node, so the root element is a candidate too (cssselect's descendant-or-self::).
    return selectAll<Node, Element>(query, doc, {
      adapter,
      pseudos,
      xmlMode: true,
      relativeSelector: false,
      cacheResults: false,
    });
  } catch (e) {
    throw new Error(`CSS selector ${JSON.stringify(selector)}: ${(e as Error).message}`, { cause: e });
  }
}

// ---- XPath: the npm package xpath ----

/** What lxml's `root.xpath(expr)` gives: a node-set in document order, or a string, number or boolean. */
export type XpathResult = Node[] | string | number | boolean;

/** Evaluates the expression with the root element as the context node and OSWorld's prefixes bound. */
export function selectXpath(doc: Document, expr: string, namespaces: Record<string, string>): XpathResult {
  let value: xpath.SelectReturnType;
  try {
    value = xpath.useNamespaces(namespaces)(expr, doc.documentElement!);
  } catch (e) {
    throw new Error(`XPath ${JSON.stringify(expr)}: ${(e as Error).message}`, { cause: e });
  }
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null ? [] : [value];
}

/** lxml's `.text` of a selected node: elements their leading text, comments and PIs their content; none for others. */
export function nodeText(n: Node): { text: string | null } | undefined {
  if (isElement(n)) return { text: leadingText(n) };
  if (n.nodeType === 7 || n.nodeType === 8) return { text: n.nodeValue || null };
  return undefined; // lxml gives attribute and text nodes as strings, which have no .text
}
