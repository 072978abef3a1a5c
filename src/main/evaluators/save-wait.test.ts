// Grading waits for the postconfig's Ctrl+S to land in the result file (bounded), on a real shell environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellEnvironment, type ShellEnvironment } from '../env/local/shell-environment';
import type { SetupStep, Task } from '../../shared/task';
import { postconfigSaves, resultFiles, watchSave } from './save-wait';

const save: SetupStep = {
  func: 'execute',
  args: {
    command: [
      'python',
      '-c',
      "import pyautogui; import time; pyautogui.hotkey('ctrl', 's'); time.sleep(0.5);",
    ],
  },
  pointer: '/evaluator/postconfig/1',
};
const task = (post: SetupStep[]): Task =>
  ({
    postSetup: post,
    checks: [
      {
        metric: 'compare_table',
        result: { type: 'vm_file', path: '/home/user/a.xlsx', dest: 'a.xlsx' },
        options: {},
        pointer: '/evaluator',
      },
    ],
  }) as unknown as Task;

describe('waiting for the postconfig to save', () => {
  let env: ShellEnvironment;
  beforeAll(async () => {
    env = await createShellEnvironment();
    await env.putFile('/home/user/a.xlsx', Buffer.from('before'));
  });
  afterAll(() => env?.close());

  it('knows a Ctrl+S postconfig and the files the checks read', () => {
    expect(postconfigSaves([save])).toBe(true);
    expect(
      postconfigSaves([
        { ...save, args: { command: "python -c \"import pyautogui; pyautogui.hotkey('ctrl', 'a')\"" } },
      ]),
    ).toBe(false);
    expect(postconfigSaves([{ func: 'sleep', args: { seconds: 1 }, pointer: '/p/0' }])).toBe(false);
    expect(resultFiles(task([save]))).toEqual(['/home/user/a.xlsx']);
  });

  it('returns once the file is written again', async () => {
    const saved = await watchSave(env, task([save]));
    setTimeout(() => void env.putFile('/home/user/a.xlsx', Buffer.from('after the save')), 400);
    const t0 = Date.now();
    expect(await saved()).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(4_000);
  });

  it('says which file was not written when the save never lands', async () => {
    const saved = await watchSave(env, task([save]));
    expect(await saved()).toMatch(/did not write \/home\/user\/a\.xlsx within 5 s/);
  });

  it('does not wait when the postconfig does not save', async () => {
    const saved = await watchSave(env, task([]));
    const t0 = Date.now();
    expect(await saved()).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(1_000);
  });
});
