// `proctor selftest --oracle gold` end to end on a real sandbox display with real applications: the gold agent
// closes the document the setup opened, puts the task's gold file in its place, reopens it, and the task's own
// evaluator must give it 1 while the noop agent gets 0. First on a task written here (a text file in Mousepad),
// then on a real Spider2-V spreadsheet task from ../shared in GUI LibreOffice Calc, whose postconfig saves it.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingDemoPrograms, runProctor } from '../src/main/demo/testing-env';
import { needsShared, sharedFixtures } from '../src/main/testing/shared-fixtures';

const ID = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
/** The same task with no save in its postconfig. */
const UNSAVED_ID = '7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
const missing = missingDemoPrograms();
const why = missing.length ? ` (skipped: needs ${missing.join(', ')})` : '';

function guiCalc(): boolean {
  try {
    execFileSync('dpkg', ['-s', 'libreoffice-calc'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const full = sharedFixtures();
const realTask = full ? join(full.spider2vExamples, 'excel', 'ba429e57-c156-45f8-bfa8-90efc1810286') : '';
const realWhy =
  why ||
  (!realTask || !existsSync(realTask)
    ? ` (skipped: ${needsShared})`
    : !guiCalc()
      ? ' (skipped: GUI LibreOffice Calc, libreoffice-calc, is not installed)'
      : '');

interface GoldReport {
  key: string;
  verdict: string;
  reason: string;
  setup: { ok: boolean; ms?: number };
  noop: { state: string; score?: number; ms?: number; notGraded?: string };
  gold?: { state: string; score?: number; ms?: number; why?: string; notGraded?: string };
}

describe(`proctor selftest --oracle gold${why}`, () => {
  let root: string;
  beforeAll(() => {
    if (why) return;
    root = mkdtempSync(join(tmpdir(), 'proctor-gold-e2e-'));
    // A Spider2-V-shaped task: its file and its gold beside it, named from the benchmark's repository root. Its
    // postconfig saves the document through Mousepad (a keystroke that marks it modified, then Ctrl+S).
    for (const [id, save] of [
      [ID, true],
      [UNSAVED_ID, false],
    ] as const) {
      const dir = join(root, 'evaluation_examples', 'examples', 'text', id);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'notes.txt'), 'apples\npears\n');
      writeFileSync(join(dir, 'notes_gold.txt'), 'apples\npears\nplums\n');
      const base = `evaluation_examples/examples/text/${id}`;
      const task = {
        id,
        snapshot: 'text',
        instruction: 'Add "plums" on a line of its own at the end of notes.txt and save it.',
        source: ['proctor e2e'],
        config: [
          {
            type: 'copyfile_from_host_to_guest',
            parameters: { src: `${base}/notes.txt`, dest: '/home/user/notes.txt' },
          },
          { type: 'open', parameters: { path: '/home/user/notes.txt' } },
          { type: 'sleep', parameters: { seconds: 1 } },
        ],
        related_apps: ['mousepad'],
        action_number: 3,
        evaluator: {
          postconfig: [
            { type: 'activate_window', parameters: { window_name: 'notes.txt' } },
            ...(save
              ? [
                  {
                    type: 'execute',
                    parameters: {
                      command: [
                        'xdotool',
                        'key',
                        '--clearmodifiers',
                        '--delay',
                        '100',
                        'space',
                        'BackSpace',
                        'ctrl+s',
                      ],
                    },
                  },
                ]
              : []),
            { type: 'sleep', parameters: { seconds: 1 } },
          ],
          func: 'compare_text_file',
          expected: { type: 'local_file', path: `${base}/notes_gold.txt`, dest: 'notes_gold.txt' },
          result: { type: 'vm_file', path: '/home/user/notes.txt', dest: 'notes.txt' },
        },
        tags: ['cli+gui', 'verbose'],
      };
      writeFileSync(join(dir, `${id}.json`), JSON.stringify(task, null, 2));
    }
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.skipIf(!!why)(
    'scores the gold file reopened and saved in Mousepad 1 and doing nothing 0, with the time of each phase; a postconfig that never saves is named',
    async () => {
      const out = join(root, 'out');
      const r = await runProctor(
        [
          'selftest',
          '--oracle',
          'gold',
          join(root, 'evaluation_examples', 'examples', 'text'),
          '--out',
          out,
          '--json',
        ],
        400_000,
      );
      expect(r.code, r.stderr + r.stdout).toBe(1); // the unsaved task is not sound
      const report = JSON.parse(r.stdout) as { dir: string; tasks: GoldReport[] };
      const t = report.tasks.find((x) => x.key.endsWith(ID))!;
      const unsaved = report.tasks.find((x) => x.key.endsWith(UNSAVED_ID))!;
      expect(unsaved.verdict, unsaved.reason).toBe('not saved by the application');
      expect(unsaved.reason).toContain('the postconfig did not save /home/user/notes.txt');
      expect(t.verdict, t.reason).toBe('sound');
      expect(t.setup.ok).toBe(true);
      expect(t.setup.ms).toBeGreaterThan(1000); // the sleep step ran as written
      expect(t.noop).toMatchObject({ state: 'success', score: 0 });
      expect(t.gold).toMatchObject({ state: 'success', score: 1 });
      expect(t.noop.ms).toBeGreaterThan(0);
      expect(t.gold!.ms).toBeGreaterThan(0);
      // The gold agent's run: three recorded turns (close, replace, reopen + DONE) in a run folder like any other.
      const goldRun = readdirSync(report.dir)
        .map((d) => join(report.dir, d))
        .find((d) => d.endsWith('-gold') && existsSync(join(d, 'manifest.json')));
      expect(goldRun).toBeDefined();
      const stepsFile = execFileSync('find', [goldRun!, '-path', `*${ID}/steps.jsonl`])
        .toString()
        .trim();
      const steps = readFileSync(stepsFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { response: string; actions: { type: string }[] });
      expect(steps.map((s) => s.response.split(':')[1].trim().split(' ')[0])).toEqual([
        'close',
        'put',
        'reopen',
      ]);
      expect(steps[0].actions).toEqual([{ type: 'hotkey', keys: ['alt', 'f4'] }]);
      expect(steps[2].actions).toEqual([{ type: 'DONE' }]);

      // The same oracle as a registered agent: `proctor run --agent gold` stores and grades its run like any other.
      const run = await runProctor(
        [
          'run',
          join(root, 'evaluation_examples', 'examples', 'text', ID),
          '--agent',
          'gold',
          '--out',
          join(root, 'runs'),
          '--json',
        ],
        300_000,
      );
      expect(run.code, run.stderr).toBe(0);
      const stored = JSON.parse(run.stdout) as {
        runDir: string;
        tasks: { state: string; score: number; steps: number }[];
      };
      expect(stored.runDir).toMatch(/-gold$/);
      expect(stored.tasks).toMatchObject([{ state: 'success', score: 1, steps: 3 }]);
    },
    500_000,
  );

  it.skipIf(!!realWhy)(
    `scores a real Spider2-V task's gold workbook 1 after Calc saves it, and noop 0${realWhy}`,
    async () => {
      const r = await runProctor(
        ['selftest', '--oracle', 'gold', realTask, '--out', join(root, 'out-real'), '--json'],
        600_000,
      );
      const report = JSON.parse(r.stdout || '{"tasks":[]}') as { tasks: GoldReport[] };
      const [t] = report.tasks;
      expect(t, r.stderr).toBeDefined();
      expect(t.setup.ok, t.reason).toBe(true);
      expect(t.noop.notGraded, t.reason).toBeUndefined();
      expect(t.noop.score).toBe(0);
      expect(t.verdict, t.reason).toBe('sound');
      expect(r.code).toBe(0);
    },
    700_000,
  );
});
