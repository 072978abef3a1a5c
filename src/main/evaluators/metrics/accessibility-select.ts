// Element selection over OSWorld's accessibility XML for check_accessibility_tree: the tag / attribute forms of
// CSS selectors (lxml's CSSSelector) and XPath paths (lxml's xpath()), with OSWorld's namespace prefixes (`st:`,
// `attr:`, `cp:` …). Only tag and attribute matching is read here: type selectors, `[attr]` / `[attr=value]` /
// `[ns|attr=value]`, the descendant and child combinators and selector lists; XPath `/` and `//` steps of element
// names with `[@attr]` / `[@attr='value']` predicates joined by `and`. Anything else (pseudo-classes, XPath
// functions such as contains() or text(), positions, unions) is refused by name with UnsupportedSelectorError: full
// CSS and XPath need the npm packages css-select and xpath, which Proctor does not ship yet.
import { DOMParser } from '@xmldom/xmldom';

export class UnsupportedSelectorError extends Error {
  constructor(kind: 'CSS selector' | 'XPath', expr: string, what: string) {
    super(`${kind} ${JSON.stringify(expr)}: ${what} is not read by Proctor's tag/attribute matcher (full ${kind === 'XPath' ? 'XPath needs the npm package xpath' : 'CSS needs the npm package css-select'})`);
    this.name = 'UnsupportedSelectorError';
  }
}

/** OSWorld's namespace prefixes per `osname` (general.py's `_accessibility_ns_map`). */
export const ACCESSIBILITY_NAMESPACES: Record<string, Record<string, string>> = Object.fromEntries(
  (['ubuntu', 'windows', 'macos'] as const).map((os) => {
    const base = `https://accessibility.${os}.example.org/ns`;
    const names = { ubuntu: ['st', 'attr', 'cp', 'doc', 'docattr', 'txt', 'val', 'act'], windows: ['st', 'attr', 'cp', 'doc', 'docattr', 'txt', 'val', 'act', 'class'], macos: ['st', 'attr', 'cp', 'doc', 'txt', 'val', 'act', 'role'] }[os];
    const path: Record<string, string> = { st: 'state', attr: 'attributes', cp: 'component', doc: 'document', docattr: 'document/attributes', txt: 'text', val: 'value', act: 'action', class: 'class', role: 'role' };
    return [os, Object.fromEntries(names.map((p) => [p, `${base}/${path[p]}`]))];
  }),
);

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

/** Parses the XML (as lxml.etree.fromstring: a malformed document is an error naming the first problem). */
export function parseAccessibilityDocument(xml: string): Document {
  const problems: string[] = [];
  const record = (m: string): void => void problems.push(m);
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: record, fatalError: record } }).parseFromString(xml, 'application/xml');
  if (problems.length || !doc.documentElement) throw new Error(`the accessibility tree is not well-formed XML: ${problems[0] ?? 'no root element'}`);
  return doc;
}

/** lxml's `element.text`: the text before the element's first child node; null when there is none. */
export function leadingText(el: Element): string | null {
  let text = '';
  for (let c = el.firstChild; c && (c.nodeType === TEXT || c.nodeType === CDATA); c = c.nextSibling) text += c.nodeValue ?? '';
  return text === '' ? null : text;
}

interface AttrTest {
  ns?: string;
  prefix?: string;
  name: string;
  value?: string;
}
interface Compound {
  tag: string;
  attrs: AttrTest[];
}

function attrValue(el: Element, t: AttrTest): string | null {
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i)!;
    const local = a.localName ?? a.name;
    if (local !== t.name) continue;
    if (t.ns === undefined ? !a.namespaceURI : a.namespaceURI === t.ns) return a.value;
  }
  return null;
}

function matches(el: Element, c: Compound): boolean {
  if (c.tag !== '*' && (el.localName ?? el.tagName) !== c.tag) return false;
  return c.attrs.every((t) => {
    const v = attrValue(el, t);
    return v !== null && (t.value === undefined || v === t.value);
  });
}

function elementChildren(n: Node): Element[] {
  const out: Element[] = [];
  for (let c = n.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT) out.push(c as Element);
  return out;
}

/** Every element below `n` (not `n`), in document order. */
function descendants(n: Node, out: Element[] = []): Element[] {
  for (const c of elementChildren(n)) {
    out.push(c);
    descendants(c, out);
  }
  return out;
}

function resolvePrefix(prefix: string, namespaces: Record<string, string>, kind: 'CSS selector' | 'XPath', expr: string): string {
  const ns = namespaces[prefix];
  if (ns === undefined) throw new Error(`${kind} ${JSON.stringify(expr)}: namespace prefix '${prefix}' is not defined`);
  return ns;
}

// ---- CSS ----

const IDENT = /^(?:\\(?:[0-9a-fA-F]{1,6}\s?|[^\n0-9a-fA-F])|[\w-]|[^\x00-\x7f])+/; // eslint-disable-line no-control-regex

function unescapeCss(s: string): string {
  return s.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|(.))/g, (_m, hex: string | undefined, ch: string | undefined) => (hex ? String.fromCodePoint(parseInt(hex, 16)) : ch!));
}

/** One selector of a list: compounds joined by ' ' (descendant) or '>' (child). */
function parseCss(sel: string, namespaces: Record<string, string>, whole: string): { compounds: Compound[]; combinators: (' ' | '>')[] } {
  let s = sel.trim();
  const compounds: Compound[] = [];
  const combinators: (' ' | '>')[] = [];
  const unsupported = (what: string): never => {
    throw new UnsupportedSelectorError('CSS selector', whole, what);
  };
  const ident = (): string | undefined => {
    const m = IDENT.exec(s);
    if (!m) return undefined;
    s = s.slice(m[0].length);
    return unescapeCss(m[0]);
  };
  while (s.length) {
    const c: Compound = { tag: '*', attrs: [] };
    if (s[0] === '*') {
      s = s.slice(1);
    } else {
      const t = ident();
      if (t !== undefined) c.tag = t;
    }
    if (s[0] === '|') unsupported('an element namespace');
    while (s[0] === '[') {
      s = s.slice(1).trimStart();
      let name = ident();
      const test: AttrTest = { name: '' };
      if (s[0] === '|' && s[1] !== '=') {
        s = s.slice(1);
        test.prefix = name;
        test.ns = resolvePrefix(name ?? '', namespaces, 'CSS selector', whole);
        name = ident();
      }
      if (!name) unsupported(`the attribute test at '[${s.slice(0, 20)}'`);
      test.name = name!;
      s = s.trimStart();
      if (s[0] === '=') {
        s = s.slice(1).trimStart();
        const q = s[0];
        if (q === '"' || q === "'") {
          const m = new RegExp(`^${q}((?:\\\\.|[^${q}\\\\])*)${q}`).exec(s);
          if (!m) throw new Error(`CSS selector ${JSON.stringify(whole)}: unterminated string`);
          test.value = unescapeCss(m[1]);
          s = s.slice(m[0].length);
        } else {
          const v = ident();
          if (v === undefined) unsupported(`the attribute value at '${s.slice(0, 20)}'`);
          test.value = v;
        }
        s = s.trimStart();
      } else if (s[0] !== ']') {
        unsupported(`the attribute operator '${s.slice(0, 2)}'`);
      }
      if (s[0] !== ']') throw new Error(`CSS selector ${JSON.stringify(whole)}: ']' expected at '${s.slice(0, 20)}'`);
      s = s.slice(1);
      c.attrs.push(test);
    }
    if (s.length && /^[:.#+~]/.test(s)) unsupported(`'${s.slice(0, 20)}' (pseudo-classes, classes, ids and sibling combinators)`);
    compounds.push(c);
    const m = /^\s*(>)?\s*/.exec(s)!;
    if (!m[0].length) {
      if (s.length) throw new Error(`CSS selector ${JSON.stringify(whole)}: cannot read '${s.slice(0, 20)}'`);
      break;
    }
    s = s.slice(m[0].length);
    if (s.length) combinators.push(m[1] ? '>' : ' ');
  }
  if (!compounds.length) throw new Error(`CSS selector ${JSON.stringify(whole)}: empty selector`);
  return { compounds, combinators };
}

/** Splits a selector list on commas outside brackets and strings. */
function splitList(sel: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  let quote = '';
  for (let i = 0; i < sel.length; i++) {
    const ch = sel[i];
    if (ch === '\\') {
      cur += ch + (sel[i + 1] ?? '');
      i++;
      continue;
    }
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out;
}

/** Does `el` match the selector ending at compound `i` (walking its ancestors below the document)? */
function matchesFrom(el: Element, compounds: Compound[], combinators: (' ' | '>')[], i: number): boolean {
  if (!matches(el, compounds[i])) return false;
  if (i === 0) return true;
  const up = (n: Element): Element | undefined => (n.parentNode && n.parentNode.nodeType === ELEMENT ? (n.parentNode as Element) : undefined);
  if (combinators[i - 1] === '>') {
    const p = up(el);
    return !!p && matchesFrom(p, compounds, combinators, i - 1);
  }
  for (let p = up(el); p; p = up(p)) if (matchesFrom(p, compounds, combinators, i - 1)) return true;
  return false;
}

/** The elements at or below the root that match the selector list, in document order (lxml's CSSSelector). */
export function selectCss(doc: Document, selector: string, namespaces: Record<string, string>): Element[] {
  const parsed = splitList(selector).map((s) => parseCss(s, namespaces, selector));
  const root = doc.documentElement!;
  return [root, ...descendants(root)].filter((el) => parsed.some((p) => matchesFrom(el, p.compounds, p.combinators, p.compounds.length - 1)));
}

// ---- XPath ----

interface Step {
  axis: 'child' | 'descendant';
  test: { prefix?: string; name: string };
  preds: AttrTest[];
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?|^\*/;

function parseXpath(expr: string, namespaces: Record<string, string>): { absolute: boolean; steps: Step[] } {
  let s = expr.trim();
  const unsupported = (what: string): never => {
    throw new UnsupportedSelectorError('XPath', expr, what);
  };
  const absolute = s.startsWith('/');
  const steps: Step[] = [];
  let axis: Step['axis'] = 'child';
  if (s.startsWith('//')) {
    axis = 'descendant';
    s = s.slice(2);
  } else if (absolute) s = s.slice(1);
  for (;;) {
    s = s.trimStart();
    const m = NAME.exec(s);
    if (!m) unsupported(`'${s.slice(0, 24)}' (only element names, '*', '/' and '//' steps are read)`);
    s = s.slice(m![0].length);
    if (/^\s*(\(|::)/.test(s)) unsupported(`'${m![0]}${s.slice(0, 20)}' (functions and axes)`);
    const [prefix, local] = m![0].includes(':') ? m![0].split(':') : [undefined, m![0]];
    const step: Step = { axis, test: { prefix, name: local }, preds: [] };
    if (prefix !== undefined) resolvePrefix(prefix, namespaces, 'XPath', expr);
    s = s.trimStart();
    while (s[0] === '[') {
      const close = predicateEnd(s);
      if (close < 0) throw new Error(`XPath ${JSON.stringify(expr)}: unterminated predicate`);
      for (const part of s.slice(1, close).split(/\s+and\s+(?=(?:[^'"]*['"][^'"]*['"])*[^'"]*$)/)) step.preds.push(parsePredicate(part.trim(), expr, namespaces));
      s = s.slice(close + 1).trimStart();
    }
    steps.push(step);
    if (!s.length) break;
    if (s.startsWith('//')) {
      axis = 'descendant';
      s = s.slice(2);
    } else if (s.startsWith('/')) {
      axis = 'child';
      s = s.slice(1);
    } else unsupported(`'${s.slice(0, 24)}'`);
  }
  return { absolute, steps };
}

function predicateEnd(s: string): number {
  let quote = '';
  for (let i = 1; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[') return -1;
    else if (ch === ']') return i;
  }
  return -1;
}

function parsePredicate(p: string, expr: string, namespaces: Record<string, string>): AttrTest {
  const m = /^@([A-Za-z_][\w.-]*)(?::([A-Za-z_][\w.-]*))?\s*(?:=\s*(?:'([^']*)'|"([^"]*)"))?$/.exec(p);
  if (!m) throw new UnsupportedSelectorError('XPath', expr, `the predicate [${p}] (only [@attr] and [@attr='value'] joined by 'and')`);
  const [, first, second, v1, v2] = m;
  const test: AttrTest = second !== undefined ? { prefix: first, ns: resolvePrefix(first, namespaces, 'XPath', expr), name: second } : { name: first };
  if (v1 !== undefined || v2 !== undefined) test.value = v1 ?? v2;
  return test;
}

/** The elements the path selects from the root element (lxml's `root.xpath(expr)`), in document order. */
export function selectXpath(doc: Document, expr: string, namespaces: Record<string, string>): Element[] {
  const { absolute, steps } = parseXpath(expr, namespaces);
  const all = [doc.documentElement!, ...descendants(doc.documentElement!)];
  const order = new Map(all.map((e, i) => [e, i]));
  let context: Node[] = [absolute ? doc : doc.documentElement!];
  for (const step of steps) {
    const found = new Set<Element>();
    for (const n of context) {
      for (const el of step.axis === 'child' ? elementChildren(n) : descendants(n)) {
        // Elements carry no namespace in OSWorld's XML: a prefixed name test matches none of them.
        if (step.test.prefix !== undefined) continue;
        if (matches(el, { tag: step.test.name, attrs: step.preds })) found.add(el);
      }
    }
    context = [...found].sort((a, b) => order.get(a)! - order.get(b)!);
  }
  return context as Element[];
}
