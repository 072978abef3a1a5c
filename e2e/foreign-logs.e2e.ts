// Other tools' result folders served directly, in Debian Chromium against `proctor serve`: a UFO `logs/` folder
// (current lowercase keys and legacy capitalised keys) lists its sessions with their actions, real thumbnails and
// the rate of UFO's EvaluationAgent; an OSWorld result folder shows its apps; numbers are formatted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artefactsDir, chromiumMissing, useWorkbench, type Workbench } from './support/serve';
import { ufoSessions, writeUfoLogs, type UfoKeyStyle } from './support/ufo-logs';

const skip = chromiumMissing ? ` (skipped: ${chromiumMissing})` : '';

/** Sizes of the filmstrip thumbnails as drawn, once every image has loaded. */
async function thumbnails(page: Page) {
  await page.waitForFunction(
    () => [...document.querySelectorAll('.filmstrip img')].every((i) => (i as HTMLImageElement).complete),
    null,
    { timeout: 30_000 },
  );
  return page.evaluate(() =>
    [...document.querySelectorAll('.filmstrip img')].map((i) => {
      const img = i as HTMLImageElement;
      const r = img.getBoundingClientRect();
      return {
        width: r.width,
        height: r.height,
        naturalWidth: img.naturalWidth,
        naturalHeight: img.naturalHeight,
      };
    }),
  );
}

async function checkUfoFolder(w: Workbench, style: UfoKeyStyle) {
  const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
  await page.goto(w.served.url);
  // The served folder is the logs folder itself: it is one run, of UFO format, rated by the judge — the first screen.
  await expect.poll(() => page.getByTestId('run-row').count(), { timeout: 30_000 }).toBe(1);
  expect(new URL(page.url()).hash).toBe('#/runs');
  expect(await page.getByTestId('problem').count()).toBe(0);
  const row = page.getByTestId('run-row');
  expect(await row.locator('td').nth(2).textContent()).toBe('ufo');
  expect(await row.locator('td').nth(6).textContent()).toMatch(/^50\.0% \(judge\)( \[0–100\])?$/); // the interval follows once computed
  await page.screenshot({ path: resolve(artefactsDir, `ufo-${style}-runs.png`) });
  await row.click();
  await expect
    .poll(() => page.getByTestId('success-rate').textContent(), { timeout: 30_000 })
    .toMatch(/^judge success 50\.0% \(2 judged of 2\)/);
  expect(await page.getByTestId('run-task-row').count()).toBe(ufoSessions.length);
  const apps = await page
    .getByTestId('run-task-row')
    .evaluateAll((rows) => rows.map((r) => r.children[1].textContent));
  expect(apps.sort()).toEqual(ufoSessions.map((s) => s.app).sort());
  const judges = await page
    .getByTestId('run-task-row')
    .evaluateAll((rows) => rows.map((r) => `${r.children[0].textContent}:${r.children[4].textContent}`));
  expect(judges.sort()).toEqual(ufoSessions.map((s) => `${s.name}:${s.complete}`).sort());
  await page.screenshot({ path: resolve(artefactsDir, `ufo-${style}-run.png`) });

  await page.getByTestId('run-task-row').filter({ hasText: 'notepad_type_hello' }).click();
  await expect.poll(() => page.getByTestId('step-list').locator('li').count(), { timeout: 30_000 }).toBe(3);
  // Every step names its action and the control it acted on; none is "no action".
  const actions = await page.getByTestId('action-text').allTextContents();
  expect(actions).toHaveLength(3);
  // Current HostAgent lines log the selection as a call; legacy ones only name the application they chose.
  expect(actions[0]).toMatch(
    style === 'current'
      ? /^select_application_window\(.*\) on \[2\] "Untitled - Notepad"$/
      : /^select \[2\] "Untitled - Notepad"$/,
  );
  expect(actions[1]).toMatch(/^click_input\(.*\) on \[14\] "Text Editor"$/);
  expect(actions[2]).toMatch(/^set_edit_text\(.*hello world.*\) on \[14\] "Text Editor"$/);
  expect(await page.getByTestId('step-list').textContent()).not.toContain('no action');
  expect(await page.locator('.tbar.has-error').count()).toBe(0); // results are not errors

  // Thumbnails are the screenshots at the filmstrip's height and their own aspect ratio, not slivers.
  const thumbs = await thumbnails(page);
  expect(thumbs).toHaveLength(3);
  for (const t of thumbs) {
    expect(t.naturalWidth).toBe(1280);
    expect(t.height).toBeGreaterThan(40);
    expect(Math.abs(t.width / t.height - 1280 / 800)).toBeLessThan(0.05);
  }

  // Step 2: the AppAgent's thought and observation, with UFO's step number; the screenshot shown.
  await page.getByTestId('step-list').locator('li').nth(1).click();
  await expect
    .poll(() => page.getByTestId('tab-response').textContent())
    .toMatch(/^AppAgent step 1: click_input\(.*\) on \[14\] "Text Editor" in NOTEPAD\.EXE — CONTINUE/);
  const reply = (await page.getByTestId('tab-response').textContent()) ?? '';
  expect(reply).toContain('Observation: Notepad is open with an empty document.');
  expect(reply).toContain('Thought: Click into the editor to place the caret.');
  expect(reply).not.toMatch(/step \?/);
  await page.waitForFunction(
    () =>
      (document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null)?.naturalWidth ===
      1280,
    null,
    { timeout: 30_000 },
  );
  await page.screenshot({ path: resolve(artefactsDir, `ufo-${style}-replay.png`) });

  // Timing is formatted, never raw floats.
  await page.getByRole('tab', { name: 'Tokens & timing' }).click();
  const timing = (await page.getByTestId('tab-timing').textContent()) ?? '';
  expect(timing).toMatch(/observe412 ms/);
  expect(timing).toMatch(/agent3\.1 s/);
  expect(timing).not.toMatch(/\d\.\d{4,}/);
  await page.screenshot({ path: resolve(artefactsDir, `ufo-${style}-timing.png`) });
  await page.close();
}

describe.skipIf(chromiumMissing)(`a UFO logs folder served directly, current keys${skip}`, () => {
  const w = useWorkbench('ufo-current', (root) => writeUfoLogs(root, 'current').then(() => undefined));
  it('lists its sessions with actions, thumbnails and the judge-based rate', () =>
    checkUfoFolder(w, 'current'));
});

describe.skipIf(chromiumMissing)(`a UFO logs folder served directly, legacy keys${skip}`, () => {
  const w = useWorkbench('ufo-legacy', (root) => writeUfoLogs(root, 'legacy').then(() => undefined));
  it('lists its sessions with actions, thumbnails and the judge-based rate', () =>
    checkUfoFolder(w, 'legacy'));
});

describe.skipIf(chromiumMissing)(`an OSWorld result folder${skip}`, () => {
  const domains = {
    chrome: 'bb5e4c0d-f964-439c-97b6-bdb9747de3f4',
    os: '94d95f96-9699-4208-98ba-3c3119edf9c2',
    vlc: '8ba5ae7a-5ae5-4eab-9fcc-5dd4fe3abf89',
  };
  const w = useWorkbench('osworld-apps', async (root) => {
    const png = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#88aacc' } })
      .png()
      .toBuffer();
    for (const [i, [domain, id]] of Object.entries(domains).entries()) {
      const dir = join(root, 'pyautogui', 'screenshot', 'gpt-4o', domain, id);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'step_1_20240317@154431.png'), png);
      writeFileSync(
        join(dir, 'traj.jsonl'),
        JSON.stringify({
          step_num: 1,
          action_timestamp: '20240317@154431',
          action: 'DONE',
          response: 'done',
          reward: 0,
          done: true,
          info: {},
          screenshot_file: 'step_1_20240317@154431.png',
        }) + '\n',
      );
      writeFileSync(join(dir, 'result.txt'), i === 0 ? '1.0\n' : '0.0\n');
    }
  });

  it('shows the domain folder of each task as its app', async () => {
    const page = await w.browser.newPage({ viewport: { width: 1400, height: 800 } });
    await page.goto(`${w.served.url}#/runs`);
    await expect.poll(() => page.getByTestId('run-row').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('run-row').click();
    await expect.poll(() => page.getByTestId('run-task-row').count(), { timeout: 30_000 }).toBe(3);
    const cells = await page
      .getByTestId('run-task-row')
      .evaluateAll((rows) => rows.map((r) => [r.children[0].textContent, r.children[1].textContent]));
    expect(cells.sort()).toEqual(
      Object.entries(domains)
        .map(([d, id]) => [`${d}/${id}`, d])
        .sort(),
    );
    expect(await page.getByTestId('success-rate').textContent()).toMatch(/^success 33\.3% \(3 graded of 3\)/);
    // The app filter offers the apps, and filters by them.
    await page.getByLabel('app').selectOption('vlc');
    await expect.poll(() => page.getByTestId('shown-count').textContent()).toBe('1 of 3');
    await page.getByLabel('app').selectOption('');
    await expect.poll(() => page.getByTestId('shown-count').textContent()).toBe('3 of 3');
    await page.screenshot({ path: resolve(artefactsDir, 'osworld-apps.png') });
    await page.close();
  });
});
