// compare_text_file as the benchmarks grade it: Python reads both files as UTF-8 text with universal newlines
// (CRLF and CR become LF) but keeps a byte-order mark as a character, so a marked file never equals an unmarked
// one. The robust variant (text.ts) drops the mark.
import { fail, pass, type MetricOutcome } from '../metric';
import { variants } from '../profile';
import { brief, readBytes } from './inputs';
import { utf8Strict } from './csv-profiles';
import { pySpaceRun, pyStrip } from './python-text';

async function pythonText(path: unknown): Promise<string | undefined> {
  if (typeof path !== 'string' || path === '') return undefined;
  const bytes = await readBytes(path);
  return bytes && utf8Strict(bytes)?.replace(/\r\n?/g, '\n');
}

/** Python's `re.sub(r"[\t\n]", " ")`, `strip()`, `re.sub(r"\s+", " ")` of `ignore_blanks`. Python's whitespace
 * is not JavaScript's: U+FEFF (the byte-order mark) is none, \x1c-\x1f and \x85 are. */
function ignoreBlanks(s: string): string {
  return pyStrip(s.replace(/[\t\n]/g, ' ')).replace(pySpaceRun, ' ');
}

/**
 * compare_text_file (all profiles): equal texts after universal newlines; `ignore_blanks` and `ignore_case` as
 * upstream. A byte-order mark on one side only makes the texts differ.
 */
async function compareTextFilePython(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  let a = await pythonText(result);
  let b = await pythonText(expected);
  if (a === undefined) return fail(`result file ${brief(result)} cannot be read as UTF-8`);
  if (b === undefined) return fail(`expected file ${brief(expected)} cannot be read as UTF-8`);
  if (options.ignore_blanks) {
    a = ignoreBlanks(a);
    b = ignoreBlanks(b);
  }
  if (options.ignore_case) {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  if (a === b) return pass('texts are equal');
  const i = [...a].findIndex((c, k) => c !== b![k]);
  const at = i < 0 ? Math.min(a.length, b.length) : i;
  return fail(
    `texts differ at character ${at}: got '${brief(a.slice(at, at + 40))}', expected '${brief(b.slice(at, at + 40))}'`,
  );
}

async function diagnoseText(result: unknown, expected: unknown): Promise<string | undefined> {
  const a = await pythonText(result);
  const b = await pythonText(expected);
  if (a !== undefined && b !== undefined && a.startsWith('\uFEFF') !== b.startsWith('\uFEFF'))
    return 'byte-order mark';
  return 'text encoding';
}

variants.register('compare_text_file', {
  spider2v: compareTextFilePython,
  osworld: compareTextFilePython,
  native: compareTextFilePython,
  diagnose: diagnoseText,
});
