import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuleVerdict } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Agent, AgentTurn } from '../agents/agent';
import { main } from '../cli/main';
import type { Environment } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { runTasks } from '../runner/scheduler';
import { readJsonLines } from '../store/files';
import { readManifest } from '../store/run-writer';
import { loadTasks } from '../tasks/reader';
import { regradeRun, regradedSource } from './regrade';

const MIXED = '7d0c6a8e-1b2f-4c3d-9e4f-5a6b7c8d9e01';
const INFEASIBLE = '7d0c6a8e-1b2f-4c3d-9e4f-5a6b7c8d9e02';

function nativeTask(
  root: string,
  id: string,
  evaluation: Record<string, unknown>,
  assets: Record<string, string>,
): void {
  const dir = join(root, 'cli', id);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(assets)) writeFileSync(join(dir, name), text);
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      id,
      snapshot: 'os',
      instruction: `Do ${id}`,
      source: ['https://example.org'],
      related_apps: ['os'],
      tags: ['cli', 'traditional_data_processing', 'abstract'],
      action_number: 2,
      config: [],
      evaluation,
    }),
  );
}

function spiderTask(
  root: string,
  id: string,
  evaluator: Record<string, unknown>,
  assets: Record<string, string> = {},
): void {
  const dir = join(root, 'os', id);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(assets)) writeFileSync(join(dir, name), text);
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      id,
      snapshot: 'os',
      instruction: `Do ${id}`,
      source: ['https://example.org'],
      action_number: 2,
      config: [],
      related_apps: ['os'],
      tags: ['cli', 'traditional_data_processing', 'abstract'],
      evaluator,
    }),
  );
}

/** What the scripted agent writes into the guest home, per task id; `FAIL` answers FAIL instead of DONE. */
const work: Record<string, Record<string, string> | 'FAIL'> = {
  text: { 'answer.txt': 'the answer\n' },
  csv: { 'out.csv': 'name,n\nb,2\na,1\n' },
  script: {},
  missing: {},
  [MIXED]: { 'answer.txt': 'the answer\n' },
  [INFEASIBLE]: 'FAIL',
};

interface Fixture {
  root: string;
  runDir: string;
  tasks: Task[];
}

/** A real run over six small tasks on shell-only environments, graded by the engine's own evaluators. */
async function makeRun(): Promise<Fixture> {
  const root = mkdtempSync(join(tmpdir(), 'proctor-regrade-'));
  nativeTask(
    root,
    'text',
    {
      func: 'compare_text_file',
      arguments: { local_expected: 'gold.txt', vm_result: '/home/user/answer.txt' },
    },
    { 'gold.txt': 'the answer\n' },
  );
  nativeTask(
    root,
    'csv',
    {
      func: 'compare_csv',
      arguments: { local_expected: 'gold.csv', vm_result: '/home/user/out.csv', ignore_order: false },
    },
    { 'gold.csv': 'name,n\na,1\nb,2\n' },
  );
  nativeTask(
    root,
    'script',
    {
      func: 'compare_script_logs',
      arguments: {
        eval_script: 'eval.sh',
        vm_eval_logs: '/home/user/eval.log',
        rules: { include: ['SUCCESS'], exclude: ['FAILURE'] },
      },
    },
    { 'eval.sh': '#!/bin/bash\necho SUCCESS\n' },
  );
  nativeTask(
    root,
    'missing',
    {
      func: 'compare_text_file',
      arguments: { local_expected: 'gold.txt', vm_result: '/home/user/never.txt' },
    },
    { 'gold.txt': 'x\n' },
  );
  spiderTask(
    root,
    MIXED,
    {
      func: ['compare_text_file', 'check_include_exclude'],
      conj: 'and',
      result: [
        { type: 'vm_file', path: '/home/user/answer.txt', dest: 'answer.txt' },
        { type: 'vm_command_line', command: 'echo SUCCESS' },
      ],
      expected: [
        { type: 'local_file', path: 'gold.txt' },
        { type: 'rule', rules: { include: ['SUCCESS'], exclude: [] } },
      ],
    },
    { 'gold.txt': 'the answer\n' },
  );
  spiderTask(root, INFEASIBLE, { func: 'infeasible' });

  const { tasks, problems } = await loadTasks([root]);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect(tasks).toHaveLength(6);
  const envs = new Map<string, Environment>();
  const order = tasks.map((t) => t.id);
  let created = 0;
  const agent = (task: Task): Agent => ({
    name: 'scripted',
    async start() {},
    async next(_obs, step): Promise<AgentTurn> {
      const todo = work[task.id];
      if (todo === 'FAIL') return { response: 'FAIL', actions: [{ type: 'FAIL' }] };
      if (step === 1) {
        for (const [name, text] of Object.entries(todo))
          await envs.get(task.id)!.putFile(`/home/user/${name}`, Buffer.from(text));
        return { response: 'wrote the files', actions: [{ type: 'WAIT' }] };
      }
      return { response: 'DONE', actions: [{ type: 'DONE' }] };
    },
  });
  const outcome = await runTasks(tasks, {
    agent,
    agentName: 'scripted',
    outDir: join(root, 'results'),
    waitMs: 1,
    parts: {
      async createEnvironment(r) {
        const env = await createShellEnvironment({ home: r.home });
        envs.set(order[created++], env);
        return env;
      },
    },
  });
  const scores = Object.fromEntries(outcome.tasks.map((t) => [t.taskId, [t.state, t.score]]));
  expect(scores).toEqual({
    text: ['success', 1],
    csv: ['success', 0], // rows in another order, ignore_order false
    script: ['success', 1],
    missing: ['success', 0],
    [MIXED]: ['success', 1],
    [INFEASIBLE]: ['success', 1],
  });
  return { root, runDir: outcome.runDir, tasks };
}

function taskDirOf(runDir: string, key: string): string {
  return join(runDir, readManifest(runDir).taskInfo![key].dir);
}

function ruleVerdicts(runDir: string, key: string): RuleVerdict[] {
  return readJsonLines<RuleVerdict>(join(taskDirOf(runDir, key), 'verdicts.jsonl')).values.filter(
    (v) => v.kind === 'rule',
  );
}

async function proctor(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('proctor eval: re-grading a finished run from its stored artefacts', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await makeRun();
  }, 60_000);

  it('re-grades without changes to the same scores, appends verdicts with provenance, and names the live checks', async () => {
    const before = ruleVerdicts(fx.runDir, 'cli/text');
    expect(before).toHaveLength(1);
    // The guest home of every task is gone after the run: only the stored copy of answer.txt remains.
    expect(before[0].metrics[0].result).toEqual(
      expect.stringContaining(join(taskDirOf(fx.runDir, 'cli/text'), 'cache')),
    );

    const r = await proctor('eval', fx.runDir, '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as {
      tasks: {
        key: string;
        storedScore: number;
        newScore: number | null;
        changed: boolean;
        liveChecks: { metric: string; needs: string[]; message: string; storedScore?: number }[];
      }[];
    };
    const byKey = Object.fromEntries(report.tasks.map((t) => [t.key, t]));
    for (const t of report.tasks)
      expect([t.key, t.newScore, t.changed]).toEqual([t.key, t.storedScore, false]);
    expect(byKey['cli/text'].liveChecks).toEqual([]);
    expect(byKey['cli/missing'].liveChecks).toEqual([]);
    expect(byKey[`os/${INFEASIBLE}`].liveChecks).toEqual([]);
    expect(byKey['cli/script'].liveChecks).toEqual([
      expect.objectContaining({
        metric: 'compare_script_logs',
        needs: ['vm_script_output'],
        message: 'needs the live environment: vm_script_output',
        storedScore: 1,
      }),
    ]);
    expect(byKey[`os/${MIXED}`].liveChecks).toEqual([
      expect.objectContaining({ metric: 'check_include_exclude', needs: ['vm_command_line'] }),
    ]);

    const text = ruleVerdicts(fx.runDir, 'cli/text');
    expect(text).toHaveLength(2);
    expect(text[0]).toEqual(before[0]); // never overwritten
    expect(text[1].provenance).toMatchObject({ source: regradedSource, basedOn: before[0].at });
    expect(text[1].provenance!.at).toBe(text[1].at);
    const missing = ruleVerdicts(fx.runDir, 'cli/missing').at(-1)!;
    expect(missing).toMatchObject({ score: 0, error: expect.stringMatching(/result file does not exist/) });
    const script = ruleVerdicts(fx.runDir, 'cli/script').at(-1)!;
    expect(script.provenance?.keptChecks).toEqual([
      expect.objectContaining({ metric: 'compare_script_logs', needs: ['vm_script_output'], score: 1 }),
    ]);
    expect(script.metrics[0].reason).toMatch(
      /^needs the live environment: vm_script_output; kept the run's score 1/,
    );
  });

  it('scores a changed gold file and a changed evaluator from the stored result files', async () => {
    const textTask = fx.tasks.find((t) => t.id === 'text')!;
    writeFileSync(join(textTask.dir, 'gold.txt'), 'a different answer\n');
    const csvTask = fx.tasks.find((t) => t.id === 'csv')!;
    const csvJson = JSON.parse(readFileSync(csvTask.file, 'utf8'));
    csvJson.evaluation.arguments.ignore_order = true;
    writeFileSync(csvTask.file, JSON.stringify(csvJson));
    const mixed = fx.tasks.find((t) => t.id === MIXED)!;
    writeFileSync(join(mixed.dir, 'gold.txt'), 'not what the agent wrote\n');

    const result = await regradeRun(fx.runDir, { tasks: ['cli/text', 'cli/csv', `os/${MIXED}`] });
    expect(result.rows.map((r) => [r.taskKey, r.storedScore, r.newScore, r.changed])).toEqual([
      ['cli/csv', 0, 1, true],
      ['cli/text', 1, 0, true],
      [`os/${MIXED}`, 1, 0, true],
    ]);
    const text = result.rows.find((r) => r.taskKey === 'cli/text')!.verdict!;
    // The result file graded is a copy of the stored one, inside the task folder (the guest home is gone).
    const graded = text.metrics[0].result as string;
    expect(graded.startsWith(join(taskDirOf(fx.runDir, 'cli/text'), 'regraded'))).toBe(true);
    expect(readFileSync(graded, 'utf8')).toBe('the answer\n');
    // `and` with a check now 0: the live check cannot change the score, so the task has a new score.
    const m = result.rows.find((r) => r.taskKey === `os/${MIXED}`)!;
    expect(m.verdict!.provenance?.keptChecks).toEqual([
      expect.objectContaining({ metric: 'check_include_exclude', score: 1 }),
    ]);
    // The run's own summary keeps the score the run reported.
    const summary = JSON.parse(readFileSync(join(taskDirOf(fx.runDir, 'cli/text'), 'summary.json'), 'utf8'));
    expect(summary.results.score).toBe(1);

    const table = await proctor('eval', fx.runDir, '--task', 'cli/text', '--task', 'cli/script');
    expect(table.code).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(/^task\s+stored\s+new\s+changed\?\s+checks needing the live environment$/);
    expect(lines.find((l) => l.startsWith('cli/text'))).toMatch(/^cli\/text\s+1\s+0\s+changed$/);
    expect(lines.find((l) => l.startsWith('cli/script'))).toMatch(
      /^cli\/script\s+1\s+1\s+same\s+compare_script_logs: needs the live environment: vm_script_output$/,
    );
    expect(table.out).toMatch(
      /2 of 2 tasks re-graded from stored artefacts, 1 changed; 1 with checks that need the live environment/,
    );
  });

  it('says which guest file it has no copy of when the stored copy is gone', async () => {
    const dir = taskDirOf(fx.runDir, 'cli/csv');
    const copy = ruleVerdicts(fx.runDir, 'cli/csv')[0].metrics[0].result as string;
    expect(existsSync(copy)).toBe(true);
    rmSync(join(dir, 'cache'), { recursive: true });
    const result = await regradeRun(fx.runDir, { tasks: ['cli/csv'] });
    expect(result.rows[0]).toMatchObject({
      liveChecks: [{ metric: 'compare_csv', needs: ['vm_file'] }],
      storedScore: 0,
    });
    // The stored score was 0 and it is the only check: the new score is that kept 0.
    expect(result.rows[0].newScore).toBe(0);
  });

  it('exits 1 on a folder that is not a readable run, and 2 on an unknown option', async () => {
    const r = await proctor('eval', join(fx.root, 'no-such-run'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/proctor eval: .*no-such-run/);
    expect((await proctor('eval', fx.runDir, '--task', 'cli/nope')).code).toBe(1);
    expect((await proctor('eval', fx.runDir, '--live')).code).toBe(2);
  });

  it('finds the stored copies when the run folder has moved (the verdict records absolute paths)', async () => {
    const moved = join(fx.root, 'moved-run');
    renameSync(fx.runDir, moved);
    const result = await regradeRun(moved, { tasks: ['cli/text'] });
    expect(result.rows[0]).toMatchObject({ liveChecks: [], storedScore: 1, newScore: 0 }); // gold changed above
    expect(readFileSync(result.rows[0].verdict!.metrics[0].result as string, 'utf8')).toBe('the answer\n');
  });
});
