import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { toPromptImage } from '../agents/image';
import {
  requestImages,
  requestText,
  startScriptedOpenAIStandin,
  type ScriptedOpenAIStandin,
  type ScriptStep,
  type StandinRequest,
} from '../agents/testing/scripted-openai-standin';
import { main } from '../cli/main';
import { dataflowPromptParts, judgeDataflowFile, type DataflowJudgeFileOptions } from './judge';
import { readScreenshot } from '../judge/judge';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const schema = JSON.parse(
  fs.readFileSync(path.join(projectRoot, 'resources/schemas/ufo-execution.schema.json'), 'utf8'),
) as object;
const validateExecution = new Ajv({ strict: false }).compile(schema);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-dataflow-judge-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let standin: ScriptedOpenAIStandin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

const clean = (complete: string, name = 'title bold') =>
  JSON.stringify({
    reason: `The title is ${complete === 'yes' ? '' : 'not '}bold.`,
    sub_scores: [{ name, evaluation: complete }],
    complete,
  });

/** An executed UFO record (as UFO's execution writes it: numeric id, sub_scores list shape not yet there). */
function executedRecord(
  id: string | number,
  request: string,
  options: { success?: Array<boolean | null>; executionError?: unknown } = {},
): Record<string, unknown> {
  const success = options.success ?? [true, true];
  return {
    unique_id: id,
    app: 'word',
    original: { original_task: 'Make the title bold', original_steps: ['Select the title', 'Click Bold'] },
    execution_result: { result: null, error: options.executionError ?? null },
    instantiation_result: {
      choose_template: { result: 'C:/templates/report.docx', error: null },
      prefill: {
        result: {
          instantiated_request: request,
          instantiated_plan: [
            {
              Step: 1,
              Subtask: 'Select the title',
              ControlLabel: '3',
              ControlText: 'Quarterly report',
              Function: 'select_text',
              Args: { text: 'Quarterly report' },
              Success: success[0],
              MatchedControlText: 'Quarterly report',
            },
            {
              Step: 2,
              Subtask: 'Click Bold',
              ControlLabel: '12',
              ControlText: 'Bold',
              Function: 'click_input',
              Args: { button: 'left', double: false },
              Success: success[1],
              MatchedControlText: success[1] ? 'Bold' : null,
            },
          ],
        },
        error: null,
      },
      instantiation_evaluation: { result: { judge: true, thought: 'ok', request_type: 'edit' }, error: null },
    },
    time_cost: {
      choose_template: 1.5,
      prefill: 3.2,
      instantiation_evaluation: 2.1,
      execute: 20.3,
      execute_eval: null,
      total: 27.1,
    },
  };
}

async function png(file: string, shade: number) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sharp({
    create: { width: 640, height: 400, channels: 3, background: { r: shade, g: 255 - shade, b: 40 } },
  })
    .png()
    .toFile(file);
}

/** Writes <dir>/<name>.json and, unless `shots` is 0, UFO's clean screenshots (and an annotated variant) in <dir>/<name>/. */
async function writeRecord(
  dir: string,
  name: string,
  record: Record<string, unknown>,
  shots: { steps: number; final: boolean } | 0 = { steps: 2, final: true },
): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(record, null, 2));
  if (shots) {
    for (let n = 0; n <= shots.steps; n++)
      await png(path.join(dir, name, `action_step${n}.png`), 20 + n * 50);
    await png(path.join(dir, name, 'action_step1_annotated.png'), 3);
    if (shots.final) await png(path.join(dir, name, 'action_step_final.png'), 250);
  }
  return file;
}

const dataUrl = async (file: string) =>
  (await toPromptImage(await readScreenshot(file), { maxWidth: 1280, format: 'jpeg' })).dataUrl;
const readJson = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>;

function options(extra: Partial<DataflowJudgeFileOptions> = {}): DataflowJudgeFileOptions {
  return {
    endpoint: {
      endpoint: { baseUrl: standin!.baseUrl, model: 'judge-model', apiKey: 'sk-df-judge-secret' },
      sources: { baseUrl: 'flag', model: 'flag', apiKey: 'env' },
    },
    retry: { baseDelayMs: 10, maxDelayMs: 40, maxAttempts: 3, timeoutMs: 2_000 },
    ...extra,
  };
}

describe('the dataflow judge prompt', () => {
  it('names the real application and platform: LibreOffice on Linux for the port, Office on Windows for UFO', () => {
    expect(dataflowPromptParts('calc').setting).toContain('LibreOffice Calc on Linux');
    expect(dataflowPromptParts('Writer').setting).toContain('LibreOffice Writer on Linux');
    expect(dataflowPromptParts('excel').setting).toContain('Microsoft Excel on Windows');
    expect(dataflowPromptParts('calc').setting).not.toContain('Windows');
  });
});

describe('judging UFO dataflow records against the scripted stand-in', () => {
  it('writes a clean verdict as execution_result in the schema form, with execute_eval, beside the untouched input', async () => {
    standin = await startScriptedOpenAIStandin([
      { kind: 'text', content: clean('yes'), usage: { prompt_tokens: 3000, completion_tokens: 40 } },
    ]);
    const dir = path.join(root, 'clean');
    const file = await writeRecord(
      dir,
      'rec-1',
      executedRecord(7, 'Make "Quarterly report" bold', { success: [true, false] }),
    );
    const before = fs.readFileSync(file, 'utf8');
    const o = await judgeDataflowFile(file, options());
    expect(o.status).toBe('written');
    expect(o.written).toEqual([path.join(dir, 'rec-1.judged.json')]);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);

    const judged = readJson(o.written[0]);
    expect(judged.execution_result).toEqual({
      result: { reason: 'The title is bold.', sub_scores: { 'title bold': 'yes' }, complete: 'yes' },
      error: null,
    });
    const time = judged.time_cost as Record<string, number>;
    expect(time.execute_eval).toBeGreaterThan(0);
    expect(time.execute_eval).toBeLessThan(30);
    expect(time.total).toBeCloseTo(27.1 + time.execute_eval, 6);
    expect(judged.unique_id).toBe('7'); // the schema's form
    expect(validateExecution(judged), JSON.stringify(validateExecution.errors)).toBe(true);

    // what the judge saw: the instantiated request, the plan with its outcomes, the clean screenshots in order, the final last
    const request = standin.requests[0];
    const text = requestText(request);
    expect(text).toContain('Make "Quarterly report" bold');
    expect(text).toContain('instantiated from the original task: Make the title bold');
    expect(text).toContain('Microsoft Word on Windows (app "word")');
    expect(text).not.toContain('LibreOffice');
    expect(text).toMatch(
      /Step 1: Select the title\n\s+performed: select_text\(text="Quarterly report"\) on control "Quarterly report"\n\s+outcome: ran/,
    );
    expect(text).toMatch(
      /Step 2: Click Bold\n\s+performed: click_input\(button="left", double=false\) on control "Bold"\n\s+outcome: FAILED/,
    );
    expect(text).toContain('FINAL SCREEN (action_step_final.png: the end state)');
    const images = requestImages(request);
    expect(images).toEqual(
      await Promise.all(
        ['action_step0.png', 'action_step1.png', 'action_step2.png', 'action_step_final.png'].map((n) =>
          dataUrl(path.join(dir, 'rec-1', n)),
        ),
      ),
    );
    expect(JSON.stringify(judged)).not.toContain('sk-df-judge-secret');
  });

  it('asks again after a broken reply and records the second, readable verdict', async () => {
    standin = await startScriptedOpenAIStandin([
      { kind: 'text', content: 'The title looks bold to me, so complete: yes' },
      { kind: 'text', content: '```json\n' + clean('no', 'bold applied') + '\n```' },
    ]);
    const file = await writeRecord(
      path.join(root, 'retry'),
      'rec-2',
      executedRecord('rec-2', 'Make the title bold'),
    );
    const o = await judgeDataflowFile(file, options());
    expect(standin.requests).toHaveLength(2);
    expect(requestText(standin.requests[1])).toContain('Your answer could not be read: no JSON object found');
    expect(o.judgement?.verdict.options).toMatchObject({ asked: 2 });
    expect(readJson(o.written[0]).execution_result).toEqual({
      result: { reason: 'The title is not bold.', sub_scores: { 'bold applied': 'no' }, complete: 'no' },
      error: null,
    });
  });

  it('rides out a 429 (Retry-After) and judges; when the model never answers, records the error with complete unsure', async () => {
    standin = await startScriptedOpenAIStandin([
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'text', content: clean('yes') },
    ]);
    const dir = path.join(root, 'rate');
    const ok = await judgeDataflowFile(
      await writeRecord(dir, 'r-ok', executedRecord('r-ok', 'Make the title bold')),
      options(),
    );
    expect(standin.requests).toHaveLength(2);
    expect(
      (readJson(ok.written[0]).execution_result as { result: { complete: string } }).result.complete,
    ).toBe('yes');

    standin.push(
      ...Array.from({ length: 3 }, (): ScriptStep => ({
        kind: 'status',
        status: 429,
        retryAfter: '0',
        message: 'rate limited',
      })),
    );
    const failed = await judgeDataflowFile(
      await writeRecord(dir, 'r-429', executedRecord('r-429', 'Make the title bold')),
      options(),
    );
    expect(standin.requests).toHaveLength(5);
    expect(failed.status).toBe('written');
    const judged = readJson(failed.written[0]);
    const er = judged.execution_result as {
      result: { reason: string; sub_scores: object; complete: string };
      error: { type: string; message: string };
    };
    expect(er.result).toMatchObject({ sub_scores: {}, complete: 'unsure' });
    expect(er.result.reason).toMatch(/^Not judged: model error: .*429/);
    expect(er.error.type).toBe('JudgeError');
    expect(er.error.message).toMatch(/429/);
    expect(validateExecution(judged), JSON.stringify(validateExecution.errors)).toBe(true);
  });

  it('judges from the plan alone when no screenshot is found, and refuses a record never executed without asking', async () => {
    standin = await startScriptedOpenAIStandin([{ kind: 'text', content: clean('unsure') }]);
    const dir = path.join(root, 'noshots');
    const o = await judgeDataflowFile(
      await writeRecord(dir, 'plain', executedRecord('plain', 'Make the title bold'), 0),
      options(),
    );
    expect(requestImages(standin.requests[0])).toEqual([]);
    expect(requestText(standin.requests[0])).toContain('No screenshots were recorded');
    expect(o.judgement?.screenshotFolder).toBeUndefined();

    const notRun = executedRecord('inst', 'Make the title bold');
    const plan = (
      notRun.instantiation_result as { prefill: { result: { instantiated_plan: Record<string, unknown>[] } } }
    ).prefill.result.instantiated_plan;
    for (const s of plan) {
      delete s.Success;
      delete s.MatchedControlText;
    }
    delete (notRun.time_cost as Record<string, unknown>).execute;
    const refused = await judgeDataflowFile(await writeRecord(dir, 'inst', notRun, 0), options());
    expect(refused.status).toBe('invalid');
    expect(refused.problems[0].pointer).toMatch(/instantiated_plan\/0\/Success/);
    expect(standin.requests).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, 'inst.judged.json'))).toBe(false);
  });

  it('finds screenshots under --logs by unique_id, and uses the last action_step when there is no final one', async () => {
    standin = await startScriptedOpenAIStandin([{ kind: 'text', content: clean('yes') }]);
    const dir = path.join(root, 'logs');
    const file = await writeRecord(dir, 'task-file', executedRecord('uid-9', 'Make the title bold'), 0);
    const logs = path.join(root, 'logs-root');
    for (let n = 0; n <= 2; n++) await png(path.join(logs, 'uid-9', `action_step${n}.png`), 100 + n);
    const o = await judgeDataflowFile(file, options({ logs, screenshots: 'first_last' }));
    expect(o.judgement?.screenshotFolder).toBe(path.join(logs, 'uid-9'));
    expect(requestImages(standin.requests[0])).toEqual([
      await dataUrl(path.join(logs, 'uid-9/action_step0.png')),
      await dataUrl(path.join(logs, 'uid-9/action_step2.png')),
    ]);
    expect(requestText(standin.requests[0])).toContain('LAST SCREEN RECORDED (action_step2.png');
  });

  it('does not replace an earlier output without overwrite, nor the input unless in place', async () => {
    standin = await startScriptedOpenAIStandin([
      { kind: 'text', content: clean('yes') },
      { kind: 'text', content: clean('no') },
      { kind: 'text', content: clean('no') },
    ]);
    const dir = path.join(root, 'again');
    const file = await writeRecord(dir, 'x', executedRecord('x', 'Make the title bold'), 0);
    expect((await judgeDataflowFile(file, options())).status).toBe('written');
    const second = await judgeDataflowFile(file, options());
    expect(second.status).toBe('exists');
    expect(second.problems[0].message).toMatch(
      /x\.judged\.json already exists: not replaced \(pass --overwrite/,
    );
    expect(
      (readJson(path.join(dir, 'x.judged.json')).execution_result as { result: { complete: string } }).result
        .complete,
    ).toBe('yes');
    const sameFolder = await judgeDataflowFile(file, options({ out: dir }));
    expect(sameFolder.status).toBe('invalid');
    expect(sameFolder.problems[0].message).toMatch(/would replace the input/);
    const inPlace = await judgeDataflowFile(file, options({ inPlace: true }));
    expect(inPlace.written).toEqual([file]);
    expect((readJson(file).execution_result as { result: { complete: string } }).result.complete).toBe('no');
  });
});

describe('proctor dataflow judge --route', () => {
  it('judges a folder of records and files them under execution_pass / execution_fail / execution_unsure', async () => {
    const answer = (r: StandinRequest) => {
      const text = requestText(r);
      const complete = text.includes('Make A bold') ? 'yes' : text.includes('Make B bold') ? 'no' : 'maybe';
      return {
        kind: 'text' as const,
        content: complete === 'maybe' ? '{"reason": "cannot tell"' : clean(complete),
      };
    };
    // C's replies are never readable: 3 tries, then the error is recorded and C is filed as unsure
    standin = await startScriptedOpenAIStandin([answer, answer, answer, answer, answer]);
    const dir = path.join(root, 'cli');
    await writeRecord(dir, 'a', executedRecord('a', 'Make A bold'));
    await writeRecord(dir, 'b', executedRecord('b', 'Make B bold'), 0);
    await writeRecord(dir, 'c', executedRecord('c', 'Make C bold'), 0);
    const results = path.join(root, 'cli-results');
    const saved = { key: process.env.PROCTOR_API_KEY, config: process.env.PROCTOR_CONFIG };
    process.env.PROCTOR_API_KEY = 'sk-df-cli-secret';
    process.env.PROCTOR_CONFIG = path.join(root, 'no-config.json');
    const lines: string[] = [];
    try {
      const code = await main(
        [
          'dataflow',
          'judge',
          dir,
          '--route',
          '--out',
          results,
          '--model',
          'judge-m',
          '--base-url',
          standin.baseUrl,
          '--concurrency',
          '1',
        ],
        {
          out: (l) => lines.push(l),
          err: (l) => lines.push(l),
        },
      );
      expect(code).toBe(1); // one record could not be judged
    } finally {
      process.env.PROCTOR_API_KEY = saved.key;
      if (saved.key === undefined) delete process.env.PROCTOR_API_KEY;
      process.env.PROCTOR_CONFIG = saved.config;
      if (saved.config === undefined) delete process.env.PROCTOR_CONFIG;
    }
    expect(standin.requests).toHaveLength(5);
    expect(fs.readdirSync(path.join(results, 'execution')).sort()).toEqual([
      'execution_fail',
      'execution_pass',
      'execution_unsure',
    ]);
    expect(fs.readdirSync(path.join(results, 'execution/execution_pass'))).toEqual(['a.json']);
    expect(fs.readdirSync(path.join(results, 'execution/execution_fail'))).toEqual(['b.json']);
    expect(fs.readdirSync(path.join(results, 'execution/execution_unsure'))).toEqual(['c.json']);
    const c = readJson(path.join(results, 'execution/execution_unsure/c.json'));
    expect((c.execution_result as { error: { message: string } }).error.message).toMatch(
      /unreadable judge reply after 3 tries/,
    );
    for (const f of ['execution_pass/a.json', 'execution_fail/b.json', 'execution_unsure/c.json']) {
      expect(validateExecution(readJson(path.join(results, 'execution', f))), f).toBe(true);
    }
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.judged.json'))).toEqual([]); // routed only
    const text = lines.join('\n');
    expect(text).toContain('3 records: 1 yes, 1 no, 0 unsure, 1 judge errors, 0 refused');
    expect(text).toMatch(/a\.json -> .*execution\/execution_pass\/a\.json/);
    expect(text).not.toContain('sk-df-cli-secret');
  });

  it('files a unique_id judged twice at the default concurrency exactly once, refusing the other', async () => {
    const answer = (r: StandinRequest) => ({
      kind: 'text' as const,
      content: clean(requestText(r).includes('Make A bold') ? 'yes' : 'no'),
    });
    const saved = { key: process.env.PROCTOR_API_KEY, config: process.env.PROCTOR_CONFIG };
    process.env.PROCTOR_API_KEY = 'sk-df-cli-secret';
    process.env.PROCTOR_CONFIG = path.join(root, 'no-config.json');
    try {
      for (let trial = 0; trial < 3; trial++) {
        standin = await startScriptedOpenAIStandin([answer, answer]);
        const dir = path.join(root, `dup-${trial}`);
        // two files, one unique_id: judged at once (concurrency 2), one pass and one fail
        await writeRecord(dir, 'first', executedRecord('same', 'Make A bold'), 0);
        await writeRecord(dir, 'second', executedRecord('same', 'Make B bold'), 0);
        const results = path.join(root, `dup-${trial}-results`);
        const lines: string[] = [];
        const code = await main(
          [
            'dataflow',
            'judge',
            dir,
            '--route',
            '--out',
            results,
            '--model',
            'judge-m',
            '--base-url',
            standin.baseUrl,
          ],
          { out: (l) => lines.push(l), err: (l) => lines.push(l) },
        );
        expect(code).toBe(1);
        expect(standin.requests).toHaveLength(2);
        const buckets = fs.readdirSync(path.join(results, 'execution')).filter((b) => !b.startsWith('.'));
        const filed = buckets.flatMap((b) =>
          fs.readdirSync(path.join(results, 'execution', b)).map((f) => `${b}/${f}`),
        );
        expect(filed).toHaveLength(1);
        expect(lines.join('\n')).toMatch(/a record with unique_id 'same' is already filed/);
        expect(lines.join('\n')).toContain('1 refused');
        await standin.close();
        standin = undefined;
      }
    } finally {
      process.env.PROCTOR_API_KEY = saved.key;
      if (saved.key === undefined) delete process.env.PROCTOR_API_KEY;
      process.env.PROCTOR_CONFIG = saved.config;
      if (saved.config === undefined) delete process.env.PROCTOR_CONFIG;
    }
  });

  it('refuses --route without --out', async () => {
    const lines: string[] = [];
    expect(
      await main(['dataflow', 'judge', root, '--route'], {
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
      }),
    ).toBe(2);
    expect(lines.join('\n')).toMatch(/--route needs --out/);
  });
});
