// OSWorld's value metrics with Python's equality and string forms: literal_match (str() of both sides), exact_match
// and check_direct_json_object (Python ==). Each row names what Python decides.
import { describe, expect, it } from 'vitest';
import { PyFloat } from '../python/value';
import { runMetric } from '../testing/fixtures';
import { tryMetric } from '../try-metric';
import '../catalog';

type Row = [
  python: string,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  score: number,
];

// prettier-ignore
const literal: Row[] = [
  ["str(True) == 'True'", true, 'True', {}, 1],
  ["str(False) == 'false' is False", false, 'false', {}, 0],
  ["str(None) == 'None'", null, 'None', {}, 1],
  ["str(1.5) == '1.5'", 1.5, '1.5', {}, 1],
  ["str(1e-05) == '1e-05'", 1e-5, '1e-05', {}, 1],
  ["str(1.0) == '1.0' (a float read as float)", new PyFloat(1), '1.0', {}, 1],
  ["str(1) == '1.0' is False (an int)", 1, '1.0', {}, 0],
  ["str(1e16) == '1e+16' (a float read as float)", new PyFloat(1e16), '1e+16', {}, 1],
  ["str(['a', 1]) == \"['a', 1]\"", ['a', 1], "['a', 1]", {}, 1],
  ["str({'k': True}) == \"{'k': True}\"", { k: true }, "{'k': True}", {}, 1],
  ["str(True).lower() == 'true' (ignore_case)", true, 'TRUE', { ignore_case: true }, 1],
  ["[str(s) for s in [True, None]] == ['True', 'None'] (type list)", [true, null], ['True', 'None'], { type: 'list' }, 1],
  ["[str(s) for s in [1.0]] == ['1'] is False (type list)", [new PyFloat(1)], ['1'], { type: 'list' }, 0],
];

// prettier-ignore
const exact: Row[] = [
  ['True == 1', true, { expected: 1 }, {}, 1],
  ["'1' == 1 is False", '1', { expected: 1 }, {}, 0],
  ['[1, 2.0] == [1, 2]', [1, new PyFloat(2)], { expected: [1, 2] }, {}, 1],
  ['None == None', null, { expected: null }, {}, 1],
  ["{'a': [False]} == {'a': [0]}", { a: [false] }, { expected: { a: [0] } }, {}, 1],
];

// prettier-ignore
const direct: Row[] = [
  ["{'done': True}['done'] == 1", { done: true }, { expected: { done: 1 } }, {}, 1],
  ["json.loads(\"{'count': 2.0}\".replace(\"'\", '\"'))['count'] == 2", "{'count': 2.0}", { expected: { count: 2 } }, {}, 1],
  ["'2' == 2 is False", { n: '2' }, { expected: { n: 2 } }, {}, 0],
  ['result.get(missing) is None == None', { a: 1 }, { expected: { b: null } }, {}, 1],
  ['sorted(True) raises TypeError when ignore_list_order sits in expected: 0', { l: [2, 1] }, { expected: { l: [1, 2], ignore_list_order: true } }, {}, 0],
  ["'x' in None raises TypeError (expect_in_result): 0", { s: null }, { expected: { s: 'x' }, expect_in_result: true }, {}, 0],
  ['1 in [True] (expect_in_result)', { l: [true] }, { expected: { l: [1] }, expect_in_result: true }, {}, 1],
  ["'Paris' in 'Paris, France' (expect_in_result)", { city: 'Paris, France' }, { expected: { city: 'Paris' }, expect_in_result: true }, {}, 1],
];

describe("Python's values in OSWorld's literal_match, exact_match and check_direct_json_object", () => {
  it.each(
    literal.map(([python, result, expected, options, score]) => ({
      name: `literal_match (osworld): Python ${python} → ${score}`,
      result,
      expected,
      options,
      score,
    })),
  )('$name', async ({ result, expected, options, score }) => {
    const trial = await tryMetric('literal_match', result, expected, options, 'osworld');
    expect(trial.score, trial.reason).toBe(score);
    // the robust reading prints values as Python does too: no second opinion differs on these rows
    expect(trial.second_opinion.score).toBe(score);
  });

  it.each(
    exact.map(([python, result, expected, , score]) => ({
      name: `exact_match: Python ${python} → ${score}`,
      result,
      expected,
      score,
    })),
  )('$name', async ({ result, expected, score }) => {
    expect((await runMetric('exact_match', result, expected)).score).toBe(score);
  });

  it.each(
    direct.map(([python, result, expected, , score]) => ({
      name: `check_direct_json_object: Python ${python} → ${score}`,
      result,
      expected,
      score,
    })),
  )('$name', async ({ result, expected, score }) => {
    const out = await runMetric('check_direct_json_object', result, expected);
    expect(out.score, out.reason).toBe(score);
  });
});
