// Other harnesses' result folders in Debian Chromium against `proctor serve` (issue 22): an OSWorld-shaped and a
// Spider2-V-shaped folder with several lines per step. The replay shows what ran (no "refused" mark; a shell
// command as a BASH code line; what Proctor would refuse as a quiet note), in the harness's step numbers (panel,
// filmstrip, deep links, keyboard), the model's words, and the screen recording following the selected step.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TaskTrajectory } from '../src/shared/api';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';
import { makeRecording, writeOsworldTask, writeSpider2vTask } from './support/foreign-shapes';

const ffmpegMissing = existsSync('/usr/bin/ffmpeg') ? undefined : 'no ffmpeg at /usr/bin/ffmpeg';
const missing = chromiumMissing ?? ffmpegMissing;

const OSW_RUN = 'osworld/pyautogui/screenshot/gpt-4o';
const OSW_TASK = 'chrome/bb5e4c0d-f964-439c-97b6-bdb9747de3f4';
const SPIDER_RUN = 'spider2v/results/pyautogui_som_o4-mini-2025-04-16_ef';
const SPIDER_TASK = 'excel/task-a';
const UNDATED_RUN = 'copied/pyautogui/screenshot/gpt-4o';
const SHELL = 'cd ~/Downloads && chmod +x support-tool.sh && ./support-tool.sh';

async function api<T>(url: string, method: string, params: unknown): Promise<T> {
  const res = await fetch(new URL('/api/call', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (!body.result) throw new Error(body.error?.message ?? `no result from ${method}`);
  return body.result;
}

const replayUrl = (base: string, run: string, task: string, query = '') =>
  `${base}#/runs/${encodeURIComponent(run)}?task=${encodeURIComponent(task)}${query}`;

/** The video's state once it has seeked where the page asked. */
async function videoAt(page: Page, want: number) {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const v = document.querySelector('[data-testid="recording-video"]') as HTMLVideoElement | null;
          return v && !v.seeking && v.readyState >= 2 ? v.currentTime : -1;
        }),
      { timeout: 20_000 },
    )
    .toBeCloseTo(want, 1);
  return page.evaluate(() => {
    const v = document.querySelector('[data-testid="recording-video"]') as HTMLVideoElement;
    return { width: v.videoWidth, duration: v.duration, error: v.error?.code };
  });
}

describe.skipIf(!!missing)(
  `other harnesses' folders in Chromium${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    const w = useWorkbench('foreign-runs', async (root) => {
      const recording = join(root, 'recording.tmp.mp4');
      makeRecording(recording, 20);
      const mp4 = readFileSync(recording);
      const start = new Date(Date.UTC(2025, 0, 30, 10, 15, 0));
      // OSWorld, as an OSWorld fork running a computer-use agent writes it: a moveTo line and a bare click() line in
      // one step, a shell command, a scroll over Proctor's own cap beside a click; finished with score 0.
      await writeOsworldTask(
        join(root, OSW_RUN, OSW_TASK),
        [
          {
            step: 1,
            action: 'pyautogui.moveTo(546, 524)',
            response: 'I will move to the search box and click it.',
            mark: { x: 546, y: 524 },
          },
          {
            step: 1,
            action: 'pyautogui.click()',
            response: 'I will move to the search box and click it.',
            mark: { x: 546, y: 524 },
          },
          {
            step: 2,
            action: 'pyautogui.click(300, 200)',
            response: 'Click the page <b>now</b>, then run the tool.',
            mark: { x: 300, y: 200 },
          },
          { step: 3, action: `BASH ${SHELL}`, response: 'Now I will run the support tool in a shell.' },
          {
            step: 3,
            action: 'pyautogui.scroll(-5000)\npyautogui.click(700, 400)',
            response: 'Now I will run the support tool in a shell.',
            mark: { x: 700, y: 400 },
          },
          { step: 4, action: 'DONE', response: 'Done.', done: true },
        ],
        { start, gapSeconds: 3, result: '0.0\n', recording: mp4 },
      );
      // The agent's conversation as the fork keeps it: one assistant turn with tool calls per step, markup in its words.
      const text = (t: string) => ({ type: 'text', text: t });
      const use = (name: string, input: unknown) => ({
        type: 'tool_use',
        id: `${name}-${JSON.stringify(input).length}`,
        name,
        input,
      });
      writeFileSync(
        join(root, OSW_RUN, OSW_TASK, 'messages.json'),
        JSON.stringify([
          { role: 'user', content: [text('The support page says to run support-tool.sh from Downloads.')] },
          {
            role: 'assistant',
            content: [
              text('I will open the search box.'),
              use('computer', { action: 'mouse_move', coordinate: [546, 524] }),
              use('computer', { action: 'left_click' }),
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: [text('ok')] }] },
          {
            role: 'assistant',
            content: [
              text('Click the page.'),
              use('computer', { action: 'left_click', coordinate: [300, 200] }),
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'y', content: [text('ok')] }] },
          {
            role: 'assistant',
            content: [
              text('Running <img src=x onerror="document.title=1"> the tool in a shell.'),
              use('bash', { command: SHELL }),
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'z', content: [text('ok')] }] },
          { role: 'assistant', content: [text('The tool ran. I am done.')] },
        ]),
      );
      // A second task of the same run that crashed: its error line belongs to its step.
      await writeOsworldTask(
        join(root, OSW_RUN, 'chrome', 'task-crashed'),
        [
          {
            step: 1,
            action: 'pyautogui.click(100, 100)',
            response: 'Open the menu.',
            mark: { x: 100, y: 100 },
          },
          { error: 'chrome/task-crashed - Connection to the VM was lost' },
        ],
        { start: new Date(start.getTime() + 60_000) },
      );
      // A run whose lines carry no time: its start is the files' mtime, and says so.
      await writeOsworldTask(
        join(root, UNDATED_RUN, 'os', 'task-undated'),
        [{ step: 1, action: 'pyautogui.click(10, 10)', done: true }],
        { start, undated: true, result: '1\n' },
      );
      // Spider2-V with Set-of-Mark, execution feedback on: two lines in step 1, the model's words in the runner's log.
      await writeSpider2vTask(
        join(root, SPIDER_RUN, SPIDER_TASK),
        [
          {
            step: 1,
            action: 'index_27 = (995, 597)\npyautogui.click(index_27)',
            response: 'I click cell A1 (index 27) and scroll down.',
            mark: { x: 995, y: 597 },
          },
          {
            step: 1,
            action: 'pyautogui.scroll(-800)',
            response: 'I click cell A1 (index 27) and scroll down.',
          },
          { step: 2, action: "pyautogui.typewrite('total')", response: 'Type the word total.' },
          { step: 3, action: 'DONE', response: 'DONE', done: true },
        ],
        {
          start: new Date(Date.UTC(2025, 3, 20, 10, 0, 1)),
          gapSeconds: 4,
          result: '1.0\n',
          recording: mp4,
          instruction: 'Sum column A into A10.',
        },
      );
    });

    it('lists the runs with their settings, times with their source, and outcomes apart from the score', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await expect.poll(() => page.getByTestId('run-row').count(), { timeout: 30_000 }).toBe(3);
      const spider = page.getByTestId('run-row').filter({ hasText: 'pyautogui_som_o4-mini' });
      // the `_ef` suffix is a flag, not part of the model's name
      await expect.poll(() => spider.getByTestId('run-flag').allTextContents()).toEqual(['ef']);
      expect(await spider.locator('td').nth(3).textContent()).toMatch(/o4-mini-2025-04-16(?!_ef)/);
      expect(await spider.locator('[data-setting]').allTextContents()).toEqual(['pyautogui', 'som']);
      // times from the harness's own timestamps; file mtime only where there is nothing else, and labelled so
      for (const run of ['pyautogui_som_o4-mini', 'osworld/'])
        expect(
          await page
            .getByTestId('run-row')
            .filter({ hasText: run })
            .getByTestId('time-source')
            .getAttribute('data-source'),
        ).toBe('harness');
      const undated = page.getByTestId('run-row').filter({ hasText: 'copied/' }).getByTestId('time-source');
      expect(await undated.textContent()).toBe('file mtime');
      await page.screenshot({ path: resolve(artefactsDir, 'foreign-run-list.png') });

      await page.getByTestId('run-row').filter({ hasText: 'osworld/' }).click();
      await expect.poll(() => page.getByTestId('run-task-row').count()).toBe(2);
      const finished = page.getByTestId('run-task-row').filter({ hasText: 'bb5e4c0d' });
      expect(await finished.getByTestId('task-state').textContent()).toBe('finished'); // scored 0, but the harness finished
      expect(await finished.locator('.bad').textContent()).toMatch(/^0/);
      const crashed = page.getByTestId('run-task-row').filter({ hasText: 'task-crashed' });
      expect(await crashed.getByTestId('task-state').textContent()).toBe('error');
    });

    it("replays an OSWorld-shaped task in the harness's steps, showing what ran", async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      await page.goto(replayUrl(w.served.url, OSW_RUN, OSW_TASK, '&step=3'));
      await expect
        .poll(() => page.locator('.step-list li.current').getAttribute('data-step'), { timeout: 30_000 })
        .toBe('3');
      // step=3 is the harness's step 3 (the shell command, the 4th line), not the 3rd entry
      expect(await page.locator('.shot figcaption').first().textContent()).toMatch(
        /^step 3 \(1 of 2\) · trajectory line 4/,
      );
      const stage = page.locator('.stage');
      expect(await stage.getByTestId('tool-action').locator('.tool-badge').textContent()).toBe('BASH');
      expect(await stage.getByTestId('tool-action').locator('code').textContent()).toBe(SHELL);
      // the step list: one item per harness step, its lines within it; the filmstrip numbers them the same way
      expect(
        await page
          .getByTestId('step-list')
          .locator(':scope > li')
          .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-step'))),
      ).toEqual(['1', '2', '3', '4']);
      expect(await page.locator('.step-list li.current [data-testid="step-entry"]').count()).toBe(2);
      expect(await page.locator('.filmstrip .frame-no').allTextContents()).toEqual([
        '1·1',
        '1·2',
        '2',
        '3·1',
        '3·2',
        '4',
      ]);
      // nothing is shown as refused; the scroll over Proctor's cap is a quiet note, and its click is still drawn
      const replay = (await page.getByTestId('replay').textContent()) ?? '';
      expect(replay).not.toMatch(/refused/i);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.url()).toMatch(/step=3&entry=2|entry=2&step=3/);
      await expect
        .poll(() => stage.getByTestId('would-refuse').textContent())
        .toMatch(/^Proctor would refuse: /);
      await expect.poll(() => page.locator('[data-testid="click-mark"]').getAttribute('data-x')).toBe('700');
      await page.screenshot({ path: resolve(artefactsDir, 'foreign-replay-osworld.png') });
      // a person's mark (key 2) on the second line of step 3 is a mark on the harness's step 3, not on entry 5
      await page.keyboard.press('2');
      await expect
        .poll(
          async () =>
            (
              await api<TaskTrajectory>(w.served.url, 'runs.task', { runId: OSW_RUN, taskKey: OSW_TASK })
            ).verdicts
              .flatMap((v) => (v.kind === 'human' ? (v.steps ?? []) : []))
              .map((s) => [s.step, s.mark]),
          { timeout: 10_000 },
        )
        .toEqual([[3, 'wrong']]);

      // the pointer carried from moveTo(546, 524) into the bare click() of the next line
      await page.goto(replayUrl(w.served.url, OSW_RUN, OSW_TASK, '&step=1&entry=2'));
      await expect
        .poll(() => page.locator('[data-testid="click-mark"]').getAttribute('data-x'), { timeout: 20_000 })
        .toBe('546');
      expect(await page.locator('[data-testid="click-mark"]').getAttribute('data-y')).toBe('524');
      // ←/→ walk the lines in order; shift+← goes back by whole step
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.url()).toMatch(/step=2(?!&entry)/);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => page.url()).toMatch(/entry=2/);
      await page.keyboard.press('Shift+ArrowLeft');
      await expect.poll(() => page.url()).not.toMatch(/entry=/);
      expect(page.url()).toMatch(/step=1/);

      // the model's words of step 2, as text (its markup is not rendered)
      await page.goto(replayUrl(w.served.url, OSW_RUN, OSW_TASK, '&step=2&tab=response'));
      await expect
        .poll(() => page.getByTestId('tab-response').textContent(), { timeout: 20_000 })
        .toContain('Click the page <b>now</b>, then run the tool.');
      expect(await page.getByTestId('tab-response').locator('b').count()).toBe(0);
      // step 3's turn from messages.json: its words as text, its shell tool call with its input
      await page.goto(replayUrl(w.served.url, OSW_RUN, OSW_TASK, '&step=3&tab=response'));
      const words = page.getByTestId('tab-response');
      await expect
        .poll(() => words.textContent(), { timeout: 20_000 })
        .toContain('Running <img src=x onerror="document.title=1"> the tool in a shell.');
      expect(await words.locator('img').count()).toBe(0);
      const call = words.getByTestId('tool-call').filter({ hasText: 'bash' });
      expect(await call.locator('pre').textContent()).toContain(SHELL);
      await page.screenshot({ path: resolve(artefactsDir, 'foreign-model-words.png') });
    });

    it('plays the screen recording, seeking with the selected step', async () => {
      const traj = await api<TaskTrajectory>(w.served.url, 'runs.task', {
        runId: OSW_RUN,
        taskKey: OSW_TASK,
      });
      const at = traj.steps.map((s) => s.recordingAt);
      expect(at.every((t) => typeof t === 'number')).toBe(true);
      expect(at[5]).toBeGreaterThan(at[0]!);
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      await page.goto(replayUrl(w.served.url, OSW_RUN, OSW_TASK, '&step=2'));
      const first = await videoAt(page, at[2]!);
      expect(first).toMatchObject({ width: 320 }); // decoded: the 206 range answers work
      expect(first.error).toBeUndefined();
      expect(first.duration).toBeGreaterThan(19);
      await page.keyboard.press('ArrowRight');
      await videoAt(page, at[3]!);
      await page.keyboard.press('End');
      await videoAt(page, at[5]!);
      await page.keyboard.press('Home');
      await videoAt(page, at[0]!);
      await page.screenshot({ path: resolve(artefactsDir, 'foreign-replay-recording.png') });
    });

    it('replays a Spider2-V-shaped task with its step numbers, the model words from its log and its recording', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      await page.goto(replayUrl(w.served.url, SPIDER_RUN, SPIDER_TASK, '&step=2&tab=response'));
      await expect
        .poll(() => page.locator('.step-list li.current').getAttribute('data-step'), { timeout: 30_000 })
        .toBe('2');
      expect(await page.locator('.shot figcaption').first().textContent()).toMatch(/^step 2\b/);
      expect(await page.locator('.filmstrip .frame-no').allTextContents()).toEqual(['1·1', '1·2', '2', '3']);
      await expect
        .poll(() => page.getByTestId('tab-response').textContent())
        .toContain('Type the word total.');
      expect((await page.getByTestId('replay').textContent()) ?? '').not.toMatch(/refused/i);
      const traj = await api<TaskTrajectory>(w.served.url, 'runs.task', {
        runId: SPIDER_RUN,
        taskKey: SPIDER_TASK,
      });
      expect(traj.steps.map((s) => s.step)).toEqual([1, 1, 2, 3]);
      await videoAt(page, traj.steps[2].recordingAt!);
      await page.keyboard.press('ArrowLeft');
      await videoAt(page, traj.steps[1].recordingAt!);
      // the Set-of-Mark click of step 1 is drawn where its mark's coordinates say
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => page.locator('[data-testid="click-mark"]').getAttribute('data-x')).toBe('995');
      await page.screenshot({ path: resolve(artefactsDir, 'foreign-replay-spider2v.png') });
    });
  },
);
