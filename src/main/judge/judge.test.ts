import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { StepRecord } from '../../shared/run';
import { toPromptImage } from '../agents/image';
import {
  requestImages,
  requestText,
  startScriptedOpenAIStandin,
  type ScriptedOpenAIStandin,
  type ScriptStep,
} from '../agents/testing/scripted-openai-standin';
import { judgeTask, readScreenshot, type JudgeOptions, type StoredJudgeVerdict } from './judge';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-judge-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let standin: ScriptedOpenAIStandin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

const KEY = 'sk-judge-secret-4242';
const taskKey = 'chromium/task-1';
const clean =
  '{"reason": "The file is saved with the right name.", "sub_scores": [{"name": "file saved", "evaluation": "yes"}], "complete": "yes"}';

async function png(file: string, shade: number, width = 800, height = 450) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sharp({ create: { width, height, channels: 3, background: { r: shade, g: 255 - shade, b: 90 } } })
    .png()
    .toFile(file);
}

/** A run folder in the agreed layout, with `n` steps (screens after each step; the initial observation). */
async function writeRun(
  name: string,
  n: number,
  options: { dropFinal?: boolean; instruction?: string } = {},
): Promise<string> {
  const runDir = path.join(root, name);
  const rel = 'pyautogui/screenshot/standin/chromium/task-1';
  const taskDir = path.join(runDir, rel);
  fs.mkdirSync(taskDir, { recursive: true });
  fs.writeFileSync(
    path.join(runDir, 'manifest.json'),
    JSON.stringify({
      runId: name,
      startedAt: new Date().toISOString(),
      args: [],
      agent: 'llm',
      model: 'standin',
      actionSpace: 'pyautogui',
      observation: 'screenshot',
      proctorVersion: '0.1.0',
      machine: { host: 'h', platform: 'linux', cpus: 2 },
      tasks: [taskKey],
      taskInfo: {
        [taskKey]: {
          dir: rel,
          instruction: options.instruction ?? 'Save the page as report.html on the Desktop.',
        },
      },
    }),
  );
  const steps: StepRecord[] = [];
  for (let i = 1; i <= n; i++) {
    const shot = `${rel}/step_${i}_20260101@0000${String(i).padStart(2, '0')}.png`;
    if (!(options.dropFinal && i === n)) await png(path.join(runDir, shot), (i * 37) % 256);
    const obs = `${rel}/observations/step_${i}.png`;
    if (i === 1) await png(path.join(runDir, obs), 1);
    steps.push({
      step: i,
      at: new Date().toISOString(),
      response: `Step ${i}: I am sure the task is now COMPLETELY DONE.\n\`\`\`python\npyautogui.press('tab')\n\`\`\``,
      rawAction: "pyautogui.press('tab')",
      actions: [{ type: 'press', keys: ['tab'] }],
      observation: i === 1 ? obs : undefined,
      screenshot: shot,
    });
  }
  fs.writeFileSync(
    path.join(taskDir, 'steps.jsonl'),
    steps.map((s) => JSON.stringify(s)).join('\n') + (n ? '\n' : ''),
  );
  fs.writeFileSync(path.join(runDir, 'events.jsonl'), '');
  return runDir;
}

function options(extra: Partial<JudgeOptions> = {}): JudgeOptions {
  return {
    endpoint: {
      endpoint: { baseUrl: standin!.baseUrl, model: 'judge-model', apiKey: KEY },
      sources: { baseUrl: 'flag', model: 'flag', apiKey: 'env' },
    },
    retry: { baseDelayMs: 10, maxDelayMs: 50, timeoutMs: 600 },
    ...extra,
  };
}

function stored(runDir: string) {
  const dir = path.join(runDir, 'pyautogui/screenshot/standin/chromium/task-1');
  const lines = (f: string) =>
    fs.existsSync(path.join(dir, f))
      ? fs
          .readFileSync(path.join(dir, f), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  return {
    verdicts: lines('verdicts.jsonl') as StoredJudgeVerdict[],
    evaluationLog: lines('evaluation.log'),
  };
}

async function finalDataUrl(runDir: string, n: number) {
  const file = path.join(
    runDir,
    `pyautogui/screenshot/standin/chromium/task-1/step_${n}_20260101@0000${String(n).padStart(2, '0')}.png`,
  );
  return (await toPromptImage(await readScreenshot(file), { maxWidth: 1280, format: 'jpeg' })).dataUrl;
}

async function judgeWith(script: ScriptStep[], runDir: string, extra: Partial<JudgeOptions> = {}) {
  standin = await startScriptedOpenAIStandin(script);
  return judgeTask(runDir, taskKey, options(extra));
}

describe('the judge against the scripted stand-in', () => {
  it('stores a clean verdict in verdicts.jsonl and a UFO line in evaluation.log, with the final screenshot sent', async () => {
    const runDir = await writeRun('clean', 3);
    const { verdict, reused } = await judgeWith(
      [{ kind: 'text', content: clean, usage: { prompt_tokens: 5000, completion_tokens: 80 } }],
      runDir,
      {
        prices: { 'judge-model': { input: 1, output: 4 } },
      },
    );
    expect(reused).toBe(false);
    expect(verdict).toMatchObject({
      kind: 'judge',
      complete: 'yes',
      subScores: [{ name: 'file saved', evaluation: 'yes' }],
      model: 'judge-model',
    });
    expect(verdict.error).toBeUndefined();
    expect(verdict.tokens).toEqual({ prompt: 5000, completion: 80 });
    expect(verdict.costUsd).toBeCloseTo((5000 + 80 * 4) / 1e6, 12);
    const { verdicts, evaluationLog } = stored(runDir);
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0].complete).toBe('yes');
    expect(evaluationLog).toEqual([
      {
        reason: 'The file is saved with the right name.',
        sub_scores: [{ name: 'file saved', evaluation: 'yes' }],
        complete: 'yes',
      },
    ]);
    const images = requestImages(standin!.requests[0]);
    expect(images).toHaveLength(4); // initial screen + after steps 1, 2 + the final one
    expect(images.at(-1)).toBe(await finalDataUrl(runDir, 3));
    const text = requestText(standin!.requests[0]);
    expect(text).toContain('Save the page as report.html');
    expect(text).toContain('FINAL SCREEN');
    expect(JSON.stringify(verdicts)).not.toContain(KEY);
  });

  it('repairs a fenced verdict with prose and a trailing comma', async () => {
    const runDir = await writeRun('fenced', 2);
    const reply =
      'Here is my evaluation:\n```json\n{"reason": "Not saved.", "sub_scores": [{"name": "saved", "evaluation": "No"},], "complete": "no",}\n```';
    const { verdict } = await judgeWith([{ kind: 'text', content: reply }], runDir);
    expect(verdict).toMatchObject({ complete: 'no', subScores: [{ name: 'saved', evaluation: 'no' }] });
    expect(verdict.options.repairs).toEqual(
      expect.arrayContaining(['took the JSON out of a code fence', 'removed trailing commas']),
    );
    expect(standin!.requests).toHaveLength(1);
  });

  it('asks again after a broken reply, and sends the final screenshot in every request', async () => {
    const runDir = await writeRun('broken', 2);
    const { verdict } = await judgeWith(
      [
        { kind: 'text', content: 'I believe the task is complete: yes.' },
        {
          kind: 'text',
          content:
            '{"reason": "x", "sub_scores": [], "complete": "yes"} {"reason": "y", "sub_scores": [], "complete": "no"}',
        },
        { kind: 'text', content: clean },
      ],
      runDir,
    );
    expect(verdict.complete).toBe('yes');
    expect(verdict.options.asked).toBe(3);
    expect(standin!.requests).toHaveLength(3);
    const final = await finalDataUrl(runDir, 2);
    for (const r of standin!.requests) expect(requestImages(r)).toContain(final);
    expect(requestText(standin!.requests[1])).toContain(
      'Your answer could not be read: no JSON object found',
    );
    expect(requestText(standin!.requests[2])).toContain('2 JSON objects found');
  });

  it('records an error verdict when the replies stay unreadable', async () => {
    const runDir = await writeRun('unreadable', 1);
    const { verdict } = await judgeWith(
      [
        { kind: 'text', content: 'no' },
        { kind: 'text', content: '{"complete": "yes"}' },
      ],
      runDir,
      { reasks: 1 },
    );
    expect(verdict.complete).toBe('unsure');
    expect(verdict.error).toMatch(/unreadable judge reply after 2 tries: .*reason/);
    expect(stored(runDir).verdicts).toHaveLength(1);
  });

  it('rides out a 429 and a timeout', async () => {
    const runDir = await writeRun('flaky', 2);
    const { verdict } = await judgeWith(
      [
        { kind: 'status', status: 429, retryAfter: '0' },
        { kind: 'delay', ms: 1500 },
        { kind: 'text', content: clean },
      ],
      runDir,
    );
    expect(verdict.complete).toBe('yes');
    expect(standin!.requests).toHaveLength(3);
    const final = await finalDataUrl(runDir, 2);
    for (const r of standin!.requests) expect(requestImages(r)).toContain(final);
  });

  it('turns a model error, an empty trajectory and a missing final screenshot into verdicts with errors', async () => {
    const denied = await judgeWith(
      [{ kind: 'status', status: 401, message: `bad key ${KEY}` }],
      await writeRun('denied', 1),
    );
    expect(denied.verdict.error).toMatch(/model error: .*HTTP 401/);
    expect(denied.verdict.error).not.toContain(KEY);
    await standin!.close();

    const empty = await judgeWith([], await writeRun('empty', 0));
    expect(empty.verdict).toMatchObject({
      complete: 'unsure',
      error: expect.stringMatching(/empty trajectory/),
    });
    expect(standin!.requests).toHaveLength(0);
    await standin!.close();

    const runDir = await writeRun('nofinal', 2, { dropFinal: true });
    const missing = await judgeWith([], runDir);
    expect(missing.verdict.error).toMatch(/final screenshot missing: .*step_2_/);
    expect(standin!.requests).toHaveLength(0);
    expect(stored(runDir).verdicts[0].error).toMatch(/final screenshot missing/);
  });

  it("leaves out the agent's own words with narrative off", async () => {
    const runDir = await writeRun('nonarrative', 2);
    await judgeWith(
      [
        { kind: 'text', content: clean },
        { kind: 'text', content: clean },
      ],
      runDir,
      { narrative: false },
    );
    const without = requestText(standin!.requests[0]);
    expect(without).not.toContain('COMPLETELY DONE');
    expect(without).toContain('press(keys=["tab"])');
    await judgeWith([{ kind: 'text', content: clean }], runDir, { narrative: true });
    expect(requestText(standin!.requests[0])).toContain('COMPLETELY DONE');
  });

  it('caps the images, keeping the first and the final, downscaled', async () => {
    const runDir = await writeRun('many', 12);
    await judgeWith([{ kind: 'text', content: clean }], runDir, { maxImages: 5, imageMaxWidth: 400 });
    const images = requestImages(standin!.requests[0]);
    expect(images).toHaveLength(5);
    const finalFile = path.join(
      runDir,
      'pyautogui/screenshot/standin/chromium/task-1/step_12_20260101@000012.png',
    );
    expect(images.at(-1)).toBe(
      (await toPromptImage(await readScreenshot(finalFile), { maxWidth: 400, format: 'jpeg' })).dataUrl,
    );
    const meta = await sharp(Buffer.from(images[0].split(',')[1], 'base64')).metadata();
    expect(meta.width).toBe(400);
    expect(requestText(standin!.requests[0])).toContain('The screen before step 1');

    standin!.push({ kind: 'text', content: clean });
    await judgeTask(runDir, taskKey, options({ screenshots: 'first_last', force: true }));
    expect(requestImages(standin!.requests[1])).toHaveLength(2);
  });

  it('also judges each step with rounds, storing the rounds before the session verdict', async () => {
    const runDir = await writeRun('rounds', 2);
    const step = (ok: boolean) => ({
      kind: 'text' as const,
      content: JSON.stringify({
        reason: 'step',
        sub_scores: [{ name: 'tab pressed', evaluation: ok ? 'yes' : 'no' }],
        complete: ok ? 'yes' : 'no',
      }),
    });
    const outcome = await judgeWith([step(true), step(false), { kind: 'text', content: clean }], runDir, {
      rounds: true,
    });
    expect(outcome.rounds?.map((r) => [r.options.round, r.complete])).toEqual([
      [1, 'yes'],
      [2, 'no'],
    ]);
    expect(outcome.verdict.options.round).toBeUndefined();
    expect(requestText(standin!.requests[0])).toContain('THE STEP TO JUDGE: step 1');
    expect(requestImages(standin!.requests[0])).toHaveLength(2); // before and after step 1
    expect(requestText(standin!.requests[1])).toContain('The screen before step 2');
    const kinds = stored(runDir).verdicts.map((v) => v.options.round ?? 'session');
    expect(kinds).toEqual([1, 2, 'session']);
    const again = await judgeTask(runDir, taskKey, options({ rounds: true }));
    expect(again.reused).toBe(true);
    expect(standin!.requests).toHaveLength(3);
  });

  it('reuses the stored verdict for an unchanged run, model and options unless forced', async () => {
    const runDir = await writeRun('reuse', 2);
    const first = await judgeWith(
      [
        { kind: 'text', content: clean },
        { kind: 'text', content: clean },
        { kind: 'text', content: clean },
      ],
      runDir,
    );
    const again = await judgeTask(runDir, taskKey, options());
    expect(again.reused).toBe(true);
    expect(again.verdict.at).toBe(first.verdict.at);
    expect(standin!.requests).toHaveLength(1);
    const forced = await judgeTask(runDir, taskKey, options({ force: true }));
    expect(forced.reused).toBe(false);
    const otherOptions = await judgeTask(runDir, taskKey, options({ narrative: false }));
    expect(otherOptions.reused).toBe(false);
    expect(standin!.requests).toHaveLength(3);
    expect(stored(runDir).verdicts).toHaveLength(3);
  });
});
