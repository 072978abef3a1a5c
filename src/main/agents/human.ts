// The `human` agent: a person types the actions in the UI. next() waits for the next entry given to
// submit(text) (pyautogui code, an action dict for computer_13, or WAIT / DONE / FAIL); the run's stop
// signal cancels the wait.
import type { Observation } from '../observe/observation';
import {
  AgentError,
  type Agent,
  type AgentContext,
  type AgentInfo,
  type AgentTurn,
  type StepFeedback,
} from './agent';
import { parseReply } from './parse';

export interface HumanAgentOptions {
  /** Called when the agent starts waiting for a person's entry (the UI shows the prompt). */
  onWaiting?: (step: number) => void;
}

export class HumanAgent implements Agent {
  readonly name = 'human';
  private readonly queue: string[] = [];
  private waiter?: (text: string) => void;
  private context?: AgentContext;
  private waitingStep?: number;

  constructor(private readonly options: HumanAgentOptions = {}) {}

  info(): AgentInfo {
    return { agent: 'human', model: 'human' };
  }

  /** The step the agent is waiting on, if it is waiting. */
  get waitingFor(): number | undefined {
    return this.waitingStep;
  }

  /** Gives the agent a person's entry; used by the UI. Entries wait in order until next() takes them. */
  submit(text: string): void {
    if (typeof text !== 'string') throw new TypeError('human agent: submit() takes the entry as text');
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(text);
    } else this.queue.push(text);
  }

  async start(context: AgentContext): Promise<void> {
    this.context = context;
  }

  async next(observation: Observation, step: number, _feedback: StepFeedback[] = []): Promise<AgentTurn> {
    const context = this.context;
    if (!context) throw new AgentError('human agent: next() before start()');
    const text = await this.take(step, context.signal);
    const parsed = parseReply(text, context.actionSpace, { bindings: observation.bindings ?? {} });
    return {
      response: text,
      rawAction: parsed.rawAction,
      actions: parsed.ok ? parsed.actions : [],
      refusal: parsed.ok ? undefined : parsed.message,
    };
  }

  async finish(): Promise<void> {
    this.queue.length = 0;
    this.waiter = undefined;
    this.waitingStep = undefined;
  }

  private take(step: number, signal: AbortSignal): Promise<string> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.waiter = undefined;
        this.waitingStep = undefined;
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waitingStep = step;
      this.waiter = (text) => {
        signal.removeEventListener('abort', onAbort);
        this.waitingStep = undefined;
        resolve(text);
      };
      this.options.onWaiting?.(step);
    });
  }
}
