// Reviewing a person's demonstration as a lead and a reviewer see it: the status, the reason asked for, the verdict.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DemonstrationView } from '../../../shared/api';
import type { Caller } from '../../../shared/annotate';
import { clearStore } from '../data/store';
import { engine } from '../test/fixtures';
import { DemonstrationReview } from './DemonstrationReview';

const demo: DemonstrationView = { runId: 'run-h', taskKey: 'calc/t2', byPerson: true, score: 1, reviews: [] };

function engineAs(role: Caller['role'], view: DemonstrationView = demo) {
  let current = view;
  engine().answer({
    'labels.me': () => ({ person: 'ana', role, team: true }),
    'demos.get': () => current,
    'demos.review': ({ verdict, reason }) => {
      current = {
        ...current,
        status: verdict,
        reviews: [
          ...current.reviews,
          { runId: 'run-h', taskKey: 'calc/t2', verdict, reason, author: 'ana', at: '2026-11-27T11:00:00Z' },
        ],
      };
      return current;
    },
  });
}

beforeEach(() => clearStore());

describe('the demonstration review', () => {
  it('asks a lead for a reason before the verdict, then shows the verdict and who gave it', async () => {
    engineAs('lead');
    render(<DemonstrationReview runId="run-h" taskKey="calc/t2" />);
    expect((await screen.findByTestId('demonstration-status')).textContent).toBe('not reviewed');
    expect(screen.getByTestId('demonstration-score').textContent).toContain('score 1');
    fireEvent.click(screen.getByRole('button', { name: 'Accept demonstration' }));
    expect(screen.getByTestId('demonstration-message').textContent).toBe(
      'give a reason before the demonstration is accepted',
    );
    expect(engine().calls.some((c) => c.method === 'demos.review')).toBe(false);
    fireEvent.change(screen.getByLabelText('demonstration reason'), { target: { value: 'clean and short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Accept demonstration' }));
    await waitFor(() => expect(screen.getByTestId('demonstration-status').textContent).toBe('accepted'));
    expect(screen.getByText(/ana: “clean and short”/)).toBeTruthy();
    expect(screen.getByTestId('demonstration-message').textContent).toContain('proctor run --agent demo');
    expect((screen.getByLabelText('demonstration reason') as HTMLInputElement).value).toBe('');
  });

  it('shows a reviewer the status without the buttons', async () => {
    engineAs('reviewer', {
      ...demo,
      status: 'rejected',
      reviews: [
        {
          runId: 'run-h',
          taskKey: 'calc/t2',
          verdict: 'rejected',
          reason: 'clicked around',
          author: 'bo',
          at: '2026-11-26T10:00:00Z',
        },
      ],
    });
    render(<DemonstrationReview runId="run-h" taskKey="calc/t2" />);
    expect((await screen.findByTestId('demonstration-status')).textContent).toBe('rejected');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows nothing to an annotator, and does not ask for the demonstration', async () => {
    engineAs('annotator');
    const { container } = render(<DemonstrationReview runId="run-h" taskKey="calc/t2" />);
    await waitFor(() => expect(engine().calls.map((c) => c.method)).toContain('labels.me'));
    await new Promise((r) => setTimeout(r, 20));
    expect(container.innerHTML).toBe('');
    expect(engine().calls.map((c) => c.method)).not.toContain('demos.get');
  });
});
