// The model's words as a person reads them: the kept reply, the conversation turns and their tool calls.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../../shared/run';
import { ModelWords } from './ModelWords';

const entry = (over: Partial<StepRecord>): StepRecord =>
  ({ step: 1, at: '2026-01-01T00:00:00Z', actions: [], ...over }) as StepRecord;

describe('ModelWords', () => {
  it('shows the reply as text, never as HTML', () => {
    render(
      <ModelWords
        entry={entry({ response: 'Click <b>now</b>' })}
        step={[entry({ response: 'Click <b>now</b>' })]}
      />,
    );
    expect(screen.getByTestId('model-response').textContent).toBe('Click <b>now</b>');
    expect(document.querySelector('b')).toBeNull();
  });
  it('says when no reply was recorded', () => {
    render(<ModelWords entry={entry({})} step={[entry({})]} />);
    expect(screen.getByText('(no reply recorded)')).toBeTruthy();
  });
});
