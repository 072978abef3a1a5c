// Proctor's accessibility nodes (AT-SPI + CDP) written as OSWorld's XML (the reader is env/osworld/accessibility-xml.ts): a
// <desktop-frame> root, one <application> per app, elements named after their role, namespaced attributes for states
// (st:), component position and size (cp:), attributes (attr:) and value (val:), and the node's text as element text.
import type { AccessibilityNode } from '../env/environment';

const NS = {
  attr: 'https://accessibility.ubuntu.example.org/ns/attributes',
  st: 'https://accessibility.ubuntu.example.org/ns/state',
  cp: 'https://accessibility.ubuntu.example.org/ns/component',
  doc: 'https://accessibility.ubuntu.example.org/ns/document',
  docattr: 'https://accessibility.ubuntu.example.org/ns/document/attributes',
  txt: 'https://accessibility.ubuntu.example.org/ns/text',
  val: 'https://accessibility.ubuntu.example.org/ns/value',
  act: 'https://accessibility.ubuntu.example.org/ns/action',
} as const;

const MAX_DEPTH = 60;

function escapeXml(s: string): string {
  // Characters XML 1.0 forbids are dropped; the rest escaped.
  return (
    s
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`)
  );
}

/** An XML element name from a role ("push button" → "push-button"); anything odd becomes `unknown`. */
export function tagOf(role: string): string {
  const t = role
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^a-z0-9.-]/g, '');
  return /^[a-z]/.test(t) ? t : 'unknown';
}

function stateName(s: string): string | undefined {
  const t = s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  return /^[a-z][a-z0-9-]*$/.test(t) ? t : undefined;
}

function element(node: AccessibilityNode, depth: number, out: string[]): void {
  const tag = tagOf(node.role);
  const attrs = [`name="${escapeXml(node.name ?? '')}"`];
  for (const s of new Set(node.states ?? [])) {
    const n = stateName(s);
    if (n) attrs.push(`st:${n}="true"`);
  }
  if (node.className) attrs.push(`attr:class="${escapeXml(node.className)}"`);
  if (node.description) attrs.push(`attr:description="${escapeXml(node.description)}"`);
  if (node.source) attrs.push(`attr:source="${escapeXml(node.source)}"`);
  attrs.push(
    `cp:screencoord="(${Math.round(node.x)}, ${Math.round(node.y)})"`,
    `cp:size="(${Math.round(node.width)}, ${Math.round(node.height)})"`,
  );
  const kids = depth < MAX_DEPTH ? (node.children ?? []) : [];
  const text = node.text ?? '';
  if (!kids.length && !text) {
    out.push(`<${tag} ${attrs.join(' ')}/>`);
    return;
  }
  out.push(`<${tag} ${attrs.join(' ')}>`, escapeXml(text));
  for (const k of kids) element(k, depth + 1, out);
  out.push(`</${tag}>`);
}

/** The whole forest as OSWorld's `AT` string. Top-level nodes of one app share an <application>. */
export function accessibilityXml(
  nodes: AccessibilityNode[],
  screen: { width: number; height: number },
): string {
  const out: string[] = [];
  const ns = Object.entries(NS)
    .map(([k, v]) => `xmlns:${k}="${v}"`)
    .join(' ');
  out.push(
    `<desktop-frame ${ns} name="main" cp:screencoord="(0, 0)" cp:size="(${screen.width}, ${screen.height})">`,
  );
  for (const n of nodes) {
    if (tagOf(n.role) === 'application') {
      element(n, 0, out);
      continue;
    }
    // A page tree from CDP (or any non-application root): wrap it in an application named after its source.
    const app: AccessibilityNode = {
      role: 'application',
      name: n.app ?? n.source ?? '',
      x: 0,
      y: 0,
      width: 0,
      height: 0,
      states: [],
      children: [n],
    };
    element(app, 0, out);
  }
  out.push('</desktop-frame>');
  return out.join('');
}
