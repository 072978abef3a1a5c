// OSWorld's accessibility XML (`GET /accessibility` → `{"AT": "<desktop-frame …>"}`) → Proctor's
// AccessibilityNode forest. The element name is the AT-SPI role with spaces as hyphens (`push-button`),
// `name` is a plain attribute, and the rest sit in namespaces: states (`st:showing="true"`), AT-SPI
// attributes (`attr:class`), component box (`cp:screencoord="(x, y)"`, `cp:size="(w, h)"`), value (`val:*`),
// actions (`act:*`); the element's own text is the node's text. Namespaces are matched by their last path
// segments (`…/ns/state`), so the Ubuntu, Windows and macOS variants all read.
import { DOMParser } from '@xmldom/xmldom';
import type { AccessibilityNode } from '../environment';

export interface AccessibilityXmlOptions {
  /** Node cap; nodes past it are left out. Default 50,000. */
  maxNodes?: number;
  /** Depth cap below the desktop. Default 200. */
  maxDepth?: number;
  /** Largest XML accepted, in characters. Default 64 MiB. */
  maxChars?: number;
}

export class AccessibilityXmlError extends Error {
  constructor(message: string) {
    super(`GET /accessibility: ${message}`);
    this.name = 'AccessibilityXmlError';
  }
}

const ROOT_TAGS = new Set(['desktop-frame', 'desktop']);

type NsKind = 'state' | 'attributes' | 'component' | 'value' | 'text' | 'other';

function nsKind(uri: string | null): NsKind {
  if (!uri) return 'other';
  if (/\/ns\/state$/.test(uri)) return 'state';
  if (/\/ns\/attributes$/.test(uri) && !/\/document\/attributes$/.test(uri)) return 'attributes';
  if (/\/ns\/component$/.test(uri)) return 'component';
  if (/\/ns\/value$/.test(uri)) return 'value';
  if (/\/ns\/text$/.test(uri)) return 'text';
  return 'other';
}

/** `(12, 34)` → [12, 34]; anything else → undefined. */
export function parsePair(s: string | null | undefined): [number, number] | undefined {
  const m = /^\s*\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)\s*$/.exec(s ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_NODE = 4;

function ownText(el: Element): string | undefined {
  let text = '';
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === TEXT_NODE || c.nodeType === CDATA_NODE) text += c.nodeValue ?? '';
  }
  const t = text.replace(/[\ufffc\ufffd]/g, '').trim();
  return t ? t : undefined;
}

function nodeOf(el: Element, app: string | undefined): AccessibilityNode {
  const states: string[] = [];
  let className: string | undefined;
  let description: string | undefined;
  let at: [number, number] | undefined;
  let size: [number, number] | undefined;
  let name = '';
  let source = 'atspi';
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i);
    if (!a) continue;
    const local = a.localName ?? a.name;
    const kind = nsKind(a.namespaceURI);
    if (kind === 'other' && !a.namespaceURI && local === 'name') name = a.value;
    else if (kind === 'state' && a.value.toLowerCase() === 'true')
      states.push(local.toLowerCase().replace(/_/g, '-'));
    else if (kind === 'attributes' && local === 'class') className = a.value || undefined;
    else if (kind === 'attributes' && local === 'description') description = a.value.trim() || undefined;
    // Proctor's server says which collector a node came from (`cdp` for browser pages).
    else if (kind === 'attributes' && local === 'source' && /^[a-z][a-z0-9-]{0,31}$/.test(a.value))
      source = a.value;
    else if (kind === 'component' && local === 'screencoord') at = parsePair(a.value);
    else if (kind === 'component' && local === 'size') size = parsePair(a.value);
  }
  const node: AccessibilityNode = {
    role: (el.localName ?? el.tagName).toLowerCase() || 'unknown',
    name: name.trim(),
    x: at ? at[0] : -1,
    y: at ? at[1] : -1,
    width: size ? size[0] : -1,
    height: size ? size[1] : -1,
    states,
    source,
  };
  const text = ownText(el);
  if (text !== undefined) node.text = text;
  if (className) node.className = className;
  if (description) node.description = description;
  if (app !== undefined) node.app = app;
  return node;
}

function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT_NODE) out.push(c as Element);
  return out;
}

/**
 * The applications of the desktop, each with its descendants as `children`, boxes in screen pixels (-1 where
 * the XML gives no component box: nodes that are not showing). Throws AccessibilityXmlError on XML that is
 * not well-formed or whose root is not a desktop.
 */
export function parseAccessibilityXml(xml: string, opts: AccessibilityXmlOptions = {}): AccessibilityNode[] {
  const maxNodes = opts.maxNodes ?? 50_000;
  const maxDepth = opts.maxDepth ?? 200;
  const maxChars = opts.maxChars ?? 64 * 1024 * 1024;
  if (typeof xml !== 'string') throw new AccessibilityXmlError('the AT field is not a string');
  if (xml.length > maxChars) throw new AccessibilityXmlError(`the XML is larger than ${maxChars} characters`);
  if (!xml.trim()) return [];
  const problems: string[] = [];
  // xmldom reports some malformations (a tag left open) only as warnings: every report refuses the XML.
  const record = (msg: string): void =>
    void problems.push(msg.split('\n')[0].replace(/^\[xmldom \w+\]\s*/, ''));
  const doc = new DOMParser({
    errorHandler: { warning: record, error: record, fatalError: record },
  }).parseFromString(xml, 'application/xml');
  const root = doc.documentElement;
  if (problems.length || !root)
    throw new AccessibilityXmlError(`the XML is not well-formed: ${problems[0] ?? 'no root element'}`);
  const rootTag = root.localName ?? root.tagName;
  if (!ROOT_TAGS.has(rootTag))
    throw new AccessibilityXmlError(`the XML's root is <${rootTag}>, not <desktop-frame>`);
  let count = 0;
  const apps: AccessibilityNode[] = [];
  // Iterative walk: a deep tree from a misbehaving guest must not exhaust the stack.
  const stack: { el: Element; parent?: AccessibilityNode; app?: string; depth: number }[] = childElements(
    root,
  )
    .reverse()
    .map((el) => ({ el, depth: 1 }));
  while (stack.length && count < maxNodes) {
    const { el, parent, app, depth } = stack.pop()!;
    const isApp = !parent;
    const node = nodeOf(el, app);
    if (isApp) {
      node.app = node.name;
      apps.push(node);
    } else {
      (parent.children ??= []).push(node);
    }
    count++;
    if (depth >= maxDepth) continue;
    const kids = childElements(el);
    for (let i = kids.length - 1; i >= 0; i--)
      stack.push({ el: kids[i], parent: node, app: node.app, depth: depth + 1 });
  }
  return apps;
}

/** The `AT` field of `/accessibility`'s JSON answer. */
export function accessibilityXmlOf(body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new AccessibilityXmlError(`the answer is not JSON: ${body.slice(0, 120)}`);
  }
  const at = (json as { AT?: unknown } | null)?.AT;
  if (at === null || at === undefined) throw new AccessibilityXmlError('the answer has no AT field');
  if (typeof at !== 'string') throw new AccessibilityXmlError('the AT field is not a string');
  return at;
}
