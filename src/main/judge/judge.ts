// The judge (UFO's EvaluationAgent contract): reads one task of a stored run, shows a model the request, the
// action functions, the trajectory and the screenshots (the final one always), reads back
// {reason, sub_scores, complete}, and appends the verdict to the run (verdicts.jsonl + evaluation.log).
// Never throws for a bad run or a bad model: an empty trajectory, a missing final screenshot, a model error or
// an unreadable reply becomes a verdict with its `error` (complete = unsure, so people review it).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { Action, JudgeVerdict, StepRecord } from '../../shared/run';
import { ChatModel, ModelCallError, type ChatMessage, type RetryPolicy, type Sampling } from '../agents/chat';
import { describeEndpoint, type ResolvedEndpoint } from '../agents/endpoint';
import { toPromptImage } from '../agents/image';
import type { Screenshot } from '../env/environment';
import type { PriceTable } from '../price-table';
import { appendVerdict, readTaskTrajectory } from '../store';
import { judgeRoundSystemPrompt, judgeSystemPrompt, retryPrompt } from './prompt';
import { readJudgeReply } from './reply';

export interface JudgeOptions {
  endpoint: Pick<ResolvedEndpoint, 'endpoint' | 'sources'>;
  prices?: PriceTable;
  /** Default: temperature 0, top_p 1, 1,500 tokens. */
  sampling?: Partial<Sampling>;
  retry?: Partial<RetryPolicy>;
  /** Every screenshot (default) or the first and the last only. */
  screenshots?: 'all' | 'first_last';
  /** At most this many images per request (default 40); the first and the final are always kept. */
  maxImages?: number;
  /** Images wider than this are downscaled (default 1280). */
  imageMaxWidth?: number;
  /** Show the agent's own words (default true); false = `--no-narrative`. */
  narrative?: boolean;
  /** Times the judge is asked again after an unreadable reply (default 2). */
  reasks?: number;
  /** Judge again even when a verdict for the same inputs, model and options is stored. */
  force?: boolean;
  /** Also judge each step ("round"): was it a right step towards the request? Stored with `options.round`. */
  rounds?: boolean;
  /** Write the verdict into the run (default true). */
  store?: boolean;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** A judge verdict as stored: the shared verdict plus what it cost. */
export type StoredJudgeVerdict = JudgeVerdict & {
  tokens?: { prompt: number; completion: number };
  costUsd?: number;
};

export interface JudgeOutcome {
  verdict: StoredJudgeVerdict;
  /** The stored verdict of an earlier identical judgement was returned (nothing was asked). */
  reused: boolean;
  /** Per-step verdicts, with `rounds`. */
  rounds?: StoredJudgeVerdict[];
}

interface Picture {
  label: string;
  file: string;
  final?: boolean;
}

/** The judge's sampling: deterministic, room for a few sub-goals. */
export const judgeSampling: Sampling = { temperature: 0, topP: 1, maxTokens: 1_500 };
const controlOnly = (s: StepRecord) =>
  s.actions.every((a) => a.type === 'DONE' || a.type === 'FAIL' || a.type === 'WAIT');

function actionText(a: Action): string {
  const { type, ...rest } = a;
  const args = Object.entries(rest).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return `${type}(${args.join(', ')})`;
}

function stepText(s: StepRecord, narrative: boolean): string {
  const lines = [`Step ${s.step}`];
  const raw =
    typeof s.rawAction === 'string'
      ? s.rawAction
      : s.rawAction !== undefined
        ? JSON.stringify(s.rawAction)
        : undefined;
  if (narrative && raw) lines.push(`  action as written: ${raw.split('\n').join('\n    ')}`);
  // Another harness's agent may have run a shell command or tool call: that was performed too.
  const tool = s.toolAction
    ? `${s.toolAction.kind === 'shell' ? 'shell command' : (s.toolAction.name ?? s.toolAction.kind)}: ${s.toolAction.text}`
    : undefined;
  lines.push(
    `  performed: ${[...s.actions.map(actionText), ...(tool ? [tool] : [])].join('; ') || '(nothing)'}`,
  );
  if (s.error) lines.push(`  the harness stopped here: ${s.error}`);
  if (s.feedback) lines.push(`  error: ${s.feedback}`);
  if (narrative && s.response) lines.push(`  agent's words: ${s.response.split('\n').join('\n    ')}`);
  return lines.join('\n');
}

/** At most `room` of `items`, spread evenly from the first to the last (order kept). */
export function thinEvenly<T>(items: T[], room: number): T[] {
  if (items.length <= room) return items;
  if (room <= 0) return [];
  if (room === 1) return items.slice(0, 1);
  const picked: T[] = [];
  for (let i = 0; i < room; i++) picked.push(items[Math.round((i * (items.length - 1)) / (room - 1))]);
  return [...new Set(picked)];
}

/** The screenshots to show: initial screen, the screen after each step, the final one marked; then capped. */
export function pickPictures(
  steps: StepRecord[],
  runDir: string,
  mode: 'all' | 'first_last',
  cap: number,
): { pictures: Picture[]; missing: string[]; finalError?: string } {
  const missing: string[] = [];
  const abs = (rel: string) => path.resolve(runDir, rel);
  let finalIndex = steps.length - 1;
  while (finalIndex > 0 && !steps[finalIndex].screenshot && controlOnly(steps[finalIndex])) finalIndex--;
  const last = steps[finalIndex];
  if (!last?.screenshot)
    return {
      pictures: [],
      missing,
      finalError: `no final screenshot: step ${last?.step ?? '?'} has none recorded`,
    };
  if (!fs.existsSync(abs(last.screenshot)))
    return { pictures: [], missing, finalError: `final screenshot missing: ${abs(last.screenshot)}` };

  const all: Picture[] = [];
  if (steps[0].observation)
    all.push({ label: 'The screen before step 1 (initial state)', file: steps[0].observation });
  for (const s of steps.slice(0, finalIndex))
    if (s.screenshot) all.push({ label: `The screen after step ${s.step}`, file: s.screenshot });
  const present = all.filter((p) => {
    if (fs.existsSync(abs(p.file))) return true;
    missing.push(p.file);
    return false;
  });
  const final: Picture = {
    label: `FINAL SCREEN (after step ${last.step}, the end state)`,
    file: last.screenshot,
    final: true,
  };
  const chosen = thinEvenly(mode === 'first_last' ? present.slice(0, 1) : present, Math.max(0, cap - 1));
  return { pictures: [...chosen, final].map((p) => ({ ...p, file: abs(p.file) })), missing };
}

/** A stored screenshot file as a Screenshot (size read from the image). */
export async function readScreenshot(file: string): Promise<Screenshot> {
  const data = fs.readFileSync(file);
  const meta = await sharp(data).metadata();
  if (!meta.width || !meta.height || (meta.format !== 'png' && meta.format !== 'jpeg'))
    throw new Error(`${file}: not a PNG or JPEG image`);
  return { data, format: meta.format, width: meta.width, height: meta.height, toScreen: 1 };
}

/** A verdict with nothing judged yet (complete = unsure); errors are added to it. */
export function baseVerdict(model: string, options: Record<string, unknown>): StoredJudgeVerdict {
  return {
    kind: 'judge',
    reason: '',
    subScores: [],
    complete: 'unsure',
    model,
    options,
    at: new Date().toISOString(),
  };
}

/** Judges one task of a run and (by default) appends the verdict to it. */
export async function judgeTask(
  runDir: string,
  taskKey: string,
  options: JudgeOptions,
): Promise<JudgeOutcome> {
  const log = options.log ?? (() => {});
  const model = options.endpoint.endpoint.model;
  const settings = {
    screenshots: options.screenshots ?? 'all',
    maxImages: options.maxImages ?? 40,
    imageMaxWidth: options.imageMaxWidth ?? 1280,
    narrative: options.narrative ?? true,
    baseUrl: describeEndpoint(options.endpoint).baseUrl,
  };
  const finish = (verdict: StoredJudgeVerdict): JudgeOutcome => {
    if (options.store ?? true) appendVerdict(runDir, taskKey, verdict);
    return { verdict, reused: false };
  };

  let trajectory;
  try {
    trajectory = readTaskTrajectory(runDir, taskKey);
  } catch (error) {
    return finish({
      ...baseVerdict(model, settings),
      error: `cannot read the task: ${(error as Error).message}`,
    });
  }
  const request = trajectory.task?.instruction ?? trajectory.item.instruction;
  const steps = [...trajectory.steps].sort((a, b) => a.step - b.step);
  if (!request)
    return finish({
      ...baseVerdict(model, settings),
      error: `no request: the run has no instruction for ${taskKey}`,
    });
  if (steps.length === 0)
    return finish({ ...baseVerdict(model, settings), error: 'empty trajectory: the run recorded no step' });

  const { pictures, missing, finalError } = pickPictures(
    steps,
    runDir,
    settings.screenshots,
    settings.maxImages,
  );
  if (finalError) return finish({ ...baseVerdict(model, settings), error: finalError });

  // The request as the model will see it.
  const content: ChatCompletionContentPart[] = [
    {
      type: 'text',
      text: `THE REQUEST\n${request}\n\nTHE TRAJECTORY (${steps.length} steps)\n${steps.map((s) => stepText(s, settings.narrative)).join('\n')}`,
    },
  ];
  if (missing.length)
    content.push({
      type: 'text',
      text: `(${missing.length} intermediate screenshot(s) are missing from the record.)`,
    });
  content.push({ type: 'text', text: `THE SCREENSHOTS (${pictures.length})` });
  for (const p of pictures) {
    const image = await readScreenshot(p.file)
      .then((shot) => toPromptImage(shot, { maxWidth: settings.imageMaxWidth, format: 'jpeg' }))
      .catch(() => undefined);
    if (!image) {
      if (p.final)
        return finish({ ...baseVerdict(model, settings), error: `final screenshot unreadable: ${p.file}` });
      continue;
    }
    content.push({ type: 'text', text: p.label });
    content.push({ type: 'image_url', image_url: { url: image.dataUrl, detail: 'high' } });
  }
  content.push({ type: 'text', text: 'Judge the request now, as one JSON object.' });
  const messages: ChatMessage[] = [
    { role: 'system', content: judgeSystemPrompt({ narrative: settings.narrative }) },
    { role: 'user', content },
  ];

  const chat = new ChatModel(options.endpoint.endpoint, {
    sampling: { ...judgeSampling, ...options.sampling },
    retry: options.retry,
    prices: options.prices,
    log,
    label: 'judge',
  });
  const storedFor = (fingerprint: string) => {
    if (options.force) return undefined;
    const earlier = trajectory.verdicts.filter(
      (v): v is StoredJudgeVerdict =>
        v.kind === 'judge' &&
        !v.error &&
        v.model === model &&
        (v.options as Record<string, unknown>)?.fingerprint === fingerprint,
    );
    return earlier.at(-1);
  };

  // Rounds first (stored before the session verdict, so the task's last judge verdict is the session's).
  const rounds: StoredJudgeVerdict[] = [];
  if (options.rounds) {
    for (const [i, s] of steps.entries()) {
      const before = i === 0 ? s.observation : steps[i - 1].screenshot;
      const roundOptions = { ...settings, round: s.step };
      const shots: ChatCompletionContentPart[] = [];
      for (const [label, rel] of [
        [`The screen before step ${s.step}`, before],
        [`The screen after step ${s.step}`, s.screenshot],
      ] as const) {
        const image = rel
          ? await readScreenshot(path.resolve(runDir, rel))
              .then((shot) => toPromptImage(shot, { maxWidth: settings.imageMaxWidth, format: 'jpeg' }))
              .catch(() => undefined)
          : undefined;
        shots.push(
          { type: 'text', text: label },
          image
            ? { type: 'image_url', image_url: { url: image.dataUrl, detail: 'high' } }
            : { type: 'text', text: '(screenshot missing)' },
        );
      }
      const roundMessages: ChatMessage[] = [
        { role: 'system', content: judgeRoundSystemPrompt({ narrative: settings.narrative }) },
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: `THE REQUEST\n${request}\n\nTHE TRAJECTORY SO FAR\n${steps
                .slice(0, i + 1)
                .map((x) => stepText(x, settings.narrative))
                .join('\n')}\n\nTHE STEP TO JUDGE: step ${s.step}`,
            },
            ...shots,
            { type: 'text', text: `Judge step ${s.step} now, as one JSON object.` },
          ],
        },
      ];
      const fingerprint = createHash('sha256')
        .update(JSON.stringify({ model, roundOptions, roundMessages }))
        .digest('hex')
        .slice(0, 32);
      const earlier = storedFor(fingerprint);
      if (earlier) {
        rounds.push(earlier);
        continue;
      }
      const verdict = await ask(
        chat,
        roundMessages,
        { ...roundOptions, fingerprint },
        `${taskKey} step ${s.step}`,
        options,
        log,
      );
      if (options.store ?? true) appendVerdict(runDir, taskKey, verdict);
      rounds.push(verdict);
    }
  }

  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ model, settings, messages }))
    .digest('hex')
    .slice(0, 32);
  const verdictOptions = {
    ...settings,
    images: pictures.length,
    missingScreenshots: missing.length,
    fingerprint,
  };
  const earlier = storedFor(fingerprint);
  if (earlier) {
    log(`judge ${taskKey}: unchanged since the stored verdict; reusing it (use --force to judge again)`);
    return { verdict: earlier, reused: true, rounds: options.rounds ? rounds : undefined };
  }
  const verdict = await ask(chat, messages, verdictOptions, taskKey, options, log);
  return { ...finish(verdict), rounds: options.rounds ? rounds : undefined };
}

/** Asks the judge (re-asking after unreadable replies, bounded) and makes the verdict; never throws. Shared with dataflow/judge.ts. */
export async function ask(
  chat: ChatModel,
  messages: ChatMessage[],
  verdictOptions: Record<string, unknown>,
  what: string,
  options: JudgeOptions,
  log: (line: string) => void,
): Promise<StoredJudgeVerdict> {
  const model = chat.model;
  const tokens = { prompt: 0, completion: 0 };
  let cost: number | undefined = 0;
  const reasks = options.reasks ?? 2;
  const conversation = [...messages];
  let lastProblem = '';
  for (let attempt = 0; attempt <= reasks; attempt++) {
    let result;
    try {
      result = await chat.complete(conversation, { signal: options.signal });
    } catch (error) {
      const message = error instanceof ModelCallError ? error.message : (error as Error).message;
      return {
        ...baseVerdict(model, verdictOptions),
        error: `model error: ${message}`,
        tokens,
        costUsd: cost,
      };
    }
    tokens.prompt += result.tokens.prompt;
    tokens.completion += result.tokens.completion;
    cost = cost === undefined || result.costUsd === undefined ? undefined : cost + result.costUsd;
    const reply = readJudgeReply(result.text);
    if (reply.ok) {
      if (reply.repairs.length || reply.warnings.length)
        log(`judge ${what}: ${[...reply.repairs, ...reply.warnings].join('; ')}`);
      return {
        kind: 'judge',
        reason: reply.output.reason,
        subScores: reply.output.subScores,
        complete: reply.output.complete,
        model,
        options: { ...verdictOptions, asked: attempt + 1, repairs: reply.repairs, warnings: reply.warnings },
        at: new Date().toISOString(),
        tokens,
        costUsd: cost,
      };
    }
    lastProblem = reply.message;
    log(`judge ${what}: unreadable reply (${reply.message})${attempt < reasks ? '; asking again' : ''}`);
    conversation.push(
      { role: 'assistant', content: result.text },
      { role: 'user', content: retryPrompt(reply.message) },
    );
  }
  return {
    ...baseVerdict(model, { ...verdictOptions, asked: reasks + 1 }),
    error: `unreadable judge reply after ${reasks + 1} tries: ${lastProblem}`,
    tokens,
    costUsd: cost,
  };
}
