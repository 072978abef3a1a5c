// The `llm` agent through the whole run, end to end: a bundled demo task on a real sandbox display, the model
// replaced by the scripted OpenAI-compatible stand-in (the one thing tests may replace). The script refuses a
// hostile reply and a malformed one, answers a 429 with Retry-After, then plays the task's own oracle steps.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readOracle } from '../agents/oracle';
import {
  requestImages,
  requestText,
  startScriptedOpenAIStandin,
  type ScriptedOpenAIStandin,
  type StandinRequest,
} from '../agents/testing/scripted-openai-standin';
import { readJsonLines } from '../store/files';
import { taskDirFor, taskKeyOf } from '../store/layout';
import { readTaskTrajectory } from '../store/reader';
import { onPath } from '../tasks/needs';
import { defaultParts } from './parts';
import { runTasks } from './scheduler';

const projectRoot = resolve(__dirname, '../../..');
// The terminal task (abstract form): xterm + sqlite3, graded by compare_csv; its oracle takes four turns.
const taskFile = join(
  projectRoot,
  'resources/demo/terminal/246ccb60-7635-46fa-a222-6f4261e826ee/246ccb60-7635-46fa-a222-6f4261e826ee.json',
);

const needed = ['Xvfb', 'openbox', 'xdotool', 'xterm', 'sqlite3', 'dbus-daemon'];
const missing = needed.filter((p) => !onPath(p));
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';

const KEY = 'sk-proctor-llm-run-KEY-51c0ffee9d';
const SCREEN = { width: 1280, height: 800 };
// The model sees the screen at half size; its coordinates are mapped back (×2) before they are performed.
const IMAGE_WIDTH = 640;

/** Halves the pixel coordinates of pyautogui calls: the oracle's screen pixels → pixels of the image the model saw. */
function toImagePixels(code: string): string {
  return code.replace(
    /pyautogui\.(click|moveTo|doubleClick|rightClick)\((\d+), (\d+)\)/g,
    (_, f: string, x: string, y: string) => `pyautogui.${f}(${Number(x) / 2}, ${Number(y) / 2})`,
  );
}

/** Text of the last message of a request: what the model was told at this step (feedback + observation). */
function currentText(request: StandinRequest): string {
  const last = request.body!.messages.at(-1)!;
  return requestText({ ...request, body: { messages: [last] } });
}

/** Every file below `dir`. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

describe('a run of the llm agent against the scripted stand-in on a bundled task', () => {
  let standin: ScriptedOpenAIStandin | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await standin?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it.skipIf(missing.length > 0)(
    `refuses the hostile and the malformed reply, retries the 429, feeds the refusals back, finishes with score 1, keeps the key out${why}`,
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'proctor-llm-run-'));
      dirs.push(out);
      const canary = join(out, 'hostile-was-run');
      const { tasks, problems } = await (await defaultParts()).loadTasks([taskFile]);
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(tasks).toHaveLength(1);
      const task = tasks[0];
      const oracle = readOracle(join(task.dir, 'oracle.json'));
      expect(oracle.steps.at(-1)).toBe('DONE');
      const oracleTurns = (oracle.steps.slice(0, -1) as string[]).map(
        (code, i) => `Step ${i + 1} of my plan.\n\`\`\`python\n${toImagePixels(code)}\n\`\`\``,
      );

      const hostile = `I will do it faster with the shell.\n\`\`\`python\nimport subprocess\nsubprocess.run(['touch', '${canary}'])\n\`\`\``;
      const malformed = 'Now the terminal.\n```python\npyautogui.click(100, 75\n```';
      const usage = (p: number) => ({ prompt_tokens: p, completion_tokens: 10 + p / 100 });
      standin = await startScriptedOpenAIStandin([
        { kind: 'status', status: 429, retryAfter: '1', message: 'slow down' },
        { kind: 'text', content: hostile, usage: usage(1000) },
        { kind: 'text', content: malformed, usage: usage(1100) },
        ...oracleTurns.map((content, i) => ({
          kind: 'text' as const,
          content,
          usage: usage(1200 + 100 * i),
        })),
        { kind: 'text', content: 'The file is written.\n```\nDONE\n```', usage: usage(2000) },
      ]);
      const scripted = standin.remaining();
      const logs: string[] = [];

      const outcome = await runTasks(tasks, {
        agent: 'llm',
        model: 'standin-vlm',
        agentOptions: {
          baseUrl: standin.baseUrl,
          apiKey: KEY,
          env: { PROCTOR_CONFIG: join(out, 'no-config.json') },
          retry: { baseDelayMs: 20, maxDelayMs: 200, timeoutMs: 60_000 },
          image: { maxWidth: IMAGE_WIDTH },
          log: (line) => logs.push(line),
        },
        outDir: join(out, 'results'),
        args: ['run', taskFile, '--agent', 'llm', '--model', 'standin-vlm'],
        maxSteps: 10,
        taskTimeoutMs: 120_000,
        screen: SCREEN,
      });

      // The task ran to DONE and its own evaluator gave it 1; every scripted reply was used.
      const key = taskKeyOf(task);
      expect(
        outcome.tasks.map((t) => ({ key: t.key, state: t.state, score: t.score, error: t.error })),
      ).toEqual([{ key, state: 'success', score: 1, error: undefined }]);
      expect(standin.remaining()).toBe(0);
      const reqs = standin.requests;
      expect(reqs).toHaveLength(scripted);

      // The 429 was retried with the same request after the server's Retry-After (1 s), not the 20 ms backoff.
      expect(reqs[0].body).toEqual(reqs[1].body);
      expect(reqs[1].at - reqs[0].at).toBeGreaterThanOrEqual(950);
      expect(logs.join('\n')).toMatch(/429/);

      // The stored trajectory: steps.jsonl (Proctor's) and traj.jsonl (OSWorld's).
      const traj = readTaskTrajectory(outcome.runDir, key);
      const steps = traj.steps;
      const turns = oracleTurns.length;
      expect(steps.map((s) => s.step)).toEqual(Array.from({ length: 3 + turns }, (_, i) => i + 1));
      expect(steps.map((s) => s.response)).toEqual([
        hostile,
        malformed,
        ...oracleTurns,
        'The file is written.\n```\nDONE\n```',
      ]);
      // Refused steps performed nothing and carry the refusal as feedback.
      for (const s of steps.slice(0, 2)) {
        expect(s.actions).toEqual([]);
        expect(s.feedback).toBeTruthy();
      }
      expect(steps[0].feedback).toMatch(/subprocess|import/);
      expect(existsSync(canary)).toBe(false);
      // The accepted steps carry no feedback; the click was mapped back from image to screen pixels.
      for (const s of steps.slice(2)) expect(s.feedback).toBeUndefined();
      expect(steps[2].actions[0]).toMatchObject({ type: 'click', x: 200, y: 150 });
      expect(steps.at(-1)).toMatchObject({ actions: [{ type: 'DONE' }], done: true });
      expect(steps.map((s) => s.tokens)).toEqual(
        reqs.slice(1).map((_, i) => {
          const p = [1000, 1100, ...oracleTurns.map((__, j) => 1200 + 100 * j), 2000][i];
          return { prompt: p, completion: 10 + p / 100 };
        }),
      );
      // Each step kept the screenshot the agent saw, and the screen after it.
      for (const s of steps) {
        expect(existsSync(join(outcome.runDir, s.observation!))).toBe(true);
        expect(existsSync(join(outcome.runDir, s.screenshot!))).toBe(true);
      }
      expect(traj.verdicts).toMatchObject([{ kind: 'rule', score: 1 }]);

      const taskDir = join(
        outcome.runDir,
        taskDirFor(
          { actionSpace: 'pyautogui', observation: 'screenshot', model: 'standin-vlm', agent: 'llm' },
          task.domain,
          task.id,
        ),
      );
      const osworld = readJsonLines<{
        step_num: number;
        action: unknown;
        response: string;
        done: boolean;
        info: { feedback?: string };
      }>(join(taskDir, 'traj.jsonl')).values;
      expect(osworld.map((l) => l.step_num)).toEqual(steps.map((s) => s.step));
      expect(osworld.slice(0, 2).map((l) => l.info.feedback)).toEqual([steps[0].feedback, steps[1].feedback]);
      expect(osworld[2].action).toBe(toImagePixels(oracle.steps[0] as string));
      expect(osworld.at(-1)!.done).toBe(true);
      const summary = JSON.parse(readFileSync(join(taskDir, 'summary.json'), 'utf8')) as {
        results: Record<string, unknown>;
      };
      const tokenSum = steps.reduce((n, s) => n + s.tokens!.prompt + s.tokens!.completion, 0);
      expect(summary.results).toMatchObject({
        score: 1,
        state: 'success',
        eval_error: null,
        total_tokens: tokenSum,
      });
      expect(readFileSync(join(taskDir, 'result.txt'), 'utf8').trim()).toBe('1');
      // Each picture is stored once (a repeated one is referenced, or hard-linked under its OSWorld step name).
      const pictures = [...new Set(steps.flatMap((s) => [s.observation!, s.screenshot!]))].map((p) =>
        join(outcome.runDir, p),
      );
      const inodes = new Set(pictures.map((p) => `${statSync(p).dev}:${statSync(p).ino}`));
      expect(inodes.size).toBe(new Set(pictures.map((p) => readFileSync(p).toString('base64'))).size);
      expect(inodes.size).toBeLessThan(2 * steps.length);

      // Execution feedback: each refusal is told to the model in the NEXT request, and none before it.
      const asked = reqs.slice(1); // one answered request per step
      expect(currentText(asked[0])).not.toContain('FEEDBACK');
      expect(currentText(asked[1])).toContain('FEEDBACK ON YOUR LAST ACTIONS');
      expect(currentText(asked[1])).toContain(`step 1: refused — ${steps[0].feedback}`);
      expect(currentText(asked[1])).not.toContain('step 2:');
      expect(currentText(asked[2])).toContain(`step 2: refused — ${steps[1].feedback}`);
      // The model's own earlier replies are in its history (window 3).
      expect(asked[2].body!.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([
        hostile,
        malformed,
      ]);

      // Images went as data URLs of the downscaled screen: the current one last, past ones of the window before it.
      for (const [i, r] of asked.entries()) {
        const images = requestImages(r);
        expect(images).toHaveLength(1 + Math.min(i, 3));
        for (const url of images) expect(url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
      }
      const first = Buffer.from(requestImages(asked[0])[0].split(',')[1], 'base64');
      expect(await sharp(first).metadata()).toMatchObject({
        width: IMAGE_WIDTH,
        height: (IMAGE_WIDTH * SCREEN.height) / SCREEN.width,
      });
      expect(requestText(asked[0])).toContain(task.instruction.split('\n')[0]);

      // The key was sent (as the bearer token) and is nowhere in the run folder, the requests' bodies or the log.
      expect(reqs.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
      expect(reqs.some((r) => r.rawBody.includes(KEY))).toBe(false);
      expect(logs.join('\n')).not.toContain(KEY);
      const stored = filesUnder(outcome.runDir);
      expect(stored.length).toBeGreaterThan(2 * steps.length);
      for (const f of stored) expect(readFileSync(f).includes(KEY), f).toBe(false);
    },
    240_000,
  );
});
