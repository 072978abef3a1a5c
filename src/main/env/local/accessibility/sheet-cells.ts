// The visible cells of a huge table (a Calc sheet, which reports 2^31−1 children) read as a grid, in rounds of
// calls each sent all at once: each visible cell by row and column; then every cell's text and states, and the
// boxes of the cells on the visible range's edges; then only the boxes of shown cells that may head a merged
// block. A cell's box is its column's x and width and its row's y and height; its name, when the table names its
// cells by address (A1, B2, as Calc does), is its address; a table that does not is asked each shown cell's name.
import type { AccessibilityNode } from '../../environment';
import { atspiStateNames } from './atspi-names';

/** One method call on the table's application; undefined for an error reply. */
export type Ask = (
  name: string,
  path: string,
  iface: string,
  member: string,
  signature?: string,
  body?: unknown[],
) => Promise<unknown[] | undefined>;

type Ref = [string, string];

const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const COMPONENT = 'org.a11y.atspi.Component';
const TABLE = 'org.a11y.atspi.Table';
const TEXT = 'org.a11y.atspi.Text';
const PROPS = 'org.freedesktop.DBus.Properties';
const NULL_PATH = '/org/a11y/atspi/null';

/** Spreadsheet column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(col: number): string {
  let name = '';
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26))
    name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
  return name;
}

/** A cell's address as Calc names it (row and column from 0): `B3`. */
export function cellAddress(row: number, col: number): string {
  return `${columnName(col)}${row + 1}`;
}

export interface GridOptions {
  /** Cap on the cells asked. */
  maxCells: number;
  /** Text kept per cell. */
  maxText: number;
  /** Leave out a cell that is not showing. */
  showingOnly: boolean;
}

type Box = [number, number, number, number];

const boxOf = (reply: unknown[] | undefined): Box | undefined => {
  const b = (reply?.[0] as number[] | undefined)?.map(Number);
  return b && b.length === 4 && b.every(Number.isFinite) ? (b as Box) : undefined;
};

/**
 * The cells from `first` to `last` (row, column; inclusive) of table `[name, path]` that an agent reads: those with
 * text, and the empty ones with the focus or selected (where typing goes); row by row. Boxes are screen pixels.
 */
export async function gridCells(
  ask: Ask,
  [name, path]: Ref,
  first: [number, number],
  last: [number, number],
  o: GridOptions,
): Promise<AccessibilityNode[]> {
  const rows = Math.max(0, last[0] - first[0] + 1);
  const cols = Math.max(0, Math.min(last[1] - first[1] + 1, o.maxCells));
  const wanted: [number, number][] = [];
  for (let r = 0; r < rows && wanted.length < o.maxCells; r++) {
    for (let c = 0; c < cols && wanted.length < o.maxCells; c++) wanted.push([first[0] + r, first[1] + c]);
  }
  const refs = (
    await Promise.all(wanted.map(([r, c]) => ask(name, path, TABLE, 'GetAccessibleAt', 'ii', [r, c])))
  ).map((x) => {
    const ref = x?.[0] as Ref | undefined;
    return ref && ref[1] !== NULL_PATH ? ref : undefined;
  });
  // The grid: the cells of the first and last visible rows give the columns' x and width, those of the first and
  // last visible columns the rows' y and height. A merged block's top-left cell answers for the whole block (and
  // its covered cells for themselves, with no text): of two samples of a column or row, the narrower is the grid's.
  const lastRow = wanted.length ? wanted[wanted.length - 1][0] : first[0];
  const lastCol = first[1] + cols - 1;
  const edge = (i: number) =>
    wanted[i][0] === first[0] ||
    wanted[i][0] === lastRow ||
    wanted[i][1] === first[1] ||
    wanted[i][1] === lastCol;
  const lastIndex = wanted.length - 1;
  const [texts, states, boxes, names] = await Promise.all([
    Promise.all(refs.map((ref) => (ref ? ask(ref[0], ref[1], TEXT, 'GetText', 'ii', [0, -1]) : undefined))),
    Promise.all(refs.map((ref) => (ref ? ask(ref[0], ref[1], ACCESSIBLE, 'GetState') : undefined))),
    Promise.all(
      refs.map((ref, i) =>
        ref && edge(i) ? ask(ref[0], ref[1], COMPONENT, 'GetExtents', 'u', [0]).then(boxOf) : undefined,
      ),
    ),
    // the corner cells' names tell whether the table names its cells by address
    Promise.all(
      [0, lastIndex].map((i) =>
        refs[i] ? ask(refs[i][0], refs[i][1], PROPS, 'Get', 'ss', [ACCESSIBLE, 'Name']) : undefined,
      ),
    ),
  ]);
  const colBox = new Map<number, Box>();
  const rowBox = new Map<number, Box>();
  wanted.forEach(([r, c], i) => {
    const b = boxes[i];
    if (!b) return;
    const col = colBox.get(c);
    if ((r === first[0] || r === lastRow) && (!col || b[2] < col[2])) colBox.set(c, b);
    const row = rowBox.get(r);
    if ((c === first[1] || c === lastCol) && (!row || b[3] < row[3])) rowBox.set(r, b);
  });
  const textAt = (i: number): string | undefined => {
    const raw = texts[i]?.[0];
    return typeof raw === 'string' && raw.length > 0 ? raw : undefined;
  };
  /** Whether cell `i` may be the top-left of a merged block: the cell right of it or below it is empty or unseen. */
  const mayMerge = (i: number): boolean => {
    const [r, c] = wanted[i];
    const right = c < lastCol ? i + 1 : -1;
    const below = r < lastRow && i + cols < wanted.length ? i + cols : -1;
    return right < 0 || below < 0 || !textAt(right) || !textAt(below);
  };
  const nameOf = (reply: unknown[] | undefined): string | undefined => {
    const v = (reply?.[0] as { value?: unknown } | undefined)?.value;
    return typeof v === 'string' ? v : undefined;
  };
  const byAddress =
    wanted.length > 0 &&
    nameOf(names[0])?.trim() === cellAddress(...wanted[0]) &&
    nameOf(names[1])?.trim() === cellAddress(...wanted[lastIndex]);
  const kept: { i: number; node: AccessibilityNode }[] = [];
  const unboxed: { i: number; node: AccessibilityNode }[] = [];
  wanted.forEach(([r, c], i) => {
    const state = states[i];
    if (!refs[i] || !state) return; // the cell went away
    const stateNames = atspiStateNames(((state[0] as number[] | undefined) ?? []).map(Number));
    if (o.showingOnly && !stateNames.includes('showing')) return;
    const text = textAt(i)?.slice(0, o.maxText);
    if (!text && !stateNames.includes('focused') && !stateNames.includes('selected')) return;
    const col = colBox.get(c);
    const row = rowBox.get(r);
    const own = boxes[i];
    const [x, y, width, height] = own ?? (col && row ? [col[0], row[1], col[2], row[3]] : [-1, -1, -1, -1]);
    const node: AccessibilityNode = {
      role: 'table-cell',
      name: byAddress ? cellAddress(r, c) : '',
      description: undefined,
      className: undefined,
      x,
      y,
      width,
      height,
      states: stateNames,
      source: 'atspi',
    };
    if (text) node.text = text;
    kept.push({ i, node });
    if (!own && (width < 0 || mayMerge(i))) unboxed.push({ i, node });
  });
  // a table that names its cells otherwise, or whose grid could not be read, is asked per cell shown
  const unnamed = byAddress ? [] : kept;
  const [askedNames, askedBoxes] = await Promise.all([
    Promise.all(
      unnamed.map(({ i }) => ask(refs[i]![0], refs[i]![1], PROPS, 'Get', 'ss', [ACCESSIBLE, 'Name'])),
    ),
    Promise.all(
      unboxed.map(({ i }) => ask(refs[i]![0], refs[i]![1], COMPONENT, 'GetExtents', 'u', [0]).then(boxOf)),
    ),
  ]);
  const gone = new Set<AccessibilityNode>();
  unnamed.forEach(({ node }, k) => {
    const n = nameOf(askedNames[k]);
    if (n === undefined) gone.add(node);
    else node.name = n.trim();
  });
  unboxed.forEach(({ node }, k) => {
    [node.x, node.y, node.width, node.height] = askedBoxes[k] ?? [-1, -1, -1, -1];
  });
  return kept.map((k) => k.node).filter((n) => !gone.has(n));
}
