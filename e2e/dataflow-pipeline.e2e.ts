// UFO's dataflow pipeline on GUI LibreOffice Writer, Calc and Impress in a sandbox display, through the command line: a
// request becomes a saved document that really changed as asked (read back with jszip / exceljs; an Impress deck
// gains a slide, a slide's text is reworded), records valid
// against UFO's unmodified schemas, filed in the right bucket; a vague request is filtered out and never executed;
// a hand-written instantiated plan is executed step by step and stops at its first failing step.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requestImages,
  requestText,
  startScriptedOpenAIStandin,
} from '../src/main/agents/testing/scripted-openai-standin';
import { main } from '../src/main/cli/main';
import { projectRoot } from '../src/main/demo/paths';
import { officeGuiMissingHere } from '../src/main/env/local/testing/office-docs';
import { listRuns } from '../src/main/store/reader';
import { readUfoTask } from '../src/main/store/ufo-reader';

const why = officeGuiMissingHere;
const tasks = resolve(projectRoot, 'resources/dataflow/tasks');
const templates = resolve(projectRoot, 'resources/dataflow/templates');
const schema = (name: string) =>
  new Ajv({ strict: false, allErrors: true }).compile(
    JSON.parse(readFileSync(join(projectRoot, 'fixtures/ufo', name), 'utf8')) as object,
  );
const validExecution = schema('execution_schema.json');
const validInstantiation = schema('instantiation_schema.json');
const readJson = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function odtContent(file: string): Promise<string> {
  return (await JSZip.loadAsync(readFileSync(file))).file('content.xml')!.async('string');
}

/** The names of the automatic text styles of content.xml that make text bold. */
const boldStyles = (xml: string) =>
  [
    ...xml.matchAll(
      /<style:style style:name="([^"]+)" style:family="text"><style:text-properties [^>]*fo:font-weight="bold"/g,
    ),
  ].map((m) => m[1]);

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe.skipIf(!!why)(`the dataflow pipeline on GUI LibreOffice${why ? ` (skipped: ${why})` : ''}`, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'proctor-dataflow-e2e-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('run: Writer and Calc requests become saved documents changed as asked; records valid and filed; a vague request is filtered out, not executed', async () => {
    const out = join(dir, 'run');
    const r = await cli([
      'dataflow',
      'run',
      join(tasks, 'writer_bold_phrase.json'),
      join(tasks, 'calc_total_column.json'),
      join(tasks, 'writer_vague.json'),
      '--out',
      out,
      '--model',
      'builtin-standin',
    ]);
    expect(r.code, r.out + r.err).toBe(0);
    const results = join(out, 'results');

    // Writer: "text to edit" is in a bold span of the saved document; the instantiated copy is the untouched template
    const writerRecord = readJson(join(results, 'dataflow/execution_pass/writer_bold_phrase.json'));
    const xml = await odtContent(join(results, 'saved_document/executed/writer_bold_phrase.odt'));
    const bold = boldStyles(xml);
    expect(bold.length, xml).toBeGreaterThan(0);
    expect(xml).toMatch(
      new RegExp(`<text:span text:style-name="(${bold.join('|')})">text to edit</text:span>`),
    );
    expect(
      readFileSync(join(results, 'saved_document/writer_bold_phrase.odt')).equals(
        readFileSync(join(templates, 'writer/memo.odt')),
      ),
    ).toBe(true);

    // Calc: B6 holds =SUM(B2:B5), computed by LibreOffice as 448
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      readFileSync(join(results, 'saved_document/executed/calc_total_column.xlsx')) as unknown as ArrayBuffer,
    );
    const b6 = wb.worksheets[0].getCell('B6').value as { formula?: string; result?: unknown };
    expect(b6).toMatchObject({ formula: 'SUM(B2:B5)', result: 448 });
    const calcRecord = readJson(join(results, 'dataflow/execution_pass/calc_total_column.json'));

    for (const rec of [writerRecord, calcRecord]) {
      expect(validExecution(rec), JSON.stringify(validExecution.errors)).toBe(true);
      const plan = rec.instantiation_result.prefill.result.instantiated_plan as Record<string, unknown>[];
      expect(plan.every((s) => s.Success === true)).toBe(true);
      // a step on a control records the control matched; a window-level step none
      for (const s of plan) expect(s.MatchedControlText === null).toBe(s.ControlText === '');
      for (const s of plan) if (s.ControlText === '') expect(s.ControlLabel).toBeNull();
      expect(rec.execution_result.result.complete).toBe('yes');
      const t = rec.time_cost as Record<string, number>;
      expect(t.total).toBeGreaterThanOrEqual(
        t.choose_template + t.prefill + t.instantiation_evaluation + t.execute + t.execute_eval - 0.002,
      );
      const shots = readdirSync(join(out, 'logs', rec.unique_id, 'execute'));
      expect(shots).toEqual(
        expect.arrayContaining([
          'action_step0.png',
          'action_step1.png',
          'action_step_final.png',
          'execute_log.json',
        ]),
      );
    }
    expect(readFileSync(join(out, 'logs/writer_bold_phrase/prefill/controls.txt'), 'utf8')).toMatch(
      /\] Button \(toggle-button\) "Bold"/,
    );

    // the vague request: instantiation_fail-like, filed as a dataflow fail, nothing executed
    const vague = readJson(join(results, 'dataflow/execution_fail/writer_vague.json'));
    expect(vague.instantiation_result.instantiation_evaluation.result).toMatchObject({
      judge: false,
      request_type: 'Non_task',
    });
    expect(vague.time_cost.execute).toBeNull();
    expect(existsSync(join(out, 'logs/writer_vague/execute'))).toBe(false);
    expect(validExecution(vague), JSON.stringify(validExecution.errors)).toBe(true);
    expect(r.out).toMatch(/3 tasks in [\d.]+ s: 2 dataflow\/execution_pass, 1 dataflow\/execution_fail/);

    // what proctor serve shows: the logs folder as a run of three judged tasks, each step the control acted on,
    // the plan's step beside it, the screenshot before it and after the last one
    const [run] = listRuns(out);
    expect(run).toMatchObject({ path: 'logs', tasks: 3, finished: 3 });
    const shown = readUfoTask(join(out, 'logs'), 'calc_total_column');
    expect(shown.item).toMatchObject({
      judge: 'yes',
      app: 'LibreOffice Calc',
      instruction: calcRecord.instantiation_result.prefill.result.instantiated_request,
    });
    expect(shown.steps.map((s) => s.actionText)).toEqual([
      expect.stringMatching(/^click_input\(.*\) on \[\d+\] "B5"$/),
      expect.stringMatching(/^keyboard_input\(keys="\{DOWN\}=SUM\(B2:B5\)\\n"/),
    ]);
    expect(shown.steps.map((s) => s.observation)).toEqual([
      'calc_total_column/action_step1.png',
      'calc_total_column/action_step2.png',
    ]);
    expect(shown.steps[1].screenshot).toBe('calc_total_column/action_step_final.png');
    expect(shown.steps[0].response).toContain('Observation: planned: click_input');
    expect(shown.steps[0].response).toContain('dataflow record filed as dataflow/execution_pass');
    expect(readUfoTask(join(out, 'logs'), 'writer_vague').steps[0].feedback).toMatch(/not executed/);
  }, 240_000);

  it('run: Impress requests become saved decks changed as asked (one more slide; the title reworded); records valid and filed', async () => {
    const out = join(dir, 'impress');
    const r = await cli([
      'dataflow',
      'run',
      join(tasks, 'impress_new_slide.json'),
      join(tasks, 'impress_retitle.json'),
      '--out',
      out,
      '--model',
      'builtin-standin',
    ]);
    expect(r.code, r.out + r.err).toBe(0);
    const results = join(out, 'results');
    const pages = (xml: string) => [...xml.matchAll(/<draw:page /g)].length;
    const texts = (xml: string) => [...xml.matchAll(/<text:p[^>]*>([^<]*)<\/text:p>/g)].map((m) => m[1]);

    // a new slide: the saved deck has two pages, the first still the review slide; the template had one
    const before = await odtContent(join(templates, 'impress/review.odp'));
    const added = await odtContent(join(results, 'saved_document/executed/impress_new_slide.odp'));
    expect(pages(before)).toBe(1);
    expect(pages(added), added).toBe(2);
    expect(texts(added)).toEqual(expect.arrayContaining(['Quarterly review', 'Hiring starts in May']));

    // the title reworded: the saved slide's text box holds the new text only
    const retitled = await odtContent(join(results, 'saved_document/executed/impress_retitle.odp'));
    expect(pages(retitled)).toBe(1);
    expect(texts(retitled), retitled).toEqual(['Welcome aboard']);
    expect(
      readFileSync(join(results, 'saved_document/impress_retitle.odp')).equals(
        readFileSync(join(templates, 'impress/welcome.odp')),
      ),
    ).toBe(true);

    for (const id of ['impress_new_slide', 'impress_retitle']) {
      const rec = readJson(join(results, `dataflow/execution_pass/${id}.json`));
      expect(validExecution(rec), JSON.stringify(validExecution.errors)).toBe(true);
      expect(rec.app).toBe('impress');
      const plan = rec.instantiation_result.prefill.result.instantiated_plan as Record<string, unknown>[];
      expect(plan.length).toBeGreaterThan(0);
      expect(plan.every((s) => s.Success === true)).toBe(true);
      expect(rec.execution_result.result.complete).toBe('yes');
    }
    expect(
      readJson(join(results, 'dataflow/execution_pass/impress_retitle.json')).instantiation_result.prefill
        .result.instantiated_plan[0],
    ).toMatchObject({ Function: 'set_edit_text', MatchedControlText: 'Welcome to the team' });
    expect(r.out).toMatch(/2 tasks in [\d.]+ s: 2 dataflow\/execution_pass/);
  }, 180_000);

  it("a served model (OpenAI-compatible server) per stage: prefill sees the opened copy's controls and screenshot; the filter's no means nothing is executed", async () => {
    const server = await startScriptedOpenAIStandin([
      { kind: 'text', content: '{"memo.odt": "it has a line of text to edit"}' },
      // an Actions_plan as a string, as UFO's own prompt asked for one
      {
        kind: 'text',
        content: JSON.stringify({
          Observation: 'a memo',
          Thought: 't',
          New_task: 'Make the memo look professional',
          Actions_plan: JSON.stringify([
            {
              Step: 1,
              Subtask: 'Bold',
              ControlLabel: '1',
              ControlText: 'Bold',
              Function: 'click_input',
              Args: {},
            },
          ]),
        }),
      },
      {
        kind: 'text',
        content: '{"judge": false, "thought": "subjective: no checkable outcome", "type": "Non_task"}',
      },
    ]);
    try {
      const out = join(dir, 'served');
      const r = await cli([
        'dataflow',
        'run',
        join(tasks, 'writer_bold_phrase.json'),
        '--out',
        out,
        '--base-url',
        server.baseUrl,
        '--model',
        'served-planner',
        '--eval-model',
        'builtin-standin',
      ]);
      expect(r.code, r.out + r.err).toBe(0);
      expect(server.requests.map((q) => q.body?.model)).toEqual([
        'served-planner',
        'served-planner',
        'served-planner',
      ]);
      const prefill = requestText(server.requests[1]);
      // the control list read from the opened copy in LibreOffice (upstream sent none), and its screenshot
      expect(prefill).toMatch(/\[\d+\] Button \(toggle-button\) "Bold"/);
      expect(prefill).toMatch(/\[\d+\] Edit \(paragraph\) "This is a line of text to edit\."/);
      expect(requestImages(server.requests[1])).toHaveLength(1);
      expect(requestText(server.requests[2])).toContain('Make the memo look professional');
      const rec = readJson(join(out, 'results/dataflow/execution_fail/writer_bold_phrase.json'));
      expect(validExecution(rec), JSON.stringify(validExecution.errors)).toBe(true);
      expect(rec.instantiation_result.prefill.result.instantiated_plan).toEqual([
        {
          Step: 1,
          Subtask: 'Bold',
          ControlLabel: '1',
          ControlText: 'Bold',
          Function: 'click_input',
          Args: {},
          Success: null,
          MatchedControlText: null,
        },
      ]);
      expect(rec.instantiation_result.instantiation_evaluation.result).toEqual({
        judge: false,
        thought: 'subjective: no checkable outcome',
        request_type: 'Non_task',
      });
      expect(existsSync(join(out, 'logs/writer_bold_phrase/execute'))).toBe(false);
      expect(existsSync(join(out, 'logs/writer_bold_phrase/prefill/screenshot.png'))).toBe(true);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('instantiate then execute: a hand-written plan runs step by step on Writer and stops at the first failing step (execution_fail)', async () => {
    const out = join(dir, 'staged');
    const inst = await cli([
      'dataflow',
      'instantiate',
      join(tasks, 'writer_bold_phrase.json'),
      '--out',
      out,
      '--model',
      'builtin-standin',
    ]);
    expect(inst.code, inst.out + inst.err).toBe(0);
    const file = join(out, 'results/instantiation/instantiation_pass/writer_bold_phrase.json');
    const record = readJson(file);
    expect(validInstantiation(record), JSON.stringify(validInstantiation.errors)).toBe(true);
    expect(record.time_cost.execute).toBeNull();
    // the plan, by hand: select "to edit" (window level), press Bold, then a control the window does not have
    record.instantiation_result.prefill.result.instantiated_plan = [
      {
        Step: 1,
        Subtask: 'Select "to edit"',
        ControlLabel: null,
        ControlText: '',
        Function: 'select_text',
        Args: { text: 'to edit' },
      },
      {
        Step: 2,
        Subtask: 'Press Bold',
        ControlLabel: '99',
        ControlText: 'Bold',
        Function: 'click_input',
        Args: { button: 'left', double: false },
      },
      {
        Step: 3,
        Subtask: 'Press a button that is not there',
        ControlLabel: '7',
        ControlText: 'Make It Pretty',
        Function: 'click_input',
        Args: {},
      },
      {
        Step: 4,
        Subtask: 'Never reached',
        ControlLabel: null,
        ControlText: '',
        Function: 'keyboard_input',
        Args: { keys: 'x' },
      },
    ];
    const hand = join(dir, 'hand-written.json');
    writeFileSync(hand, JSON.stringify(record));
    const ex = await cli([
      'dataflow',
      'execute',
      hand,
      '--out',
      out,
      '--model',
      'builtin-standin',
      '--strict',
    ]);
    expect(ex.code, ex.out + ex.err).toBe(0);
    const done = readJson(join(out, 'results/execution/execution_fail/writer_bold_phrase.json'));
    expect(validExecution(done), JSON.stringify(validExecution.errors)).toBe(true);
    const plan = done.instantiation_result.prefill.result.instantiated_plan;
    expect(plan.map((s: Record<string, unknown>) => s.Success)).toEqual([true, true, false, null]);
    expect(plan.map((s: Record<string, unknown>) => s.MatchedControlText)).toEqual([
      null,
      'Bold',
      null,
      null,
    ]);
    expect(plan[1].ControlLabel).not.toBe('99'); // the label of the control really matched
    expect(done.execution_result.error).toMatchObject({
      type: 'ControlNotFound',
      message: expect.stringContaining('step 3'),
    });
    expect(done.execution_result.result.complete).toBe('no');
    // the steps that ran changed the saved document; the instantiated copy stayed as it was
    const xml = await odtContent(join(out, 'results/saved_document/executed/writer_bold_phrase.odt'));
    expect(xml).toMatch(
      new RegExp(`<text:span text:style-name="(${boldStyles(xml).join('|')})">to edit</text:span>`),
    );
    expect(
      readFileSync(join(out, 'results/saved_document/writer_bold_phrase.odt')).equals(
        readFileSync(join(templates, 'writer/memo.odt')),
      ),
    ).toBe(true);
    const log = readFileSync(join(out, 'logs/writer_bold_phrase/execute/execute_log.json'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.map((l) => l.Success)).toEqual([true, true, false]);
    expect(log[2].Error).toMatch(
      /^ControlNotFound: control not found: no control's text is "Make It Pretty" \(strict matching/,
    );
    expect(done.time_cost.total).toBeGreaterThan(record.time_cost.total);
  }, 180_000);
});
