import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalSql, sequenceRatio } from './text';
import { copyFixture, runMetric, seedTaskDir, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);
const file = (name: string, text: string) => {
  const p = join(tmp.dir, name);
  writeFileSync(p, text);
  return p;
};

describe('check_include_exclude', () => {
  const rules = { include: ['succeed'], exclude: ['failed'] };
  it('passes when every include is present and no exclude', async () => {
    expect((await runMetric('check_include_exclude', 'dag run succeed\n', rules)).score).toBe(1);
  });
  it('fails and names the missing or excluded string', async () => {
    const missing = await runMetric('check_include_exclude', 'nothing here', rules);
    expect(missing.score).toBe(0);
    expect(missing.reason).toContain("'succeed'");
    const excluded = await runMetric('check_include_exclude', 'step succeed, step failed', rules);
    expect(excluded.score).toBe(0);
    expect(excluded.reason).toContain("excluded 'failed'");
  });
  it('scores 0 without a result and accepts anything with empty rules (the lenient case selftest catches)', async () => {
    expect((await runMetric('check_include_exclude', undefined, rules)).score).toBe(0);
    expect((await runMetric('check_include_exclude', 'anything', {})).score).toBe(1);
  });
  it('matches list results by element, not substring', async () => {
    expect(
      (await runMetric('check_include_exclude', ['wind_dashboard'], { include: ['wind_dashboard'] })).score,
    ).toBe(1);
    expect(
      (await runMetric('check_include_exclude', ['wind_dashboard_old'], { include: ['wind_dashboard'] }))
        .score,
    ).toBe(0);
  });
});

describe('exact_match / literal_match / is_not_in_list', () => {
  it('exact_match compares to rules.expected exactly', async () => {
    expect(
      (await runMetric('exact_match', 'metabase.db.mv.db\n', { expected: 'metabase.db.mv.db\n' })).score,
    ).toBe(1);
    expect(
      (await runMetric('exact_match', 'metabase.db.mv.db', { expected: 'metabase.db.mv.db\n' })).score,
    ).toBe(0);
  });
  it('literal_match lists honour ignore_order and ignore_case', async () => {
    const opts = { type: 'list', ignore_order: true };
    expect(
      (
        await runMetric(
          'literal_match',
          ['Electronics products', 'Books products'],
          ['Books products', 'Electronics products'],
          opts,
        )
      ).score,
    ).toBe(1);
    expect(
      (await runMetric('literal_match', ['Books products'], ['Books products', 'Electronics products'], opts))
        .score,
    ).toBe(0);
    expect((await runMetric('literal_match', 'ABC', 'abc', { ignore_case: true })).score).toBe(1);
    expect((await runMetric('literal_match', 'ABC', 'abc')).score).toBe(0);
    expect((await runMetric('literal_match', 'x', ['x'], { type: 'list' })).score).toBe(0);
  });
  it('is_not_in_list checks each excluded name', async () => {
    expect((await runMetric('is_not_in_list', ['a', 'b'], { exclude: ['customer_orders'] })).score).toBe(1);
    expect(
      (await runMetric('is_not_in_list', ['customer_orders', 'b'], { exclude: ['customer_orders'] })).score,
    ).toBe(0);
    expect((await runMetric('is_not_in_list', 'customer_orders', { exclude: ['x'] })).score).toBe(0);
  });
});

describe('text files', () => {
  const gold = join(seedTaskDir('224009fd'), 'code_content_gold.txt');
  it('compare_text_file on the real gold text: equal copy, blank-insensitive copy, changed copy', async () => {
    const same = copyFixture(gold, tmp.dir, 'same.txt');
    const spaced = copyFixture(gold, tmp.dir, 'spaced.txt', (t) =>
      t.replace(/\n/g, '\n\n  ').replace(/\r/g, ''),
    );
    const changed = copyFixture(gold, tmp.dir, 'changed.txt', (t) => t + '\nprint("extra")');
    expect((await runMetric('compare_text_file', same, gold, { ignore_blanks: true })).score).toBe(1);
    expect((await runMetric('compare_text_file', spaced, gold, { ignore_blanks: true })).score).toBe(1);
    expect((await runMetric('compare_text_file', spaced, gold, {})).score).toBe(0);
    const diff = await runMetric('compare_text_file', changed, gold, { ignore_blanks: true });
    expect(diff.score).toBe(0);
    expect(diff.reason).toMatch(/differ at character \d+/);
    expect((await runMetric('compare_text_file', join(tmp.dir, 'missing.txt'), gold)).score).toBe(0);
  });
  it('diff_text_file gives the line similarity as a fraction', async () => {
    const a = file('a.toml', 'x\ny\nz\nw\n');
    const b = file('b.toml', 'x\ny\nQ\nw\n');
    expect((await runMetric('diff_text_file', a, a)).score).toBe(1);
    expect((await runMetric('diff_text_file', a, b)).score).toBeCloseTo(0.75);
    expect(sequenceRatio([], [])).toBe(1);
    expect(sequenceRatio(['a'], [])).toBe(0);
    // difflib.SequenceMatcher(None, 'abcd', 'bcda').ratio() == 0.75
    expect(sequenceRatio([...'abcd'], [...'bcda'])).toBeCloseTo(0.75);
  });
  it('check_file_existence and compare_json_file', async () => {
    const j1 = file('s1.json', '[1, 2, {"a": "b"}]');
    const j2 = file('s2.json', '[1,2,{"a":"b"}]\n');
    const j3 = file('s3.json', '[2, 1, {"a": "b"}]');
    const bad = file('bad.json', '[1, 2');
    expect((await runMetric('check_file_existence', j1, undefined)).score).toBe(1);
    expect((await runMetric('check_file_existence', join(tmp.dir, 'nope'), undefined)).score).toBe(0);
    expect((await runMetric('compare_json_file', j1, j2)).score).toBe(1);
    expect((await runMetric('compare_json_file', j3, j2)).score).toBe(0);
    expect((await runMetric('compare_json_file', bad, j2)).reason).toContain('not JSON');
  });
});

describe('check_yaml_file', () => {
  const schema = `version: 2
models:
  - name: customers
    description: One row per customer
    columns:
      - name: customer_id
        description: Primary key of the table
  - name: stg_orders
    description: ""
`;
  it('follows dict keys and [field, value] list picks with match / contain / not_null / in', async () => {
    const p = file('schema.yml', schema);
    const ok = [
      ['not_null', ['models', ['name', 'customers'], 'description'], ''],
      [
        'contain',
        ['models', ['name', 'customers'], 'columns', ['name', 'customer_id'], 'description'],
        'Primary key',
      ],
      ['match', ['version'], 2],
      ['in', ['models', 0, 'name'], ['customers', 'orders']],
    ];
    expect((await runMetric('check_yaml_file', p, ok)).score).toBe(1);
    const empty = await runMetric('check_yaml_file', p, [
      ['not_null', ['models', ['name', 'stg_orders'], 'description'], ''],
    ]);
    expect(empty.score).toBe(0);
    const absent = await runMetric('check_yaml_file', p, [
      ['match', ['models', ['name', 'nobody'], 'description'], 'x'],
    ]);
    expect(absent.score).toBe(0);
    expect(absent.reason).toContain('not found');
    expect((await runMetric('check_yaml_file', file('broken.yml', 'a: [1, 2'), ok)).reason).toContain(
      'not YAML',
    );
  });
});

describe('URLs and SQL', () => {
  const rules = { expected: ['http://localhost:1036', 'Aragon_Conviction_Voting_Model\\.ipynb'] };
  it('is_expected_url_pattern_match needs every pattern, accepts {url} objects', async () => {
    expect(
      (
        await runMetric(
          'is_expected_url_pattern_match',
          { url: 'http://localhost:1036/lab/tree/Aragon_Conviction_Voting_Model.ipynb' },
          rules,
        )
      ).score,
    ).toBe(1);
    expect(
      (await runMetric('is_expected_url_pattern_match', 'http://localhost:1036/lab/tree/Other.ipynb', rules))
        .score,
    ).toBe(0);
    expect((await runMetric('is_expected_url_pattern_match', undefined, rules)).score).toBe(0);
    // Python's re.search raises re.error on '(': a grading error naming the pattern, not a score
    await expect(runMetric('is_expected_url_pattern_match', 'http://x', { expected: ['('] })).rejects.toThrow(
      "Python pattern '(' is not valid in Python's re",
    );
    // Python: $ matches before a final newline, (?P<name>…) is a named group
    expect(
      (
        await runMetric('is_expected_url_pattern_match', 'https://x.org/q?id=7\n', {
          expected: ['id=(?P<id>\\d+)$'],
        })
      ).score,
    ).toBe(1);
  });
  it('compare_sql ignores case, blanks, comments and semicolons but not literals', async () => {
    expect(canonicalSql("SELECT  a,b FROM t -- note\nWHERE x = 'A b';")).toBe(
      "select a , b from t where x = 'A b'",
    );
    const a = file('a.sql', "select A, b\nfrom T where s = 'Hi';");
    const b = file('b.sql', "SELECT a,b FROM t WHERE s='Hi'");
    const c = file('c.sql', "SELECT a,b FROM t WHERE s='hi'");
    expect((await runMetric('compare_sql', a, b)).score).toBe(1);
    expect((await runMetric('compare_sql', a, c)).score).toBe(0);
  });
});
