// List and log metrics as the benchmarks grade them (Spider2-V / OSWorld general.py, the native eval/general.py):
// where Proctor's robust reading is kinder than the upstream code, the faithful variant keeps the upstream
// behaviour, quirks included.
import { isDeepStrictEqual } from 'node:util';
import { pyEquals, pyStr } from '../python/value';
import { fail, verdict, type MetricOutcome } from '../metric';
import { variants } from '../profile';
import { brief, isRecord } from './inputs';
import { checkIncludeExclude } from './text';

/**
 * is_not_in_list, upstream: `rules["exclude"] not in result`. A single name is tested as a member; a list of
 * names is tested as one element of the result, which a list of strings never holds — so it scores 1.
 */
async function isNotInListUpstream(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!isRecord(expected) || !('exclude' in expected))
    return fail("rules need 'exclude' (upstream raises KeyError)");
  const exclude = expected.exclude;
  if (typeof result === 'string') {
    if (typeof exclude !== 'string')
      return fail(`'in <string>' requires a string, not ${brief(exclude)} (upstream raises TypeError)`);
    return verdict(
      !result.includes(exclude),
      `'${exclude}' is not in ${brief(result)}`,
      `found '${exclude}' in ${brief(result)}`,
    );
  }
  if (!Array.isArray(result)) return fail(`expected a list, got ${brief(result)}`);
  const found = result.some((x) => pyEquals(x, exclude));
  return verdict(
    !found,
    `${brief(exclude)} is not an element of the list`,
    `found ${brief(exclude)} in the list`,
  );
}

/**
 * literal_match, upstream: `type: str` compares Python's `str()` of both (True, None, 1.0, ['a'] as Python prints
 * them); `type: list` needs two lists of the same length and compares them element by element as `str()`.
 * `ignore_order` is not an upstream option: order counts.
 */
async function literalMatchUpstream(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const type = options.type ?? 'str';
  const norm = (s: unknown) => (options.ignore_case ? pyStr(s).toLowerCase() : pyStr(s));
  if (type === 'str')
    return verdict(
      norm(result) === norm(expected),
      `equals '${norm(expected)}'`,
      `got '${norm(result)}', expected '${norm(expected)}'`,
    );
  if (type === 'list') {
    if (!Array.isArray(result) || !Array.isArray(expected) || result.length !== expected.length)
      return fail(`type 'list' needs two lists of one length, got ${brief(result)} and ${brief(expected)}`);
    const a = result.map(norm);
    const b = expected.map(norm);
    return verdict(
      isDeepStrictEqual(a, b),
      `lists equal in order (${a.length} items)`,
      `got ${brief(a)}, expected ${brief(b)} (order counts upstream)`,
    );
  }
  return fail(`literal_match: type '${String(type)}' is not supported upstream (NotImplementedError)`);
}

/** compare_script_logs, native: no `rules` (or empty ones) score 0 — the evaluator refuses to pass a log
 * against nothing; otherwise check_include_exclude on the log. */
async function compareScriptLogsNative(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const rules = isRecord(expected) ? expected : {};
  if (Object.keys(rules).length === 0)
    return fail("no 'rules' to check the log against (the native evaluator scores 0)");
  return checkIncludeExclude(result, expected);
}

async function diagnoseList(
  _result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<string | undefined> {
  if (isRecord(expected) && Array.isArray(expected.exclude))
    return 'exclude given as a list (upstream tests the list as one element)';
  if (options.ignore_order) return 'ignore_order (not an upstream option)';
  if (isRecord(expected) && Object.keys(expected).length === 0) return 'empty rules';
  return undefined;
}

variants
  .register('is_not_in_list', {
    spider2v: isNotInListUpstream,
    osworld: isNotInListUpstream,
    diagnose: diagnoseList,
  })
  .register('literal_match', {
    spider2v: literalMatchUpstream,
    osworld: literalMatchUpstream,
    diagnose: diagnoseList,
  })
  .register('compare_script_logs', { native: compareScriptLogsNative, diagnose: diagnoseList });
