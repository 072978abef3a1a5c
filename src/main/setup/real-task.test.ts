// Whole runs of spreadsheet tasks on a sandbox display with the real GUI LibreOffice Calc: a Spider2-V task as the
// benchmark ships it (../shared, skipped with the reason when absent) and an in-repo task of the same shape
// (workbooks written by exceljs). Setup and postconfig are checked and timed (`task.setup` events); a failing
// postconfig step or setup step is named (task, config/postconfig, index, func) and the task is an environment
// failure (env_error / setup_error) with no verdict — never a 0 of the agent — while the report still counts it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { RunEvent } from '../../shared/run';
import { needsShared, sharedFixtures } from '../testing/shared-fixtures';
import type { Agent, AgentTurn } from '../agents/agent';
import { NoopAgent } from '../agents/noop';
import { createLocalEnvironment } from '../env/local/local-environment';
import { breakdown, readReportRun } from '../report';
import { defaultParts } from '../runner/parts';
import { runTasks } from '../runner/scheduler';
import { readTaskTrajectory } from '../store/reader';
import { validatePaths } from '../tasks/validation';
import { noGuiCalc, putQuietCalcProfile } from './testing/calc-profile';

type Json = Record<string, unknown>;

const REAL_ID = 'ba429e57-c156-45f8-bfa8-90efc1810286';
const full = sharedFixtures();
const REAL_DIR = full ? join(full.spider2vExamples, 'excel', REAL_ID) : '';
const noReal = REAL_DIR && existsSync(join(REAL_DIR, `${REAL_ID}.json`)) ? '' : `(skipped: ${needsShared})`;

const OWN_ID = '5e7a0c1d-0000-4000-8000-00000000c41c';

let root: string;

/** The in-repo task: Spider2-V's shape (copy, open, postconfig activate / sleep / python -c Ctrl+S / sleep, compare_table). */
async function writeOwnTask(): Promise<string> {
  const dir = join(root, 'own', 'excel', OWN_ID);
  mkdirSync(dir, { recursive: true });
  const book = async (a3: number, file: string) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRows([
      ['Price', 'Item'],
      [2, 'pen'],
      [a3, 'ink'],
    ]);
    await wb.xlsx.writeFile(join(dir, file));
  };
  await book(5, 'Prices.xlsx');
  await book(7, 'gold_Prices.xlsx');
  const at = (f: string) => `evaluation_examples/examples/excel/${OWN_ID}/${f}`;
  const task = {
    id: OWN_ID,
    snapshot: 'excel',
    instruction: 'Change the price of ink (A3) to 7 and save the workbook.',
    source: ['proctor setup test'],
    config: [
      {
        type: 'copyfile_from_host_to_guest',
        parameters: { src: at('Prices.xlsx'), dest: '/home/user/Prices.xlsx' },
      },
      { type: 'open', parameters: { path: '/home/user/Prices.xlsx' } },
    ],
    related_apps: ['excel'],
    action_number: 3,
    evaluator: {
      postconfig: [
        {
          type: 'activate_window',
          parameters: { window_name: 'Prices.xlsx - LibreOffice Calc', strict: true },
        },
        { type: 'sleep', parameters: { seconds: 0.5 } },
        {
          type: 'execute',
          parameters: { command: ['python', '-c', 'import pyautogui; pyautogui.hotkey("ctrl", "s");'] },
        },
        { type: 'sleep', parameters: { seconds: 0.5 } },
      ],
      func: 'compare_table',
      expected: { type: 'local_file', path: at('gold_Prices.xlsx'), dest: 'gold_Prices.xlsx' },
      result: { type: 'vm_file', path: '/home/user/Prices.xlsx', dest: 'Prices.xlsx' },
      options: { rules: [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }] },
    },
    tags: ['traditional_data_processing', 'cli+gui', 'verbose'],
  };
  writeFileSync(join(dir, `${OWN_ID}.json`), JSON.stringify(task, null, 2));
  return dir;
}

/** A copy of a task folder (assets included) under `name`, its JSON changed by `edit`. */
function variant(src: string, id: string, name: string, edit: (task: Json) => void): string {
  const dir = join(root, name, 'excel', id);
  cpSync(src, dir, { recursive: true });
  const file = join(dir, `${id}.json`);
  const task = JSON.parse(readFileSync(file, 'utf8')) as Json;
  edit(task);
  writeFileSync(file, JSON.stringify(task, null, 2));
  return dir;
}

const postconfigOf = (t: Json) =>
  (t.evaluator as { postconfig: { type: string; parameters: Json }[] }).postconfig;
const configOf = (t: Json) => t.config as { type: string; parameters: Json }[];

/** The agent of the in-repo task: a look, A3 := 7 with the keyboard, then DONE (the postconfig saves). Calc may
 * handle keys sent in quick succession out of order under load, so each move is its own step with a look between. */
const typist = (): Agent => ({
  name: 'typist',
  async start() {},
  async next(_obs, step): Promise<AgentTurn> {
    // (A first look before acting, as a model would take: keys sent while Calc is still settling can be lost.)
    if (step === 1) return { response: 'let Calc settle', actions: [{ type: 'WAIT' }] };
    if (step === 2)
      return {
        response: 'go to A3',
        actions: [
          { type: 'hotkey', keys: ['ctrl', 'home'] },
          { type: 'press', keys: ['down', 'down'] },
        ],
      };
    if (step === 3) return { response: 'look', actions: [{ type: 'WAIT' }] };
    if (step === 4) return { response: 'type 7', actions: [{ type: 'press', keys: ['7', 'enter'] }] };
    return { response: 'DONE', actions: [{ type: 'DONE' }] };
  },
});

/** Runs one task folder on a fresh sandbox display (quiet LibreOffice profile) and gives the outcome and events. */
async function run(dir: string, agent: () => Agent = () => new NoopAgent()) {
  const { tasks, problems } = await (await defaultParts()).loadTasks([dir]);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect(tasks).toHaveLength(1);
  const events: RunEvent[] = [];
  const outcome = await runTasks(tasks, {
    agent,
    agentName: 'tester',
    outDir: join(root, 'results'),
    screen: { width: 1280, height: 800 },
    maxSteps: 6,
    appCheck: () => undefined,
    onEvent: (e) => events.push(e),
    parts: {
      async createEnvironment(r) {
        const env = await createLocalEnvironment({
          width: r.width,
          height: r.height,
          home: r.home,
          notify: () => undefined,
        });
        await putQuietCalcProfile(env);
        return env;
      },
    },
  });
  const item = outcome.tasks[0];
  const setups = events.filter(
    (e): e is Extract<RunEvent, { kind: 'task.setup' }> => e.kind === 'task.setup',
  );
  return { outcome, item, setups, verdicts: readTaskTrajectory(outcome.runDir, item.key).verdicts };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'proctor-real-task-'));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The same four checks on a task folder: the task as given runs and is graded; three broken variants are named. */
function taskChecks(
  label: string,
  dirOf: () => Promise<string>,
  id: () => string,
  window: string,
  file: string,
) {
  it(`${label}: setup and postconfig run, checked and timed; the noop agent is graded (0), not an error`, async () => {
    const { outcome, item, setups, verdicts } = await run(await dirOf());
    expect(item).toMatchObject({ state: 'success', score: 0 });
    expect(verdicts).toMatchObject([
      { kind: 'rule', score: 0, metrics: [{ metric: 'compare_table', score: 0 }] },
    ]);
    expect(verdicts[0].kind === 'rule' && verdicts[0].error).toBeFalsy(); // the metric ran on both workbooks
    const [config, post] = setups;
    expect(config).toMatchObject({ phase: 'config', ok: true });
    expect(config.steps.map((s) => [s.func, s.ok])).toEqual([
      ['copyfile_from_host_to_guest', true],
      ['open', true],
    ]);
    expect(config.steps[0].check).toMatch(new RegExp(`^/home/user/${file}: \\d+ bytes$`));
    expect(config.steps[1].check).toMatch(new RegExp(`^window '${window}' after \\d+\\.\\d s$`));
    expect(config.ms).toBeGreaterThanOrEqual(config.steps[0].ms + config.steps[1].ms - 5);
    expect(post).toMatchObject({ phase: 'postconfig', ok: true });
    // The run folder, task.setup events included, is valid run format with nothing to warn about.
    const report = await validatePaths([join(outcome.runDir, 'events.jsonl')]);
    expect(report.files.flatMap((f) => f.problems)).toEqual([]);
    expect(post.steps.map((s) => [s.func, s.check])).toEqual([
      ['activate_window', `window '${window}'`],
      ['sleep', undefined],
      ['execute', 'performed natively: hotkey'],
      ['sleep', undefined],
    ]);
  }, 120_000);

  it(`${label}: a postconfig step that fails (strict activate_window on another title) is an env_error naming it, with no verdict`, async () => {
    const dir = variant(await dirOf(), id(), `${label}-badpost`, (t) => {
      postconfigOf(t)[0].parameters.window_name = window.replace('Calc', 'Writer');
    });
    const { outcome, item, setups, verdicts } = await run(dir);
    expect(item.state).toBe('env_error');
    expect(item.error).toMatch(
      new RegExp(
        `^postconfig failed: task ${id()}: postconfig step 0 \\(activate_window, /evaluator/postconfig/0\\): a window titled exactly '${window.replace('Calc', 'Writer')}' did not appear within 10 s \\(windows on screen: '${window}'\\)$`,
      ),
    );
    expect(verdicts).toEqual([]); // never graded: no score of 0 is recorded against the agent
    expect(setups.map((s) => [s.phase, s.ok])).toEqual([
      ['config', true],
      ['postconfig', false],
    ]);
    expect(setups[1].steps).toMatchObject([{ func: 'activate_window', ok: false }]);
    // The report keeps the task in the denominator, as errored, not as a failure of the agent.
    const rows = (await readReportRun(outcome.runDir)).rows;
    expect(breakdown(rows).overall).toMatchObject({ tasks: 1, passed: 0, failed: 0, errored: 1 });
  }, 120_000);

  it(`${label}: a setup step that fails is a setup_error naming it — an open of a missing file, a command exiting 127`, async () => {
    const missing = variant(await dirOf(), id(), `${label}-missing`, (t) => {
      configOf(t)[1].parameters.path = '/home/user/Missing.xlsx';
    });
    const a = await run(missing);
    expect(a.item.state).toBe('setup_error');
    expect(a.item.error).toBe(
      `setup failed: task ${id()}: config step 1 (open, /config/1): there is no file at /home/user/Missing.xlsx to open (an earlier step should have put it there)`,
    );
    expect(a.verdicts).toEqual([]);
    expect(a.setups).toMatchObject([
      {
        phase: 'config',
        ok: false,
        steps: [
          { func: 'copyfile_from_host_to_guest', ok: true },
          { func: 'open', ok: false },
        ],
      },
    ]);

    const exit127 = variant(await dirOf(), id(), `${label}-127`, (t) => {
      configOf(t).splice(1, 0, {
        type: 'execute',
        parameters: { command: ['python', '-c', 'import os; print(1)'] },
      });
    });
    const b = await run(exit127);
    expect(b.item.state).toBe('setup_error');
    expect(b.item.error).toMatch(
      new RegExp(
        `^setup failed: task ${id()}: config step 1 \\(execute, /config/1\\): the command exited with 127:\\n.*python`,
      ),
    );
    expect(b.verdicts).toEqual([]);
  }, 120_000);
}

describe.skipIf(!!noGuiCalc)(`spreadsheet tasks end to end on LibreOffice Calc ${noGuiCalc}`, () => {
  let own: string | undefined;
  const ownDir = async () => (own ??= await writeOwnTask());
  taskChecks('in-repo task', ownDir, () => OWN_ID, 'Prices.xlsx - LibreOffice Calc', 'Prices.xlsx');

  it('in-repo task: an agent that does the work scores 1 — the postconfig Ctrl+S (performed natively) saved it', async () => {
    const { item, verdicts } = await run(await ownDir(), typist);
    expect(verdicts).toMatchObject([{ kind: 'rule', score: 1 }]);
    expect(item).toMatchObject({ state: 'success', score: 1 });
  }, 120_000);

  describe.skipIf(!!noReal)(`Spider2-V task ${REAL_ID} ${noReal}`, () => {
    taskChecks(
      'Spider2-V task',
      async () => REAL_DIR,
      () => REAL_ID,
      'MaturityDate.xlsx - LibreOffice Calc',
      'MaturityDate.xlsx',
    );
  });
});
