// A task's whole numbers written as floats (`5.0`, listed by the task reader in Check.pyFloats) given back to the
// metrics that read task values as Python values, as PyFloat: str() prints '5.0', type() is float, and 5.0 == 5.
import type { Check } from '../../../shared/task';
import { isPyDict, PyFloat } from './value';

const pythonValued = new Set<string>();

/** Metrics whose rules and options are Python values (they compare, print or type them as OSWorld does). */
export function registerPythonValued(...metrics: string[]): void {
  for (const m of metrics) pythonValued.add(m);
}

const tokensOf = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

/** `value` with the number at `tokens` made a PyFloat; the containers on the way copied, never changed. */
function floatAt(value: unknown, tokens: string[]): unknown {
  if (!tokens.length) return typeof value === 'number' ? new PyFloat(value) : value;
  const [head, ...rest] = tokens;
  if (Array.isArray(value)) {
    const i = Number(head);
    if (!/^\d+$/.test(head) || i >= value.length) return value;
    const copy = [...value];
    copy[i] = floatAt(value[i], rest);
    return copy;
  }
  if (isPyDict(value) && Object.prototype.hasOwnProperty.call(value, head))
    return { ...value, [head]: floatAt(value[head], rest) };
  return value;
}

/** The check as a Python-valued metric reads it: its `pyFloats` as PyFloat in result, expected, options and args.
 * Other metrics (which test `typeof x === 'number'`) get the check as it is. */
export function withPyFloats(check: Check): Check {
  if (!check.pyFloats?.length || !pythonValued.has(check.metric)) return check;
  let out: Record<string, unknown> = { ...check };
  for (const pointer of check.pyFloats) {
    const tokens = tokensOf(pointer);
    if (['result', 'expected', 'options', 'args'].includes(tokens[0]))
      out = floatAt(out, tokens) as Record<string, unknown>;
  }
  return out as unknown as Check;
}
