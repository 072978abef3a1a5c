// The pipeline's stages without a display: the choice by description (stand-in and a served model on the scripted
// OpenAI-compatible stand-in server), prefill's prompt and plan, the filter, the evaluation of an executed record.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  requestImages,
  requestText,
  startScriptedOpenAIStandin,
  type ScriptedOpenAIStandin,
} from '../../agents/testing/scripted-openai-standin';
import { projectRoot } from '../../demo/paths';
import { controlList } from './controls';
import { evaluate, standinVerdict } from './evaluate';
import { resolveStageModels, servedModel, STANDIN_MODEL } from './models';
import { prefillPrompt, promptText } from './prompts';
import { parseFilter, parsePrefill, ReplyError } from './replies';
import { runPipeline } from './run';
import { standinChoose, standinFilter, standinPrefill } from './standin';
import { loadTemplates } from './templates';
import { calcTree, impressTree, writerTree } from './testing/trees';
import { layoutOf } from './records';
import { writeWorkbenchLogs } from './workbench-logs';
import { readUfoTask } from '../../store/ufo-reader';

const ufoSchema = (name: string) =>
  new Ajv({ strict: false }).compile(
    JSON.parse(readFileSync(join(projectRoot, 'fixtures/ufo', name), 'utf8')) as object,
  );
let dir: string;
let standin: ScriptedOpenAIStandin | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'proctor-dataflow-stages-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

describe('choose_template', () => {
  it('the bundled templates are described, and the stand-in picks by description, never by file name', () => {
    const writer = loadTemplates('writer');
    const calc = loadTemplates('calc');
    expect(Object.keys(writer.descriptions).length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(calc.descriptions).length).toBeGreaterThanOrEqual(3);
    // file names that mislead: the list is in "memo.odt", the memo in "list.odt"
    const descriptions = {
      'memo.odt': 'A bulleted shopping list of items.',
      'list.odt': 'A memo with a heading and lines of text to edit, for bold or italic words.',
    };
    expect(
      JSON.parse(
        standinChoose({
          task: 'Make the words "text to edit" in the memo bold',
          app: 'writer',
          descriptions,
        }),
      ),
    ).toHaveProperty(['list.odt']);
    expect(
      Object.keys(
        JSON.parse(
          standinChoose({
            task: 'Add the total of the Q1 sales figures',
            app: 'calc',
            descriptions: calc.descriptions,
          }),
        ),
      ),
    ).toEqual(['sales.xlsx']);
  });

  it("a served chooser is given the task text and the descriptions; an answer naming no template is re-asked once, then the task's error (instantiation_fail, valid for UFO's schema)", async () => {
    standin = await startScriptedOpenAIStandin([
      { kind: 'text', content: '{"report.docx": "looks right"}' },
      { kind: 'text', content: 'I would take report.docx' },
    ]);
    const task = join(dir, 'task-file-name-not-for-the-model.json');
    writeFileSync(
      task,
      JSON.stringify({
        app: 'Word',
        unique_id: 'c1',
        task: 'Bold the phrase "text to edit"',
        refined_steps: ['select it', 'press Bold'],
      }),
    );
    const out = join(dir, 'choose-fail');
    const models = resolveStageModels({ model: 'chooser', baseUrl: standin.baseUrl });
    const [o] = await runPipeline([task], { mode: 'instantiation', out, models });
    expect(standin.requests).toHaveLength(2);
    const prompt = requestText(standin.requests[0]);
    expect(prompt).toContain('Bold the phrase "text to edit"');
    expect(prompt).toContain('"memo.odt": A short text memo');
    expect(prompt).not.toContain('task-file-name-not-for-the-model');
    // each template's screenshot, labelled by its own file name
    expect(prompt).toContain('Screenshot of "memo.odt":');
    expect(requestImages(standin.requests[0])).toEqual(
      ['memo.odt', 'shopping.odt', 'contacts.odt'].map(
        (f) =>
          `data:image/jpeg;base64,${readFileSync(join(projectRoot, 'resources/dataflow/templates/writer/images', `${f}.jpg`)).toString('base64')}`,
      ),
    );
    expect(o.route).toMatchObject({ status: 'filed', type: 'instantiation', bucket: 'instantiation_fail' });
    const record = JSON.parse(readFileSync(o.route!.target!, 'utf8'));
    expect(record.instantiation_result.choose_template).toEqual({
      result: null,
      error: expect.stringMatching(/^ReplyError: the reply holds no JSON object/),
    });
    expect(record.instantiation_result.prefill).toEqual({ result: null, error: null });
    expect(Object.keys(record.time_cost)).toEqual([
      'choose_template',
      'prefill',
      'instantiation_evaluation',
      'execute',
      'execute_eval',
      'total',
    ]);
    expect(record.time_cost.prefill).toBeNull();
    expect(record.app).toBe('writer');
    const validate = ufoSchema('instantiation_schema.json');
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect(readFileSync(join(out, 'logs/c1/choose/reply-2.txt'), 'utf8')).toBe('I would take report.docx');
  });
});

describe('prefill', () => {
  const controls = controlList(writerTree());

  it('tells the model the numbered controls really read, the task, the steps, the screenshot and only the functions that run', () => {
    const messages = prefillPrompt({
      task: 'Bold "text to edit"',
      steps: ['Select it', 'Press Bold'],
      app: 'writer',
      controls,
      screenshot: 'data:image/jpeg;base64,AAAA',
    });
    const text = promptText(messages);
    expect(text).toContain('[4] Button (toggle-button) "Bold"');
    expect(text).toContain('[9] Edit (paragraph) "This is a line of text to edit."');
    expect(text).toContain('1. Select it\n2. Press Bold');
    expect(text).toContain('LibreOffice Writer on Linux');
    expect(text).toContain('select_text(text)');
    expect(text).not.toContain('insert_table');
    expect(text).toContain('[image]');
  });

  it("the stand-in plans on the document's controls; the plan parses into steps 1..n with labels", () => {
    const p = parsePrefill(
      standinPrefill({ task: 'Make the words "text to edit" bold', steps: [], app: 'writer', controls }),
    );
    expect(p.newTask).toBe(
      'Make the words "text to edit" in the line "This is a line of text to edit." bold.',
    );
    expect(p.plan).toEqual([
      {
        Step: 1,
        Subtask: 'Select "text to edit"',
        ControlLabel: '9',
        ControlText: 'This is a line of text to edit.',
        Function: 'select_text',
        Args: { text: 'text to edit' },
      },
      {
        Step: 2,
        Subtask: 'Press Bold',
        ControlLabel: '4',
        ControlText: 'Bold',
        Function: 'click_input',
        Args: { button: 'left', double: false },
      },
    ]);
    const calc = parsePrefill(
      standinPrefill({
        task: 'Add the total of the Q1 column',
        steps: [],
        app: 'calc',
        controls: controlList(calcTree()),
      }),
    );
    expect(calc.plan.map((s) => [s.ControlText, s.Function, s.Args.keys ?? null])).toEqual([
      ['B3', 'click_input', null],
      ['', 'keyboard_input', '{DOWN}=SUM(B2:B3)\n'],
    ]);
    expect(calc.plan[1].ControlLabel).toBeNull();
    // a request it cannot plan: no steps
    expect(
      parsePrefill(standinPrefill({ task: 'Make it nicer', steps: [], app: 'writer', controls })).plan,
    ).toEqual([]);
  });

  it('the stand-in plans Impress requests that need no text selection: a new slide (Ctrl+M), a text box reworded', () => {
    const deck = controlList(impressTree());
    const added = parsePrefill(
      standinPrefill({
        task: 'Add a new slide after the "Quarterly review" slide',
        steps: [],
        app: 'impress',
        controls: deck,
      }),
    );
    expect(added.newTask).toBe(
      'Insert a new slide after the current slide (the one showing "Quarterly review").',
    );
    expect(added.plan).toEqual([
      {
        Step: 1,
        Subtask: 'Insert a new slide (Ctrl+M)',
        ControlLabel: null,
        ControlText: '',
        Function: 'keyboard_input',
        Args: { keys: '{VK_CONTROL}m', control_focus: false },
      },
    ]);
    const reworded = parsePrefill(
      standinPrefill({
        task: 'Change the slide title "Quarterly review" to "Q3 review"',
        steps: [],
        app: 'impress',
        controls: deck,
      }),
    );
    expect(
      reworded.plan.map((s) => [s.ControlLabel, s.ControlText, s.Function, s.Args.keys ?? null]),
    ).toEqual([
      ['3', 'Quarterly review', 'set_edit_text', null],
      [null, '', 'keyboard_input', '{ESC}'],
    ]);
    expect(reworded.plan[0].Args).toEqual({ text: 'Q3 review', clear_current_text: true });
    // a text the slide does not show, or no new text: no plan (filtered out as Non_task)
    expect(
      parsePrefill(
        standinPrefill({
          task: 'Change the title "Annual report" to "X"',
          steps: [],
          app: 'impress',
          controls: deck,
        }),
      ).plan,
    ).toEqual([]);
    expect(
      parsePrefill(standinPrefill({ task: 'Make the title bold', steps: [], app: 'impress', controls: deck }))
        .plan,
    ).toEqual([]);
  });

  it('repairs what UFO got wrong in replies and rejects what no executor runs', () => {
    // Actions_plan as a string (UFO's prompt asked for one), a trailing comma, a code fence
    const asString =
      '```json\n{"New_task": "x", "Actions_plan": "[{\\"Step\\": 3, \\"Subtask\\": \\"s\\", \\"ControlLabel\\": 4, \\"ControlText\\": \\"Bold\\", \\"Function\\": \\"click_input\\", \\"Args\\": {}}]",}\n```';
    expect(parsePrefill(asString).plan).toEqual([
      { Step: 1, Subtask: 's', ControlLabel: '4', ControlText: 'Bold', Function: 'click_input', Args: {} },
    ]);
    expect(() =>
      parsePrefill('{"New_task": "x", "Actions_plan": [{"Function": "type_keys", "Args": {}}]}'),
    ).toThrow(/"type_keys" is not a function the executor runs/);
    expect(() =>
      parsePrefill(
        '{"New_task": "x", "Actions_plan": [{"Function": "click_input", "ControlText": "", "Args": {}}]}',
      ),
    ).toThrow(/acts on a control/);
    expect(() => parsePrefill('{"New_task": "", "Actions_plan": []}')).toThrow(ReplyError);
  });
});

describe('filter', () => {
  it('judges a planned request doable and a vague one Non_task; replies parse to {judge, thought, request_type}', () => {
    expect(parseFilter(standinFilter({ request: 'Bold "x"', app: 'writer', planSteps: 2 }))).toMatchObject({
      judge: true,
      request_type: 'None',
    });
    expect(
      parseFilter(standinFilter({ request: 'Make it nicer', app: 'writer', planSteps: 0 })),
    ).toMatchObject({ judge: false, request_type: 'Non_task' });
    expect(parseFilter('{"judge": "false", "thought": "needs Outlook", "type": "App_involve"}')).toEqual({
      judge: false,
      thought: 'needs Outlook',
      request_type: 'App_involve',
    });
    expect(() => parseFilter('{"judge": true, "type": "Maybe"}')).toThrow(/not one of None, Non_task/);
  });
});

describe('evaluate', () => {
  const png = (file: string, grey: number) =>
    sharp({ create: { width: 32, height: 24, channels: 3, background: { r: grey, g: grey, b: grey } } })
      .png()
      .toFile(file);
  const executed = (success: (boolean | null)[]) => ({
    unique_id: 'e1',
    app: 'writer',
    original: { original_task: 'Make the title bold', original_steps: [] },
    execution_result: { result: null, error: null },
    instantiation_result: {
      choose_template: { result: '/x/e1.odt', error: null },
      prefill: {
        result: {
          instantiated_request: 'Make "Team memo" bold',
          instantiated_plan: success.map((s, i) => ({
            Step: i + 1,
            Subtask: `step ${i + 1}`,
            ControlLabel: s === true ? '4' : null,
            ControlText: 'Bold',
            Function: 'click_input',
            Args: {},
            Success: s,
            MatchedControlText: s === true ? 'Bold' : null,
          })),
        },
        error: null,
      },
      instantiation_evaluation: { result: { judge: true, thought: 't', request_type: 'None' }, error: null },
    },
    time_cost: {
      choose_template: 0.1,
      prefill: 2,
      instantiation_evaluation: 0.1,
      execute: 5,
      execute_eval: null,
      total: 7.2,
    },
  });

  it('the stand-in says yes only when every step ran and the screen changed, no when a step failed (named as the stand-in)', async () => {
    const logs = join(dir, 'eval-standin');
    mkdirSync(logs, { recursive: true });
    await png(join(logs, 'action_step0.png'), 10);
    await png(join(logs, 'action_step_final.png'), 200);
    expect(standinVerdict(executed([true, true]), logs)).toMatchObject({
      complete: 'yes',
      reason: expect.stringContaining(STANDIN_MODEL),
    });
    expect(standinVerdict(executed([true, false]), logs)).toMatchObject({
      complete: 'no',
      sub_scores: { 'step 2: step 2': 'no' },
    });
    await png(join(logs, 'action_step_final.png'), 10);
    expect(standinVerdict(executed([true, true]), logs).complete).toBe('unsure');
    const judged = await evaluate(
      executed([true, true]),
      logs,
      resolveStageModels({ model: STANDIN_MODEL }).evaluate,
      () => {},
    );
    expect(judged.time_cost).toMatchObject({ execute: 5, execute_eval: expect.any(Number) });
    expect((judged.time_cost as { total: number }).total).toBeGreaterThanOrEqual(7.2);
    const validate = ufoSchema('execution_schema.json');
    expect(validate(judged), JSON.stringify(validate.errors)).toBe(true);
  });

  it('a served judge is sent the instantiated request (not the abstract task), the steps and the final screenshot', async () => {
    const logs = join(dir, 'eval-served');
    mkdirSync(logs, { recursive: true });
    for (const [n, g] of [
      ['action_step0', 10],
      ['action_step1', 60],
      ['action_step_final', 250],
    ] as const)
      await png(join(logs, `${n}.png`), g);
    standin = await startScriptedOpenAIStandin([
      {
        kind: 'text',
        content: JSON.stringify({
          reason: 'The title is bold.',
          sub_scores: { 'title bold': 'yes' },
          complete: 'yes',
        }),
      },
    ]);
    const model = servedModel({
      endpoint: { baseUrl: standin.baseUrl, model: 'judge' },
      sources: { baseUrl: 'flag', model: 'flag', apiKey: 'none' },
    });
    const judged = await evaluate(executed([true]), logs, model, () => {});
    const text = requestText(standin.requests[0]);
    expect(text).toContain('THE REQUEST\nMake "Team memo" bold');
    expect(text).toContain('LibreOffice Writer on Linux');
    expect(text).toContain('FINAL SCREEN (action_step_final.png: the end state)');
    expect(requestImages(standin.requests[0])).toHaveLength(3);
    expect(judged.execution_result).toEqual({
      result: { reason: 'The title is bold.', sub_scores: { 'title bold': 'yes' }, complete: 'yes' },
      error: null,
    });
  });
});

describe('the log folder the workbench reads', () => {
  it('shows each executed step with the control matched, the planned step beside it, the screenshots and the verdict', async () => {
    const out = join(dir, 'wb');
    const layout = layoutOf(out);
    const exec = join(out, 'logs/w1/execute');
    mkdirSync(exec, { recursive: true });
    const png = (f: string, g: number) =>
      sharp({ create: { width: 16, height: 16, channels: 3, background: { r: g, g, b: g } } })
        .png()
        .toFile(join(exec, f));
    for (const [f, g] of [
      ['action_step0.png', 1],
      ['action_step1.png', 2],
      ['action_step2.png', 3],
      ['action_step_final.png', 4],
    ] as const)
      await png(f, g);
    const record = {
      unique_id: 'w1',
      app: 'writer',
      original: { original_task: 'Bold the title', original_steps: [] },
      execution_result: {
        result: { reason: 'done', sub_scores: { bold: 'no' }, complete: 'no' },
        error: { type: 'ControlNotFound', message: 'step 2: control not found', traceback: '' },
      },
      instantiation_result: {
        choose_template: { result: '/x/w1.odt', error: null },
        prefill: {
          result: {
            instantiated_request: 'Make "Team memo" bold',
            instantiated_plan: [
              {
                Step: 1,
                Subtask: 'Select the title',
                ControlLabel: null,
                ControlText: '',
                Function: 'select_text',
                Args: { text: 'Team memo' },
                Success: true,
                MatchedControlText: null,
              },
              {
                Step: 2,
                Subtask: 'Press Bold',
                ControlLabel: null,
                ControlText: 'Boldest',
                Function: 'click_input',
                Args: {},
                Success: false,
                MatchedControlText: null,
              },
              {
                Step: 3,
                Subtask: 'Save',
                ControlLabel: null,
                ControlText: '',
                Function: 'keyboard_input',
                Args: { keys: '{VK_CONTROL}s' },
                Success: null,
                MatchedControlText: null,
              },
            ],
          },
          error: null,
        },
        instantiation_evaluation: {
          result: { judge: true, thought: 't', request_type: 'None' },
          error: null,
        },
      },
      time_cost: {},
    };
    await writeWorkbenchLogs(record, layout, 'dataflow/execution_fail');
    const t = readUfoTask(layout.logs, 'w1');
    expect(t.item).toMatchObject({
      app: 'LibreOffice Writer',
      instruction: 'Make "Team memo" bold',
      judge: 'no',
      steps: 3,
    });
    expect(t.steps.map((s) => s.actionText)).toEqual([
      'select_text(text="Team memo")',
      'click_input()',
      'keyboard_input(keys="{VK_CONTROL}s")',
    ]);
    expect(t.steps[1].feedback).toBe('click_input() failed: ControlNotFound: step 2: control not found');
    expect(t.steps[1].response).toContain('Observation: planned: click_input({}) on "Boldest"');
    expect(t.steps[1].response).toContain('dataflow record filed as dataflow/execution_fail');
    // the step never reached shows the screen the execution ended on, which is also the one after the failed step
    expect(t.steps.map((s) => s.observation)).toEqual([
      'w1/action_step1.png',
      'w1/action_step2.png',
      'w1/action_step_final.png',
    ]);
    expect(t.steps[1].screenshot).toBe('w1/action_step_final.png');
    expect(t.problems).toEqual([]);
  });
});

describe('the bundled demo tasks', () => {
  it('are valid UFO task files, at least two per app (Writer, Calc, Impress), one meant to be filtered out', async () => {
    const { readTask } = await import('./task');
    const { readdirSync } = await import('node:fs');
    const folder = resolve(projectRoot, 'resources/dataflow/tasks');
    const tasks = await Promise.all(readdirSync(folder).map((f) => readTask(join(folder, f))));
    const ok = tasks.map((t) => (t.ok ? t.task : undefined));
    expect(ok.every(Boolean), JSON.stringify(tasks.filter((t) => !t.ok))).toBe(true);
    expect(ok.filter((t) => t!.app === 'writer').length).toBeGreaterThanOrEqual(2);
    expect(ok.filter((t) => t!.app === 'calc').length).toBeGreaterThanOrEqual(2);
    expect(ok.filter((t) => t!.app === 'impress').length).toBeGreaterThanOrEqual(2);
    expect(new Set(ok.map((t) => t!.uniqueId)).size).toBe(ok.length);
  });
});
