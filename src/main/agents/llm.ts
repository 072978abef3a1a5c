// The `llm` agent: asks any OpenAI-compatible model what to do next, shows it the observation (screenshot as
// a data URL, accessibility table, Set-of-Mark), a window of past turns, the execution feedback of the last
// steps and, optionally, documentation chunks; reads the action from its reply (parsed, never run).
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { Observation } from '../observe/observation';
import {
  AgentError,
  type Agent,
  type AgentContext,
  type AgentInfo,
  type AgentTurn,
  type StepFeedback,
} from './agent';
import { ChatModel, ModelCallError, type ChatMessage, type RetryPolicy, type Sampling } from './chat';
import { describeEndpoint, type ResolvedEndpoint } from './endpoint';
import { rescaleTable, toPromptImage, type PromptImage, type PromptImageOptions } from './image';
import { parseReply } from './parse';
import type { PriceTable } from '../price-table';
import { systemPrompt } from './prompts';
import { findRetrievalFile, retrieve, retrievalText, type RetrievalOptions } from './retrieval';

export interface LlmAgentOptions {
  /** Where the model is (see endpoint.ts: flags, env, config file). */
  endpoint: Pick<ResolvedEndpoint, 'endpoint' | 'sources'>;
  prices?: PriceTable;
  sampling?: Partial<Sampling>;
  retry?: Partial<RetryPolicy>;
  /** Past turns shown with each request (their observations and the model's replies). Default 3. */
  historyWindow?: number;
  /** Send past turns' screenshots too (default true); otherwise their text only. */
  historyImages?: boolean;
  /** Tell the model the refusals and errors of its last steps. Default true. */
  executionFeedback?: boolean;
  /** Documentation in the prompt: true = `retrieval.md` / `docs.md` beside the task; a string = that file. */
  retrieval?: boolean | string;
  retrievalOptions?: RetrievalOptions;
  /** Prompt images: downscale (`maxWidth`), encoding. Coordinates are mapped back to screen pixels. */
  image?: PromptImageOptions;
  /** Progress lines (retries, tokens); never receives the key or the images. */
  log?: (line: string) => void;
}

interface PastTurn {
  step: number;
  content: ChatCompletionContentPart[];
  /** Same content without images, for `historyImages: false`. */
  textOnly: string;
  reply: string;
  refusal?: string;
}

export class LlmAgent implements Agent {
  readonly name = 'llm';
  private readonly model: ChatModel;
  private readonly window: number;
  private context?: AgentContext;
  private history: PastTurn[] = [];
  private system?: string;
  private documentation?: string;
  private readonly log: (line: string) => void;

  constructor(private readonly options: LlmAgentOptions) {
    this.log = options.log ?? (() => {});
    this.window = Math.max(0, options.historyWindow ?? 3);
    this.model = new ChatModel(options.endpoint.endpoint, {
      sampling: options.sampling,
      retry: options.retry,
      prices: options.prices,
      log: this.log,
      label: 'llm',
    });
  }

  info(): AgentInfo {
    const e = describeEndpoint(this.options.endpoint);
    return {
      agent: 'llm',
      model: e.model,
      baseUrl: e.baseUrl,
      apiKey: e.apiKey,
      temperature: this.model.sampling.temperature,
      topP: this.model.sampling.topP,
      maxTokens: this.model.sampling.maxTokens,
      historyWindow: this.window,
      historyImages: this.options.historyImages ?? true,
      executionFeedback: this.options.executionFeedback ?? true,
      retrieval: this.options.retrieval ?? false,
      imageMaxWidth: this.options.image?.maxWidth,
      imageFormat: this.options.image?.format,
    };
  }

  async start(context: AgentContext): Promise<void> {
    this.context = context;
    this.history = [];
    this.system = undefined;
    this.documentation = undefined;
    const r = this.options.retrieval;
    if (r) {
      const file = typeof r === 'string' ? r : findRetrievalFile(context.task.dir);
      if (!file) {
        this.log(
          `llm: no retrieval file beside ${context.task.file} (looked for retrieval.md, docs.md); going on without`,
        );
      } else {
        try {
          const found = retrieve(file, context.instruction, this.options.retrievalOptions);
          this.documentation = retrievalText(found);
          this.log(`llm: retrieval ${file}: ${found.chunks.length} chunks, ${found.tokens} tokens`);
        } catch (error) {
          throw new AgentError((error as Error).message, { cause: error });
        }
      }
    }
  }

  async next(observation: Observation, step: number, feedback: StepFeedback[]): Promise<AgentTurn> {
    const context = this.context;
    if (!context) throw new AgentError('llm agent: next() before start()');
    const image = await this.imageOf(observation);
    const toScreen = image?.toScreen ?? 1;
    this.system ??= this.buildSystem(context, image);

    const content = this.observationContent(observation, image, step, context.maxSteps);
    const messages: ChatMessage[] = [{ role: 'system', content: this.system }];
    const past = this.window > 0 ? this.history.slice(-this.window) : [];
    const withImages = this.options.historyImages ?? true;
    for (const turn of past) {
      messages.push({ role: 'user', content: withImages ? turn.content : turn.textOnly });
      messages.push({ role: 'assistant', content: turn.reply });
    }
    const told = this.feedbackText(step, feedback);
    const current: ChatCompletionContentPart[] = told ? [{ type: 'text', text: told }, ...content] : content;
    messages.push({ role: 'user', content: current });

    let result;
    try {
      result = await this.model.complete(messages, { signal: context.signal });
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason ?? error;
      if (error instanceof ModelCallError)
        throw new AgentError(`step ${step}: ${error.message}`, { cause: error });
      throw error;
    }
    this.log(
      `llm step ${step}: ${result.tokens.prompt}+${result.tokens.completion} tokens` +
        (result.costUsd !== undefined ? `, $${result.costUsd.toFixed(5)}` : '') +
        `, ${result.attempts} attempt(s), ${result.ms} ms`,
    );

    // Coordinates the model gives are pixels of the image it saw; bindings (tag_N) are screen pixels.
    const bindings: Record<string, { x: number; y: number }> = {};
    for (const [name, p] of Object.entries(observation.bindings ?? {}))
      bindings[name] = { x: p.x / toScreen, y: p.y / toScreen };
    const bounds = image ? { width: image.width, height: image.height } : undefined;
    const parsed = parseReply(result.text, context.actionSpace, { bindings, bounds, toScreen });
    const turn: AgentTurn = {
      response: result.text,
      rawAction: parsed.rawAction,
      actions: parsed.ok ? parsed.actions : [],
      refusal: parsed.ok ? undefined : parsed.message,
      tokens: result.tokens,
      costUsd: result.costUsd,
    };
    this.history.push({
      step,
      content,
      textOnly: content.map((p) => (p.type === 'text' ? p.text : '(screenshot not repeated)')).join('\n'),
      reply: result.text,
      refusal: turn.refusal,
    });
    return turn;
  }

  async finish(): Promise<void> {
    this.history = [];
  }

  private async imageOf(observation: Observation): Promise<PromptImage | undefined> {
    const shot =
      observation.type === 'som'
        ? (observation.som?.image ?? observation.screenshot)
        : observation.type === 'a11y_tree'
          ? undefined
          : observation.screenshot;
    if (!shot) {
      if (observation.type !== 'a11y_tree')
        throw new AgentError(`llm agent: the '${observation.type}' observation has no screenshot`);
      return undefined;
    }
    return toPromptImage(shot, this.options.image);
  }

  private buildSystem(context: AgentContext, image: PromptImage | undefined): string {
    const size = image ? `${image.width}×${image.height} pixels` : undefined;
    const parts = [systemPrompt(context.actionSpace, context.observationType, size)];
    if (this.documentation) parts.push(this.documentation);
    parts.push(`THE TASK\n${context.instruction}`);
    return parts.join('\n\n');
  }

  private observationContent(
    observation: Observation,
    image: PromptImage | undefined,
    step: number,
    maxSteps: number,
  ): ChatCompletionContentPart[] {
    const parts: ChatCompletionContentPart[] = [
      { type: 'text', text: `Step ${step} of at most ${maxSteps}.` },
    ];
    if (observation.type !== 'screenshot') {
      const table = observation.a11yTable;
      if (table !== undefined) {
        const scaled =
          image && observation.type === 'screenshot_a11y_tree' ? rescaleTable(table, image.toScreen) : table;
        const title =
          observation.type === 'som' ? 'MARKED ELEMENTS (number, tag, name, text)' : 'ACCESSIBILITY TREE';
        parts.push({ type: 'text', text: `${title}\n${scaled}` });
      } else parts.push({ type: 'text', text: 'ACCESSIBILITY TREE\n(not available at this step)' });
    }
    if (image) parts.push({ type: 'image_url', image_url: { url: image.dataUrl, detail: 'high' } });
    return parts;
  }

  /** Refusals and errors of the last steps (within the history window), oldest first. */
  private feedbackText(step: number, feedback: StepFeedback[]): string | undefined {
    if (!(this.options.executionFeedback ?? true)) return undefined;
    const since = step - Math.max(1, this.window);
    const items = new Map<string, StepFeedback>();
    for (const t of this.history)
      if (t.refusal && t.step >= since)
        items.set(`${t.step}\n${t.refusal}`, { step: t.step, message: `refused — ${t.refusal}` });
    for (const f of feedback) {
      if (f.step < since) continue;
      const own = [...items.values()].some((i) => i.step === f.step && i.message.includes(f.message));
      if (!own) items.set(`${f.step}\n${f.message}`, f);
    }
    if (!items.size) return undefined;
    const lines = [...items.values()]
      .sort((a, b) => a.step - b.step)
      .map((f) => `- step ${f.step}: ${f.message}`);
    return `FEEDBACK ON YOUR LAST ACTIONS (nothing of a refused step was performed)\n${lines.join('\n')}`;
  }
}
