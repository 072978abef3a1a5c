import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentError, type AgentTurn } from './agent';
import { createAgent } from './index';
import type { LlmAgent } from './llm';
import { contextFor, screenshotObservation, tempTask } from './testing/task-fixture';
import {
  requestImages,
  requestText,
  startScriptedOpenAIStandin,
  type ScriptedOpenAIStandin,
} from './testing/scripted-openai-standin';

const KEY = 'sk-proctor-test-KEY-7f3a9c1e55';
const fastRetry = { baseDelayMs: 20, maxDelayMs: 200, timeoutMs: 800 };
const usage = (p: number, c: number) => ({ prompt_tokens: p, completion_tokens: c });
let standin: ScriptedOpenAIStandin | undefined;

afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

function llm(extra: Record<string, unknown> = {}, logs: string[] = []): LlmAgent {
  return createAgent('llm', {
    baseUrl: standin!.baseUrl,
    model: 'standin-vlm',
    env: { PROCTOR_API_KEY: KEY, PROCTOR_CONFIG: '/nonexistent/proctor.json' },
    retry: fastRetry,
    log: (l) => logs.push(l),
    ...extra,
  }) as LlmAgent;
}

describe('the llm agent against the scripted stand-in', () => {
  it('plays a scripted conversation: refusal fed back, 429 and timeout retried, tokens counted, window kept, images sent, key kept out', async () => {
    standin = await startScriptedOpenAIStandin([
      {
        kind: 'text',
        content: "I open the address bar.\n```python\npyautogui.hotkey('ctrl', 'l')\n```",
        usage: usage(1000, 20),
      },
      { kind: 'status', status: 429, retryAfter: '1' },
      {
        kind: 'text',
        content: "Let me use the shell.\n```python\nimport os\nos.system('rm -rf ~')\n```",
        usage: usage(1100, 21),
      },
      { kind: 'delay', ms: 2_000 },
      {
        kind: 'text',
        content: 'Sorry. I click the field.\n```python\npyautogui.click(100, 50)\n```',
        usage: usage(1200, 22),
      },
      {
        kind: 'text',
        content: "```python\npyautogui.write('hello')\npyautogui.press('enter')\n```",
        usage: usage(1300, 23),
      },
      { kind: 'text', content: 'The page shows hello.\n```\nDONE\n```', usage: usage(1400, 24) },
    ]);
    const logs: string[] = [];
    const agent = llm({ image: { maxWidth: 640 } }, logs);
    const task = tempTask('Type hello into the address bar and press Enter.');
    await agent.start(contextFor(task));
    const turns: AgentTurn[] = [];
    for (let step = 1; step <= 5; step++) {
      turns.push(await agent.next(await screenshotObservation(1280, 720, step), step, []));
    }
    await agent.finish();

    // What the agent said each step.
    expect(turns[0].actions).toEqual([{ type: 'hotkey', keys: ['ctrl', 'l'] }]);
    expect(turns[1].actions).toEqual([]);
    expect(turns[1].refusal).toBeTruthy();
    expect(turns[2].actions).toHaveLength(1);
    expect(turns[2].actions[0]).toMatchObject({ type: 'click', x: 200, y: 100 }); // 640-wide image → 1280-wide screen
    expect(turns[3].actions.map((a) => a.type)).toEqual(['write', 'press']);
    expect(turns[4].actions).toEqual([{ type: 'DONE' }]);
    expect(turns.map((t) => t.tokens)).toEqual([
      { prompt: 1000, completion: 20 },
      { prompt: 1100, completion: 21 },
      { prompt: 1200, completion: 22 },
      { prompt: 1300, completion: 23 },
      { prompt: 1400, completion: 24 },
    ]);
    expect(turns.every((t) => t.costUsd === undefined)).toBe(true);

    // 5 answered requests + the 429 + the timed-out one.
    const reqs = standin.requests;
    expect(reqs).toHaveLength(7);
    const answered = [reqs[0], reqs[2], reqs[4], reqs[5], reqs[6]];
    expect(reqs[1].body).toEqual(reqs[2].body); // the 429 was retried with the same request
    expect(reqs[3].body).toEqual(reqs[4].body); // so was the timeout

    // History window: system + min(step-1, 3) past turns (user + assistant) + the current observation.
    expect(answered.map((r) => r.body!.messages.length)).toEqual([2, 4, 6, 8, 8]);
    expect(answered.map((r) => r.body!.messages[0].role)).toEqual(Array(5).fill('system'));
    const lastMsgs = answered[4].body!.messages;
    expect(lastMsgs.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([
      turns[1].response,
      turns[2].response,
      turns[3].response,
    ]);

    // Images: the current screenshot (and those of the window) as downscaled data URLs.
    for (const [i, r] of answered.entries()) {
      const images = requestImages(r);
      expect(images).toHaveLength(1 + Math.min(i, 3));
      for (const url of images) expect(url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
    }
    expect(requestText(answered[0])).toContain('640×360');
    expect(requestText(answered[0])).toContain('Type hello into the address bar');

    // Execution feedback: the refusal of step 2 is told in the request of step 3 (and nothing before).
    expect(requestText(answered[1])).not.toContain('FEEDBACK');
    const third = answered[2].body!.messages.at(-1)!;
    const thirdText = requestText({ ...answered[2], body: { messages: [third] } });
    expect(thirdText).toContain('FEEDBACK ON YOUR LAST ACTIONS');
    expect(thirdText).toContain(`step 2: refused — ${turns[1].refusal}`);

    // The key went to the server as a bearer token, and nowhere else.
    expect(reqs.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(reqs.some((r) => r.rawBody.includes(KEY))).toBe(false);
    expect(logs.join('\n')).toMatch(/429/);
    expect(logs.join('\n')).toMatch(/timed out/);
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-llm-run-'));
    fs.writeFileSync(path.join(runDir, 'manifest.json'), JSON.stringify({ agent: agent.info() }));
    fs.writeFileSync(path.join(runDir, 'steps.jsonl'), turns.map((t) => JSON.stringify(t)).join('\n'));
    fs.writeFileSync(path.join(runDir, 'agent.log'), logs.join('\n'));
    for (const f of fs.readdirSync(runDir))
      expect(fs.readFileSync(path.join(runDir, f), 'utf8')).not.toContain(KEY);
    expect(agent.info()).toMatchObject({
      model: 'standin-vlm',
      apiKey: 'set (from env)',
      temperature: 0.5,
      topP: 0.9,
      maxTokens: 1500,
      historyWindow: 3,
    });
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  it('maps Set-of-Mark names to the marked element centres in screen pixels, through a downscaled image', async () => {
    standin = await startScriptedOpenAIStandin([
      { kind: 'text', content: '```python\npyautogui.click(tag_2)\n```' },
    ]);
    const agent = llm({ image: { maxWidth: 960, format: 'jpeg' } });
    const task = tempTask('Press the OK button.');
    await agent.start(contextFor(task, { observationType: 'som' }));
    const base = await screenshotObservation(1920, 1080);
    const turn = await agent.next(
      {
        type: 'som',
        som: { image: base.screenshot!, marks: [] },
        a11yTable: 'id\ttag\tname\n1\tbutton\tCancel\n2\tbutton\tOK',
        bindings: { tag_2: { x: 1500, y: 900 } },
      },
      1,
      [],
    );
    expect(turn.refusal).toBeUndefined();
    expect(turn.actions).toEqual([expect.objectContaining({ type: 'click', x: 1500, y: 900 })]);
    const text = requestText(standin.requests[0]);
    expect(text).toContain('tag_14'); // the SoM prompt explains the names
    expect(text).toContain('2\tbutton\tOK');
    expect(requestImages(standin.requests[0])[0]).toMatch(/^data:image\/jpeg;base64,/);
  });

  it('sends no image for the a11y_tree observation and tells the runner-given feedback', async () => {
    standin = await startScriptedOpenAIStandin([{ kind: 'text', content: 'WAIT' }]);
    const agent = llm();
    await agent.start(
      contextFor(tempTask('Open the menu.'), { observationType: 'a11y_tree', actionSpace: 'computer_13' }),
    );
    const turn = await agent.next(
      { type: 'a11y_tree', a11yTable: 'tag\tname\nmenu\tFile', bindings: {} },
      4,
      [{ step: 3, message: 'the window "Editor" was not found' }],
    );
    expect(turn.actions).toEqual([{ type: 'WAIT' }]);
    expect(requestImages(standin.requests[0])).toEqual([]);
    const text = requestText(standin.requests[0]);
    expect(text).toContain('step 3: the window "Editor" was not found');
    expect(text).toContain('"action_type"');
    expect(text).toContain('menu\tFile');
  });

  it('tells a refusal once when the runner reports it too, and stays quiet with feedback off', async () => {
    standin = await startScriptedOpenAIStandin([
      { kind: 'text', content: '```python\nwhile True: pass\n```' },
      { kind: 'text', content: 'WAIT' },
      { kind: 'text', content: '```python\nimport subprocess\n```' },
      { kind: 'text', content: 'WAIT' },
    ]);
    const agent = llm();
    await agent.start(contextFor(tempTask('x')));
    const obs = await screenshotObservation(100, 80);
    const refused = await agent.next(obs, 1, []);
    expect(refused.refusal).toBeTruthy();
    await agent.next(obs, 2, [{ step: 1, message: refused.refusal! }]);
    const text = requestText({
      ...standin.requests[1],
      body: { messages: [standin.requests[1].body!.messages.at(-1)!] },
    });
    expect(text.split(refused.refusal!).length - 1).toBe(1);

    const quiet = llm({ executionFeedback: false });
    await quiet.start(contextFor(tempTask('x')));
    const r2 = await quiet.next(obs, 1, []);
    expect(r2.refusal).toBeTruthy();
    await quiet.next(obs, 2, [{ step: 1, message: r2.refusal! }]);
    expect(requestText(standin.requests[3])).not.toContain('FEEDBACK');
  });

  it('puts the documentation beside the task into the prompt when retrieval is on', async () => {
    standin = await startScriptedOpenAIStandin([{ kind: 'text', content: 'DONE' }]);
    const agent = llm({ retrieval: true });
    const task = tempTask('Schedule the nightly DAG at 6 p.m.', {
      'retrieval.md':
        '# Guide\n\n## Scheduling\nSet schedule_interval of the DAG to "0 18 * * *".\n\n## Other\nBananas.',
    });
    await agent.start(contextFor(task));
    await agent.next(await screenshotObservation(200, 100), 1, []);
    const system = standin.requests[0].body!.messages[0].content as string;
    expect(system).toContain('DOCUMENTATION');
    expect(system).toContain('schedule_interval');
    expect(system).not.toContain('Bananas');
  });

  it('turns a model that stays unreachable into an AgentError after bounded retries', async () => {
    standin = await startScriptedOpenAIStandin([
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    ]);
    const agent = llm({ retry: { ...fastRetry, maxAttempts: 2 } });
    await agent.start(contextFor(tempTask('x')));
    const error = await agent.next(await screenshotObservation(100, 100), 1, []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as Error).message).toMatch(/step 1: .*HTTP 503.*after 2 attempts/);
    expect((error as Error).message).not.toContain(KEY);
  });
});
