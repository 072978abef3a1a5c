// compare_table's data_validation rule (OSWorld table.py) and the `{method, ref}` matching of OSWorld's
// utils._match_value_to_rule with all its methods (re with flags, Python comparisons, approx, range.xy,
// spreadsheet_range, str_list_eq, str_set_eq), which the zoom and data_validation rules use.
import { isDeepStrictEqual } from 'node:util';
import { brief, isRecord } from './inputs';
import { attr, kid, kids, type XlsxFiles } from './xlsx-package';
import { columnLetters, namedSheet, pyBool, sheetTag, worksheetRoot } from './xlsx-sheets';

/** A cell range with 1-based bounds. */
interface Box {
  c0: number;
  r0: number;
  c1: number;
  r1: number;
}

/** openpyxl's MultiCellRange: ranges like `A1:B6 C2` (a sqref). */
export class CellRanges {
  constructor(readonly boxes: Box[]) {}

  /** Parses space-separated ranges; the reason when one is not a range. */
  static parse(text: string): CellRanges | string {
    const boxes: Box[] = [];
    for (const part of text.split(/\s+/).filter(Boolean)) {
      const m = /^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/.exec(part.toUpperCase());
      if (!m) return `'${part}' is not a cell range`;
      const col = (s: string) => [...s].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
      const [c0, r0] = [col(m[1]), Number(m[2])];
      const [c1, r1] = m[3] ? [col(m[3]), Number(m[4])] : [c0, r0];
      boxes.push({ c0: Math.min(c0, c1), r0: Math.min(r0, r1), c1: Math.max(c0, c1), r1: Math.max(r0, r1) });
    }
    return new CellRanges(boxes);
  }

  /** Every range of `this` lies inside one range of `other` (openpyxl's `r in multi_cell_range`). */
  within(other: CellRanges): boolean {
    return this.boxes.every((b) => other.boxes.some((o) => o.c0 <= b.c0 && o.r0 <= b.r0 && b.c1 <= o.c1 && b.r1 <= o.r1));
  }

  sameAs(other: CellRanges): boolean {
    const key = (x: CellRanges) => new Set(x.boxes.map((b) => `${b.c0},${b.r0},${b.c1},${b.r1}`));
    return isDeepStrictEqual(key(this), key(other));
  }

  toJSON(): string {
    const letters = columnLetters;
    return this.boxes.map((b) => `${letters(b.c0)}${b.r0}${b.c0 === b.c1 && b.r0 === b.r1 ? '' : `:${letters(b.c1)}${b.r1}`}`).join(' ');
  }
}

const isNum = (v: unknown): v is number | boolean => typeof v === 'number' || typeof v === 'boolean';

/** Python's `==` over the values rules see. */
function pyEq(a: unknown, b: unknown): boolean {
  if (isNum(a) && isNum(b)) return Number(a) === Number(b);
  if (a instanceof CellRanges) {
    const other = typeof b === 'string' ? CellRanges.parse(b) : b;
    return other instanceof CellRanges && a.sameAs(other);
  }
  return isDeepStrictEqual(a ?? null, b ?? null);
}

/** Python's ordering (`operator.lt` …): numbers with numbers, text with text; anything else raises. */
function pyOrder(a: unknown, b: unknown): number | string {
  if (isNum(a) && isNum(b)) return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return `cannot order ${brief(a)} and ${brief(b)} (TypeError)`;
}

const reFlags: Record<string, string> = { I: 'i', IGNORECASE: 'i', M: 'm', MULTILINE: 'm', S: 's', DOTALL: 's', A: '', ASCII: '', U: '', UNICODE: '' };

/** Python's float() of a value, or undefined where it raises. */
function pyFloat(v: unknown): number | undefined {
  if (isNum(v)) return Number(v);
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isNaN(n) ? undefined : n;
  }
  return undefined;
}

/**
 * OSWorld's `_match_value_to_rule(value, {method, ref})`: `re[.FLAG…]` (re.search of `ref` in the text),
 * `eq` `ne` `lt` `le` `gt` `ge` (Python comparison), `approx:<tolerance>`, `range.xy` (`ref[0] <x value <y
 * ref[1]`, x/y `t` for < and `e` for ≤), `spreadsheet_range` (`ref[0]` ⊆ value ⊆ `ref[1]` as cell ranges),
 * `str_list_eq` / `str_set_eq` (the text, quotes stripped, split at commas, equals the list / set `ref`).
 * Returns `true` or the reason; a method upstream does not know is a reason too (it raises).
 */
export function matchValueRule(value: unknown, rule: unknown): true | string {
  if (!isRecord(rule) || typeof rule.method !== 'string') return `rule ${brief(rule)} has no method`;
  const { method, ref } = rule;
  const miss = () => `${brief(value instanceof CellRanges ? value.toJSON() : value)} does not satisfy ${method} ${brief(ref)}`;
  if (method.startsWith('re')) {
    const flags = method.split('.').slice(1);
    const unknown = flags.filter((f) => !(f in reFlags));
    if (unknown.length) return `regular expression flag ${unknown.join(', ')} is not supported`;
    if (typeof value !== 'string') return `${brief(value)} is not text for ${method} (TypeError)`;
    let re: RegExp;
    try {
      re = new RegExp(String(ref).replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>'), [...new Set(flags.map((f) => reFlags[f]))].join(''));
    } catch {
      return `'${String(ref)}' is not a regular expression`;
    }
    return re.test(value) || miss();
  }
  if (['eq', 'ne', 'lt', 'le', 'gt', 'ge'].includes(method)) {
    if (method === 'eq') return pyEq(value, ref) || miss();
    if (method === 'ne') return !pyEq(value, ref) || miss();
    const d = pyOrder(value, ref);
    if (typeof d === 'string') return d;
    const ok = method === 'lt' ? d < 0 : method === 'le' ? d <= 0 : method === 'gt' ? d > 0 : d >= 0;
    return ok || miss();
  }
  if (method.startsWith('approx')) {
    const tolerance = Number(method.split(':')[1]);
    const v = pyFloat(value);
    if (v === undefined || typeof ref !== 'number' || Number.isNaN(tolerance)) return miss();
    return Math.abs(v - ref) <= tolerance || miss();
  }
  if (method === 'spreadsheet_range') {
    if (!(value instanceof CellRanges)) return `${brief(value)} is no cell range`;
    if (!Array.isArray(ref) || ref.length < 2) return `spreadsheet_range needs ref [subset, superset]`;
    const [lo, hi] = [CellRanges.parse(String(ref[0])), CellRanges.parse(String(ref[1]))];
    if (typeof lo === 'string') return lo;
    if (typeof hi === 'string') return hi;
    return (lo.within(value) && value.within(hi)) || miss();
  }
  if (method.startsWith('range.')) {
    const [x, y] = [method[6], method[7]];
    if (!Array.isArray(ref) || ![x, y].every((c) => c === 't' || c === 'e')) return `unknown method '${method}' (OSWorld raises)`;
    const lo = pyOrder(ref[0], value);
    const hi = pyOrder(value, ref[1]);
    if (typeof lo === 'string') return lo;
    if (typeof hi === 'string') return hi;
    return ((x === 't' ? lo < 0 : lo <= 0) && (y === 't' ? hi < 0 : hi <= 0)) || miss();
  }
  if (method === 'str_list_eq' || method === 'str_set_eq') {
    if (typeof value !== 'string') return `${brief(value)} is not text for ${method} (AttributeError)`;
    const items = value.replace(/^["']+|["']+$/g, '').split(',');
    const want = Array.isArray(ref) ? ref : [];
    if (method === 'str_list_eq') return isDeepStrictEqual(items, want) || miss();
    return isDeepStrictEqual(new Set(items), new Set(want)) || miss();
  }
  return `unknown method '${method}' (OSWorld raises)`;
}

type DvReader = (dv: Element) => unknown;
const text = (el: Element | undefined) => (el ? (el.textContent ?? '') : null);
const ranges: DvReader = (dv) => {
  const r = CellRanges.parse(attr(dv, 'sqref') ?? '');
  return typeof r === 'string' ? new CellRanges([]) : r;
};

/** DataValidation attributes as openpyxl names them (aliases included), with its defaults. */
const dvAttributes: Record<string, DvReader> = {
  ranges,
  sqref: ranges,
  type: (dv) => attr(dv, 'type') ?? null,
  operator: (dv) => attr(dv, 'operator') ?? null,
  formula1: (dv) => text(kid(dv, 'formula1')),
  formula2: (dv) => text(kid(dv, 'formula2')),
  allowBlank: (dv) => pyBool(dv, 'allowBlank', false),
  allow_blank: (dv) => pyBool(dv, 'allowBlank', false),
  showDropDown: (dv) => pyBool(dv, 'showDropDown', false),
  hide_drop_down: (dv) => pyBool(dv, 'showDropDown', false),
  showInputMessage: (dv) => pyBool(dv, 'showInputMessage', false),
  showErrorMessage: (dv) => pyBool(dv, 'showErrorMessage', false),
  error: (dv) => attr(dv, 'error') ?? null,
  errorTitle: (dv) => attr(dv, 'errorTitle') ?? null,
  errorStyle: (dv) => attr(dv, 'errorStyle') ?? null,
  prompt: (dv) => attr(dv, 'prompt') ?? null,
  promptTitle: (dv) => attr(dv, 'promptTitle') ?? null,
  imeMode: (dv) => attr(dv, 'imeMode') ?? null,
};

/**
 * data_validation `{sheet_idx, dv_props: [{attribute: {method, ref}}]}` — the sheet has at least as many
 * validations as `dv_props` lists, and every validation matches all the rules of one `dv_props` entry.
 * Validations are the sheet's `<dataValidations>` (openpyxl does not read the x14 extension list either).
 */
export async function dataValidationRule(r: Record<string, unknown>, files: XlsxFiles): Promise<true | string> {
  const s = await namedSheet(r.sheet_idx, files);
  if (typeof s === 'string') return s;
  const root = await worksheetRoot(s);
  if (!root) return `${sheetTag(s)} does not exist`;
  const props = Array.isArray(r.dv_props) ? r.dv_props.filter(isRecord) : [];
  const unknown = [...new Set(props.flatMap((p) => Object.keys(p)).filter((k) => !(k in dvAttributes)))];
  if (unknown.length) return `unknown data validation attribute ${unknown.join(', ')} (OSWorld raises)`;
  const dvs = kids(kid(root, 'dataValidations'), 'dataValidation');
  if (dvs.length < props.length) return `${sheetTag(s)} has ${dvs.length} data validation(s), the rule lists ${props.length}`;
  for (const dv of dvs) {
    const why: string[] = [];
    const matched = props.some((p) =>
      Object.entries(p).every(([name, rule]) => {
        const m = matchValueRule(dvAttributes[name](dv), rule);
        if (m !== true) why.push(`${name}: ${m}`);
        return m === true;
      }),
    );
    if (!matched) return `data validation over ${attr(dv, 'sqref') ?? '?'} matches no dv_props entry (${why.join('; ')})`;
  }
  return true;
}
