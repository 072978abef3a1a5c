import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  RunWriter,
  appendVerdict,
  listRuns,
  readRun,
  readTaskTrajectory,
  taskDirFor,
  taskDirOf,
} from './index';
import { describeUfoStep, readUfoEvaluation } from './ufo-reader';
import { readReportRun } from '../report/rows';
import { breakdown } from '../../shared/breakdown';

const tmp = () => mkdtempSync(join(tmpdir(), 'proctor-ufo-'));
const line = (v: unknown) => JSON.stringify(v) + '\n';

async function png(file: string, background = '#aa3322'): Promise<void> {
  await sharp({ create: { width: 40, height: 30, channels: 3, background } })
    .png()
    .toFile(file);
}

async function bigPng(file: string): Promise<void> {
  const side = 2700; // ≈ 21.9 MB stored without compression
  await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toFile(file);
}

const BASE64 = 'iVBORw0KGgo' + 'A'.repeat(5000);

/** A UFO `logs/` folder with one finished Word task and one that stopped on an error. */
async function ufoLogs(root: string): Promise<string> {
  const logs = join(root, 'ufo', 'logs');
  const task = join(logs, 'word_save_1');
  mkdirSync(join(task, 'ui_trees'), { recursive: true });
  writeFileSync(
    join(task, 'response.log'),
    line({
      Observation: 'Word is open.',
      Thought: 'Select Word for the subtask.',
      'Current Sub-Task': 'Save the document',
      ControlLabel: '3',
      ControlText: 'Document1 - Word',
      Status: 'CONTINUE',
      Step: 0,
      Agent: 'HostAgent',
      Application: 'WINWORD.EXE',
      Request: 'Save the document as notes.docx',
      Action: 'set_focus()',
      time_cost: { capture_screenshot: 0.5, get_response: 2.0, execute_action: 0.1 },
    }) +
      line({
        Observation: 'The Save button is visible.',
        Thought: 'Click Save.',
        ControlLabel: '12',
        ControlText: 'Save',
        Function: 'click_input',
        Args: { button: 'left', double: false },
        Status: 'CONTINUE',
        Plan: ['Type the name', 'Press Enter'],
        Comment: 'Saving now.',
        Step: 1,
        Subtask: 'Save the document',
        Agent: 'AppAgent',
        Application: 'WINWORD.EXE',
        Results: 'clicked',
        CleanScreenshot: 'C:\\logs\\word_save_1\\action_step1.png',
        ScreenshotImage: `data:image/png;base64,${BASE64}`,
        time_cost: {
          capture_screenshot: 0.25,
          get_control_info: 0.25,
          get_prompt_message: 0.5,
          get_response: 1.5,
          execute_action: 0.5,
          update_memory: 0.1,
        },
      }) +
      '{"Step": 2, "Agent": "AppAgent", \n' + // damaged line
      line({
        ControlLabel: '7',
        ControlText: 'File name',
        Function: 'set_edit_text',
        Args: { text: 'notes.docx' },
        Status: 'FINISH',
        Step: 3,
        Agent: 'AppAgent',
        Application: 'WINWORD.EXE',
      }),
  );
  writeFileSync(
    join(task, 'request.log'),
    line({ step: 1, prompt: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${BASE64}` } }] }),
  );
  await bigPng(join(task, 'action_step0.png'));
  await png(join(task, 'action_step1.png'));
  await png(join(task, 'action_step1_annotated.png'), '#22aa33');
  await png(join(task, 'action_step1_concat.png'));
  await png(join(task, 'action_step1_selected_controls.png'));
  // action_step3.png is missing
  await png(join(task, 'action_step_final.png'), '#000000');
  writeFileSync(
    join(task, 'ui_trees', 'ui_tree_step1.json'),
    JSON.stringify({ id: 'node_0', name: 'Word', children: [] }),
  );
  writeFileSync(
    join(task, 'evaluation.log'),
    line({
      reason: 'The document was saved as notes.docx.',
      sub_scores: [
        { name: 'opened save dialog', evaluation: 'yes' },
        { name: 'typed the name', evaluation: 'yes' },
      ],
      complete: 'yes',
      level: 'session',
      id: 0,
    }) +
      'not json at all\n' +
      line({ Reason: 'Older form.', 'Sub-score': { 'file saved': 'no' }, Complete: 'No' }),
  );

  const failed = join(logs, 'excel_sum_2');
  mkdirSync(failed, { recursive: true });
  writeFileSync(
    join(failed, 'response.log'),
    line({
      Step: 0,
      Agent: 'HostAgent',
      Application: 'EXCEL.EXE',
      Request: 'Sum column A',
      Status: 'CONTINUE',
      ControlText: 'Book1 - Excel',
    }) + line({ step: 1, status: 'ERROR', response: 'not json', error: 'JSONDecodeError: Expecting value' }),
  );
  return logs;
}

describe('UFO log folders', () => {
  it('lists a logs folder as a run of tasks, with judge verdicts from evaluation.log and states from the steps', async () => {
    const root = tmp();
    const logs = await ufoLogs(root);
    const detail = readRun(logs, root);
    expect(detail.run).toMatchObject({
      runId: 'logs',
      path: join('ufo', 'logs'),
      format: 'ufo',
      agent: 'UFO',
      tasks: 2,
      finished: 2,
      live: false,
    });
    // UFO has no rule score: its EvaluationAgent grades, over every task (excel_sum_2 has no verdict).
    expect(detail.run).toMatchObject({ gradedBy: 'judge', successRate: 0 });
    const byKey = Object.fromEntries(detail.tasks.map((t) => [t.key, t]));
    expect(byKey.word_save_1).toMatchObject({
      taskId: 'word_save_1',
      domain: 'winword',
      app: 'WINWORD.EXE',
      instruction: 'Save the document as notes.docx',
      state: 'success',
      steps: 3,
      judge: 'no', // the last verdict line
    });
    expect(byKey.word_save_1.timingMs).toBe(5700); // the time_cost of both readable lines
    expect(byKey.excel_sum_2).toMatchObject({
      state: 'agent_error',
      error: 'JSONDecodeError: Expecting value',
      domain: 'excel',
    });
  });

  it('maps each response line to a step: readable description, the line as JSON, screenshots, UI tree; never the request log', async () => {
    const root = tmp();
    const logs = await ufoLogs(root);
    const traj = readTaskTrajectory(logs, 'word_save_1');
    expect(traj.steps.map((s) => s.step)).toEqual([1, 2, 3]);
    const [host, click, type] = traj.steps;

    expect(host.response?.split('\n')[0]).toBe(
      'HostAgent step 0: set_focus() on [3] "Document1 - Word" in WINWORD.EXE — CONTINUE',
    );
    expect(host.observation).toBeUndefined(); // action_step0.png is too big
    const big = traj.problems.find((p) => p.file?.endsWith('action_step0.png'));
    expect(big?.message).toMatch(/is 2\d\.\d MB, over the 20\.0 MB limit/);
    expect(host.screenshot).toBe(join('word_save_1', 'action_step1.png'));
    expect(host.timing).toEqual({ observeMs: 500, agentMs: 2000, actMs: 100 });

    expect(click.actions).toEqual([]);
    expect(click.response?.split('\n')[0]).toBe(
      'AppAgent step 1: click_input(button="left", double=false) on [12] "Save" in WINWORD.EXE — CONTINUE',
    );
    expect(click.response).toContain('Thought: Click Save.');
    const json = JSON.parse(click.response!.slice(click.response!.indexOf('\n\n{') + 2));
    expect(json).toMatchObject({ Step: 1, ControlText: 'Save', Plan: ['Type the name', 'Press Enter'] });
    expect(json.ScreenshotImage).toMatch(/^\[image omitted: \d+ characters of base64\]$/);
    expect(click.rawAction).toEqual({ Function: 'click_input', Args: { button: 'left', double: false } });
    expect(click.response).toContain('Result: clicked'); // what it returned; no error, so no feedback
    expect(click.feedback).toBeUndefined();
    expect(click.observation).toBe(join('word_save_1', 'action_step1.png'));
    expect(click.somObservation).toBe(join('word_save_1', 'action_step1_annotated.png'));
    expect(click.a11yTable).toBe(join('word_save_1', 'ui_trees', 'ui_tree_step1.json'));
    expect(click.screenshot).toBeUndefined(); // action_step3.png is missing
    expect(click.timing).toEqual({ observeMs: 500, agentMs: 2000, actMs: 500, storeMs: 100 });

    expect(type).toMatchObject({ done: true, screenshot: join('word_save_1', 'action_step_final.png') });
    expect(type.observation).toBeUndefined();
    expect(traj.problems.some((p) => p.file?.endsWith('action_step3.png') && /missing/.test(p.message))).toBe(
      true,
    );
    expect(traj.problems.some((p) => p.file?.endsWith('response.log') && p.line === 3)).toBe(true);
    expect(traj.task).toMatchObject({
      id: 'word_save_1',
      instruction: 'Save the document as notes.docx',
      app: 'WINWORD.EXE',
    });

    const payload = JSON.stringify(traj);
    expect(payload).not.toContain(BASE64.slice(0, 200));
  });

  it('reads evaluation.log in both forms as judge verdicts, reporting lines it cannot read', async () => {
    const root = tmp();
    const logs = await ufoLogs(root);
    const { verdicts, problems } = readUfoEvaluation(join(logs, 'word_save_1', 'evaluation.log'));
    expect(verdicts).toMatchObject([
      {
        kind: 'judge',
        reason: 'The document was saved as notes.docx.',
        complete: 'yes',
        subScores: [
          { name: 'opened save dialog', evaluation: 'yes' },
          { name: 'typed the name', evaluation: 'yes' },
        ],
        options: { source: 'UFO evaluation.log', line: 1, level: 'session', id: 0 },
      },
      {
        kind: 'judge',
        reason: 'Older form.',
        complete: 'no',
        subScores: [{ name: 'file saved', evaluation: 'no' }],
        options: { line: 3 },
      },
    ]);
    expect(problems).toMatchObject([{ line: 2, severity: 'error' }]);
    const traj = readTaskTrajectory(logs, 'word_save_1');
    expect(traj.verdicts.filter((v) => v.kind === 'judge')).toHaveLength(2);
  });

  it('appends verdicts into the task folder without doubling judge verdicts it reads back from evaluation.log', async () => {
    const root = tmp();
    const logs = await ufoLogs(root);
    expect(taskDirOf(logs, 'excel_sum_2')).toBe(join(logs, 'excel_sum_2'));
    expect(() => taskDirOf(logs, '..')).toThrow(/not a UFO task key/);
    const at = new Date().toISOString();
    appendVerdict(logs, 'excel_sum_2', {
      kind: 'judge',
      reason: 'Nothing was summed.',
      subScores: [{ name: 'sum', evaluation: 'no' }],
      complete: 'no',
      model: 'judge-model',
      options: {},
      at,
    });
    appendVerdict(logs, 'excel_sum_2', { kind: 'human', author: 'ana', complete: 'unsure', at });
    expect(readFileSync(join(logs, 'excel_sum_2', 'evaluation.log'), 'utf8')).toContain(
      'Nothing was summed.',
    );
    const traj = readTaskTrajectory(logs, 'excel_sum_2');
    expect(traj.verdicts.map((v) => v.kind)).toEqual(['judge', 'human']);
    expect(traj.verdicts[0]).toMatchObject({ model: 'judge-model' });
    expect(traj.item).toMatchObject({ judge: 'no', human: 'unsure' });
    expect(traj.steps[1]).toMatchObject({ feedback: 'error: JSONDecodeError: Expecting value', actions: [] });
    expect(describeUfoStep({ step: 1, status: 'ERROR', error: 'boom' })).toBe('UFO step 1: error\nboom');
  });
});

describe('listRuns over mixed result folders', () => {
  it('finds Proctor, OSWorld, Spider2-V and UFO runs side by side', async () => {
    const root = tmp();
    const run = await RunWriter.create(join(root, 'proctor'), {
      actionSpace: 'pyautogui',
      observation: 'screenshot',
      agent: 'oracle',
      args: ['run'],
      tasks: ['demo/a'],
      taskInfo: {
        'demo/a': {
          dir: taskDirFor(
            { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'oracle' },
            'demo',
            'a',
          ),
        },
      },
    });
    run.event({ kind: 'run.finished', runId: run.runId, at: new Date().toISOString() });

    const osw = join(root, 'osworld', 'pyautogui', 'screenshot', 'gpt-4o', 'os', 't1');
    mkdirSync(osw, { recursive: true });
    writeFileSync(
      join(osw, 'traj.jsonl'),
      line({ step_num: 1, action_timestamp: '20240412@101530123000', action: 'DONE', done: true }),
    );
    writeFileSync(join(osw, 'result.txt'), '1\n');

    const s2v = join(root, 'spider2v', 'pyautogui_screenshot_gpt-4o_temp1.0_traj3', 'dbt', 't2');
    mkdirSync(join(s2v, 'screenshots'), { recursive: true });
    writeFileSync(
      join(s2v, 'trajectory.jsonl'),
      line({ step_num: 1, action_timestamp: '20240701@120000', action: 'FAIL', done: true, info: {} }),
    );
    writeFileSync(join(s2v, 'result.txt'), '0.0\n');
    // A Spider2-V task with only result.txt and its screenshots folder is not mistaken for OSWorld's layout.
    const s2vGraded = join(root, 'spider2v', 'pyautogui_screenshot_gpt-4o_temp1.0_traj3', 'dbt', 't3');
    mkdirSync(join(s2vGraded, 'screenshots'), { recursive: true });
    writeFileSync(join(s2vGraded, 'result.txt'), '1.0\n');

    await ufoLogs(root);

    const runs = listRuns(root);
    expect(runs.map((r) => r.format).sort()).toEqual(['osworld', 'proctor', 'spider2v', 'ufo']);
    const by = Object.fromEntries(runs.map((r) => [r.format, r]));
    expect(by.osworld).toMatchObject({
      path: join('osworld', 'pyautogui', 'screenshot', 'gpt-4o'),
      tasks: 1,
    });
    expect(by.spider2v).toMatchObject({
      path: join('spider2v', 'pyautogui_screenshot_gpt-4o_temp1.0_traj3'),
      tasks: 2,
      finished: 2,
      successRate: 0.5,
    });
    expect(by.ufo).toMatchObject({ path: join('ufo', 'logs'), tasks: 2 });
    expect(by.proctor).toMatchObject({ runId: run.runId, tasks: 1 });

    const empty = join(root, 'not-a-run');
    mkdirSync(join(empty, 'x', 'y'), { recursive: true });
    expect(() => readRun(empty)).toThrow(
      /not a run folder; expected a Proctor run folder .*Spider2-V.*OSWorld.*UFO/,
    );
  });
});

/** A session as current UFO (UFO²) logs it: lowercase keys, HostAgent lines without a session step, action lists. */
async function currentUfoLogs(root: string): Promise<string> {
  const logs = join(root, 'logs');
  const task = join(logs, 'notepad_task');
  mkdirSync(task, { recursive: true });
  const host = {
    observation: 'The desktop shows Notepad.',
    thought: 'Notepad fits the request.',
    current_subtask: 'Type hello in Notepad',
    status: 'ASSIGN',
    round_step: 0,
    agent_step: 0,
    round_num: 0,
    action: [
      {
        function: 'select_application_window',
        arguments: { id: '2', name: 'Untitled - Notepad' },
        target: { kind: 'window', name: 'Untitled - Notepad', id: '2', type: 'Window' },
        result: { status: 'success', error: null, result: null },
        action_string: "select_application_window(id='2', name='Untitled - Notepad')",
        status: 'CONTINUE',
      },
    ],
    request: 'Type hello in Notepad',
    agent_type: 'HostAgent',
    agent_name: 'HostAgent',
    application: '',
    execution_times: {
      DATA_COLLECTION: 0.5,
      LLM_INTERACTION: 3.0,
      ACTION_EXECUTION: 0.25,
      MEMORY_UPDATE: 0.01,
    },
  };
  const app = (
    session_step: number,
    fn: string,
    args: Record<string, unknown>,
    target: string,
    id: string,
    status: string,
    extra = {},
  ) => ({
    agent_type: 'AppAgent',
    agent_name: 'AppAgent/NOTEPAD.EXE/Untitled - Notepad',
    application_process_name: 'NOTEPAD.EXE',
    session_step,
    round_step: session_step,
    round_num: 0,
    status,
    request: 'Type hello in Notepad',
    llm_cost: 0.0123,
    observation: `Notepad at step ${session_step}.`,
    thought: `I use ${fn} on ${target}.`,
    plan: ['(1) check the text'],
    comment: '',
    action: [
      {
        function: fn,
        arguments: args,
        target: { kind: 'control', name: target, id, type: 'Edit' },
        result: { status: 'success', error: null, result: 'ok' },
        action_string: `${fn}(${Object.entries(args)
          .map(([k, v]) => `${k}=${JSON.stringify(v).replace(/"/g, "'")}`)
          .join(', ')})`,
        status,
      },
    ],
    action_type: 'UIControl',
    subtask: 'Type hello in Notepad',
    action_representation: `[Action] ${fn}(...)\n[Target] kind=control, name=${target}, id=${id}`,
    clean_screenshot_path: `logs/notepad_task/action_step${session_step}.png`,
    annotated_screenshot_path: `logs/notepad_task/action_step${session_step}_annotated.png`,
    results: 'ok',
    ...extra,
  });
  writeFileSync(
    join(task, 'response.log'),
    line(host) +
      line(app(1, 'click_input', { button: 'left', double: false }, 'Text editor', '5', 'CONTINUE')) +
      line(
        app(2, 'set_edit_text', { text: 'hello' }, 'Text editor', '5', 'FINISH', {
          action: [
            {
              function: 'set_edit_text',
              arguments: { text: 'hello' },
              target: { kind: 'control', name: 'Text editor', id: '5' },
              result: { status: 'failure', error: 'control not enabled' },
              action_string: "set_edit_text(text='hello')",
            },
          ],
        }),
      ),
  );
  for (const n of [0, 1, 2]) await png(join(task, `action_step${n}.png`));
  await png(join(task, 'action_step1_annotated.png'), '#22aa33');
  writeFileSync(
    join(task, 'evaluation.log'),
    line({
      complete: 'yes',
      sub_scores: [{ name: 'typed hello', evaluation: 'yes' }],
      reason: 'hello is in Notepad.',
      level: 'session',
      request: 'Type hello in Notepad',
      type: 'evaluation_result',
    }),
  );
  return logs;
}

describe('current UFO logs (lowercase keys)', () => {
  it('shows each step with its action, target control, thought and observation, and UFO step numbers', async () => {
    const root = tmp();
    const logs = await currentUfoLogs(root);
    const traj = readTaskTrajectory(logs, 'notepad_task');
    expect(traj.steps).toHaveLength(3);
    const [host, click, type] = traj.steps;
    expect(host.actionText).toBe(
      `select_application_window(id='2', name='Untitled - Notepad') on [2] "Untitled - Notepad"`,
    );
    expect(host.response?.split('\n')[0]).toBe(
      `HostAgent step 0: select_application_window(id='2', name='Untitled - Notepad') on [2] "Untitled - Notepad" — ASSIGN`,
    );
    expect(host.response).toContain('Subtask: Type hello in Notepad');
    expect(host.observation).toBe(join('notepad_task', 'action_step0.png')); // inferred: the step before session step 1
    expect(host.timing).toEqual({ observeMs: 500, agentMs: 3000, actMs: 250, storeMs: 10 });
    expect(click.actionText).toBe(`click_input(button='left', double=false) on [5] "Text editor"`);
    expect(click.response?.split('\n')[0]).toBe(
      `AppAgent step 1: ${click.actionText} in NOTEPAD.EXE — CONTINUE`,
    );
    expect(click.response).toContain('Observation: Notepad at step 1.');
    expect(click.response).toContain('Thought: I use click_input on Text editor.');
    expect(click.response).toContain('Cost: $0.0123'); // llm_cost, formatted
    expect(click).toMatchObject({
      observation: join('notepad_task', 'action_step1.png'),
      somObservation: join('notepad_task', 'action_step1_annotated.png'),
      screenshot: join('notepad_task', 'action_step2.png'),
    });
    expect(click.feedback).toBeUndefined();
    expect(click.response).toContain('Result: ok');
    expect(type).toMatchObject({
      done: true,
      feedback: "set_edit_text(text='hello') failed: control not enabled",
    });
    expect(traj.steps.every((s) => !/no action|step \?/.test(s.response ?? ''))).toBe(true);
    expect(traj.item).toMatchObject({
      app: 'NOTEPAD.EXE',
      state: 'success',
      judge: 'yes',
      instruction: 'Type hello in Notepad',
    });
  });

  it('lists the served logs folder itself as a run graded by its EvaluationAgent', async () => {
    const root = tmp();
    const logs = await currentUfoLogs(root);
    const runs = listRuns(logs);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      format: 'ufo',
      path: '.',
      runId: 'logs',
      tasks: 1,
      gradedBy: 'judge',
      successRate: 1,
    });
    // `proctor report` rates it by the judge too.
    const report = await readReportRun(logs);
    expect(breakdown(report.rows).overall).toMatchObject({ rate: 1, passed: 1, tasks: 1 });
  });

  it('reads legacy action strings and action_representation when there is no action list', () => {
    expect(
      describeUfoStep({
        Step: 4,
        Agent: 'AppAgent',
        Action: "type_keys(keys='hi')",
        ControlText: 'Body',
        ControlLabel: 9,
      }),
    ).toBe(`AppAgent step 4: type_keys(keys='hi') on [9] "Body"`);
    expect(
      describeUfoStep({
        session_step: 2,
        agent_type: 'AppAgent',
        action_representation: [
          '[Action] wheel_mouse_input(wheel_dist=-3)\n[Target] kind=control, name=List, id=4\n[Status] success',
        ],
      }),
    ).toBe('AppAgent step 2: wheel_mouse_input(wheel_dist=-3) on [4] "List"');
  });
});
