// A person who changes their mind is one voice: the latest run label and the latest mark of each step count.
import { describe, expect, it } from 'vitest';
import type { HumanLabel } from '../../shared/run';
import { peopleNow, settlements } from './people-labels';

const l = (author: string, at: string, extra: Partial<HumanLabel>): HumanLabel => ({
  kind: 'human',
  author,
  at,
  ...extra,
});

describe('people now', () => {
  it('keeps one line per person with their latest label and marks, settlements apart', () => {
    const labels = [
      l('ann', '1', { complete: 'no' }),
      l('ann', '2', { steps: [{ step: 1, correct: true, mark: 'right' }] }),
      l('bob', '3', { complete: 'yes', comment: 'saved' }),
      l('ann', '4', {
        steps: [
          { step: 1, correct: false, mark: 'wrong' },
          { step: 2, correct: false, mark: 'unnecessary' },
        ],
      }),
      l('ann', '5', { complete: 'yes' }),
      l('lee', '6', { complete: 'yes', settles: { reason: 'file is right' } }),
    ];
    const now = peopleNow(labels);
    expect(now.map((p) => [p.person, p.complete, p.events, p.at, [...p.marks]])).toEqual([
      [
        'ann',
        'yes',
        4,
        '5',
        [
          [1, 'wrong'],
          [2, 'unnecessary'],
        ],
      ],
      ['bob', 'yes', 1, '3', []],
    ]);
    expect(now[1].comment).toBe('saved');
    expect(settlements(labels).map((s) => s.author)).toEqual(['lee']);
  });
});
