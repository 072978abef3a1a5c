// Whole numbers a task file writes as floats (`5.0`, `1e3`): JSON.parse reads them as 5, Python's json.loads as
// 5.0, and OSWorld's metrics print and type them as floats. The task model keeps plain JSON (schemas, the task
// browser); each Check lists where such numbers are (`pyFloats`) and grading gives them back as Python floats.
import { isPyDict, PyFloat, pyJsonParse } from '../evaluators/python/value';
import { pointerToken } from '../schemas';

/** The task file's JSON as Python reads it (PyFloat for numbers written with a fraction or exponent); undefined
 * when there is no text or it does not parse (the JSON.parse reading reports that). */
export function pythonTwin(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return pyJsonParse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

/** JSON pointers, each starting with `prefix`, of the whole numbers written as floats inside a twin value. */
export function wholeFloatsIn(twin: unknown, prefix: string): string[] {
  if (twin instanceof PyFloat) return Number.isInteger(twin.value) ? [prefix] : [];
  if (Array.isArray(twin)) return twin.flatMap((v, i) => wholeFloatsIn(v, `${prefix}/${i}`));
  if (isPyDict(twin))
    return Object.entries(twin).flatMap(([k, v]) => wholeFloatsIn(v, `${prefix}/${pointerToken(k)}`));
  return [];
}
