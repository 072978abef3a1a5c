// "Side by side with…" as a person meets it: offered only when another run has the task, and opening the comparison.
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearStore } from '../data/store';
import { engine, runListItem } from '../test/fixtures';
import { CompareWith } from './CompareWith';

beforeEach(() => clearStore());

describe('side by side with another run', () => {
  it('lists the other runs that have the task, with their agent and model, and opens the comparison at the step', async () => {
    engine().answer({
      'runs.list': () => [runListItem('run-1'), runListItem('run-2', { agent: 'llm', model: 'gpt-4o' })],
    });
    render(<CompareWith runId="run-1" taskKey="chrome/t1" step={2} />);
    const select = await screen.findByTestId('compare-with');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'side by side with…',
      'run-2 (llm / gpt-4o)',
    ]);
    expect(engine().calls).toEqual([{ method: 'runs.list', params: { withTask: 'chrome/t1' } }]);
    fireEvent.change(select, { target: { value: 'run-2' } });
    expect(location.hash).toMatch(/^#\/compare/);
    expect(location.hash).toContain('run-2');
    expect(location.hash).toContain('step=2');
  });

  it('offers nothing when no other run has the task, or the list cannot be read', async () => {
    engine().answer({ 'runs.list': () => [runListItem('run-1')] });
    const { container, unmount } = render(<CompareWith runId="run-1" taskKey="chrome/t1" />);
    await new Promise((r) => setTimeout(r, 20));
    expect(container.innerHTML).toBe('');
    unmount();
    clearStore();
    engine().answer({ 'runs.list': () => Promise.reject(new Error('cannot read the served folder')) });
    const again = render(<CompareWith runId="run-1" taskKey="chrome/t1" />);
    await new Promise((r) => setTimeout(r, 20));
    expect(again.container.innerHTML).toBe('');
    expect(engine().calls).toHaveLength(1);
  });
});
