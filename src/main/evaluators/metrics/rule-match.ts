// OSWorld's `{method, ref}` value rules (utils._match_value_to_rule), one matcher for every rule dictionary:
// check_json, compare_table's check_cell / zoom / data_validation, Thunderbird prefs, audio tags. Python's semantics:
// re patterns through the Python pattern layer, `==` and ordering as Python compares, float() for approx.
import { compilePython, pythonFlags, PythonPatternError } from '../python/re';
import { pyCompare, pyEquals, pyFloat, pyRepr, pyStr, pyTypeName } from '../python/value';
import { isRecord } from './inputs';

/** A rule's verdict: matched or not, with the reason; `raises` when OSWorld's code raises on it (callers score 0). */
export interface RuleVerdict {
  ok: boolean;
  reason: string;
  raises?: boolean;
}

/** A rule method a reader adds for its own values (spreadsheet_range over cell ranges). */
export type RuleMethod = (value: unknown, ref: unknown) => RuleVerdict;
const extraMethods = new Map<string, RuleMethod>();

/** Adds an exact-name method (OSWorld's spreadsheet_range needs openpyxl's MultiCellRange: xlsx-validation.ts). */
export function registerRuleMethod(name: string, fn: RuleMethod): void {
  extraMethods.set(name, fn);
}

const show = (v: unknown) => {
  const r = pyRepr(v);
  return r.length > 80 ? `${r.slice(0, 77)}...` : r;
};
const raises = (reason: string): RuleVerdict => ({ ok: false, reason, raises: true });
const OPS: Record<string, (d: number) => boolean> = {
  lt: (d) => d < 0,
  le: (d) => d <= 0,
  gt: (d) => d > 0,
  ge: (d) => d >= 0,
};

function regexRule(value: unknown, method: string, ref: unknown): RuleVerdict {
  const flags = pythonFlags(method.split('.').slice(1));
  if (typeof flags === 'string') return raises(flags);
  if (typeof ref !== 'string') return raises(`the pattern ${show(ref)} is not a str (TypeError)`);
  if (typeof value !== 'string')
    return raises(`re.search on ${pyTypeName(value)} ${show(value)}: expected string (TypeError)`);
  let found: boolean;
  try {
    found = compilePython(ref, flags).search(value) !== null;
  } catch (e) {
    if (e instanceof PythonPatternError && e.pythonRaises) return raises(e.message);
    throw e;
  }
  return {
    ok: found,
    reason: `${show(value)} ${found ? 'matches' : 'does not match'} ${method} ${show(ref)}`,
  };
}

function approxRule(value: unknown, method: string, ref: unknown): RuleVerdict {
  const parts = method.split(':');
  if (parts.length < 2) return raises(`method '${method}' has no tolerance after ':' (IndexError)`);
  const tolerance = pyFloat(parts[1]);
  if (tolerance === undefined) return raises(`tolerance '${parts[1]}' is not a number (ValueError)`);
  const v = pyFloat(value);
  if (v === undefined) return { ok: false, reason: `${show(value)} is not a number` };
  const r = pyFloat(ref);
  if (r === undefined || typeof ref === 'string')
    return raises(`ref ${show(ref)} is not a number (TypeError)`);
  const ok = Math.abs(v - r) <= tolerance;
  return {
    ok,
    reason: `${show(value)} is ${ok ? 'within' : 'not within'} ${pyStr(tolerance)} of ${show(ref)}`,
  };
}

function rangeRule(value: unknown, method: string, ref: unknown): RuleVerdict {
  const [x, y] = [method[6], method[7]];
  if (x === undefined || y === undefined)
    return raises(`method '${method}' needs two letters after 'range.' (IndexError)`);
  if (![x, y].every((c) => c === 't' || c === 'e'))
    return raises(`method '${method}': operator has no 'l${x}' / 'l${y}' (AttributeError)`);
  if (!Array.isArray(ref) || ref.length < 2) return raises(`range ref ${show(ref)} is not [low, high]`);
  const lo = pyCompare(ref[0], value);
  if (typeof lo === 'string') return raises(lo);
  if (!(x === 't' ? lo < 0 : lo <= 0))
    return { ok: false, reason: `${show(value)} is not above ${show(ref[0])}` };
  const hi = pyCompare(value, ref[1]);
  if (typeof hi === 'string') return raises(hi);
  const ok = y === 't' ? hi < 0 : hi <= 0;
  return { ok, reason: `${show(value)} is ${ok ? '' : 'not '}in ${method} ${show(ref)}` };
}

function strContainerRule(value: unknown, method: string, ref: unknown): RuleVerdict {
  if (typeof value !== 'string') return raises(`${pyTypeName(value)} has no strip() (AttributeError)`);
  if (!Array.isArray(ref) && typeof ref !== 'string')
    return raises(`ref ${show(ref)} is not iterable (TypeError)`);
  const want: unknown[] = typeof ref === 'string' ? [...ref] : ref;
  const items = value.replace(/^["']+|["']+$/g, '').split(',');
  let ok: boolean;
  if (method === 'str_list_eq') ok = pyEquals(items, want);
  else {
    if (want.some((w) => typeof w === 'object' && w !== null))
      return raises(`ref ${show(ref)} holds unhashable items (TypeError)`);
    ok =
      items.every((i) => want.some((w) => pyEquals(i, w))) &&
      want.every((w) => items.some((i) => pyEquals(i, w)));
  }
  return {
    ok,
    reason: `${show(items)} ${ok ? 'equals' : 'does not equal'} ${method === 'str_set_eq' ? 'the set ' : ''}${show(ref)}`,
  };
}

/**
 * OSWorld's `_match_value_to_rule(value, {method, ref})`: `re[.FLAG…]` (re.search of `ref` in the str value, flags
 * by re's attribute names), `eq` `ne` (Python ==), `lt` `le` `gt` `ge` (Python ordering; across types it raises),
 * `approx:<tolerance>` (|float(value) − ref| ≤ tolerance; a value float() rejects does not match), `range.xy`
 * (`ref[0] <x value <y ref[1]`, x/y `t` for < and `e` for ≤), `str_list_eq` / `str_set_eq` (the str value, quotes
 * stripped, split at commas, equals the list / set `ref`), and registered methods (spreadsheet_range). Any other
 * method raises (NotImplementedError). A pattern the Python layer cannot honour throws PythonPatternError.
 */
export function matchRule(value: unknown, rule: unknown): RuleVerdict {
  if (!isRecord(rule)) return raises(`rule ${show(rule)} is not a dict`);
  if (!('method' in rule)) return raises(`rule ${show(rule)} has no 'method' (KeyError)`);
  const { method, ref } = rule;
  if (typeof method !== 'string') return raises(`method ${show(method)} is not a str (AttributeError)`);
  if (method.startsWith('re')) return regexRule(value, method, ref);
  if (!('ref' in rule)) return raises(`rule ${show(rule)} has no 'ref' (KeyError)`);
  if (method === 'eq' || method === 'ne') {
    const same = pyEquals(value, ref);
    const ok = method === 'eq' ? same : !same;
    return { ok, reason: `${show(value)} ${same ? '==' : '!='} ${show(ref)}` };
  }
  if (method in OPS) {
    const d = pyCompare(value, ref);
    if (typeof d === 'string') return raises(d);
    const ok = OPS[method](d);
    return { ok, reason: `${show(value)} ${ok ? 'satisfies' : 'does not satisfy'} ${method} ${show(ref)}` };
  }
  if (method.startsWith('approx')) return approxRule(value, method, ref);
  const extra = extraMethods.get(method);
  if (extra) return extra(value, ref);
  if (method.startsWith('range.')) return rangeRule(value, method, ref);
  if (method === 'str_list_eq' || method === 'str_set_eq') return strContainerRule(value, method, ref);
  return raises(`unknown method '${method}' (OSWorld raises NotImplementedError)`);
}

/** `true` when the value satisfies the rule, else the reason (a rule OSWorld raises on says so). */
export function matchesRule(value: unknown, rule: unknown): true | string {
  const v = matchRule(value, rule);
  return v.ok || (v.raises ? `${v.reason} (OSWorld raises: the check fails)` : v.reason);
}
