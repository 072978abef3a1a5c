// Setup steps checked on a real sandbox display with the real GUI LibreOffice Calc: an `open` waits for its window,
// a strict `activate_window` needs the exact title, OSWorld's `python -c "import pyautogui…"` Ctrl+S is performed by
// Proctor's own action engine and really saves the workbook, a window that stays or a file with no application is
// named. One display for the file (2 cores); LibreOffice runs on a test-local quiet profile (testing/calc-profile.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { SetupStepTiming } from '../../shared/run';
import type { SetupStep, Task } from '../../shared/task';
import { createLocalEnvironment, type LocalEnvironment } from '../env/local/local-environment';
import { runSetupSteps, SetupError } from './index';
import { noGuiCalc, putQuietCalcProfile } from './testing/calc-profile';

const task = { id: 'calc-setup' } as Task;
const step = (pointer: string, func: string, args: Record<string, unknown>): SetupStep => ({
  func,
  args,
  pointer,
});

async function workbook(values: [string, number][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(['Value', 'Item']);
  for (const [item, value] of values) ws.addRow([value, item]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function cell(data: Buffer, ref: string): Promise<unknown> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  return wb.worksheets[0].getCell(ref).value;
}

describe.skipIf(!!noGuiCalc)(`setup steps on a sandbox display with LibreOffice Calc ${noGuiCalc}`, () => {
  let env: LocalEnvironment;
  let taskDir: string;
  const title = 'Prices.xlsx - LibreOffice Calc';

  beforeAll(async () => {
    env = await createLocalEnvironment({ width: 1280, height: 800, notify: () => undefined });
    await putQuietCalcProfile(env);
    taskDir = mkdtempSync(join(tmpdir(), 'proctor-calc-task-'));
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    if (taskDir) rmSync(taskDir, { recursive: true, force: true });
  });

  it('opens a workbook and waits for its window; a strict activate_window finds the exact title', async () => {
    await env.putFile(
      '/home/user/Prices.xlsx',
      await workbook([
        ['pen', 2],
        ['ink', 5],
      ]),
    );
    const records: SetupStepTiming[] = [];
    const report = await runSetupSteps(
      [
        step('/config/0', 'open', { path: '/home/user/Prices.xlsx' }),
        step('/evaluator/postconfig/0', 'activate_window', { window_name: title, strict: true }),
      ],
      env,
      { taskDir, task, onStep: (r) => records.push(r) },
    );
    expect(records.map((r) => [r.pointer, r.func, r.ok])).toEqual([
      ['/config/0', 'open', true],
      ['/evaluator/postconfig/0', 'activate_window', true],
    ]);
    expect(records[0].check).toMatch(new RegExp(`^window '${title}' after \\d+\\.\\d s$`));
    expect(records[1].check).toBe(`window '${title}'`);
    expect(report.steps).toEqual(records);
    expect(report.ms).toBeGreaterThanOrEqual(records[0].ms);
    expect(await env.windowTitles!()).toContain(title);
  }, 60_000);

  it('fails a strict activate_window on a title that is not exactly there, naming the step and the windows', async () => {
    const err = await runSetupSteps(
      [
        step('/evaluator/postconfig/0', 'activate_window', {
          window_name: 'Prices.xlsx - LibreOffice',
          strict: true,
        }),
      ],
      env,
      {
        taskDir,
        task,
        windowWaitMs: 1000,
      },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(SetupError);
    expect(err).toMatchObject({ phase: 'postconfig', index: 0, func: 'activate_window' });
    expect(err.message).toBe(
      `task calc-setup: postconfig step 0 (activate_window, /evaluator/postconfig/0): a window titled exactly 'Prices.xlsx - LibreOffice' did not appear within 1 s (windows on screen: '${title}')`,
    );
    // Not strict, the same words are part of the title: found.
    await runSetupSteps(
      [step('/evaluator/postconfig/0', 'activate_window', { window_name: 'prices.xlsx - libreoffice' })],
      env,
      { taskDir, task },
    );
  }, 30_000);

  it("performs Spider2-V's python -c Ctrl+S natively: the typed value is in the saved workbook", async () => {
    // The agent's part: A3 := 7 (Ctrl+Home is A1; two rows down). Calc may take keys sent in quick succession out
    // of order under load: the pause lets the moves land before the typing starts.
    await env.perform([
      { type: 'hotkey', keys: ['ctrl', 'home'] },
      { type: 'press', keys: ['down', 'down'] },
      { type: 'sleep', seconds: 0.5 },
      { type: 'write', text: '7\n' },
    ]);
    const before = await env.getFile('/home/user/Prices.xlsx');
    expect(await cell(before!, 'A3')).toBe(5);
    const records: SetupStepTiming[] = [];
    await runSetupSteps(
      [
        step('/evaluator/postconfig/0', 'activate_window', { window_name: title, strict: true }),
        step('/evaluator/postconfig/1', 'sleep', { seconds: 0.5 }),
        step('/evaluator/postconfig/2', 'execute', {
          command: ['python', '-c', 'import pyautogui; pyautogui.hotkey("ctrl", "s");'],
        }),
        step('/evaluator/postconfig/3', 'sleep', { seconds: 0.5 }),
      ],
      env,
      { taskDir, task, onStep: (r) => records.push(r) },
    );
    expect(records[2]).toMatchObject({ func: 'execute', ok: true, check: 'performed natively: hotkey' });
    expect(records[1].ms).toBeGreaterThanOrEqual(490); // a fixed sleep runs as written
    let saved: unknown;
    for (let i = 0; i < 50 && saved !== 7; i++) {
      const now = await env.getFile('/home/user/Prices.xlsx');
      saved = await cell(now!, 'A3').catch(() => undefined); // mid-write the zip may not be whole yet
      if (saved !== 7) await new Promise((r) => setTimeout(r, 200));
    }
    expect(saved).toBe(7);
    // OSWorld's string form (with time.sleep) is the same command.
    await runSetupSteps(
      [
        step('/evaluator/postconfig/0', 'execute', {
          command: `python3 -c "import pyautogui; import time; pyautogui.hotkey('ctrl', 's'); time.sleep(0.5);"`,
        }),
      ],
      env,
      { taskDir, task },
    );
  }, 60_000);

  it('refuses pyautogui code outside the whitelist without performing anything', async () => {
    const err = await runSetupSteps(
      [
        step('/config/3', 'execute', {
          command: ['python', '-c', 'import pyautogui; import os; os.remove("/home/user/Prices.xlsx")'],
        }),
      ],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(err.message).toMatch(
      /^task calc-setup: config step 3 \(execute, \/config\/3\): the pyautogui code could not be performed: .*not allowed/,
    );
    expect(await env.getFile('/home/user/Prices.xlsx')).toBeDefined();
  });

  it('closes the window and sees it gone', async () => {
    // Calc ignores a close request while it is still busy with the save just before (the check would say so).
    await new Promise((r) => setTimeout(r, 2000));
    const records: SetupStepTiming[] = [];
    await runSetupSteps([step('/config/0', 'close_window', { window_name: title, strict: true })], env, {
      taskDir,
      task,
      onStep: (r) => records.push(r),
    });
    expect(records[0].check).toMatch(/^gone after \d+\.\d s$/);
    expect(await env.windowTitles!()).not.toContain(title);
  }, 30_000);

  it('names an open of a missing file at once, and an opened file whose window never shows', async () => {
    const t0 = Date.now();
    const missing = await runSetupSteps(
      [step('/config/1', 'open', { path: '/home/user/Missing.xlsx' })],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(missing.message).toBe(
      'task calc-setup: config step 1 (open, /config/1): there is no file at /home/user/Missing.xlsx to open (an earlier step should have put it there)',
    );
    expect(Date.now() - t0).toBeLessThan(3000);
    // A file nothing here opens (binary, of no known type): xdg-open starts, finds no application, and no window comes.
    await env.putFile('/home/user/data.proctor-unknown', Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 0x80, 7]));
    const none = await runSetupSteps(
      [step('/config/1', 'open', { path: '/home/user/data.proctor-unknown' })],
      env,
      { taskDir, task, windowWaitMs: 2000 },
    ).catch((e) => e);
    expect(none.message).toMatch(
      /^task calc-setup: config step 1 \(open, \/config\/1\): a window titled with 'data\.proctor-unknown' did not appear within 2 s \(windows on screen: /,
    );
  }, 30_000);

  it('fails a command that exits non-zero with its status and the end of its stderr', async () => {
    const err = await runSetupSteps(
      [step('/config/2', 'execute', { command: ['no-such-program-proctor'] })],
      env,
      { taskDir, task },
    ).catch((e) => e);
    expect(err.message).toMatch(
      /^task calc-setup: config step 2 \(execute, \/config\/2\): the command exited with 127:\n.*no-such-program-proctor/,
    );
  });
});
