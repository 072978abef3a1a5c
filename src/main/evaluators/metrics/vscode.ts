// OSWorld's VS Code metrics (family `vscode`; desktop_env/evaluators/metrics/vscode.py): settings and keybindings
// files, config files compared whole, result files, ZIP archives, installed extensions, and a Python file checked by
// the task's test suite (run on the guest, never in Proctor's process: python-test-suite.ts).
import { isDeepStrictEqual } from 'node:util';
import JSZip from 'jszip';
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { brief, isRecord, readBytes, readText, zipError } from './inputs';
import { pyStrip } from './pandas-frame';
import { readPythonText } from '../python/read-text';
import { isPyDict, pyEquals, pyJsonLoads, pyTruthy } from '../python/value';
import { checkPythonFileByTestSuite } from './python-test-suite';

/**
 * check_json_keybindings — `result`: VS Code's keybindings.json (a list; read whole, or after its first line, the
 * `// Place your key bindings…` comment); `expected`: `{expected: {key, command, …}}`. 1 when that entry is in the list.
 */
async function checkJsonKeybindings(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  let list: unknown;
  for (const candidate of [text, text.slice(text.indexOf('\n') + 1)]) {
    try {
      list = JSON.parse(candidate);
      if (Array.isArray(list)) break;
    } catch {
      list = undefined;
    }
  }
  if (!Array.isArray(list)) return fail('keybindings file is not a JSON list');
  const want = isRecord(expected) ? expected.expected : undefined;
  return verdict(
    list.some((e) => isDeepStrictEqual(e, want)),
    `keybinding ${brief(want)} present`,
    `keybinding ${brief(want)} not among ${list.length}`,
  );
}

/** check_json_settings — `result`: settings.json; `expected`: `{expected: {key: value}}`. 1 when every pair is set. */
async function checkJsonSettings(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('settings file is not JSON (comments and trailing commas are not JSON, as in OSWorld)');
  }
  const want = isRecord(expected) && isRecord(expected.expected) ? expected.expected : {};
  if (!isRecord(data)) return fail('settings file is not a JSON object');
  const wrong = Object.entries(want).filter(([k, v]) => !(k in data) || !isDeepStrictEqual(data[k], v));
  return verdict(
    wrong.length === 0,
    `all ${Object.keys(want).length} settings set`,
    `settings differ: ${wrong.map(([k, v]) => `${k}: got ${brief((data as Record<string, unknown>)[k])}, expected ${brief(v)}`).join('; ')}`,
  );
}

/** OSWorld's `_is_subset(expected, actual)`: a dict's keys all present in the actual dict with values that are
 * subsets in turn; lists and everything else by Python's `==`. */
function isSubset(expected: unknown, actual: unknown): boolean {
  if (isPyDict(expected)) {
    if (!isPyDict(actual)) return false;
    return Object.entries(expected).every(
      ([k, v]) => Object.prototype.hasOwnProperty.call(actual, k) && isSubset(v, actual[k]),
    );
  }
  return pyEquals(expected, actual);
}

/**
 * compare_config — `result`: a config file; `expected`: `{expected: text}` (a missing or empty text scores 0).
 * The file is read as Python reads text (UTF-8, CRLF as LF). With option `containment_ok` (default true): when
 * both texts are JSON, 1 when the expected JSON is contained in the file's (dict keys recursively, lists and
 * values by Python's `==`, so `true` matches `1`), else 0; when either is not JSON, 1 when the expected text,
 * stripped, occurs in the file. With `containment_ok` false: 1 when the texts are equal, or both are JSON and
 * equal as Python values.
 */
async function compareConfig(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (!pyTruthy(result)) return fail('no result file (OSWorld scores 0)');
  const want = isRecord(expected) ? expected.expected : undefined;
  if (!pyTruthy(want)) return fail(`the rule has no expected text (${brief(expected)}); OSWorld scores 0`);
  const read = await readPythonText(result);
  if ('error' in read) return fail(read.error);
  const text = read.text;
  const containment = 'containment_ok' in options ? pyTruthy(options.containment_ok) : true;
  if (typeof want !== 'string') {
    if (containment)
      return fail(
        `expected ${brief(want)} is not text: OSWorld's compare_config raises (json.loads and str.strip need a str)`,
      );
    return fail(`expected ${brief(want)} is not text, so it never equals the file`);
  }
  const got = pyJsonLoads(text);
  const gold = pyJsonLoads(want);
  if (containment) {
    if (got && gold)
      return verdict(
        isSubset(gold.value, got.value),
        'the expected JSON is contained in the file',
        `the file's JSON does not contain ${brief(want)}`,
      );
    const needle = pyStrip(want);
    const which = !got ? 'the file is not JSON' : 'the expected text is not JSON';
    return verdict(
      text.includes(needle),
      `${which}; the expected text occurs in it`,
      `${which}, and '${brief(needle)}' does not occur in it`,
    );
  }
  if (text === want) return pass('the file equals the expected text');
  if (got && gold && pyEquals(got.value, gold.value))
    return pass('the file and the expected text are equal JSON');
  return fail(
    `the file differs from the expected text (${text.length} vs ${want.length} characters)${got && gold ? ' and from its JSON' : ''}`,
  );
}

/**
 * compare_result_files — two text files, both trimmed. When the expected text is a number: 1 when it occurs in the
 * result text, or the result is a number within 1e-4. Otherwise 1 when the texts are equal.
 */
async function compareResultFiles(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const a = (await readText(result))?.trim();
  const b = (await readText(expected))?.trim();
  if (a === undefined || b === undefined)
    return fail(`cannot read ${a === undefined ? 'the result' : 'the expected'} file`);
  const pyFloat = (s: string) =>
    /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i.test(s.replace(/_/g, ''))
      ? Number(s.replace(/_/g, ''))
      : undefined;
  const want = pyFloat(b);
  if (want !== undefined) {
    if (a.includes(b)) return pass(`the result contains ${b}`);
    const got = pyFloat(a);
    if (got === undefined) return fail(`the result '${brief(a)}' is not the number ${b}`);
    return verdict(Math.abs(got - want) < 1e-4, `${got} ≈ ${want}`, `${got} differs from ${want}`);
  }
  return verdict(a === b, 'the files are equal', `got '${brief(a)}', expected '${brief(b)}'`);
}

/**
 * compare_zip_files — two ZIP archives; 1 when they list the same names and every entry has the same bytes.
 * OSWorld compares PDF entries by extracted text (similarity ≥ 0.95, PyPDF2); Proctor compares their bytes too.
 */
async function compareZipFiles(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const a = await readBytes(result);
  const b = await readBytes(expected);
  if (!a || !b) return fail(`cannot read ${!a ? 'the result' : 'the expected'} archive`);
  let za: JSZip;
  let zb: JSZip;
  try {
    [za, zb] = await Promise.all([JSZip.loadAsync(a), JSZip.loadAsync(b)]);
  } catch (e) {
    return fail(`not a ZIP archive: ${zipError(e)}`);
  }
  const names = (z: JSZip) => Object.keys(z.files).sort();
  if (!isDeepStrictEqual(names(za), names(zb)))
    return fail(`entries differ: ${brief(names(za))} vs ${brief(names(zb))}`);
  for (const name of names(za)) {
    const [x, y] = await Promise.all([
      za.files[name].async('nodebuffer'),
      zb.files[name].async('nodebuffer'),
    ]);
    if (!x.equals(y)) return fail(`entry '${name}' differs`);
  }
  return pass(`all ${names(za).length} entries equal`);
}

/** is_extension_installed — `result`: `code --list-extensions` output; `expected`: `{type: contain|not_contain, expected}`. */
async function isExtensionInstalled(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const r = isRecord(expected) ? expected : {};
  const has = String(result ?? '').includes(String(r.expected));
  if (r.type === 'contain')
    return verdict(has, `'${String(r.expected)}' installed`, `'${String(r.expected)}' not installed`);
  if (r.type === 'not_contain')
    return verdict(!has, `'${String(r.expected)}' not installed`, `'${String(r.expected)}' installed`);
  return fail(`unknown type ${brief(r.type)} (contain or not_contain)`);
}

registerMetricFamily('vscode', {
  check_json_keybindings: checkJsonKeybindings,
  check_json_settings: checkJsonSettings,
  compare_config: compareConfig,
  compare_result_files: compareResultFiles,
  compare_zip_files: compareZipFiles,
  is_extension_installed: isExtensionInstalled,
  check_python_file_by_test_suite: checkPythonFileByTestSuite,
});

registerDeparture({
  metric: 'check_python_file_by_test_suite',
  profile: 'osworld',
  case: 'where the test runs',
  why: "OSWorld imports the test file into the grader's own Python with its whole cache folder beside it; Proctor runs it with the guest's /usr/bin/python3 (through the Environment) beside the result file(s) and the cache's top-level files (not its subfolders)",
});

registerDeparture({
  metric: 'compare_zip_files',
  profile: 'osworld',
  case: 'PDF entries',
  why: 'OSWorld compares PDF entries by PyPDF2-extracted text (similarity ≥ 0.95); Proctor compares their bytes',
});
