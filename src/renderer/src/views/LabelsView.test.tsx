// The labels view as each role meets it: an annotator's own work, a lead's conflicts settled with a reason (and
// read again once settled), agreement, assigning runs, and the engine's errors shown.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AgreementReport, Conflict, WorkQueue } from '../../../shared/annotate';
import type { Answers } from '../test/fake-client';
import { engine, runListItem } from '../test/fixtures';
import { LabelsView } from './LabelsView';

const queue: WorkQueue = {
  person: 'ann',
  items: [],
  done: 1,
  total: 3,
  next: { run: 'runs/r1', runId: 'r1', taskKey: 'chrome/t2', done: false } as WorkQueue['next'],
};

const conflict = (settled?: Conflict['settled']): Conflict => ({
  run: 'runs/r1',
  runId: 'r1',
  taskKey: 'chrome/t1',
  why: 'people',
  people: [
    { person: 'ann', complete: 'yes', at: '2026-01-01T00:00:00Z' },
    { person: 'bob', complete: 'no', at: '2026-01-01T00:00:00Z' },
  ],
  rule: 'yes',
  ...(settled ? { settled } : {}),
});

const figures = {
  items: 4,
  alpha: 0.5,
  pairs: [{ a: 'ann', b: 'bob', kappa: 0.25, observed: 0.75, items: 4 }],
  judge: { items: 0, kappa: null, observed: 0 },
  rule: { items: 0, kappa: null, observed: 0 },
};
const report = { ...figures, byApp: {}, byCategory: {} } as unknown as AgreementReport;

function asRole(role: 'annotator' | 'reviewer' | 'lead', more: Answers = {}) {
  engine().answer({
    'labels.me': () => ({ person: role === 'lead' ? 'lee' : 'ann', role, team: true }),
    'labels.queue': () => queue,
    'labels.conflicts': () => [conflict()],
    'labels.agreement': () => report,
    'runs.list': () => [runListItem('runs/r1', { tasks: 5 }), runListItem('runs/r2', { tasks: 2 })],
    ...more,
  });
}

describe('the labels view', () => {
  it("shows an annotator their own work and the next item, and nobody's conflicts", async () => {
    asRole('annotator');
    render(<LabelsView />);
    const mine = await screen.findByTestId('my-work');
    expect(mine.textContent).toContain('1 of 3 labelled');
    expect(screen.getByTestId('next-item').getAttribute('href')).toBe('#/runs/runs%2Fr1?task=chrome%2Ft2');
    expect(screen.queryByTestId('conflicts')).toBeNull();
    expect(screen.queryByTestId('agreement')).toBeNull();
    expect(
      engine()
        .calls.map((c) => c.method)
        .sort(),
    ).toEqual(['labels.me', 'labels.queue']);
  });

  it('lets a lead settle a conflict only with a reason, then reads the conflicts again', async () => {
    let settled: Conflict['settled'];
    asRole('lead', {
      'labels.conflicts': () => [conflict(settled)],
      'labels.settle': ({ complete, reason }) => {
        settled = { by: 'lee', complete: complete!, reason, at: '2026-01-02T00:00:00Z' };
        return { ok: true };
      },
    });
    render(<LabelsView />);
    const row = await screen.findByTestId('conflict-row');
    expect(screen.getByText('Conflicts: 1 open of 1')).toBeTruthy();
    fireEvent.click(within(row).getByText('settle no'));
    expect(within(row).getByText('give a reason')).toBeTruthy();
    expect(engine().calls.some((c) => c.method === 'labels.settle')).toBe(false);
    fireEvent.change(within(row).getByLabelText('reason'), { target: { value: 'the file was not saved' } });
    fireEvent.click(within(row).getByText('settle no'));
    await waitFor(() => expect(screen.getByText('Conflicts: 0 open of 1')).toBeTruthy());
    expect(screen.getByTestId('conflict-row').textContent).toContain('no by lee: the file was not saved');
    expect(engine().calls.find((c) => c.method === 'labels.settle')?.params).toEqual({
      runId: 'runs/r1',
      taskKey: 'chrome/t1',
      complete: 'no',
      reason: 'the file was not saved',
    });
    expect(screen.getByTestId('agreement').textContent).toContain('All: 4 item(s), alpha 0.50');
    expect(within(screen.getByTestId('agreement-matrix')).getAllByText('0.25')).toHaveLength(2);
  });

  it("shows the engine's refusal of a settlement, and of the work queue", async () => {
    asRole('lead', {
      'labels.queue': () => Promise.reject(new Error('labels.queue: the team file is unreadable')),
      'labels.settle': () => Promise.reject(new Error('only a lead settles')),
    });
    render(<LabelsView />);
    expect(await screen.findByText('labels.queue: the team file is unreadable')).toBeTruthy();
    const row = await screen.findByTestId('conflict-row');
    fireEvent.change(within(row).getByLabelText('reason'), { target: { value: 'x' } });
    fireEvent.click(within(row).getByText('settle yes'));
    expect(await within(row).findByText('only a lead settles')).toBeTruthy();
  });

  it('lets a lead assign the runs ticked to the people named', async () => {
    asRole('lead', {
      'labels.assign': ({ runs, people, perItem }) => ({
        assigned: runs.length * 5 * perItem,
        short: people.length < 3 ? [{ run: 'runs/r1', task: 'chrome/t1', got: 2 }] : [],
      }),
    });
    render(<LabelsView />);
    const assign = await screen.findByTestId('assign');
    const button = within(assign).getByText('assign') as HTMLButtonElement;
    await within(assign).findByText('runs/r1 (5 tasks)');
    expect(button.disabled).toBe(true);
    fireEvent.click(within(assign).getByLabelText('runs/r1 (5 tasks)'));
    fireEvent.change(within(assign).getByLabelText('people'), { target: { value: 'ann, bob' } });
    fireEvent.click(button);
    expect(
      await within(assign).findByText('10 assignment(s); 1 task(s) could not get 2 people'),
    ).toBeTruthy();
    expect(engine().calls.find((c) => c.method === 'labels.assign')?.params).toEqual({
      runs: ['runs/r1'],
      perItem: 2,
      people: ['ann', 'bob'],
      blind: true,
    });
  });
});
