// A resumed or queued run has exactly the settings of the original: `proctor run` resolves its options once into
// the run's plan (run-plan.json), and `--resume` and the queue's workers read that plan. One test per setting and
// per way of continuing; then a real resume (sandbox display) and a real queue worker (redis-server, shell
// environment) grading under the original's --grading-profile; and a run written before plans existed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../shared/task';
import type { Agent, AgentTurn } from '../agents/agent';
import { missingDemoPrograms } from '../demo/testing-env';
import type { Environment } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { parseQueueUrl, QUEUE_NAME } from '../queue/connection';
import { readJobData } from '../queue/jobs';
import { hasRedisServer, TestRedis } from '../queue/testing/redis-server';
import { jobRunOptions, startQueueWorker, type QueueWorker } from '../queue/worker';
import { defaultParts } from '../runner/parts';
import { optionsForResume, taskSettings, type RunOptions } from '../runner/scheduler';
import { writeAnswerTask } from '../runner/testing/answer-task';
import { readJsonLines } from '../store/files';
import { readRunPlan, RUN_PLAN_FILE } from '../store/run-plan';
import { readManifest } from '../store/run-writer';
import { main } from './main';
import { resumedAgentOptions, resumedRunOptions, storedRunSettings } from './options/resume';
import { parseRunArgs } from './options/run-options';

const projectRoot = resolve(__dirname, '../../..');
const demoTask = join(
  projectRoot,
  'resources/demo/terminal/246ccb60-7635-46fa-a222-6f4261e826ee/246ccb60-7635-46fa-a222-6f4261e826ee.json',
);
const missingX = missingDemoPrograms().filter((p) =>
  ['Xvfb', 'openbox', 'xdotool', 'xterm', 'sqlite3', 'dbus-daemon'].includes(p),
);
const noRedis = hasRedisServer ? '' : ' (skipped: no redis-server)';

async function call(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (l) => (out += l + '\n'), err: (l) => (err += l + '\n') });
  return { code, out, err };
}

const root = mkdtempSync(join(tmpdir(), 'proctor-run-plan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const downloads = join(root, 'downloads');
const retrieval = join(root, 'docs.md');

/** Every setting of the original run: its flags, and where a resumed or queued task's options hold it. */
const settings: {
  flags: string[];
  name: string;
  read: (o: RunOptions, task: Task) => unknown;
  expected: unknown;
  queue?: false;
}[] = [
  { name: 'agent', flags: ['--agent', 'llm'], read: (o) => o.agentName ?? o.agent, expected: 'llm' },
  { name: 'model', flags: ['--model', 'planned-model'], read: (o) => o.model, expected: 'planned-model' },
  {
    name: 'base-url',
    flags: ['--base-url', 'http://127.0.0.1:9/v1'],
    read: (o) => o.agentOptions?.baseUrl,
    expected: 'http://127.0.0.1:9/v1',
  },
  {
    name: 'observation',
    flags: ['--observation', 'a11y_tree'],
    read: (o, t) => taskSettings(t, o).observation,
    expected: 'a11y_tree',
  },
  {
    name: 'action-space',
    flags: ['--action-space', 'computer_13'],
    read: (o, t) => taskSettings(t, o).actionSpace,
    expected: 'computer_13',
  },
  {
    name: 'max-steps',
    flags: ['--max-steps', '7'],
    read: (o, t) => taskSettings(t, o).maxSteps,
    expected: 7,
  },
  {
    name: 'task-timeout',
    flags: ['--task-timeout', '60'],
    read: (o, t) => taskSettings(t, o).timeoutMs,
    expected: 60_000,
  },
  {
    name: 'screen',
    flags: ['--screen', '1024x768'],
    read: (o, t) => taskSettings(t, o).screen,
    expected: { width: 1024, height: 768 },
  },
  { name: 'env', flags: ['--env', 'local'], read: (o) => o.env, expected: 'local', queue: false }, // a job's env: below
  {
    name: 'downloads',
    flags: ['--downloads', downloads],
    read: (o, t) => [taskSettings(t, o).downloads, o.agentOptions?.downloads],
    expected: [downloads, downloads],
  },
  {
    name: 'grading-profile',
    flags: ['--grading-profile', 'spider2v'],
    read: (o) => o.gradingProfile,
    expected: 'spider2v',
  },
  {
    name: 'max-refusals',
    flags: ['--max-refusals', '2'],
    read: (o, t) => taskSettings(t, o).maxRefusals,
    expected: 2,
  },
  {
    name: 'price',
    flags: ['--price', 'planned-model=1,2'],
    read: (o, t) => taskSettings(t, o).prices?.['planned-model'],
    expected: { input: 1, output: 2 },
  },
  {
    name: 'allow-unisolated',
    flags: ['--allow-unisolated'],
    read: (o) => o.allowUnisolated,
    expected: true,
    queue: false,
  }, // a worker's own flag
  { name: 'parallel', flags: ['--parallel', '3'], read: (o) => o.parallel, expected: 3, queue: false }, // a worker's --slots
  {
    name: 'temperature',
    flags: ['--temperature', '0.1'],
    read: (o) => o.agentOptions?.sampling?.temperature,
    expected: 0.1,
  },
  { name: 'top-p', flags: ['--top-p', '0.8'], read: (o) => o.agentOptions?.sampling?.topP, expected: 0.8 },
  {
    name: 'max-tokens',
    flags: ['--max-tokens', '99'],
    read: (o) => o.agentOptions?.sampling?.maxTokens,
    expected: 99,
  },
  { name: 'history', flags: ['--history', '1'], read: (o) => o.agentOptions?.historyWindow, expected: 1 },
  {
    name: 'no-history-images',
    flags: ['--no-history-images'],
    read: (o) => o.agentOptions?.historyImages,
    expected: false,
  },
  {
    name: 'no-feedback',
    flags: ['--no-feedback'],
    read: (o) => o.agentOptions?.executionFeedback,
    expected: false,
  },
  {
    name: 'retrieval',
    flags: [`--retrieval=${retrieval}`],
    read: (o) => o.agentOptions?.retrieval,
    expected: retrieval,
  },
  {
    name: 'max-image-width',
    flags: ['--max-image-width', '640'],
    read: (o) => o.agentOptions?.image?.maxWidth,
    expected: 640,
  },
  {
    name: 'image-format',
    flags: ['--image-format', 'jpeg'],
    read: (o) => o.agentOptions?.image?.format,
    expected: 'jpeg',
  },
];

describe.skipIf(!hasRedisServer)(`a resumed or queued run has the settings of the original${noRedis}`, () => {
  let redis: TestRedis;
  let queue: Queue;
  let task: Task;
  let runDir: string;
  /** What a resume of the run would run with (the CLI's reading of the run, then the scheduler's). */
  let resumed: RunOptions;
  /** What each queued job's task runs with on a worker. */
  let queued: RunOptions[];
  const workers: QueueWorker[] = [];

  beforeAll(async () => {
    redis = await TestRedis.start();
    queue = new Queue(QUEUE_NAME, { connection: parseQueueUrl(redis.url).options });
    mkdirSync(downloads);
    writeFileSync(retrieval, '# docs\n');
    writeAnswerTask(join(root, 'tasks'), 'a');
    const r = await call([
      'run',
      join(root, 'tasks/cli/a'),
      '--queue',
      redis.url,
      '--name',
      'planned',
      '--out',
      join(root, 'results'),
      '--repeats',
      '2',
      ...settings.flatMap((s) => s.flags),
    ]);
    expect(r.code, r.err).toBe(0);
    runDir = join(root, 'results/planned');
    task = (await (await defaultParts()).loadTasks([join(root, 'tasks/cli/a')])).tasks[0];
    const flags = parseRunArgs(['--resume', runDir]);
    resumed = optionsForResume(readManifest(runDir), readRunPlan(runDir), {
      ...resumedRunOptions(runDir, flags),
      agentOptions: resumedAgentOptions(runDir, flags).options,
    });
    const jobs = (await queue.getJobs(['waiting'])).filter((j) => j.data.runId === 'planned');
    queued = jobs.map((j) =>
      jobRunOptions(readJobData(j.data), readRunPlan(runDir), readManifest(runDir).prices),
    );
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) await w.close({ now: true });
    await queue?.close();
    await redis?.dispose();
  });

  it("stores the plan beside the manifest, without the base URL's password or any key", () => {
    const plan = JSON.parse(readFileSync(join(runDir, RUN_PLAN_FILE), 'utf8')) as Record<string, unknown>;
    expect(plan).toMatchObject({ v: 1, agent: 'llm', gradingProfile: 'spider2v', repeats: 2, downloads });
  });

  it('--repeats survives --resume (the manifest lists the attempts) and --queue (one job per attempt)', () => {
    expect(readManifest(runDir).tasks).toEqual(['cli/a#1', 'cli/a#2']);
    expect(queued).toHaveLength(2);
  });

  for (const s of settings) {
    it(`--${s.name} survives --resume`, () => {
      expect(s.read(resumed, task)).toEqual(s.expected);
    });
    if (s.queue !== false)
      it(`--${s.name} survives --queue`, () => {
        for (const o of queued) expect(s.read(o, task)).toEqual(s.expected);
      });
  }

  it('--env survives --queue (the job carries it, secrets dropped)', async () => {
    const jobs = (await queue.getJobs(['waiting'])).filter((j) => j.data.runId === 'planned');
    for (const j of jobs) expect(readJobData(j.data).env).toBe('local');
  });

  it('an option given with --resume replaces the stored one', () => {
    const flags = parseRunArgs([
      '--resume',
      runDir,
      '--grading-profile',
      'osworld',
      '--temperature',
      '0.3',
      '--parallel',
      '1',
    ]);
    const o = optionsForResume(readManifest(runDir), readRunPlan(runDir), {
      ...resumedRunOptions(runDir, flags),
      agentOptions: resumedAgentOptions(runDir, flags).options,
    });
    expect([o.gradingProfile, o.agentOptions?.sampling, o.parallel]).toEqual([
      'osworld',
      { temperature: 0.3, topP: 0.8, maxTokens: 99 },
      1,
    ]);
  });

  it('keeps the stored command line in the `--name value` form (`--retrieval=FILE` as given)', async () => {
    const r = await call([
      'run',
      join(root, 'tasks/cli/a'),
      '--queue',
      redis.url,
      '--name',
      'argv-form',
      '--out',
      join(root, 'results'),
      '--grading-profile=osworld',
      `--downloads=${downloads}`,
      '--agent=llm',
      `--retrieval=${retrieval}`,
    ]);
    expect(r.code, r.err).toBe(0);
    const args = readManifest(join(root, 'results/argv-form')).args;
    expect(args).toEqual([
      'run',
      join(root, 'tasks/cli/a'),
      '--queue',
      redis.url,
      '--name',
      'argv-form',
      '--out',
      join(root, 'results'),
      '--grading-profile',
      'osworld',
      '--downloads',
      downloads,
      '--agent',
      'llm',
      `--retrieval=${retrieval}`,
    ]);
  });

  it('a queue worker grades under the original --grading-profile', async () => {
    writeAnswerTask(join(root, 'tasks'), 'b');
    const r = await call([
      'run',
      join(root, 'tasks/cli/b'),
      '--queue',
      redis.url,
      '--name',
      'graded',
      '--out',
      join(root, 'results'),
      '--grading-profile',
      'spider2v',
    ]);
    expect(r.code, r.err).toBe(0);
    const current: { env?: Environment } = {};
    const agent = (t: Task): Agent => ({
      name: 'writer',
      async start() {},
      async next(_obs, step): Promise<AgentTurn> {
        if (step === 1) {
          await current.env!.putFile('/home/user/answer.txt', Buffer.from(`answer of ${t.id}\n`));
          return { response: 'wrote the file', actions: [] };
        }
        return { response: 'DONE', actions: [{ type: 'DONE' }] };
      },
    });
    const w = await startQueueWorker({
      queue: redis.url,
      stallMs: 5000,
      agent,
      parts: {
        createEnvironment: async (req) => (current.env = await createShellEnvironment({ home: req.home })),
      },
    });
    workers.push(w);
    const end = Date.now() + 60_000;
    const file = join(root, 'results/graded/pyautogui/screenshot/oracle/cli/b/verdicts.jsonl');
    let profiles: unknown[] = [];
    while (Date.now() < end) {
      try {
        profiles = readJsonLines<{ kind: string; profile?: string }>(file)
          .values.filter((v) => v.kind === 'rule')
          .map((v) => v.profile);
      } catch {
        // not written yet
      }
      if (profiles.length) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(profiles).toEqual(['spider2v']);
  }, 90_000);
});

describe('a run written before plans were stored', () => {
  it('resumes with the settings its stored command line gives (grading profile, downloads, agent options)', () => {
    const dir = join(root, 'old-run');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        runId: 'old',
        agent: 'llm',
        model: 'm',
        observation: 'screenshot',
        actionSpace: 'pyautogui',
        maxSteps: 15,
        taskTimeoutMs: 900000,
        args: [
          'run',
          'tasks/',
          '--agent',
          'llm',
          '--model',
          'm',
          '--grading-profile',
          'osworld',
          '--downloads',
          '/srv/dl',
          '--parallel',
          '2',
          '--history',
          '4',
        ],
        tasks: [],
      }),
    );
    expect(storedRunSettings(dir)).toMatchObject({
      source: 'args',
      gradingProfile: 'osworld',
      downloads: '/srv/dl',
      parallel: 2,
      agentOptions: { historyWindow: 4 },
    });
    const flags = parseRunArgs(['--resume', dir]);
    const o = optionsForResume(readManifest(dir), readRunPlan(dir), {
      ...resumedRunOptions(dir, flags),
      agentOptions: resumedAgentOptions(dir, flags).options,
    });
    expect([o.gradingProfile, o.downloads, o.parallel, o.agentOptions?.historyWindow]).toEqual([
      'osworld',
      '/srv/dl',
      2,
      4,
    ]);
  });

  it('names the file and the field of a damaged run-plan.json', () => {
    const dir = join(root, 'damaged-run');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, RUN_PLAN_FILE),
      JSON.stringify({
        v: 1,
        agent: 'noop',
        agentOptions: {},
        observation: 'smell',
        actionSpace: 'pyautogui',
        maxSteps: 3,
        taskTimeoutMs: 1,
        repeats: 1,
      }),
    );
    expect(() => readRunPlan(dir)).toThrow(`${join(dir, RUN_PLAN_FILE)}: /observation: one of`);
  });
});

describe.skipIf(missingX.length > 0)(
  `a real resume${missingX.length ? ` (skipped: ${missingX.join(', ')} not installed)` : ''}`,
  () => {
    it('grades the redone task under the original --grading-profile', async () => {
      const out = join(root, 'real');
      const first = await call([
        'run',
        demoTask,
        '--agent',
        'noop',
        '--grading-profile',
        'spider2v',
        '--max-steps',
        '1',
        '--screen',
        '1024x768',
        '--out',
        out,
        '--json',
      ]);
      expect(first.code, first.err).toBe(0);
      const { runDir } = JSON.parse(first.out) as { runDir: string };
      const taskDir = join(runDir, 'pyautogui/screenshot/noop/terminal/246ccb60-7635-46fa-a222-6f4261e826ee');
      unlinkSync(join(taskDir, 'summary.json')); // unfinished: a resume redoes it
      const again = await call(['run', '--resume', runDir, '--json']);
      expect(again.code, again.err).toBe(0);
      const verdicts = readJsonLines<{ kind: string; profile?: string }>(
        join(taskDir, 'verdicts.jsonl'),
      ).values.filter((v) => v.kind === 'rule');
      expect(verdicts.map((v) => v.profile)).toEqual(['spider2v']);
      const steps = readFileSync(join(taskDir, 'steps.jsonl'), 'utf8');
      expect(steps).toMatch(/"screen":\{"width":1024,"height":768\}/);
    }, 120_000);
  },
);
