// The gold self-test's reading of verdicts: a postconfig failure is no metric's 0, failing checks are named, and
// the tally counts only graded scores.
import { describe, expect, it } from 'vitest';
import type { RuleVerdict } from '../../shared/run';
import {
  goldSelfTestSummary,
  goldSelfTestTable,
  notGradedBy,
  verdictWhy,
  type GoldSelfTestReport,
} from './gold-selftest';

const at = '2026-01-01T00:00:00.000Z';

describe('gold self-test verdicts', () => {
  it('tells a postconfig failure (no metric ran) from a metric that scored 0, and names the failing check', () => {
    const postconfig: RuleVerdict = {
      kind: 'rule',
      score: 0,
      metrics: [],
      error: 'postconfig failed: no window',
      reason: 'postconfig failed: no window',
      at,
    };
    expect(notGradedBy(postconfig)).toBe('postconfig failed: no window');
    const graded: RuleVerdict = {
      kind: 'rule',
      score: 0,
      metrics: [
        {
          metric: 'compare_table',
          score: 0,
          reason: 'rule 1 (style): style of A2 differs',
          pointer: '/evaluator/func/0',
        },
        { metric: 'check_include_exclude', score: 1, reason: 'ok', pointer: '/evaluator/func/1' },
      ],
      at,
    };
    expect(notGradedBy(graded)).toBeUndefined();
    expect(verdictWhy(graded)).toBe('compare_table (/evaluator/func/0): rule 1 (style): style of A2 differs');
  });

  it('counts setup ok, noop → 0 and gold → 1 from graded runs only, and prints each phase with its time', () => {
    const base = { file: '/t.json', reason: '', setup: { ok: true, ms: 2500 } };
    const reports: GoldSelfTestReport[] = [
      {
        ...base,
        key: 'excel/a',
        verdict: 'sound',
        noop: { trial: 'noop', state: 'success', score: 0, ms: 9000 },
        gold: { trial: 'oracle', state: 'success', score: 1, ms: 13500 },
      },
      {
        ...base,
        key: 'excel/b',
        verdict: 'broken setup',
        noop: { trial: 'noop', state: 'success', score: 0, ms: 5000, notGraded: 'postconfig failed' },
        gold: { trial: 'oracle', state: 'agent_error', score: 0 },
      },
      {
        ...base,
        key: 'excel/c',
        verdict: 'no gold file',
        setup: { ok: false, error: 'setup failed' },
        noop: { trial: 'noop', state: 'setup_error' },
      },
      {
        ...base,
        key: 'excel/d',
        verdict: 'not saved by the application',
        noop: { trial: 'noop', state: 'success', score: 0, ms: 9000 },
        gold: { trial: 'oracle', state: 'success', score: 1, ms: 9000, unsaved: ['/home/user/d.xlsx'] },
      },
    ];
    expect(goldSelfTestSummary(reports)).toEqual([
      'setup ok 3/4, noop → 0 2/4, gold → 1 1/3 (1 without a gold file)',
    ]);
    const table = goldSelfTestTable(reports).split('\n');
    expect(table[2]).toMatch(/^excel\/a\s+ok 2\.5 s\s+0 9\.0 s\s+1 13\.5 s\s+sound/);
    expect(table[3]).toMatch(/^excel\/b\s+ok 2\.5 s\s+not graded 5\.0 s\s+agent_error\s+broken setup/);
    expect(table[4]).toMatch(/^excel\/c\s+failed\s+setup_error\s+-\s+no gold file/);
    expect(table[5]).toMatch(
      /^excel\/d\s+ok 2\.5 s\s+0 9\.0 s\s+1 unsaved 9\.0 s\s+not saved by the application/,
    );
  });
});
