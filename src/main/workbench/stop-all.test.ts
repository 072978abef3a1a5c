// The Electron shell's "stop the agent" key calls the workbench's stopAll: every run the workbench drives stops
// (a real run on a sandbox display, waiting on a person's approval, ends cancelled).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingDemoPrograms } from '../demo/testing-env';
import { createWorkbench } from './workbench';

const missing = missingDemoPrograms().filter((p) =>
  ['Xvfb', 'openbox', 'xdotool', 'xterm', 'sqlite3', 'dbus-daemon'].includes(p),
);
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';
const root = mkdtempSync(join(tmpdir(), 'proctor-stopall-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!!why)(`stopping every run at once${why}`, () => {
  it('stops a run waiting for approval; its task ends cancelled and nothing is left to stop', async () => {
    cpSync(resolve(__dirname, '../../../resources/demo/terminal'), join(root, 'tasks'), { recursive: true });
    const wb = createWorkbench(root, { transport: 'ipc' });
    try {
      const { runId } = await wb.handlers['runs.start']({
        tasks: ['tasks'],
        agent: 'oracle',
        approveEachAction: true,
        env: 'local:1280x800',
      });
      const end = Date.now() + 120_000;
      while (!(await wb.handlers['runs.pending']({ runId })).length) {
        if (Date.now() > end) throw new Error('no action waited for approval within 120 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(wb.stopAll()).toBe(1);
      let tasks = (await wb.handlers['runs.get']({ runId })).tasks;
      while (tasks.some((t) => t.state === 'running') && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 200));
        tasks = (await wb.handlers['runs.get']({ runId })).tasks;
      }
      expect(tasks.map((t) => t.state)).toContain('cancelled');
      expect(tasks.some((t) => t.state === 'success')).toBe(false);
      expect(wb.stopAll()).toBe(0);
    } finally {
      await wb.close();
    }
  }, 180_000);
});
