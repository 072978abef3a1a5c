// UFO's instantiation on LibreOffice: choose a template by its description (the task text, never its file name),
// copy it to results/saved_document/<unique_id>.<ext>, open the copy and prefill (the request rewritten into a
// plan on the controls AT-SPI really reads from it, with its screenshot), then filter (is it doable). Each stage
// writes its prompt and reply under logs/<unique_id>/<stage>/ and its time; a failed stage is its error string
// and the later stages do not run.
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { toPromptImage } from '../../agents/image';
import type { ChatMessage } from '../../agents/chat';
import type { StageModels, InstantiationStage, StageInputs } from './models';
import { OfficeDocument, type OfficeEnv } from './office';
import { choosePrompt, filterPrompt, prefillPrompt, promptText } from './prompts';
import {
  errorString,
  instantiatedPath,
  newRecord,
  secondsSince,
  setTime,
  stageLogDir,
  stageOf,
  writeLog,
  type Json,
  type Layout,
} from './records';
import { controlListText } from './controls';
import { parseChoice, parseFilter, parsePrefill, ReplyError } from './replies';
import { loadTemplates } from './templates';
import type { DataflowTask } from './task';

export interface StageContext {
  /** The sandbox display with GUI LibreOffice, started on first use. */
  env(): Promise<OfficeEnv>;
  models: StageModels;
  layout: Layout;
  templatesRoot?: string;
  log(line: string): void;
}

/**
 * Asks a stage's model and parses the reply; a reply that does not parse is asked again once, with what was
 * wrong (UFO repairs nothing and files the broken plan). Prompt and replies go to the stage's log folder.
 */
async function askParsed<S extends InstantiationStage, T>(
  ctx: StageContext,
  stage: S,
  logDir: string,
  messages: ChatMessage[],
  input: StageInputs[S],
  parse: (text: string) => T,
): Promise<T> {
  const model = ctx.models[stage];
  await writeLog(logDir, 'prompt.txt', promptText(messages));
  let reply = await model.ask(stage, messages, input);
  await writeLog(logDir, 'reply.txt', reply);
  try {
    return parse(reply);
  } catch (e) {
    if (!(e instanceof ReplyError)) throw e;
    ctx.log(`  ${stage}: the reply did not parse (${e.message}); asking again`);
    const again: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: reply },
      {
        role: 'user',
        content: `Your answer could not be used: ${e.message}. Answer again with the JSON object only.`,
      },
    ];
    reply = await model.ask(stage, again, input);
    await writeLog(logDir, 'reply-2.txt', reply);
    return parse(reply);
  }
}

/** Runs the three instantiation stages for a task; the record (never throws for a stage failure). */
export async function instantiate(
  task: DataflowTask,
  ctx: StageContext,
): Promise<{ record: Json; document?: string }> {
  const started = performance.now();
  const record = newRecord(task);
  const id = task.uniqueId;
  const finish = () => setTime(record, 'total', secondsSince(started));

  // choose_template
  let document: string | undefined;
  let t = performance.now();
  const choose = stageOf(record, 'choose_template');
  try {
    const templates = loadTemplates(task.app, ctx.templatesRoot);
    const files = Object.keys(templates.descriptions);
    const input = { task: task.task, app: task.app, descriptions: templates.descriptions };
    // a served chooser sees each template's screenshot, labelled by its file name
    const images: Record<string, string> = {};
    if (ctx.models.choose.endpoint)
      for (const [f, image] of Object.entries(templates.images))
        images[f] =
          `data:image/${image.endsWith('.png') ? 'png' : 'jpeg'};base64,${(await readFile(image)).toString('base64')}`;
    const prompt = choosePrompt(task.task, task.app, templates.descriptions, images);
    const choice = await askParsed(ctx, 'choose', stageLogDir(ctx.layout, id, 'choose'), prompt, input, (r) =>
      parseChoice(r, files),
    );
    document = instantiatedPath(ctx.layout, id, extname(choice.file).toLowerCase());
    await mkdir(join(ctx.layout.results, 'saved_document'), { recursive: true });
    await copyFile(join(templates.folder, choice.file), document);
    choose.result = document;
    ctx.log(`  choose_template: ${choice.file} (${choice.why})`);
  } catch (e) {
    choose.error = errorString(e);
    ctx.log(`  choose_template failed: ${choose.error}`);
  }
  setTime(record, 'choose_template', secondsSince(t));
  if (!document) {
    finish();
    return { record };
  }

  // prefill, on the opened copy
  t = performance.now();
  const prefill = stageOf(record, 'prefill');
  let planSteps = 0;
  let request = task.task;
  try {
    const env = await ctx.env();
    const logDir = stageLogDir(ctx.layout, id, 'prefill');
    const doc = await OfficeDocument.open(
      env,
      `/home/user/instantiate/${id}${extname(document)}`,
      await readFile(document),
    );
    let controls;
    let shot;
    try {
      controls = await doc.controls();
      shot = await env.screenshot({ format: 'png' });
    } finally {
      await doc.close();
    }
    await writeLog(logDir, 'screenshot.png', shot.data);
    await writeLog(logDir, 'controls.txt', controlListText(controls) + '\n');
    const image = ctx.models.prefill.endpoint
      ? (await toPromptImage(shot, { maxWidth: 1280, format: 'jpeg' })).dataUrl
      : undefined;
    const input = { task: task.task, steps: task.refinedSteps, app: task.app, controls };
    const result = await askParsed(
      ctx,
      'prefill',
      logDir,
      prefillPrompt({ ...input, screenshot: image }),
      input,
      parsePrefill,
    );
    prefill.result = { instantiated_request: result.newTask, instantiated_plan: result.plan };
    planSteps = result.plan.length;
    request = result.newTask;
    ctx.log(
      `  prefill: ${JSON.stringify(result.newTask)}, ${planSteps} steps on ${controls.length} controls`,
    );
  } catch (e) {
    prefill.error = errorString(e);
    ctx.log(`  prefill failed: ${prefill.error}`);
  }
  setTime(record, 'prefill', secondsSince(t));
  if (prefill.error) {
    finish();
    return { record, document };
  }

  // instantiation_evaluation (the filter)
  t = performance.now();
  const filter = stageOf(record, 'instantiation_evaluation');
  try {
    const verdict = await askParsed(
      ctx,
      'filter',
      stageLogDir(ctx.layout, id, 'filter'),
      filterPrompt(request, task.app),
      { request, app: task.app, planSteps },
      parseFilter,
    );
    filter.result = verdict;
    ctx.log(
      `  filter: ${verdict.judge ? 'doable' : `not doable (${verdict.request_type})`}: ${verdict.thought}`,
    );
  } catch (e) {
    filter.error = errorString(e);
    ctx.log(`  filter failed: ${filter.error}`);
  }
  setTime(record, 'instantiation_evaluation', secondsSince(t));
  finish();
  return { record, document };
}

/** Whether the filter let the task through (upstream defect 6 executed it whatever it said). */
export function passedFilter(record: Json): boolean {
  const r = stageOf(record, 'instantiation_evaluation').result as { judge?: unknown } | null;
  return r?.judge === true;
}
