// A cell's value as OSWorld's `read_cell_value` (metrics/utils.py) reads it for compare_table's check_cell: straight
// from the sheet's XML, not through openpyxl's typing. Numbers are Python floats, shared and formula strings are
// text (a number stored as text stays text), error cells their code; booleans, ISO dates and anything unreadable
// are None.
import { XlsxPackage, attr, descendants, kid, kids } from './xlsx-package';

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** What Python gets: a float (JavaScript number), a str, a dict (an inline `<t>` with attributes, as xmltodict
 * gives it) or None (null). */
export type OsworldCellValue = number | string | Record<string, string | null> | null;

/** Text of an element as lxml's `.text` gives it: the text before its first child element; null when none. */
function lxmlText(el: Element): string | null {
  let s = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) break;
    if (n.nodeType === 3 || n.nodeType === 4) s += n.nodeValue ?? '';
  }
  return s === '' ? null : s;
}

/** The value xmltodict gives for a leaf element: its text (null when empty), or a dict when it has attributes. */
function xmltodictLeaf(el: Element): string | null | Record<string, string | null> {
  const text = el.textContent === '' ? null : el.textContent;
  if (!el.attributes.length) return text;
  const out: Record<string, string | null> = {};
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes[i];
    // process_namespaces: the xml: namespace is not in OSWorld's mapping, so its attributes keep the URI
    const name =
      a.namespaceURI && a.namespaceURI !== MAIN_NS ? `${a.namespaceURI}:${a.localName}` : a.localName;
    out[`@${name}`] = a.value;
  }
  out['#text'] = text;
  return out;
}

/** Python's float() of a `<v>` text: null where it raises (None, empty, not a number). */
function pyFloatText(s: string | null): number | null {
  if (s === null) return null;
  const t = s.trim().replace(/_/g, '');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i.test(t)) return null;
  const lower = t.toLowerCase();
  if (lower.includes('inf')) return lower.startsWith('-') ? -Infinity : Infinity;
  if (lower.includes('nan')) return NaN;
  return Number(t);
}

/** The shared strings: each `<si>`'s `<t>` texts joined (phonetic runs included, as the CSS selector `oo|t`
 * finds them). An empty `<t>` makes Python's join raise, and OSWorld then has no shared strings at all. */
async function sharedStrings(pkg: XlsxPackage): Promise<string[]> {
  try {
    const sst = await pkg.root('xl/sharedStrings.xml');
    const out: string[] = [];
    for (const si of kids(sst, 'si')) {
      const parts = descendants(si, 't').map(lxmlText);
      if (parts.some((p) => p === null)) return [];
      out.push(parts.join(''));
    }
    return out;
  } catch {
    return [];
  }
}

/**
 * read_cell_value(path, sheet, coordinate): the sheet is found by its `sheetId` as the part
 * `xl/worksheets/sheet<sheetId>.xml` (upstream's assumption, true of files Calc and Excel write), the cell by its
 * `r` attribute written exactly as `coordinate`. Returns None (null) wherever upstream does or raises.
 */
export async function osworldCellValue(
  path: string | undefined,
  sheetName: string,
  coordinate: string,
): Promise<OsworldCellValue> {
  if (!path) return null;
  const pkg = await XlsxPackage.open(path);
  if (typeof pkg === 'string') return null;
  let cell: Element | undefined;
  let shared: string[];
  try {
    shared = await sharedStrings(pkg);
    const wb = await pkg.root('xl/workbook.xml');
    const entry = kids(kid(wb, 'sheets'), 'sheet').find((s) => attr(s, 'name') === sheetName);
    if (!entry) return null;
    const sheet = await pkg.root(`xl/worksheets/sheet${attr(entry, 'sheetId') ?? 'None'}.xml`);
    if (!sheet) return null;
    cell = descendants(sheet, 'row')
      .flatMap((row) => kids(row, 'c'))
      .find((c) => attr(c, 'r') === coordinate);
  } catch {
    return null;
  }
  if (!cell) return null;
  const t = cell.getAttribute('t');
  const v = kid(cell, 'v');
  const leaf = v ? xmltodictLeaf(v) : null;
  if (t === null || t === 'n') return typeof leaf === 'string' ? pyFloatText(leaf) : null;
  if (t === 's') {
    // shared_strs[int(v)]: Python's int() and list index (a negative index counts from the end)
    if (typeof leaf !== 'string' || !/^\s*[+-]?\d+\s*$/.test(leaf)) return null;
    const i = Number(leaf.trim());
    const at = i < 0 ? shared.length + i : i;
    return at >= 0 && at < shared.length ? shared[at] : null;
  }
  if (t === 'str' || t === 'e') return leaf;
  if (t === 'inlineStr') {
    const is = kid(cell, 'is');
    const tEl = is ? kid(is, 't') : undefined;
    return tEl ? xmltodictLeaf(tEl) : null;
  }
  return null; // t="b", t="d" and others: upstream has no branch for them
}
