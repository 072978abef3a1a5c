// The one store behind useCall: one request for views that ask the same thing, asked again on refresh, the last
// answer kept on screen meanwhile, failures shown, and an old answer arriving late never over a newer one.
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { engine, runListItem } from '../test/fixtures';
import { callKey, clearStore, refetch } from './store';
import { useCall } from './use-call';

function Runs({ label, refresh, path }: { label: string; refresh?: number; path?: string }) {
  const { data, error, loading } = useCall('runs.list', path === undefined ? {} : { path }, refresh);
  return (
    <p data-testid={label}>
      {error ? `error: ${error}` : data ? data.map((r) => r.path).join(',') : 'none'}
      {loading ? ' (loading)' : ''}
    </p>
  );
}

beforeEach(() => clearStore());

describe('useCall over the one store', () => {
  it('asks once for two views that show the same call, and again when one refreshes, keeping the answer meanwhile', async () => {
    let n = 0;
    let release = () => undefined as void;
    engine().answer({
      'runs.list': () => {
        n++;
        if (n === 1) return [runListItem('a')];
        return new Promise((ok) => (release = () => ok([runListItem('a'), runListItem('b')])));
      },
    });
    const { rerender } = render(
      <>
        <Runs label="one" />
        <Runs label="two" />
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('one').textContent).toBe('a'));
    expect(screen.getByTestId('two').textContent).toBe('a');
    expect(engine().calls).toHaveLength(1);
    rerender(
      <>
        <Runs label="one" refresh={1} />
        <Runs label="two" />
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('two').textContent).toBe('a (loading)'));
    act(() => release());
    await waitFor(() => expect(screen.getByTestId('two').textContent).toBe('a,b'));
    expect(engine().calls).toHaveLength(2);
  });

  it('shows a failure, and refetch asks again for what is on screen', async () => {
    let fail = true;
    engine().answer({
      'runs.list': () =>
        fail ? Promise.reject(new Error('runs.list: the served folder is gone')) : [runListItem('c')],
    });
    render(<Runs label="one" />);
    await waitFor(() =>
      expect(screen.getByTestId('one').textContent).toBe('error: runs.list: the served folder is gone'),
    );
    fail = false;
    act(() => refetch('runs.list'));
    await waitFor(() => expect(screen.getByTestId('one').textContent).toBe('c'));
  });

  it('drops an answer that a newer request overtook', async () => {
    const pending: ((v: ReturnType<typeof runListItem>[]) => void)[] = [];
    engine().answer({ 'runs.list': () => new Promise((ok) => pending.push(ok)) });
    const { rerender } = render(<Runs label="one" refresh={0} />);
    rerender(<Runs label="one" refresh={1} />);
    await waitFor(() => expect(pending).toHaveLength(2));
    act(() => pending[1]([runListItem('new')]));
    await waitFor(() => expect(screen.getByTestId('one').textContent).toBe('new'));
    act(() => pending[0]([runListItem('old')]));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByTestId('one').textContent).toBe('new');
  });

  it('keys a call by its method and params, whatever the order of the params', () => {
    expect(callKey('runs.task', { runId: 'r', taskKey: 't' })).toBe(
      callKey('runs.task', { taskKey: 't', runId: 'r' }),
    );
    expect(callKey('runs.list', { path: 'x' })).not.toBe(callKey('runs.list', { path: 'y' }));
  });
});
