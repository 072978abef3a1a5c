// Chromium's accessibility tree over the DevTools protocol, in screen pixels, through the engine's one DevTools
// client (src/main/devtools): one browser websocket, flat sessions per page target; for each visible page:
// Accessibility.getFullAXTree, the layout boxes of its DOM (one DOMSnapshot), and the viewport's place on screen.
import { CdpConnection } from '../../../devtools';
import type { AccessibilityNode } from '../../environment';

/** The one DevTools client (src/main/devtools), re-exported for this collector's tests. */
export { CdpConnection };

interface AXValue {
  type: string;
  value?: unknown;
}
interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: AXValue;
  name?: AXValue;
  description?: AXValue;
  value?: AXValue;
  properties?: { name: string; value: AXValue }[];
  parentId?: string;
  childIds?: string[];
  backendDOMNodeId?: number;
}

/** Where the page's viewport is on the screen (from the page's own window metrics). */
export interface ViewportPlacement {
  /** Screen pixel of the viewport's top-left corner. */
  left: number;
  top: number;
  /** Viewport size in CSS pixels. */
  width: number;
  height: number;
  /** Screen pixels per CSS pixel. */
  scale: number;
  visible: boolean;
  title: string;
  url: string;
}

/** Chromium (ARIA/Blink) roles → the AT-SPI tags Chromium itself uses on Linux, so one filter fits both. */
const ROLE_TAGS: Record<string, string> = {
  RootWebArea: 'document-web',
  WebArea: 'document-web',
  button: 'push-button',
  PopUpButton: 'push-button',
  checkbox: 'check-box',
  radio: 'radio-button',
  switch: 'toggle-button',
  combobox: 'combo-box',
  textbox: 'entry',
  searchbox: 'entry',
  spinbutton: 'spin-button',
  link: 'link',
  heading: 'heading',
  paragraph: 'paragraph',
  image: 'image',
  img: 'image',
  list: 'list',
  listitem: 'list-item',
  ListMarker: 'static',
  listbox: 'list-box',
  option: 'list-item',
  MenuListOption: 'menu-item',
  MenuListPopup: 'menu',
  menu: 'menu',
  menubar: 'menu-bar',
  menuitem: 'menu-item',
  menuitemcheckbox: 'check-menu-item',
  menuitemradio: 'radio-menu-item',
  tab: 'page-tab',
  tablist: 'page-tab-list',
  tabpanel: 'scroll-pane',
  table: 'table',
  LayoutTable: 'table',
  grid: 'table',
  treegrid: 'tree-table',
  row: 'table-row',
  LayoutTableRow: 'table-row',
  cell: 'table-cell',
  gridcell: 'table-cell',
  LayoutTableCell: 'table-cell',
  columnheader: 'column-header',
  rowheader: 'row-header',
  slider: 'slider',
  scrollbar: 'scroll-bar',
  progressbar: 'progress-bar',
  separator: 'separator',
  toolbar: 'tool-bar',
  tree: 'tree',
  treeitem: 'tree-item',
  dialog: 'dialog',
  alertdialog: 'dialog',
  alert: 'notification',
  form: 'form',
  LabelText: 'label',
  generic: 'section',
  group: 'panel',
  region: 'landmark',
  navigation: 'landmark',
  main: 'landmark',
  banner: 'landmark',
  contentinfo: 'landmark',
  complementary: 'landmark',
  search: 'landmark',
  article: 'article',
  blockquote: 'block-quote',
  figure: 'panel',
  Canvas: 'canvas',
  canvas: 'canvas',
  Iframe: 'internal-frame',
  code: 'static',
  StaticText: 'static',
};

/** Roles never turned into nodes: text runs become their parent's `text`. */
const TEXT_ROLES = new Set(['StaticText', 'InlineTextBox']);
const PASS_THROUGH = new Set(['none', 'presentation', 'Ignored', 'LineBreak']);
const FIELD_ROLES = new Set(['textbox', 'searchbox']);

function val(v: AXValue | undefined): string {
  if (v?.value === undefined || v.value === null) return '';
  return typeof v.value === 'string' ? v.value : String(v.value);
}

function statesOf(ax: AXNode, role: string): string[] {
  const props = new Map((ax.properties ?? []).map((p) => [p.name, p.value?.value]));
  const states: string[] = [];
  if (!props.get('disabled')) states.push('enabled', 'sensitive');
  if (props.get('focusable')) states.push('focusable');
  if (props.get('focused')) states.push('focused');
  if (props.get('editable')) states.push('editable');
  if (
    props.has('checked') ||
    ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)
  ) {
    states.push('checkable');
    const checked = props.get('checked');
    if (checked === 'true' || checked === true) states.push('checked');
    if (checked === 'mixed') states.push('indeterminate');
  }
  if (props.has('expanded')) {
    states.push('expandable', props.get('expanded') ? 'expanded' : 'collapsed');
  }
  if (props.has('selected')) {
    states.push('selectable');
    if (props.get('selected')) states.push('selected');
  }
  if (props.has('multiline')) states.push(props.get('multiline') ? 'multi-line' : 'single-line');
  if (props.get('readonly')) states.push('read-only');
  if (props.get('required')) states.push('required');
  if (props.get('hasPopup') && props.get('hasPopup') !== 'false') states.push('has-popup');
  return states;
}

/** Reads the viewport placement of a page: Proctor's own expression, evaluated in the page. */
async function placement(cdp: CdpConnection, sessionId: string): Promise<ViewportPlacement> {
  const expression = `JSON.stringify({
    sx: window.screenX, sy: window.screenY, ow: window.outerWidth, oh: window.outerHeight,
    iw: window.innerWidth, ih: window.innerHeight, dpr: window.devicePixelRatio,
    vis: document.visibilityState, title: document.title, url: location.href })`;
  const res = await cdp.send<{ result: { value?: string } }>(
    'Runtime.evaluate',
    { expression, returnByValue: true },
    sessionId,
  );
  const m = JSON.parse(res.result.value ?? '{}') as Record<string, number | string>;
  const n = (k: string) => Number(m[k]) || 0;
  const dpr = n('dpr') || 1;
  // outer* are window pixels (DIP); inner* CSS pixels. Side borders are split evenly; the rest of the
  // height difference is the browser's own toolbars above the page.
  const border = Math.max(0, (n('ow') - n('iw')) / 2);
  const top = Math.max(0, n('oh') - n('ih') - border);
  return {
    left: Math.round((n('sx') + border) * dpr),
    top: Math.round((n('sy') + top) * dpr),
    width: n('iw'),
    height: n('ih'),
    scale: dpr,
    visible: m.vis === 'visible',
    title: String(m.title ?? ''),
    url: String(m.url ?? ''),
  };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface DomSnapshot {
  documents: {
    nodes: { backendNodeId?: number[] };
    layout: { nodeIndex: number[]; bounds: number[][] };
    scrollOffsetX?: number;
    scrollOffsetY?: number;
  }[];
}

/**
 * Layout boxes of the main frame's DOM nodes in viewport CSS pixels, by backend node id, from one
 * DOMSnapshot (a DOM.getBoxModel per node costs ten times as much on a page of a few hundred elements).
 * Nodes without a layout object (display: none) have no box.
 */
async function layoutBoxes(cdp: CdpConnection, sessionId: string): Promise<Map<number, Box>> {
  const snap = await cdp.send<DomSnapshot>('DOMSnapshot.captureSnapshot', { computedStyles: [] }, sessionId);
  const boxes = new Map<number, Box>();
  const doc = snap.documents[0];
  if (!doc) return boxes;
  const ids = doc.nodes.backendNodeId ?? [];
  const sx = doc.scrollOffsetX ?? 0;
  const sy = doc.scrollOffsetY ?? 0;
  doc.layout.nodeIndex.forEach((nodeIndex, i) => {
    const id = ids[nodeIndex];
    const [x, y, width, height] = doc.layout.bounds[i] ?? [];
    if (id === undefined || boxes.has(id) || ![x, y, width, height].every(Number.isFinite)) return;
    boxes.set(id, { x: x - sx, y: y - sy, width, height });
  });
  return boxes;
}

/** Converts one page's AX tree into AccessibilityNodes in screen pixels; returns the page root. */
export function pageTree(
  axNodes: AXNode[],
  boxes: Map<number, Box>,
  place: ViewportPlacement,
  app = 'chromium',
): AccessibilityNode | undefined {
  const byId = new Map(axNodes.map((n) => [n.nodeId, n]));
  const root = axNodes.find((n) => !n.parentId) ?? axNodes[0];
  if (!root) return undefined;

  const toScreen = (b: Box | undefined): { box: Box; showing: boolean } => {
    if (!b) return { box: { x: -1, y: -1, width: -1, height: -1 }, showing: false };
    // clip to the viewport: what is scrolled away is not on the screen
    const x0 = Math.max(0, b.x);
    const y0 = Math.max(0, b.y);
    const x1 = Math.min(place.width, b.x + b.width);
    const y1 = Math.min(place.height, b.y + b.height);
    if (x1 <= x0 || y1 <= y0) {
      return {
        box: {
          x: Math.round(place.left + b.x * place.scale),
          y: Math.round(place.top + b.y * place.scale),
          width: Math.round(b.width * place.scale),
          height: Math.round(b.height * place.scale),
        },
        showing: false,
      };
    }
    return {
      box: {
        x: Math.round(place.left + x0 * place.scale),
        y: Math.round(place.top + y0 * place.scale),
        width: Math.round((x1 - x0) * place.scale),
        height: Math.round((y1 - y0) * place.scale),
      },
      showing: true,
    };
  };

  /** Text of a node's text runs (direct, and through ignored/generic wrappers without their own node). */
  const runText = (ax: AXNode): string => {
    const parts: string[] = [];
    for (const id of ax.childIds ?? []) {
      const c = byId.get(id);
      if (!c) continue;
      const role = val(c.role);
      if (role === 'StaticText') parts.push(val(c.name));
      else if (c.ignored || PASS_THROUGH.has(role)) parts.push(runText(c));
    }
    return parts.join('').replace(/\s+/g, ' ').trim();
  };

  const convert = (ax: AXNode, depth: number): AccessibilityNode[] => {
    const role = val(ax.role);
    const kids = (): AccessibilityNode[] =>
      depth > 200
        ? []
        : (ax.childIds ?? []).flatMap((id) => (byId.has(id) ? convert(byId.get(id)!, depth + 1) : []));
    if (TEXT_ROLES.has(role)) return [];
    if (ax.ignored || PASS_THROUGH.has(role)) return kids();
    const { box, showing } = toScreen(
      ax.backendDOMNodeId !== undefined ? boxes.get(ax.backendDOMNodeId) : undefined,
    );
    const states = statesOf(ax, role);
    if (showing && place.visible) states.push('showing', 'visible');
    const value = val(ax.value);
    const text = value || runText(ax);
    const node: AccessibilityNode = {
      role: ROLE_TAGS[role] ?? role.toLowerCase(),
      name: val(ax.name),
      ...(text ? { text } : {}),
      ...(val(ax.description) ? { description: val(ax.description) } : {}),
      ...box,
      states,
      source: 'cdp',
      app,
    };
    // a text field's inner editor repeats its value: the field alone stands for it
    const children = FIELD_ROLES.has(role) ? [] : kids();
    if (children.length) node.children = children;
    return [node];
  };
  const [top] = convert(root, 0);
  if (top && top.role === 'document-web' && !top.name) top.name = place.title;
  return top;
}

export interface ChromiumTreeOptions {
  /** Include pages whose tab is in the background. Default false (only what is on the screen). */
  hiddenPages?: boolean;
  timeoutMs?: number;
}

/**
 * The accessibility trees of the visible page of each Chromium window behind `endpoint`
 * (`http://127.0.0.1:PORT`), one `document-web` root per page, boxes in screen pixels.
 */
export async function collectChromiumTree(
  endpoint: string,
  opts: ChromiumTreeOptions = {},
): Promise<AccessibilityNode[]> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const cdp = await CdpConnection.open(endpoint, timeoutMs); // its error names the endpoint
  let timer: NodeJS.Timeout | undefined;
  try {
    const work = (async () => {
      const { targetInfos } = await cdp.send<{
        targetInfos: { targetId: string; type: string; url: string }[];
      }>('Target.getTargets');
      const pages = targetInfos.filter((t) => t.type === 'page' && !t.url.startsWith('devtools://'));
      const roots = await Promise.all(
        pages.map(async (page) => {
          const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
            targetId: page.targetId,
            flatten: true,
          });
          try {
            const place = await placement(cdp, sessionId);
            if (!place.visible && !opts.hiddenPages) return undefined;
            const [{ nodes }, boxes] = await Promise.all([
              cdp.send<{ nodes: AXNode[] }>('Accessibility.getFullAXTree', {}, sessionId),
              layoutBoxes(cdp, sessionId),
            ]);
            return pageTree(nodes, boxes, place);
          } finally {
            cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
          }
        }),
      );
      return roots.filter((r): r is AccessibilityNode => r !== undefined);
    })();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`CDP: the accessibility tree of ${endpoint} took over ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    work.catch(() => undefined); // when the timeout wins, closing the connection fails what is still pending
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    void cdp.close();
  }
}
