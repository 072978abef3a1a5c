// compare_table's data_validation rule (OSWorld table.py), openpyxl's MultiCellRange (CellRanges) and the
// spreadsheet_range rule method it adds to the one `{method, ref}` matcher (rule-match.ts).
import { isDeepStrictEqual } from 'node:util';
import type { PyValue } from '../python/value';
import { brief, isRecord } from './inputs';
import { matchesRule, matchRule, registerRuleMethod } from './rule-match';
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
export class CellRanges implements PyValue {
  constructor(readonly boxes: Box[]) {}

  /** openpyxl's MultiCellRange == another, or a str read as one. */
  pyEquals(other: unknown): boolean {
    const o = typeof other === 'string' ? CellRanges.parse(other) : other;
    return o instanceof CellRanges && this.sameAs(o);
  }

  pyStr(): string {
    return this.toJSON();
  }

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
    return this.boxes.every((b) =>
      other.boxes.some((o) => o.c0 <= b.c0 && o.r0 <= b.r0 && b.c1 <= o.c1 && b.r1 <= o.r1),
    );
  }

  sameAs(other: CellRanges): boolean {
    const key = (x: CellRanges) => new Set(x.boxes.map((b) => `${b.c0},${b.r0},${b.c1},${b.r1}`));
    return isDeepStrictEqual(key(this), key(other));
  }

  toJSON(): string {
    const letters = columnLetters;
    return this.boxes
      .map(
        (b) => `${letters(b.c0)}${b.r0}${b.c0 === b.c1 && b.r0 === b.r1 ? '' : `:${letters(b.c1)}${b.r1}`}`,
      )
      .join(' ');
  }
}

/** The cell ranges of a validation match a rule's `ref` as openpyxl's MultiCellRange does. */
registerRuleMethod('spreadsheet_range', (value, ref) => {
  if (!(value instanceof CellRanges))
    return { ok: false, reason: `${brief(value)} is no cell range`, raises: true };
  if (!Array.isArray(ref) || ref.length < 2)
    return { ok: false, reason: 'spreadsheet_range needs ref [subset, superset]', raises: true };
  const [lo, hi] = [CellRanges.parse(String(ref[0])), CellRanges.parse(String(ref[1]))];
  if (typeof lo === 'string') return { ok: false, reason: lo, raises: true };
  if (typeof hi === 'string') return { ok: false, reason: hi, raises: true };
  const ok = lo.within(value) && value.within(hi);
  return { ok, reason: `${value.toJSON()} is ${ok ? '' : 'not '}between ${lo.toJSON()} and ${hi.toJSON()}` };
});

/**
 * OSWorld's `_match_value_to_rule` (rule-match.ts, the one matcher): `true` or the reason, including where OSWorld
 * raises. Kept under this name for the spreadsheet readers (zoom).
 */
export function matchValueRule(value: unknown, rule: unknown): true | string {
  return matchesRule(value, rule);
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
export async function dataValidationRule(
  r: Record<string, unknown>,
  files: XlsxFiles,
): Promise<true | string> {
  const s = await namedSheet(r.sheet_idx, files);
  if (typeof s === 'string') return s;
  const root = await worksheetRoot(s);
  if (!root) return `${sheetTag(s)} does not exist`;
  const props = Array.isArray(r.dv_props) ? r.dv_props.filter(isRecord) : [];
  const unknown = [...new Set(props.flatMap((p) => Object.keys(p)).filter((k) => !(k in dvAttributes)))];
  if (unknown.length) return `unknown data validation attribute ${unknown.join(', ')} (OSWorld raises)`;
  const dvs = kids(kid(root, 'dataValidations'), 'dataValidation');
  if (dvs.length < props.length)
    return `${sheetTag(s)} has ${dvs.length} data validation(s), the rule lists ${props.length}`;
  for (const dv of dvs) {
    const why: string[] = [];
    let matched = false;
    for (const p of props) {
      let all = true;
      for (const [name, rule] of Object.entries(p)) {
        const m = matchRule(dvAttributes[name](dv), rule);
        if (m.raises)
          return `data validation over ${attr(dv, 'sqref') ?? '?'}: ${name}: ${m.reason} (OSWorld raises)`;
        if (!m.ok) {
          why.push(`${name}: ${m.reason}`);
          all = false;
          break;
        }
      }
      if (all) {
        matched = true;
        break;
      }
    }
    if (!matched)
      return `data validation over ${attr(dv, 'sqref') ?? '?'} matches no dv_props entry (${why.join('; ')})`;
  }
  return true;
}
