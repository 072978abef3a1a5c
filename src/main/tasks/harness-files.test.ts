// `proctor validate` on the folders harnesses really write: Spider2-V's trajectory lines, messages.json of
// tool-using agents, recordings and logs beside them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeForeignFixtures, type ForeignFixtures } from '../store/testing/foreign-fixtures';
import { validatePaths } from './validation';

let dir: string;
let fx: ForeignFixtures;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proctor-validate-harness-'));
  fx = await writeForeignFixtures(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('validate on harness output folders', () => {
  it('accepts every file OSWorld, its fork and Spider2-V write, with no warning', async () => {
    const report = await validatePaths([fx.osworldTop, fx.spider2vTop, fx.forkTop]);
    expect(report.files.flatMap((f) => f.problems)).toEqual([]);
    const kinds = new Set(report.files.map((f) => f.kind));
    expect([...kinds].sort()).toEqual(['agent-messages', 'spider2v-traj-line', 'traj-line']);
    expect(report.summary.invalid).toBe(0);
  });

  it('still names what is wrong in such files', async () => {
    const bad = join(dir, 'bad');
    const task = join(bad, 'results', 'pyautogui_som_m', 'excel', 't');
    mkdirSync(task, { recursive: true });
    writeFileSync(
      join(task, 'trajectory.jsonl'),
      JSON.stringify({ step_num: 'one', action_timestamp: '2025-04-20', action: 'WAIT' }) + '\n',
    );
    writeFileSync(join(task, 'messages.json'), JSON.stringify([{ content: 'no role' }]));
    const report = await validatePaths([bad]);
    const messages = report.files.flatMap((f) =>
      f.problems.map((p) => `${f.kind}: ${p.pointer ?? ''} ${p.message}`),
    );
    expect(messages.some((m) => m.startsWith('spider2v-traj-line: /step_num'))).toBe(true);
    expect(messages.some((m) => m.startsWith('spider2v-traj-line: /action_timestamp'))).toBe(true);
    expect(messages.some((m) => m.startsWith('agent-messages: /0') && /role/.test(m))).toBe(true);
    expect(report.summary.invalid).toBe(2);
  });
});
