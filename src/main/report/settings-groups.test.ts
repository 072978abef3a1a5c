// `proctor report <top folder>` on a harness's whole output: every run below it, grouped by run settings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { writeForeignFixtures, type ForeignFixtures } from '../store/testing/foreign-fixtures';

let dir: string;
let fx: ForeignFixtures;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proctor-report-top-'));
  fx = await writeForeignFixtures(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const report = async (argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['report', ...argv], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

/** The group table's row for a settings label: [runs, tasks, scored, mean score]. */
function groupRow(out: string, label: string): string[] {
  const line = out
    .split('\n')
    .find((l) => l.trimStart().startsWith(label) && /\d+\s+\d+\s+\d+\s+[\d.—]+/.test(l));
  if (!line) throw new Error(`no group row for ${label} in:\n${out}`);
  return line.trimStart().slice(label.length).trim().split(/\s+/).slice(0, 4);
}

describe('proctor report <top folder>', () => {
  it('reads every run below an OSWorld output folder and prints each settings group with task counts and mean scores', async () => {
    const r = await report([fx.osworldTop]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('By run settings (2 settings):');
    // gpt-4o: two dated runs of chrome/task-1 (scored 0; crashed); claude: task-2 scored 1, task-3 stopped early.
    expect(groupRow(r.out, 'pyautogui / screenshot_a11y_tree / gpt-4o')).toEqual(['2', '2', '1', '0.000']);
    expect(groupRow(r.out, 'pyautogui / screenshot / claude-3-7-sonnet-20250219')).toEqual([
      '1',
      '2',
      '1',
      '0.500',
    ]);
    // The two runs of one task on two days are two runs, named by their paths.
    expect(r.out).toContain('Run traces/20250130-1/pyautogui/screenshot_a11y_tree/gpt-4o (osworld');
    expect(r.out).toContain('Run traces/20250203-1/pyautogui/screenshot_a11y_tree/gpt-4o (osworld');
  });

  it("keeps Spider2-V's suffixes as flags of the settings, not part of the model", async () => {
    const r = await report([fx.spider2vTop, '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as {
      groups: { label: string; tasks: number; meanScore: number; settings: unknown }[];
    };
    expect(json.groups.map((g) => [g.label, g.tasks, g.meanScore])).toEqual(
      expect.arrayContaining([
        ['pyautogui / som / o4-mini-2025-04-16 [ef]', 1, 1],
        ['pyautogui / screenshot / gpt-4o-2024-05-13 [rag]', 1, 0],
      ]),
    );
    expect(json.groups).toHaveLength(2);
  });

  it('says what it looked for when a folder holds no run', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'proctor-report-empty-'));
    try {
      const r = await report([empty]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/no run folder in it or below it/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('judge and eval on a top folder', () => {
  const cli = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('calibrates every run found below the folder', async () => {
    const r = await cli(['judge', '--calibrate', fx.spider2vTop]);
    expect(r.code).toBe(0);
    expect(r.out.match(/^== .*\(run \d of 2\)$/gm)).toHaveLength(2);
    expect(r.out).toContain('pyautogui_som_o4-mini-2025-04-16_ef');
  });

  it('tries every run below the folder and names each it cannot re-grade', async () => {
    const r = await cli(['eval', fx.osworldTop]);
    expect(r.code).toBe(1);
    expect(r.err.split('\n').filter((l) => /does not name its task files/.test(l))).toHaveLength(3);
  });
});
