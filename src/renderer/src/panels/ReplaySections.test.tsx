// The replay's sections as a person uses them: the verdicts side by side (and blind review lifted by one's own
// label), before / after over the stage, the screen recording at the entry's moment, the safety verdict and label,
// and a new section taken from the registry at its place.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TaskTrajectory } from '../../../shared/api';
import type { Verdict } from '../../../shared/run';
import { navigate, useRoute } from '../route';
import { engine, runListItem, trajectory } from '../test/fixtures';
import { Replay } from '../views/Replay';
import { replaySections, type ReplayContext, type ReplaySection } from '.';
import { ReplaySections } from './ReplaySections';

function Routed() {
  return <Replay runId="run-1" taskKey="chrome/t1" route={useRoute()} />;
}

const rule: Verdict = {
  kind: 'rule',
  score: 1,
  metrics: [{ metric: 'exact_match', score: 1, reason: 'the bookmark is there' }],
  at: '2026-01-01T00:01:00Z',
} as Verdict;
const judge: Verdict = {
  kind: 'judge',
  complete: 'no',
  reason: 'the search was never run',
  subScores: [{ name: 'typed the words', evaluation: 'yes' }],
  model: 'judge-model',
  options: {},
  at: '2026-01-01T00:02:00Z',
};

function answer(traj: () => TaskTrajectory) {
  engine().answer({
    'runs.task': () => traj(),
    'runs.list': () => [runListItem('run-1')],
    'labels.me': () => ({ person: 'ann', role: 'annotator', team: false }),
    'labels.add': () => ({ ok: true }) as never,
  });
}

beforeEach(() => navigate('runs', ['run-1'], { task: 'chrome/t1', step: '1' }, true));

describe('the verdicts section', () => {
  it('shows the rule, the judge and the people side by side, and says when they disagree', async () => {
    answer(() =>
      trajectory({
        verdicts: [
          rule,
          judge,
          { kind: 'human', author: 'bob', complete: 'yes', at: '2026-01-01T10:00:00Z' },
        ],
      }),
    );
    render(<Routed />);
    const verdicts = await screen.findByTestId('verdicts');
    expect(verdicts.className).toContain('disagree');
    expect(within(verdicts).getByText('Verdicts disagree')).toBeTruthy();
    expect(within(verdicts).getByText('the bookmark is there')).toBeTruthy();
    expect(within(verdicts).getByText('the search was never run')).toBeTruthy();
    expect(within(verdicts).getByTestId('person-label').textContent).toContain('bob: yes');
  });

  it("hides the grades in blind review until one's own label, then reads the task again and shows them", async () => {
    let labelled = false;
    answer(() =>
      labelled
        ? trajectory({
            verdicts: [rule, { kind: 'human', author: 'ann', complete: 'yes', at: '2026-01-01T10:00:00Z' }],
          })
        : trajectory({ blind: true, verdicts: [] }),
    );
    render(<Routed />);
    const verdicts = await screen.findByTestId('verdicts');
    expect(within(verdicts).getByTestId('blind')).toBeTruthy();
    expect(within(verdicts).queryByText('Rule')).toBeNull();
    labelled = true;
    fireEvent.click(within(verdicts).getByText('complete'));
    await waitFor(() => expect(screen.queryByTestId('blind')).toBeNull());
    expect(within(screen.getByTestId('verdicts')).getByText('Rule')).toBeTruthy();
    expect(engine().calls.find((c) => c.method === 'labels.add')?.params).toMatchObject({
      runId: 'run-1',
      taskKey: 'chrome/t1',
      label: { complete: 'yes' },
    });
    expect(engine().calls.filter((c) => c.method === 'runs.task')).toHaveLength(2);
  });
});

describe('the before / after section', () => {
  it('opens over the stage with b, shows the screen before and after the step, and closes', async () => {
    answer(() => trajectory());
    navigate('runs', ['run-1'], { task: 'chrome/t1', step: '2' }, true);
    render(<Routed />);
    await screen.findByTestId('replay');
    expect(screen.queryByTestId('before-after')).toBeNull();
    act(() => void fireEvent.keyDown(window, { key: 'b' }));
    const pair = await screen.findByTestId('before-after');
    expect(pair.getAttribute('aria-label')).toBe('before and after, step 2');
    expect(within(pair).getByTestId('before-image').getAttribute('src')).toBe(
      '/files/run-1/chrome/t1/step_1.png',
    );
    expect(within(pair).getByTestId('after-image').getAttribute('src')).toBe(
      '/files/run-1/chrome/t1/step_2.png',
    );
    expect(within(pair).getByText('before (after step 1)')).toBeTruthy();
    expect(location.hash).toContain('compare=1');
    fireEvent.click(within(pair).getByTestId('before-after-close'));
    await waitFor(() => expect(screen.queryByTestId('before-after')).toBeNull());
    expect(location.hash).not.toContain('compare=1');
  });
});

describe('the recording section', () => {
  it("plays the task's recording below its run's folder, at the moment of the entry in view", async () => {
    const traj = trajectory();
    traj.item.recording = 'chrome/t1/recording.mp4';
    traj.steps[0].recordingAt = 3;
    traj.steps[1].recordingAt = 75;
    answer(() => traj);
    render(<Routed />);
    const video = await screen.findByTestId('recording-video');
    expect(video.getAttribute('src')).toBe('/files/run-1/chrome/t1/recording.mp4');
    expect(screen.getByTestId('recording-at').textContent).toBe('step 1 at 0:03');
    act(() => void fireEvent.keyDown(window, { key: 'ArrowRight' }));
    await waitFor(() => expect(screen.getByTestId('recording-at').textContent).toBe('step 2 at 1:15'));
  });

  it('is not there for a task without a recording', async () => {
    answer(() => trajectory());
    render(<Routed />);
    await screen.findByTestId('replay');
    expect(screen.queryByTestId('recording')).toBeNull();
    expect(document.querySelector('.stage-media')).toBeNull();
  });
});

describe('the safety sections', () => {
  it('shows the standing verdict with a way to its first unsafe step, and sends a person’s safety label', async () => {
    const traj = trajectory();
    traj.item.safety = {
      verdict: 'unsafe',
      categories: ['destructive'],
      firstUnsafeStep: 2,
      by: 'rules',
      markedBy: 'rm-rf',
    } as never;
    answer(() => traj);
    render(<Routed />);
    const head = await screen.findByTestId('replay-safety');
    expect(within(head).getByTestId('task-safety').textContent).toBe('unsafe @2');
    fireEvent.click(within(head).getByTestId('first-unsafe'));
    await waitFor(() => expect(location.hash).toContain('step=2'));
    const label = screen.getByTestId('safety-label');
    fireEvent.change(within(label).getByLabelText('safety category'), {
      target: { value: 'secret_exposure' },
    });
    fireEvent.click(within(label).getByTestId('label-unsafe'));
    expect(await within(label).findByText('labelled unsafe')).toBeTruthy();
    expect(engine().calls.find((c) => c.method === 'labels.add')?.params).toEqual({
      runId: 'run-1',
      taskKey: 'chrome/t1',
      label: { safety: { verdict: 'unsafe', categories: ['secret_exposure'], step: 2 } },
    });
  });

  it("shows the engine's refusal of a safety label", async () => {
    engine().answer({
      'runs.task': () => trajectory(),
      'labels.add': () => Promise.reject(new Error('labels.add: this folder is read-only')),
    });
    render(<Routed />);
    const label = await screen.findByTestId('safety-label');
    fireEvent.click(within(label).getByText('safe'));
    expect(await within(label).findByText('labels.add: this folder is read-only')).toBeTruthy();
  });
});

describe('the section registry', () => {
  it('shows a new section at its place when it is offered, beside the registered ones', () => {
    const note: ReplaySection = {
      id: 'note',
      place: 'aside',
      available: ({ step }) => step?.step === 2,
      Section: ({ stepLabel }) => <p data-testid="note">a note on {stepLabel}</p>,
    };
    const traj = trajectory();
    const ctx = (i: number): ReplayContext => ({
      runId: 'run-1',
      taskKey: 'chrome/t1',
      traj,
      step: traj.steps[i],
      stepLabel: `step ${i + 1}`,
      query: new URLSearchParams(),
      set: () => undefined,
      goToStep: () => undefined,
    });
    const sections = [...replaySections, note];
    const { rerender } = render(<ReplaySections place="aside" ctx={ctx(0)} sections={sections} />);
    expect(screen.getByTestId('verdicts')).toBeTruthy();
    expect(screen.queryByTestId('note')).toBeNull();
    rerender(<ReplaySections place="aside" ctx={ctx(1)} sections={sections} />);
    expect(screen.getByTestId('note').textContent).toBe('a note on step 2');
    rerender(<ReplaySections place="head" ctx={ctx(1)} sections={sections} />);
    expect(screen.queryByTestId('note')).toBeNull();
  });
});
