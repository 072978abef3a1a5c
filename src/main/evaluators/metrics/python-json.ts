// JSON as OSWorld's metrics read and compare it in Python: text opened with universal newlines, `json.loads`
// (NaN / Infinity accepted, a leading BOM refused) and `==` on the parsed values (True == 1, 1.0 == 1, deep).
// A small local reading for compare_config and is_included_all_json_objects; python/value.ts's pyEquals /
// pyJsonParse (issue 28's Python value layer) are the project-wide ones and can replace these two when merged.
import { readBytes } from './inputs';

/** A file's text as Python's `open(path, 'r', encoding='utf-8').read()` gives it: strict UTF-8 (a decoding
 * error is the reason, as Python raises), the BOM kept, CRLF and lone CR read as LF. */
export async function readPythonText(path: unknown): Promise<{ text: string } | { error: string }> {
  const bytes = await readBytes(path);
  if (!bytes) return { error: `cannot read ${JSON.stringify(path)}` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { error: `${String(path)} is not UTF-8 (Python raises UnicodeDecodeError)` };
  }
  return { text: text.replace(/\r\n?/g, '\n') };
}

const SPECIAL = /("(?:[^"\\]|\\.)*")|(-?Infinity|NaN)/g;

/** Python's `json.loads(text)`: the value, or undefined where it raises (JSONDecodeError). */
export function pyJsonLoads(text: string): { value: unknown } | undefined {
  if (text.startsWith('\uFEFF')) return undefined; // "Unexpected UTF-8 BOM"
  try {
    return { value: JSON.parse(text) };
  } catch {
    // NaN, Infinity and -Infinity are JSON to Python: mark them, parse, and put the numbers back
    const marked = text.replace(SPECIAL, (m, str: string | undefined, special: string | undefined) => (str !== undefined ? str : `"\\u0000${special}"`));
    if (marked === text) return undefined;
    try {
      const value: unknown = JSON.parse(marked, (_k, v: unknown) =>
        typeof v === 'string' && v.startsWith('\u0000') ? (v === '\u0000NaN' ? NaN : v === '\u0000-Infinity' ? -Infinity : Infinity) : v,
      );
      return { value };
    } catch {
      return undefined;
    }
  }
}

const numberOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : undefined);
const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's `a == b` for values json.loads returns: bools and numbers by value (True == 1 == 1.0), NaN never
 * equal, lists element by element, dicts by their keys and values. */
export function pyJsonEquals(a: unknown, b: unknown): boolean {
  const na = numberOf(a);
  const nb = numberOf(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na === nb;
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyJsonEquals(x, b[i]));
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && pyJsonEquals(a[k], b[k]));
  }
  return false;
}

/** Python's truth value of an option (False, 0, '', None, [] and {} are false). */
export function pyTruth(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isDict(v)) return Object.keys(v).length > 0;
  return true;
}
