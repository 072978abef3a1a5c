// Which accessibility nodes an agent is shown: the rule OSWorld and Spider2-V use (their
// heuristic_retrieve.judge_node), restated over AccessibilityNode: a content or interactive role,
// showing and visible, usable (enabled, editable, expandable or checkable), a name or text, a positive
// size, and a top-left corner on the screen.
import type { AccessibilityNode } from '../env/environment';

const ROLE_SUFFIXES = [
  'item',
  'button',
  'heading',
  'label',
  'scrollbar',
  'searchbox',
  'textbox',
  'link',
  'tabelement',
  'textfield',
  'textarea',
  'menu',
];
const ROLES = new Set([
  'alert',
  'canvas',
  'check-box',
  'combo-box',
  'entry',
  'icon',
  'image',
  'paragraph',
  'scroll-bar',
  'section',
  'slider',
  'static',
  'table-cell',
  'terminal',
  'text',
]);

/** Whether a role (an AT-SPI tag such as `push-button`) is one an agent is shown. */
export function isShownRole(role: string): boolean {
  return role.startsWith('document') || ROLE_SUFFIXES.some((s) => role.endsWith(s)) || ROLES.has(role);
}

export interface ScreenBounds {
  width: number;
  height: number;
}

/** The OSWorld rule for one node (children are not looked at). */
export function isShownNode(node: AccessibilityNode, screen?: ScreenBounds): boolean {
  const has = (s: string) => node.states.includes(s);
  if (!isShownRole(node.role)) return false;
  if (!(has('showing') && has('visible'))) return false;
  if (!(has('enabled') || has('editable') || has('expandable') || has('checkable'))) return false;
  if (!(node.name || node.text)) return false;
  if (!(node.x >= 0 && node.y >= 0 && node.width > 0 && node.height > 0)) return false;
  if (screen && !(node.x < screen.width && node.y < screen.height)) return false;
  return true;
}

/** Every node of the forest in document order (pre-order), each once. */
export function flattenTree(nodes: AccessibilityNode[]): AccessibilityNode[] {
  const out: AccessibilityNode[] = [];
  const stack = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    out.push(node);
    const kids = node.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out;
}

/** The shown nodes of a forest, flattened in document order. Pass the screen to drop nodes off it. */
export function filterNodes(nodes: AccessibilityNode[], screen?: ScreenBounds): AccessibilityNode[] {
  return flattenTree(nodes).filter((n) => isShownNode(n, screen));
}
