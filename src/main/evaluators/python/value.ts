// Python's value semantics for OSWorld's metrics: `==` (True == 1, 1.0 == 1, deep lists and dicts, str never equal
// to a number, None), ordering (`<` raises across types), `float()`, and `str()` / `repr()` as Python prints them.
import { pyStrip } from '../metrics/python-text';

/** A value that knows Python's equality and printing itself (openpyxl's MultiCellRange, a float read as float). */
export interface PyValue {
  pyEquals(other: unknown): boolean;
  pyStr(): string;
}

const isPyValue = (v: unknown): v is PyValue =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as PyValue).pyEquals === 'function' &&
  typeof (v as PyValue).pyStr === 'function';

/** A number Python holds as a float (`1.0` from JSON or a cell), so that it prints as `1.0`. */
export class PyFloat implements PyValue {
  constructor(readonly value: number) {}
  pyEquals(other: unknown): boolean {
    const o = numeric(other);
    return o !== undefined && numbersEqual(this.value, o);
  }
  pyStr(): string {
    return floatRepr(this.value);
  }
  valueOf(): number {
    return this.value;
  }
  /** Records (JSON) keep the number. */
  toJSON(): number {
    return this.value;
  }
}

/** The number of a bool, int or float (Python's numeric tower), else undefined; an int past 2^53 stays a bigint. */
function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'bigint') return v;
  return undefined;
}

/** Python's exact comparison of two numbers, an int past 2^53 included (9007199254740993 > 9007199254740992.0);
 * NaN is unordered (0 here, and never equal: numbersEqual). */
function numberOrder(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number') return -numberOrder(b, a);
  const x = b as number;
  if (Number.isNaN(x)) return 0;
  if (!Number.isFinite(x)) return x > 0 ? -1 : 1;
  const floor = BigInt(Math.floor(x));
  if (Number.isInteger(x)) return a < floor ? -1 : a > floor ? 1 : 0;
  return a <= floor ? -1 : 1;
}

function numbersEqual(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === 'number' && Number.isNaN(a)) return false;
  if (typeof b === 'number' && Number.isNaN(b)) return false;
  return numberOrder(a, b) === 0;
}

/** An element comparison inside a list or dict: Python's PyObject_RichCompareBool takes the same object as equal
 * first (json.loads gives every NaN as one object, so [NaN] == [NaN] although NaN != NaN). */
const sameOrEqual = (a: unknown, b: unknown): boolean => a === b || pyEquals(a, b);
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Whether a value is a Python dict (a plain object: not a list, a PyFloat or other PyValue, a datetime). */
export const isPyDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isPyValue(v) && !(v instanceof Date);
const isDict = isPyDict;

/** Python's `a == b` for JSON-like values. */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (isPyValue(a)) return a.pyEquals(b);
  if (isPyValue(b) && !(b instanceof PyFloat)) return b.pyEquals(a);
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined)
    return na !== undefined && nb !== undefined && numbersEqual(na, nb);
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameOrEqual(x, b[i]))
    );
  if (isDict(a) && isDict(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => own(b, k) && sameOrEqual(a[k], b[k]));
  }
  return false;
}

/** Python's `x in container` for a list (element equality), a str (substring) or a dict (key); undefined where it raises. */
export function pyIn(item: unknown, container: unknown): boolean | undefined {
  if (typeof container === 'string') return typeof item === 'string' ? container.includes(item) : undefined;
  if (Array.isArray(container)) return container.some((x) => sameOrEqual(x, item));
  if (isDict(container))
    return typeof item === 'string'
      ? own(container, item)
      : Array.isArray(item) || isDict(item)
        ? undefined
        : false;
  return undefined;
}

/** Compares strings by code point, as Python does (JavaScript's `<` compares UTF-16 units). */
function codePointOrder(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python's ordering of two values (negative, zero, positive), or the TypeError message where Python raises. */
export function pyCompare(a: unknown, b: unknown): number | string {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return numberOrder(na, nb);
  if (typeof a === 'string' && typeof b === 'string') return codePointOrder(a, b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (sameOrEqual(a[i], b[i])) continue;
      return pyCompare(a[i], b[i]);
    }
    return a.length - b.length;
  }
  return `'<' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}' (TypeError)`;
}

/** Python's type name of a JSON-like value. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof PyFloat) return 'float';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'string') return 'str';
  if (v instanceof Date) return 'datetime';
  if (Array.isArray(v)) return 'list';
  return isDict(v) ? 'dict' : 'object';
}

const FLOAT_TEXT =
  /^[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)$/i;

/** Python's `float(v)`, or undefined where it raises (None, a list, text that is no number). */
export function pyFloat(v: unknown): number | undefined {
  const n = numeric(v);
  if (n !== undefined) return Number(n);
  if (typeof v !== 'string') return undefined;
  const t = pyStrip(v);
  if (!FLOAT_TEXT.test(t)) return undefined;
  const lower = t.toLowerCase().replace(/_/g, '');
  if (/inf/.test(lower)) return lower.startsWith('-') ? -Infinity : Infinity;
  if (/nan/.test(lower)) return NaN;
  return Number(lower);
}

/** Python's repr() of a float: the shortest round-trip digits, fixed from 1e-4 to below 1e16, else e-notation. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = x.toExponential().split('e');
  const e = Number(exp);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  if (e < -4 || e >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  const whole = digits.slice(0, e + 1).padEnd(e + 1, '0');
  const frac = digits.slice(e + 1);
  return `${sign}${whole}.${frac || '0'}`;
}

/** Python's str() of a JSON-like value (a JavaScript number that is whole prints as an int). */
export function pyStr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Date) return dateParts(v).text;
  return pyRepr(v);
}

/** A Date as Python's naive datetime (its UTC fields, as openpyxl's cells read): str() and repr() forms. */
function dateParts(d: Date): { text: string; repr: string } {
  const f = [
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
  ];
  const us = d.getUTCMilliseconds() * 1000;
  const p2 = (n: number) => String(n).padStart(2, '0');
  const text = `${String(f[0]).padStart(4, '0')}-${p2(f[1])}-${p2(f[2])} ${p2(f[3])}:${p2(f[4])}:${p2(f[5])}${us ? `.${String(us).padStart(6, '0')}` : ''}`;
  const args = [...f, ...(us ? [us] : [])];
  while (!us && args.length > 5 && args[args.length - 1] === 0) args.pop();
  return { text, repr: `datetime.datetime(${args.join(', ')})` };
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's repr() of a str: single quotes unless the text has one and no double quote; escapes as Python writes them. */
function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      out +=
        cp < 0x100
          ? `\\x${cp.toString(16).padStart(2, '0')}`
          : cp < 0x10000
            ? `\\u${cp.toString(16).padStart(4, '0')}`
            : `\\U${cp.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's repr() of a JSON-like value: True/False/None, ints, floats (1.0, 1e-05, inf), quoted strs, lists, dicts. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (isPyValue(v)) return v instanceof PyFloat ? floatRepr(v.value) : strRepr(v.pyStr());
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v).toString() : floatRepr(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return strRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (v instanceof Date) return dateParts(v).repr;
  if (isDict(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${strRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** json's NaN / Infinity / -Infinity: one object each, as Python's json module hands out its module constants. */
const JSON_CONSTANTS = new Map([
  ['NaN', new PyFloat(NaN)],
  ['Infinity', new PyFloat(Infinity)],
  ['-Infinity', new PyFloat(-Infinity)],
]);

/**
 * JSON as Python's json.loads reads it: numbers written with a fraction or exponent become PyFloat (so `1.0` stays a
 * float), integers past 2^53 BigInt, NaN / Infinity / -Infinity are accepted (one object each, so `[NaN] == [NaN]`
 * as in Python), a leading BOM is refused (Python: "Unexpected UTF-8 BOM"). Throws SyntaxError like JSON.parse.
 */
export function pyJsonParse(text: string): unknown {
  const marked = text.replace(
    /("(?:[^"\\]|\\.)*")|(-?Infinity|NaN)|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g,
    (m, str: string | undefined, special: string | undefined, num: string | undefined) => {
      if (str !== undefined) return str;
      if (special !== undefined) return `{"\\u0000pyfloat":"${special}"}`;
      if (/[.eE]/.test(num!)) return `{"\\u0000pyfloat":"${num}"}`;
      return Number.isSafeInteger(Number(num)) ? num! : `{"\\u0000pyint":"${num}"}`;
    },
  );
  return JSON.parse(marked, (_k, v: unknown) => {
    if (isDict(v) && Object.keys(v).length === 1 && typeof v['\u0000pyfloat'] === 'string') {
      const s = v['\u0000pyfloat'] as string;
      return JSON_CONSTANTS.get(s) ?? new PyFloat(Number(s));
    }
    if (isDict(v) && Object.keys(v).length === 1 && typeof v['\u0000pyint'] === 'string')
      return BigInt(v['\u0000pyint'] as string);
    return v;
  });
}

/** Python's `json.loads(text)`: the value, or undefined where it raises (JSONDecodeError). */
export function pyJsonLoads(text: string): { value: unknown } | undefined {
  try {
    return { value: pyJsonParse(text) };
  } catch {
    return undefined;
  }
}

/** A value with PyFloat unwrapped to plain numbers (for JavaScript code and records). */
export function plain(v: unknown): unknown {
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (isDict(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** Python's truthiness: None, False, 0, '', [] and {} are false. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return false;
  if (v instanceof PyFloat) return v.value !== 0;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (Array.isArray(v)) return v.length > 0;
  if (isDict(v)) return Object.keys(v).length > 0;
  return true;
}
