// OSWorld's `{method, ref}` rules, one row per case: the value, the rule, and what Python decides (True, False, or
// raises — where check_json and compare_table score 0). The names state Python's behaviour.
import { describe, expect, it } from 'vitest';
import { PyFloat } from '../python/value';
import { PythonPatternError } from '../python/re';
import { matchesRule, matchRule } from './rule-match';
import { CellRanges } from './xlsx-validation';

type Row = [python: string, value: unknown, rule: Record<string, unknown>, answer: boolean | 'raises'];

// prettier-ignore
const table: Row[] = [
  ['True == 1', true, { method: 'eq', ref: 1 }, true],
  ['1.0 == 1', new PyFloat(1), { method: 'eq', ref: 1 }, true],
  ["'1' == 1 is False", '1', { method: 'eq', ref: 1 }, false],
  ['None == None', null, { method: 'eq', ref: null }, true],
  ['None == 0 is False', null, { method: 'eq', ref: 0 }, false],
  ['[1, True] == [1.0, 1]', [1, true], { method: 'eq', ref: [1, 1] }, true],
  ["{'a': 1} == {'a': 1.0}", { a: 1 }, { method: 'eq', ref: { a: new PyFloat(1) } }, true],
  ["'a' != 'b'", 'a', { method: 'ne', ref: 'b' }, true],
  ['False != 0 is False', false, { method: 'ne', ref: 0 }, false],
  ['2 < 3', 2, { method: 'lt', ref: 3 }, true],
  ["'b' > 'a'", 'b', { method: 'gt', ref: 'a' }, true],
  ["'5' > 3 raises TypeError", '5', { method: 'gt', ref: 3 }, 'raises'],
  ['None < 1 raises TypeError', null, { method: 'lt', ref: 1 }, 'raises'],
  ['True < 2', true, { method: 'lt', ref: 2 }, true],
  ['[1, 2] <= [1, 3]', [1, 2], { method: 'le', ref: [1, 3] }, true],
  ['3 >= 3.0', 3, { method: 'ge', ref: new PyFloat(3) }, true],
  ["re.search('^total', 'Total Sales', re.I)", 'Total Sales', { method: 're.I', ref: '^total' }, true],
  ["re.search('^total', 'Total Sales') is None", 'Total Sales', { method: 're', ref: '^total' }, false],
  ["re.search('^a$', 'a\\n'): $ before a final newline", 'a\n', { method: 're', ref: '^a$' }, true],
  ["re.search('^y$', 'x\\ny', re.MULTILINE)", 'x\ny', { method: 're.MULTILINE', ref: '^y$' }, true],
  ["re.search('^y$', 'x\\ny') is None", 'x\ny', { method: 're', ref: '^y$' }, false],
  ["re.search('a.b', 'A\\nB', re.DOTALL | re.IGNORECASE)", 'A\nB', { method: 're.DOTALL.IGNORECASE', ref: 'a.b' }, true],
  ["re.search('a b', 'ab', re.X)", 'ab', { method: 're.X', ref: 'a b' }, true],
  ["re.search('(?i)ABC', 'xabc'): inline flags", 'xabc', { method: 're', ref: '(?i)ABC' }, true],
  ["re.search('\\\\d+', '٣'): \\d is Unicode", '٣', { method: 're', ref: '^\\d+$' }, true],
  ["re.search('\\\\d+', '٣', re.ASCII) is None", '٣', { method: 're.ASCII', ref: '^\\d+$' }, false],
  ["'regex' starts with 're': re.search without flags", 'abc', { method: 'regex', ref: 'b' }, true],
  ["re.search('5', 5) raises TypeError", 5, { method: 're', ref: '5' }, 'raises'],
  ["re.search('x', None) raises TypeError", null, { method: 're', ref: 'x' }, 'raises'],
  ['getattr(re, "Q") raises AttributeError', 'a', { method: 're.Q', ref: 'a' }, 'raises'],
  ["re.search(5, 'a') raises TypeError", 'a', { method: 're', ref: 5 }, 'raises'],
  ["re.search('(', 'a') raises re.error", 'a', { method: 're', ref: '(' }, 'raises'],
  ["re.search('(?<n>a)', 'a') raises re.error", 'a', { method: 're', ref: '(?<n>a)' }, 'raises'],
  ["abs(float('191.67') - 191.6667) <= 0.01", '191.67', { method: 'approx:0.01', ref: 191.6667 }, true],
  ['float(None) raises inside approx: no match', null, { method: 'approx:0.01', ref: 0 }, false],
  ["float('abc') raises inside approx: no match", 'abc', { method: 'approx:0.01', ref: 0 }, false],
  ['abs(float(True) - 1.2) <= 0.5', true, { method: 'approx:0.5', ref: 1.2 }, true],
  ["float(' 1_000 ') == 1000.0", ' 1_000 ', { method: 'approx:0', ref: 1000 }, true],
  ["'approx'.split(':')[1] raises IndexError", 1, { method: 'approx', ref: 1 }, 'raises'],
  ["float('x') of the tolerance raises ValueError", 1, { method: 'approx:x', ref: 1 }, 'raises'],
  ["abs(1.0 - '1') raises TypeError", 1, { method: 'approx:1', ref: '1' }, 'raises'],
  ['0 < 2 <= 2 (range.te)', 2, { method: 'range.te', ref: [0, 2] }, true],
  ['0 < 0 is False (range.te)', 0, { method: 'range.te', ref: [0, 2] }, false],
  ['0 <= 0 < 2 (range.et)', 0, { method: 'range.et', ref: [0, 2] }, true],
  ['2 < 2 is False (range.et)', 2, { method: 'range.et', ref: [0, 2] }, false],
  ["'a' <= 'b' <= 'c' (range.ee)", 'b', { method: 'range.ee', ref: ['a', 'c'] }, true],
  ["'a' < 1 raises TypeError (range.tt)", 1, { method: 'range.tt', ref: ['a', 2] }, 'raises'],
  ['5 < 1 is False, so the right side is never compared (range.te)', 1, { method: 'range.te', ref: [5, 'x'] }, false],
  ['operator.lg does not exist (range.ge raises AttributeError)', 1, { method: 'range.ge', ref: [0, 2] }, 'raises'],
  ["'range.t'[7] raises IndexError", 1, { method: 'range.t', ref: [0, 2] }, 'raises'],
  ['list(\'"Pass,Fail,Held"\'.strip(\'"\\\'\').split(\',\')) == [\'Pass\', \'Fail\', \'Held\']', '"Pass,Fail,Held"', { method: 'str_list_eq', ref: ['Pass', 'Fail', 'Held'] }, true],
  ['the list order counts (str_list_eq)', '"Pass,Fail,Held"', { method: 'str_list_eq', ref: ['Held', 'Fail', 'Pass'] }, false],
  ['set() ignores order and repeats (str_set_eq)', "'Pass,Fail,Pass'", { method: 'str_set_eq', ref: ['Fail', 'Pass'] }, true],
  ["{'1'} == {1} is False (str_set_eq)", '1', { method: 'str_set_eq', ref: [1] }, false],
  ['5.strip raises AttributeError (str_list_eq)', 5, { method: 'str_list_eq', ref: ['5'] }, 'raises'],
  ["an unknown method ('in') raises NotImplementedError", 1, { method: 'in', ref: [1] }, 'raises'],
  ["rule['method'] raises KeyError", 1, { ref: 1 }, 'raises'],
];

describe("OSWorld's _match_value_to_rule with Python's semantics", () => {
  it.each(
    table.map(([python, value, rule, answer]) => ({
      name: `Python: ${python} → ${answer === 'raises' ? 'raises' : answer ? 'True' : 'False'}`,
      value,
      rule,
      answer,
    })),
  )('$name', ({ value, rule, answer }) => {
    const v = matchRule(value, rule);
    if (answer === 'raises') expect(v.raises, v.reason).toBe(true);
    else expect({ ok: v.ok, raises: v.raises ?? false }, v.reason).toEqual({ ok: answer, raises: false });
    expect(matchesRule(value, rule) === true).toBe(answer === true);
  });

  it("Python: MultiCellRange('D2:D29 F1') == 'F1 D2:D29', and spreadsheet_range holds between subset and superset", () => {
    const sqref = CellRanges.parse('D2:D29 F1') as CellRanges;
    expect(matchRule(sqref, { method: 'eq', ref: 'F1 D2:D29' }).ok).toBe(true);
    expect(matchRule(sqref, { method: 'spreadsheet_range', ref: ['D2:D29', 'A1:F1048576'] }).ok).toBe(true);
    expect(matchRule(sqref, { method: 'spreadsheet_range', ref: ['D2:D29', 'D1:D1048576'] }).ok).toBe(false);
  });

  it('a pattern the Python layer cannot honour is a grading error naming it, not a verdict', () => {
    expect(() => matchRule('ab', { method: 're', ref: '(a)?(?(1)b|c)' })).toThrow(PythonPatternError);
    expect(() => matchRule('ab', { method: 're', ref: '(a)?(?(1)b|c)' })).toThrow("'(a)?(?(1)b|c)'");
  });
});
