import { describe, expect, it } from 'vitest';
import { cutLength, judgeSelfTest, type TrialResult } from './verdict';

const t = (
  trial: TrialResult['trial'],
  score: number | undefined,
  state: TrialResult['state'] = 'success',
  extra: Partial<TrialResult> = {},
): TrialResult => ({
  trial,
  state,
  score,
  ...extra,
});

describe('the self-test verdict', () => {
  it('calls a task sound when the oracle scores 1, noop 0 and the cut oracle less than 1', () => {
    const j = judgeSelfTest(t('oracle', 1), t('noop', 0), t('cut', 0, 'success', { kept: 2 }));
    expect(j.verdict).toBe('sound');
    expect(j.reason).toContain('cut to 2 turn(s) scored 0');
  });

  it('calls a task too lenient when doing nothing earns credit', () => {
    const j = judgeSelfTest(t('oracle', 1), t('noop', 1), t('cut', 0));
    expect(j.verdict).toBe('too lenient');
    expect(j.reason).toContain('doing nothing scored 1');
  });

  it('calls a task too lenient when half the work earns full credit', () => {
    const j = judgeSelfTest(t('oracle', 1), t('noop', 0), t('cut', 1, 'success', { kept: 1 }));
    expect(j.verdict).toBe('too lenient');
    expect(j.reason).toContain('first 1 turn(s) scored 1');
  });

  it('accepts partial credit for the cut run as long as it is below 1', () => {
    expect(judgeSelfTest(t('oracle', 1), t('noop', 0), t('cut', 0.5)).verdict).toBe('sound');
  });

  it('calls a task too strict when the correct run is not recognised, with the eval error', () => {
    const j = judgeSelfTest(
      t('oracle', 0, 'success', { error: 'result file missing' }),
      t('noop', 0),
      t('cut', 0),
    );
    expect(j.verdict).toBe('too strict');
    expect(j.reason).toContain('result file missing');
  });

  it('calls a task broken when a trial never reached grading, before judging scores', () => {
    const j = judgeSelfTest(
      t('oracle', undefined, 'setup_error', { error: 'unknown setup func' }),
      t('noop', 1),
      t('cut', 1),
    );
    expect(j.verdict).toBe('broken setup');
    expect(j.reason).toContain('oracle: setup_error');
    expect(j.reason).toContain('unknown setup func');
  });

  it('does not hold a missing cut trial against a one-action oracle', () => {
    const j = judgeSelfTest(t('oracle', 1), t('noop', 0));
    expect(j.verdict).toBe('sound');
    expect(j.reason).toContain('single action');
  });

  it('keeps half of the oracle actions, rounded down', () => {
    expect([0, 1, 2, 3, 6, 7].map(cutLength)).toEqual([0, 0, 1, 1, 3, 3]);
  });
});
