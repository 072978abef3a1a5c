// How OSWorld's Python getters read JSON values: truth (`if value:`) and int(), so the TypeScript getters
// answer what the Python ones answer for the same profile or spec.

/** Python's truth value of a JSON value (empty strings, lists and objects, 0 and null are false). */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** Python's int() of a JSON value, or undefined where it raises ValueError / TypeError. */
export function pyInt(v: unknown): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return parseInt(v, 10);
  return undefined;
}
