// Each stage's model: any OpenAI-compatible server (ChatModel: --model, --base-url, per stage if wanted), or the
// deterministic built-in stand-in `builtin-standin` (standin.ts), which needs no key and no network and solves the
// bundled tasks. Both answer the same prompts with reply text parsed by the same code (replies.ts).
import { ChatModel, type ChatMessage } from '../../agents/chat';
import { resolveEndpoint, type ResolvedEndpoint } from '../../agents/endpoint';
import type { Control } from './controls';
import { standinChoose, standinFilter, standinPrefill } from './standin';
import type { OfficeApp } from './task';

export const STANDIN_MODEL = 'builtin-standin';

export type InstantiationStage = 'choose' | 'prefill' | 'filter';
export type Stage = InstantiationStage | 'evaluate';
export const STAGES: readonly Stage[] = ['choose', 'prefill', 'filter', 'evaluate'];

/** What a stage was given, besides the prompt (the stand-in reads it; a served model reads the prompt). */
export interface StageInputs {
  choose: { task: string; app: OfficeApp; descriptions: Record<string, string> };
  prefill: { task: string; steps: string[]; app: OfficeApp; controls: Control[] };
  filter: { request: string; app: OfficeApp; planSteps: number };
}

export interface StageModel {
  /** The model's name as recorded (`builtin-standin` for the stand-in). */
  readonly name: string;
  /** The served endpoint; undefined for the stand-in. */
  readonly endpoint?: ResolvedEndpoint;
  ask<S extends InstantiationStage>(
    stage: S,
    messages: ChatMessage[],
    input: StageInputs[S],
  ): Promise<string>;
}

/** The stand-in: deterministic rules over the stage inputs (standin.ts); named as such in every record it judges. */
export function standinModel(): StageModel {
  return {
    name: STANDIN_MODEL,
    async ask(stage, _messages, input) {
      if (stage === 'choose') return standinChoose(input as StageInputs['choose']);
      if (stage === 'prefill') return standinPrefill(input as StageInputs['prefill']);
      return standinFilter(input as StageInputs['filter']);
    },
  };
}

/** A served model behind an OpenAI-compatible endpoint. */
export function servedModel(endpoint: ResolvedEndpoint, log?: (line: string) => void): StageModel {
  const chat = new ChatModel(endpoint.endpoint, {
    sampling: { temperature: 0, topP: 1, maxTokens: 2_000 },
    log,
    label: 'dataflow',
  });
  return {
    name: endpoint.endpoint.model,
    endpoint,
    async ask(_stage, messages) {
      return (await chat.complete(messages)).text;
    },
  };
}

export interface ModelFlags {
  model?: string;
  baseUrl?: string;
  /** Per stage: `choose`, `prefill`, `filter`, `evaluate`. */
  perStage?: Partial<Record<Stage, { model?: string; baseUrl?: string }>>;
}

export type StageModels = Record<Stage, StageModel>;

/**
 * The model of each stage: the stage's own flags, else the shared ones, else the configured endpoint
 * (PROCTOR_MODEL, config file). `builtin-standin` selects the stand-in. Throws when a stage has no model.
 */
export function resolveStageModels(flags: ModelFlags, log?: (line: string) => void): StageModels {
  const out = {} as StageModels;
  for (const stage of STAGES) {
    const own = flags.perStage?.[stage] ?? {};
    const model = own.model ?? flags.model;
    if (model === STANDIN_MODEL) {
      out[stage] = standinModel();
      continue;
    }
    let endpoint: ResolvedEndpoint;
    try {
      endpoint = resolveEndpoint({
        flags: { model, baseUrl: own.baseUrl ?? flags.baseUrl },
        section: stage === 'evaluate' ? 'judge' : 'agent',
      });
    } catch (e) {
      throw new Error(
        `the ${stage} stage has no model: ${e instanceof Error ? e.message : String(e)} ` +
          `(any OpenAI-compatible server: --model M --base-url URL, or --${stage === 'evaluate' ? 'eval' : stage}-model; offline: --model ${STANDIN_MODEL})`,
        { cause: e },
      );
    }
    out[stage] = servedModel(endpoint, log);
  }
  return out;
}
