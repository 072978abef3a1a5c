// Re-grading finds the guest files a `multi` vm_file fetched: the recorded values map back to the `gives` indexes,
// the other copies are found in the task's cache by their dest, and the getter answers the same from the artefacts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createShellEnvironment, type ShellEnvironment } from '../env/local/shell-environment';
import { getters } from '../evaluators/catalog';
import type { GradingContext } from '../evaluators/getter';
import type { GetterSpec, Task } from '../../shared/task';
import type { RuleVerdict } from '../../shared/run';
import { createArtefactEnvironment } from './artefact-environment';
import { checkNeeds } from './checks';
import { fetchedFilesOf, gradingCacheFolder } from './stored';

describe('stored copies of a multi vm_file', () => {
  let env: ShellEnvironment;
  let taskDir: string;
  const paths = ['/home/user/book.xlsx', '/home/user/book-Sheet1.csv', '/home/user/gone.txt'];
  const spec: GetterSpec = {
    type: 'vm_file',
    multi: true,
    path: paths,
    dest: ['book.xlsx', 'book-Sheet1.csv', 'gone.txt'],
    gives: [1, 2],
  };
  beforeAll(async () => {
    taskDir = mkdtempSync(join(tmpdir(), 'proctor-stored-multi-'));
    env = await createShellEnvironment();
    await env.putFile(paths[0], Buffer.from('xlsx bytes'));
    await env.putFile(paths[1], Buffer.from('a,b\n'));
  });
  afterAll(async () => {
    await env?.close();
    rmSync(taskDir, { recursive: true, force: true });
  });

  const ctxOf = (e: GradingContext['env'], cacheDir: string): GradingContext => ({
    env: e,
    task: { dir: taskDir, file: join(taskDir, 't.json') } as Task,
    cacheDir,
  });

  it('maps the given values and the other cached copies back to their guest paths, and grades again from them', async () => {
    const value = await getters.require('vm_file')(spec, ctxOf(env, join(taskDir, gradingCacheFolder)));
    const stored = JSON.parse(JSON.stringify(value)) as unknown; // as the verdict file keeps it (undefined → null)
    const verdict: RuleVerdict = {
      kind: 'rule',
      score: 1,
      at: '2026-11-23T00:00:00Z',
      metrics: [
        {
          metric: 'compare_table',
          score: 1,
          result: stored,
          getters: { result: spec },
          pointer: '/evaluator',
        },
      ],
    };
    const fetched = fetchedFilesOf(verdict, taskDir);
    expect(fetched.get(paths[0])).toBe(join(taskDir, gradingCacheFolder, 'book.xlsx'));
    expect(fetched.get(paths[1])).toBe(join(taskDir, gradingCacheFolder, 'book-Sheet1.csv'));
    expect(fetched.get(paths[2])).toBeNull();
    expect(
      checkNeeds(
        [
          {
            metric: 'compare_table',
            result: spec,
            expected: { type: 'rule', rules: {} },
            options: {},
            pointer: '/evaluator',
          },
        ],
        fetched,
        taskDir,
      )[0].live,
    ).toEqual([]);

    const again = (await getters.require('vm_file')(
      spec,
      ctxOf(createArtefactEnvironment(fetched), join(taskDir, 'regrade-cache')),
    )) as (string | undefined)[];
    expect(readFileSync(again[0]!, 'utf8')).toBe('a,b\n');
    expect(again[1]).toBeUndefined();
    expect(readFileSync(join(taskDir, 'regrade-cache', 'book.xlsx'), 'utf8')).toBe('xlsx bytes');
  });

  it('a multi spec whose one given file was missing is recorded as missing, its siblings as cached', () => {
    const one: GetterSpec = { ...spec, gives: [2] };
    const verdict: RuleVerdict = {
      kind: 'rule',
      score: 0,
      at: '2026-11-23T00:00:00Z',
      metrics: [
        {
          metric: 'compare_table',
          score: 0,
          error: 'result file does not exist (vm_file)',
          getters: { result: one },
        },
      ],
    };
    const fetched = fetchedFilesOf(verdict, taskDir);
    expect(fetched.get(paths[2])).toBeNull();
    expect(fetched.get(paths[1])).toBe(join(taskDir, gradingCacheFolder, 'book-Sheet1.csv'));
  });
});
