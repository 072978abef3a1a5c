// Failure attribution and cost through the real step loop and store: every way an attempt ends gets its one
// cause in summary.json and on the reader's item. Test doubles stand for what breaks (a setup step, the
// environment, the model's API, an evaluator); tasks run on the real shell environment with real grading.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AttemptCause, RuleVerdict } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Agent, AgentTurn } from '../agents/agent';
import {
  startScriptedOpenAIStandin,
  type ScriptedOpenAIStandin,
} from '../agents/testing/scripted-openai-standin';
import { EnvironmentError, NeedsAccountError } from '../errors';
import type { Environment } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { causeOf, foreignCauseOf, gradingFailed } from '../store/attempt-cause';
import { readRun } from '../store/reader';
import type { RunManifest } from '../store/layout';
import { defaultParts, type RunnerParts } from './parts';
import { parsePriceFlag } from './pricing';
import { runTasks, type RunOptions } from './scheduler';
import { writeAnswerTask } from './testing/answer-task';

/** A native task graded by compare_text_file on /home/user/answer.txt against gold.txt. */
const writeTask = (root: string, id: string): void =>
  writeAnswerTask(root, id, { tags: ['cli', 'abstract'] });

async function oneTask(): Promise<{ root: string; tasks: Task[] }> {
  const root = mkdtempSync(join(tmpdir(), 'proctor-cause-'));
  writeTask(root, 't');
  const { tasks } = await (await defaultParts()).loadTasks([root]);
  return { root, tasks };
}

const turn = (type: 'DONE' | 'FAIL' | 'WAIT'): AgentTurn => ({ response: type, actions: [{ type }] });

/** An agent that writes the answer (right or wrong, or nothing) through the environment, then ends with `end`. */
function writer(
  envRef: { env?: Environment },
  answer: string | undefined,
  end: 'DONE' | 'FAIL' = 'DONE',
): () => Agent {
  return () => ({
    name: 'writer',
    async start() {},
    async next(_o, step) {
      if (step === 1 && answer !== undefined) {
        await envRef.env!.putFile('/home/user/answer.txt', Buffer.from(answer));
        return turn('WAIT');
      }
      return turn(end);
    },
  });
}

/** The shell environment, remembered for the agent; `wrap` may replace its methods (a test double). */
function shellEnv(
  envRef: { env?: Environment },
  wrap?: (env: Environment) => Partial<Environment>,
): Partial<RunnerParts> {
  return {
    async createEnvironment(r) {
      const real = await createShellEnvironment({ home: r.home });
      const over = wrap?.(real) ?? {};
      envRef.env = new Proxy(real, {
        get: (t, k, rcv) => (k in over ? over[k as keyof Environment] : Reflect.get(t, k, rcv)),
      });
      return envRef.env;
    },
  };
}

async function runOne(opts: Omit<RunOptions, 'outDir'>) {
  const { root, tasks } = await oneTask();
  const outcome = await runTasks(tasks, {
    agentName: 'test',
    waitMs: 1,
    ...opts,
    outDir: join(root, 'results'),
  });
  const item = readRun(outcome.runDir).tasks[0];
  const dir = (JSON.parse(readFileSync(join(outcome.runDir, 'manifest.json'), 'utf8')) as RunManifest)
    .taskInfo!['cli/t'].dir;
  const summary = JSON.parse(readFileSync(join(outcome.runDir, dir, 'summary.json'), 'utf8')) as {
    results: Record<string, unknown>;
  };
  expect(summary.results.cause).toBe(item.cause); // stored, and read back as stored
  return { outcome, item, summary };
}

describe('every attempt ends with one cause', () => {
  it('success: the right answer after DONE; agent_failure: a wrong answer, no file at all, or FAIL on a feasible task', async () => {
    for (const [answer, end, cause] of [
      ['answer of t\n', 'DONE', 'success'],
      ['nope\n', 'DONE', 'agent_failure'],
      [undefined, 'DONE', 'agent_failure'], // "result file does not exist" is the agent's miss, not grading's
      [undefined, 'FAIL', 'agent_failure'],
    ] as const) {
      const env: { env?: Environment } = {};
      const { item } = await runOne({ agent: writer(env, answer, end), parts: shellEnv(env) });
      expect([answer, end, item.state, item.cause]).toEqual([answer, end, 'success', cause]);
    }
  });

  it('step_limit: no DONE within --max-steps', async () => {
    const { item } = await runOne({
      agent: () => ({ name: 'waiter', async start() {}, next: async () => turn('WAIT') }),
      parts: shellEnv({}),
      maxSteps: 3,
    });
    expect(item).toMatchObject({ state: 'max_steps_error', cause: 'step_limit', steps: 3 });
  });

  it('env_error: a setup step failing (a double of the setup part)', async () => {
    const env: { env?: Environment } = {};
    const { item } = await runOne({
      agent: writer(env, 'answer of t\n'),
      parts: {
        ...shellEnv(env),
        runSetup: async () => Promise.reject(new Error('/config/0: launch: gedit did not start')),
      },
    });
    expect(item).toMatchObject({
      state: 'setup_error',
      cause: 'env_error',
      error: expect.stringMatching(/gedit did not start/),
    });
  });

  it('env_error: the environment killed in the middle of a step (a double whose perform dies)', async () => {
    const env: { env?: Environment } = {};
    const dying = () => ({
      name: 'clicker',
      async start() {},
      next: async (): Promise<AgentTurn> => ({ response: 'click', actions: [{ type: 'click', x: 5, y: 5 }] }),
    });
    const { item } = await runOne({
      agent: dying,
      parts: shellEnv(env, () => ({
        perform: () => Promise.reject(new EnvironmentError('the sandbox display died (killed)')),
      })),
    });
    expect(item).toMatchObject({
      state: 'env_error',
      cause: 'env_error',
      error: expect.stringMatching(/performing step 1: the sandbox display died/),
    });
  });

  it('env_error: the time limit striking in the environment; agent_error: striking while the agent is asked', async () => {
    const hangingSetup = await runOne({
      agent: writer({}, undefined),
      parts: { ...shellEnv({}), runSetup: () => new Promise<void>(() => undefined) },
      taskTimeoutMs: 300,
    });
    expect(hangingSetup.item).toMatchObject({ state: 'timed_out', cause: 'env_error' });
    const hangingAgent = await runOne({
      agent: () => ({
        name: 'sleeper',
        async start() {},
        next: () => new Promise<AgentTurn>(() => undefined),
      }),
      parts: shellEnv({}),
      taskTimeoutMs: 300,
    });
    expect(hangingAgent.item).toMatchObject({ state: 'timed_out', cause: 'agent_error' });
  });

  it('grading_error: an evaluator throwing, or a check needing an account; the time limit striking in grading', async () => {
    const env: { env?: Environment } = {};
    const thrown = await runOne({
      agent: writer(env, 'answer of t\n'),
      parts: {
        ...shellEnv(env),
        grade: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'sheet')")),
      },
    });
    expect(thrown.item).toMatchObject({
      state: 'success',
      score: 0,
      cause: 'grading_error',
      error: expect.stringMatching(/grading failed: Cannot read/),
    });
    const account = await runOne({
      agent: writer(env, 'answer of t\n'),
      parts: {
        ...shellEnv(env),
        grade: () => Promise.reject(new NeedsAccountError('googledrive', 'getter googledrive_file')),
      },
    });
    expect(account.item.cause).toBe('grading_error');
    const slow = await runOne({
      agent: writer(env, 'answer of t\n'),
      parts: { ...shellEnv(env), grade: () => new Promise<RuleVerdict>(() => undefined) },
      taskTimeoutMs: 1500,
    });
    expect(slow.item).toMatchObject({ state: 'timed_out', cause: 'grading_error' });
  });

  describe('through the llm agent against the scripted OpenAI-compatible stand-in', () => {
    let standin: ScriptedOpenAIStandin | undefined;
    afterAll(async () => standin?.close());
    const llm = async (model: string, extra: Partial<RunOptions> = {}) => {
      const root = mkdtempSync(join(tmpdir(), 'proctor-cause-llm-'));
      return runOne({
        agent: 'llm',
        model,
        observation: 'a11y_tree', // the shell environment has no screen
        agentOptions: {
          baseUrl: standin!.baseUrl,
          apiKey: 'sk-test-attribution',
          env: { PROCTOR_CONFIG: join(root, 'none.json') },
          retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10, timeoutMs: 10_000 },
        },
        parts: shellEnv({}),
        allowUnisolated: true,
        ...extra,
      });
    };

    it("agent_error: the model's API failing after its retries", async () => {
      standin = await startScriptedOpenAIStandin([
        { kind: 'status', status: 500, message: 'upstream down' },
        { kind: 'status', status: 503, message: 'still down' },
      ]);
      const { item } = await llm('standin');
      expect(item).toMatchObject({
        state: 'agent_error',
        cause: 'agent_error',
        error: expect.stringMatching(/HTTP 503/),
      });
      expect(standin.remaining()).toBe(0);
    });

    it('agent_error: replies refused --max-refusals times in a row (and not one before)', async () => {
      const bad = {
        kind: 'text' as const,
        content: 'pyautogui.click(1, 2',
        usage: { prompt_tokens: 10, completion_tokens: 5 },
      };
      await standin?.close();
      standin = await startScriptedOpenAIStandin([
        bad,
        bad,
        { kind: 'text', content: '```\nWAIT\n```' },
        bad,
        bad,
        bad,
        { kind: 'text', content: '```\nDONE\n```' },
      ]);
      const { item } = await llm('standin', { maxRefusals: 3 });
      expect(item).toMatchObject({
        state: 'agent_error',
        cause: 'agent_error',
        steps: 6,
        error: expect.stringMatching(/refused 3 times in a row/),
      });
    });

    it('records tokens in and out and prices them: the bundled table for a known model, --price over it', async () => {
      const usage = { prompt_tokens: 1000, completion_tokens: 200 };
      await standin?.close();
      standin = await startScriptedOpenAIStandin([
        { kind: 'text', content: '```\nWAIT\n```', usage },
        { kind: 'text', content: '```\nDONE\n```', usage },
      ]);
      const listed = await llm('gpt-4o-2024-08-06'); // resources/pricing.json: gpt-4o* 2.5 in, 10 out
      expect(listed.item.cause).toBe('agent_failure');
      expect(listed.item.cost).toMatchObject({ tokensIn: 2000, tokensOut: 400 });
      expect(listed.item.cost!.usd).toBeCloseTo((2000 * 2.5 + 400 * 10) / 1e6, 10);
      expect(listed.item.cost!.wallMs).toBeGreaterThanOrEqual(listed.item.cost!.envMs!);
      standin.push({ kind: 'text', content: '```\nDONE\n```', usage });
      const [model, price] = parsePriceFlag('gpt-4o-2024-08-06=1,4');
      const priced = await llm(model, { prices: { [model]: price } });
      expect(priced.item.cost!.usd).toBeCloseTo((1000 * 1 + 200 * 4) / 1e6, 10);
      expect(JSON.parse(readFileSync(join(priced.outcome.runDir, 'manifest.json'), 'utf8')).prices).toEqual({
        [model]: { input: 1, output: 4 },
      });
      standin.push({ kind: 'text', content: '```\nDONE\n```', usage });
      const unknown = (await llm('a-model-nobody-prices')).item.cost!;
      expect(unknown).toMatchObject({ tokensIn: 1000, tokensOut: 200 });
      expect('usd' in unknown).toBe(false); // never a guess
    });
  });

  it('an agent without a model costs nothing; environment time is counted apart from the agent', async () => {
    const slowAgent = () => ({
      name: 'thinker',
      async start() {},
      next: async () => (await new Promise((r) => setTimeout(r, 300)), turn('DONE')),
    });
    const { item, summary } = await runOne({ agent: slowAgent, parts: shellEnv({}) });
    expect(item.cost).toMatchObject({ tokensIn: 0, tokensOut: 0, usd: 0 });
    expect(item.cost!.wallMs! - item.cost!.envMs!).toBeGreaterThanOrEqual(290); // the agent's 300 ms are not the environment's
    expect(summary.results.cost).toEqual(item.cost);
  });
});

describe('the cause rules', () => {
  it('score > 0 is success even after the step limit; a grading failure outranks the step limit', () => {
    expect(causeOf({ state: 'max_steps_error', score: 0.5 })).toBe('success');
    expect(
      causeOf({
        state: 'max_steps_error',
        score: 0,
        verdict: {
          error: 'x: metric m failed: boom',
          metrics: [{ metric: 'm', score: 0, error: 'x: metric m failed: boom' }],
        },
      }),
    ).toBe('grading_error');
    expect(causeOf({ state: 'cancelled' })).toBeUndefined();
    expect(causeOf({ state: 'skipped' })).toBe('env_error');
  });

  it('a result file the agent never wrote is its failure; a getter or metric that threw is grading', () => {
    const missing = {
      error: 'result file does not exist (vm_file a.xlsx)',
      metrics: [{ metric: 'compare_table', score: 0, error: 'result file does not exist (vm_file a.xlsx)' }],
    };
    expect(gradingFailed(missing)).toBe(false);
    expect(
      gradingFailed({ metrics: [{ metric: 'm', score: 0, error: '/evaluator: getter failed: ENOENT' }] }),
    ).toBe(true);
    expect(gradingFailed({ metrics: [], needsAccount: ['googledrive'] })).toBe(true);
    expect(gradingFailed({ metrics: [{ metric: 'm', score: 0 }] })).toBe(false);
  });

  it('foreign error lines: the model side is agent_error, anything else env_error', () => {
    const cases: [string, AttemptCause][] = [
      ['openai.RateLimitError: Error code: 429', 'agent_error'],
      ['Error code: 400 - maximum context length is 128000 tokens', 'agent_error'],
      ['requests.exceptions.ConnectionError: HTTPConnectionPool(host=192.168.1.5, port=5000)', 'env_error'],
      ['Time limit exceeded in 3b27600c', 'env_error'],
    ];
    for (const [error, cause] of cases)
      expect([error, foreignCauseOf('env_error', undefined, error, true)]).toEqual([error, cause]);
    expect(foreignCauseOf('success', 0, undefined, false)).toBe('agent_failure');
    expect(foreignCauseOf('max_steps_error', 0, undefined, false)).toBe('step_limit');
  });
});
