// The reader's attempt, cause and cost: stored ones read back (malformed parts dropped), older Proctor runs given a
// cause from their state, score and rule verdict, a re-grading followed, and OSWorld folders given theirs.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuleVerdict } from '../../shared/run';
import { readRun } from './reader';

const tmp = () => mkdtempSync(join(tmpdir(), 'proctor-cause-read-'));

/** A Proctor run folder written by hand: per key its summary results and rule verdicts. */
function proctorRun(
  tasks: Record<
    string,
    { results?: Record<string, unknown>; verdicts?: Partial<RuleVerdict>[]; info?: Record<string, unknown> }
  >,
): string {
  const dir = tmp();
  const taskInfo: Record<string, unknown> = {};
  for (const [key, t] of Object.entries(tasks)) {
    const rel = `pyautogui/screenshot/x/${key.replace('#', '/attempt-')}`;
    taskInfo[key] = { dir: rel, ...t.info };
    mkdirSync(join(dir, rel), { recursive: true });
    if (t.results)
      writeFileSync(
        join(dir, rel, 'summary.json'),
        JSON.stringify({ id: key, instruction: 'i', results: t.results }),
      );
    if (t.verdicts)
      writeFileSync(
        join(dir, rel, 'verdicts.jsonl'),
        t.verdicts
          .map((v) => JSON.stringify({ kind: 'rule', metrics: [], at: '2026-01-01T00:00:00Z', ...v }) + '\n')
          .join(''),
      );
  }
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      runId: 'r',
      startedAt: '2026-01-01T00:00:00Z',
      args: [],
      agent: 'x',
      actionSpace: 'pyautogui',
      observation: 'screenshot',
      tasks: Object.keys(tasks),
      taskInfo,
    }),
  );
  return dir;
}

describe('the reader: attempt, cause and cost', () => {
  it('reads the stored cause and cost, dropping cost fields that are no non-negative numbers', () => {
    const dir = proctorRun({
      'd/t#2': {
        info: { task: 'd/t', attempt: 2 },
        results: {
          score: 0,
          state: 'success',
          cause: 'grading_error',
          cost: { tokensIn: 10, tokensOut: 'many', usd: -1, envMs: 5, wallMs: 9 },
          total_timing: 0.009,
        },
      },
    });
    const [item] = readRun(dir).tasks;
    expect(item).toMatchObject({
      key: 'd/t#2',
      domain: 'd',
      taskId: 't',
      attempt: 2,
      cause: 'grading_error',
      cost: { tokensIn: 10, envMs: 5, wallMs: 9 },
    });
    expect(Object.keys(item.cost!).sort()).toEqual(['envMs', 'tokensIn', 'wallMs']);
  });

  it('derives a cause for runs written before attribution: from the state, the score and the last rule verdict', () => {
    const dir = proctorRun({
      'd/ok': { results: { score: 1, state: 'success', total_timing: 2 } },
      'd/zero': {
        results: { score: 0, state: 'success' },
        verdicts: [{ score: 0, metrics: [{ metric: 'm', score: 0, reason: 'differs' }] }],
      },
      'd/crash': {
        results: { score: 0, state: 'success' },
        verdicts: [
          {
            score: 0,
            error: '/evaluator: metric m failed: boom',
            metrics: [{ metric: 'm', score: 0, error: '/evaluator: metric m failed: boom' }],
          },
        ],
      },
      'd/limit': { results: { score: 0, state: 'max_steps_error' } },
      'd/setup': { results: { score: 0, state: 'setup_error' } },
      'd/model': { results: { score: 0, state: 'agent_error', cause: 'not-a-cause' } },
      'd/waiting': {},
    });
    const items = readRun(dir).tasks;
    expect(items.map((t) => [t.key, t.cause])).toEqual([
      ['d/ok', 'success'],
      ['d/zero', 'agent_failure'],
      ['d/crash', 'grading_error'],
      ['d/limit', 'step_limit'],
      ['d/setup', 'env_error'],
      ['d/model', 'agent_error'],
      ['d/waiting', undefined],
    ]);
    expect(items[0].cost).toEqual({ wallMs: 2000 });
    expect(items.every((t) => t.attempt === undefined)).toBe(true);
  });

  it('follows a later re-grading (`proctor eval`) for a cause that came from grading', () => {
    const crash = {
      score: 0,
      error: 'x: metric m failed: boom',
      metrics: [{ metric: 'm', score: 0, error: 'x: metric m failed: boom' }],
    };
    const regraded = {
      score: 1,
      metrics: [{ metric: 'm', score: 1 }],
      provenance: { source: 'regraded from stored artefacts', at: '2026-01-02T00:00:00Z' },
    };
    const dir = proctorRun({
      'd/t': { results: { score: 0, state: 'success', cause: 'grading_error' }, verdicts: [crash, regraded] },
      'd/env': { results: { score: 0, state: 'env_error', cause: 'env_error' }, verdicts: [regraded] },
    });
    expect(readRun(dir).tasks.map((t) => t.cause)).toEqual(['success', 'env_error']); // an environment failure stays one
  });

  it('gives OSWorld result folders a cause: an error line about the model is agent_error, other errors env_error', () => {
    const root = tmp();
    const run = join(root, 'pyautogui', 'screenshot', 'gpt-4o');
    const task = (domain: string, id: string, files: Record<string, string>) => {
      mkdirSync(join(run, domain, id), { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(run, domain, id, name), text);
    };
    const step = (done: boolean) =>
      JSON.stringify({
        step_num: 1,
        action_timestamp: '20260101@000000',
        action: 'pyautogui.click(1, 1)',
        response: '',
        reward: 0,
        done,
        info: {},
        screenshot_file: null,
      }) + '\n';
    task('os', 'won', { 'traj.jsonl': step(true), 'result.txt': '1\n' });
    task('os', 'lost', { 'traj.jsonl': step(true), 'result.txt': '0\n' });
    task('os', 'limit', { 'traj.jsonl': step(false), 'result.txt': '0\n' });
    task('os', 'api', {
      'traj.jsonl': step(false) + JSON.stringify({ Error: 'openai.RateLimitError: Error code: 429' }) + '\n',
    });
    task('os', 'vm', {
      'traj.jsonl':
        JSON.stringify({ Error: 'HTTPConnectionPool(host=10.0.0.5, port=5000): Max retries exceeded' }) +
        '\n',
    });
    const items = Object.fromEntries(readRun(run).tasks.map((t) => [t.taskId, t.cause]));
    expect(items).toEqual({
      won: 'success',
      lost: 'agent_failure',
      limit: 'step_limit',
      api: 'agent_error',
      vm: 'env_error',
    });
  });
});
