// The numbered control list of a LibreOffice window (UFO's CONTROL_LIST as AT-SPI roles) and UFO's matching of a
// plan step's ControlText against it: exact (case-insensitive) first, else the best partial ratio at or above a
// threshold (70 by default, first on ties), never "the best whatever its score" (upstream defect 7); strict mode:
// exact only.
import type { AccessibilityNode } from '../../env/environment';
import { isShownNode, type ScreenBounds } from '../../observe/filter';

/** UIA control types of UFO's CONTROL_LIST → the AT-SPI roles (Proctor's hyphenated tags) LibreOffice shows. */
export const CONTROL_ROLES: Readonly<Record<string, string>> = {
  'push-button': 'Button',
  'toggle-button': 'Button',
  text: 'Edit',
  paragraph: 'Edit',
  heading: 'Edit',
  entry: 'Edit',
  'page-tab': 'TabItem',
  'document-text': 'Document',
  'document-spreadsheet': 'Document',
  'document-presentation': 'Document',
  'list-item': 'ListItem',
  'tree-item': 'TreeItem',
  'menu-item': 'MenuItem',
  'check-menu-item': 'MenuItem',
  'radio-menu-item': 'MenuItem',
  menu: 'MenuItem',
  'scroll-bar': 'ScrollBar',
  link: 'Hyperlink',
  'combo-box': 'ComboBox',
  'radio-button': 'RadioButton',
  'check-box': 'CheckBox',
  'table-cell': 'DataItem',
  'spin-button': 'Spinner',
};

export interface Control {
  /** 1..n in tree order: UFO's ControlLabel. */
  label: string;
  /** The AT-SPI role (tag). */
  role: string;
  /** UFO's control type for the role. */
  type: string;
  /** What the control is matched by: its name, else the name of the panel it sits in, else its text. */
  text: string;
  node: AccessibilityNode;
}

/** Text kept per control for matching and prompts (a Writer paragraph's text may be long). */
const MAX_CONTROL_TEXT = 300;

/**
 * The controls of a tree, numbered in tree order: the roles above, shown, usable, named or with text, on the
 * screen (observe/filter.ts). A nameless toolbar box (Font Name, Font Size) is named by its panel.
 */
export function controlList(tree: AccessibilityNode[], screen?: ScreenBounds): Control[] {
  const out: Control[] = [];
  const walk = (nodes: AccessibilityNode[], panel: string | undefined) => {
    for (const n of nodes) {
      const type = CONTROL_ROLES[n.role];
      if (type && isShownNode(n, screen)) {
        const text = (n.name || (n.role === 'text' && panel) || n.text || '').slice(0, MAX_CONTROL_TEXT);
        if (text) out.push({ label: String(out.length + 1), role: n.role, type, text, node: n });
      }
      walk(n.children ?? [], n.role === 'panel' && n.name ? n.name : n.role === 'panel' ? panel : undefined);
    }
  };
  walk(tree, undefined);
  return out;
}

/** The control list as the prefill prompt shows it: `[label] type (role) "text"`, one a line. */
export function controlListText(controls: Control[]): string {
  return controls.map((c) => `[${c.label}] ${c.type} (${c.role}) ${JSON.stringify(c.text)}`).join('\n');
}

/** Length of the longest common subsequence of a and b. */
function lcs(a: string, b: string): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}

/** Similarity 0..100 of two strings: 2·LCS / (|a| + |b|), as difflib's ratio counts matches. */
export function ratio(a: string, b: string): number {
  if (!a.length && !b.length) return 100;
  return Math.round((200 * lcs(a, b)) / (a.length + b.length));
}

/**
 * fuzzywuzzy's partial_ratio, unprocessed and case-sensitive: the best ratio of the shorter string against every
 * window of the longer one of the same length (100 when the shorter occurs in the longer).
 */
export function partialRatio(a: string, b: string): number {
  if (!a.length || !b.length) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.includes(short)) return 100;
  let best = 0;
  for (let i = 0; i + short.length <= long.length; i++) {
    const r = ratio(short, long.slice(i, i + short.length));
    if (r > best) best = r;
    if (best === 100) break;
  }
  return best;
}

export interface MatchOptions {
  /** Exact matches only (case-insensitive, trimmed). */
  strict?: boolean;
  /** The lowest partial ratio accepted (0..100). Default 70, UFO's window-title threshold. */
  threshold?: number;
}

export type MatchResult =
  | { ok: true; control: Control; score: number; how: 'exact' | 'fuzzy' }
  | { ok: false; score: number; best?: Control; error: string };

/** The control a step's ControlText names. */
export function matchControl(controls: Control[], controlText: string, o: MatchOptions = {}): MatchResult {
  const want = controlText.trim().toLowerCase();
  const exact = controls.find((c) => c.text.trim().toLowerCase() === want);
  if (exact) return { ok: true, control: exact, score: 100, how: 'exact' };
  let best: Control | undefined;
  let score = 0;
  for (const c of controls) {
    const s = partialRatio(c.text, controlText);
    if (s > score) {
      score = s;
      best = c;
    }
  }
  const threshold = o.threshold ?? 70;
  if (!o.strict && best && score >= threshold) return { ok: true, control: best, score, how: 'fuzzy' };
  const near = best ? `; the nearest is [${best.label}] ${JSON.stringify(best.text)} at ${score}` : '';
  return {
    ok: false,
    score,
    best,
    error: `control not found: no control's text is ${JSON.stringify(controlText)}${o.strict ? ' (strict matching: exact text only)' : ` nor scores ${threshold} or more`}${near} (${controls.length} controls on screen)`,
  };
}
