// The task browser as a person uses it: a folder's tasks by app, a filter, a task's detail and raw file, its
// cross-validation recorded, the engine's errors shown, and the folder in the link shown, not an older answer.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskFolderView, TaskReviewView, TaskSummary } from '../../../shared/api';
import { navigate, useRoute } from '../route';
import { engine } from '../test/fixtures';
import { TaskBrowser } from './TaskBrowser';

function Routed() {
  return <TaskBrowser route={useRoute()} />;
}

function task(app: string, id: string, instruction: string, over: Partial<TaskSummary> = {}): TaskSummary {
  return {
    id,
    app,
    instruction,
    path: `tasks/${app}/${id}.json`,
    tags: [],
    needsAccount: [],
    needsProxy: false,
    shape: 'osworld',
    setup: [{ func: 'launch', pointer: '/config/0' }],
    checks: [{ metric: 'exact_match', pointer: '/evaluator' }],
    conj: 'and',
    relatedApps: [app],
    source: [],
    problems: [],
    ...over,
  } as unknown as TaskSummary;
}

const folder = (path: string, tasks: TaskSummary[]): TaskFolderView => ({ path, tasks, problems: [] });

const review = (
  status: TaskReviewView['status'],
  reviewers: TaskReviewView['reviewers'] = [],
): TaskReviewView => ({
  task: 'tasks/chrome/c1.json',
  status,
  reviewers,
  reviews: [],
  evidence: [
    {
      check: 'd',
      verdict: 'pass',
      note: 'selftest scored 1',
      source: 'selftest',
      at: '2026-01-01T00:00:00Z',
    },
  ],
});

describe('the task browser', () => {
  it('lists the tasks by app, filters them, and opens one with its instruction, raw file and review', async () => {
    engine().answer({
      'tasks.open': ({ path }) =>
        folder(path, [
          task('chrome', 'c1', 'Open the bookmarks bar.'),
          task('chrome', 'c2', 'Clear the history.', {
            problems: [{ severity: 'error', file: 'c2.json', message: 'no evaluator' } as never],
          }),
          task('gimp', 'g1', 'Rotate the picture.'),
        ]),
      'tasks.get': ({ path }) => ({ task: task('chrome', 'c1', ''), raw: { id: 'c1', from: path } }),
      'reviews.get': () => review('draft'),
      'reviews.add': ({ checks }) =>
        review('in review', [
          {
            person: 'ann',
            outcome: checks.a?.verdict === 'pass' ? 'pass' : 'fail',
            at: '2026-01-02T10:00:00Z',
          },
        ]),
    });
    navigate('tasks', [], { folder: 'tasks' }, true);
    render(<Routed />);
    expect((await screen.findByTestId('task-count')).textContent).toBe(
      '3 tasks · 2 apps · 1 invalid · 0 warnings',
    );
    fireEvent.change(screen.getByLabelText('filter tasks'), { target: { value: 'rotate' } });
    expect(screen.getAllByTestId('task-row').map((r) => r.title)).toEqual(['Rotate the picture.']);
    fireEvent.change(screen.getByLabelText('filter tasks'), { target: { value: '' } });
    fireEvent.click(screen.getAllByTestId('task-row')[0]);
    expect((await screen.findByTestId('instruction')).textContent).toBe('Open the bookmarks bar.');
    fireEvent.click(screen.getByText(/Show task file/));
    await waitFor(() => expect(screen.getByText(/"from": "tasks\/chrome\/c1.json"/)).toBeTruthy());
    // The review: Proctor's evidence pre-fills check d; the person adds check a and records it.
    expect((await screen.findByTestId('evidence-d')).textContent).toContain('selftest scored 1');
    expect((screen.getByLabelText('check d') as HTMLSelectElement).value).toBe('pass');
    fireEvent.change(screen.getByLabelText('check a'), { target: { value: 'pass' } });
    fireEvent.click(screen.getByText('record review'));
    await waitFor(() => expect(screen.getByTestId('task-status').textContent).toBe('in review'));
    expect(screen.getByText('review recorded')).toBeTruthy();
    expect(engine().calls.find((c) => c.method === 'reviews.add')?.params).toEqual({
      task: 'tasks/chrome/c1.json',
      checks: { a: { verdict: 'pass' }, d: { verdict: 'pass', note: 'selftest scored 1' } },
    });
  });

  it("shows the engine's error when the folder cannot be read", async () => {
    engine().answer({
      'tasks.open': ({ path }) => Promise.reject(new Error(`${path}: not below the served folder`)),
    });
    navigate('tasks', [], { folder: '../etc' }, true);
    render(<Routed />);
    expect(await screen.findByText('../etc: not below the served folder')).toBeTruthy();
  });

  it('shows the folder the link names when an older folder answers late', async () => {
    const late: ((v: TaskFolderView) => void)[] = [];
    engine().answer({
      'tasks.open': ({ path }) =>
        path === 'slow' ? new Promise((ok) => late.push(ok)) : folder(path, [task('gimp', 'g1', 'Rotate.')]),
    });
    navigate('tasks', [], { folder: 'slow' }, true);
    render(<Routed />);
    expect(await screen.findByText('Reading tasks…')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('task folder'), { target: { value: 'fast' } });
    fireEvent.submit(screen.getByLabelText('task folder').closest('form')!);
    await waitFor(() => expect(screen.getByTestId('task-count').textContent).toMatch(/^1 tasks/));
    await act(async () => late[0](folder('slow', [task('chrome', 'c1', 'a'), task('chrome', 'c2', 'b')])));
    expect(screen.getByTestId('task-count').textContent).toMatch(/^1 tasks · 1 apps/);
    expect(location.hash).toContain('folder=fast');
  });
});
